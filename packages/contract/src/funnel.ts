/**
 * The payer's funnel: the steps a checkout reaches, in order, whatever its mode. The BFF keeps
 * the furthest one each checkout reached (with its bank) and counts them for the merchant
 * (`GET /v1/funnel`); the elements name the same step in their `bank-checkout-step` events.
 */
import type { CheckoutState } from './states.js';

/**
 * - `started`: the checkout was shown (bank list, periodic form, or the bank's-page start).
 * - `bank`: a bank was chosen (its sign-in, or the way to the bank's own page).
 * - `signed-in`: the payer signed in at the bank (contracts or accounts shown).
 * - `confirmed`: the payer chose the account and the transfer was started (validation).
 * - `paid`: the payment succeeded (or the periodic order was set up).
 */
export const FUNNEL_STEPS = ['started', 'bank', 'signed-in', 'confirmed', 'paid'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

const STEP_OF: Partial<Record<CheckoutState, FunnelStep>> = {
  'select-bank': 'started',
  periodic: 'started',
  login: 'bank',
  'second-login': 'bank',
  redirect: 'bank',
  'select-contract': 'signed-in',
  'select-account': 'signed-in',
  validate: 'confirmed',
  succeeded: 'paid',
};

/** The funnel step a state counts as; null for the endings that are no progress (failed, cancelled, expired, unknown). */
export function funnelStepOf(state: CheckoutState): FunnelStep | null {
  return STEP_OF[state] ?? null;
}

/** Whether `a` is further down the funnel than `b`. */
export function isFurther(a: FunnelStep, b: FunnelStep): boolean {
  return FUNNEL_STEPS.indexOf(a) > FUNNEL_STEPS.indexOf(b);
}
