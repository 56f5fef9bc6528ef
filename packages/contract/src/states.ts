/**
 * The states and modes of a checkout, and which states are outcomes. The BFF's transition
 * table decides how a checkout moves between them; the elements render whichever state a view
 * carries.
 */

export const CHECKOUT_STATES = [
  'select-bank',
  'login',
  'second-login',
  'select-contract',
  'select-account',
  'validate',
  'redirect',
  'periodic',
  'succeeded',
  'failed',
  'expired',
  'cancelled',
  'unknown',
] as const;
export type CheckoutState = (typeof CHECKOUT_STATES)[number];

/** The states a checkout ends in. `unknown` is not one: it waits for reconciliation. */
export const OUTCOMES = ['succeeded', 'failed', 'expired', 'cancelled'] as const satisfies readonly CheckoutState[];
export type CheckoutOutcome = (typeof OUTCOMES)[number];
/** The same list, as the BFF names it. */
export const FINAL_STATES: readonly CheckoutState[] = OUTCOMES;

export function isOutcome(state: CheckoutState): state is CheckoutOutcome {
  return (OUTCOMES as readonly string[]).includes(state);
}

/** How the payer pays: in the page (native), at the bank's page (redirect), or a mandate (periodic). */
export const CHECKOUT_MODES = ['native', 'redirect', 'periodic'] as const;
export type CheckoutMode = (typeof CHECKOUT_MODES)[number];

/**
 * How the payer's page opens a checkout: `isolated` (recommended, the default) through the BFF's
 * own frame and a single-use launch token; `inline` with a client secret the page holds.
 */
export const CHECKOUT_ISOLATIONS = ['isolated', 'inline'] as const;
export type CheckoutIsolation = (typeof CHECKOUT_ISOLATIONS)[number];

/** What the payer answers at a type-6 validation (approved in the bank's app on another device). */
export const INDIRECT_SIGNED_VALUE = 'SIGNED';

/** A link for the payer's phone: still usable, used (the phone went on to the bank with it), or expired. */
export const HANDOFF_STATES = ['open', 'used', 'expired'] as const;
export type HandoffState = (typeof HANDOFF_STATES)[number];

/** The languages the kit speaks, and with it the pages the BFF shows the payer (the hand-off's). */
export const KIT_LOCALES = ['en', 'es', 'ca', 'eu', 'gl'] as const;
export type KitLocale = (typeof KIT_LOCALES)[number];
