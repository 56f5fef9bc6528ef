/**
 * What an action reports, naming no state (a success, the provider's refusal at a step, a
 * fault), the shape of a step's rule, and the product's choices that hold whatever the step:
 * the attempts refusals spend, a bank session that ended. The declaration (declaration.ts) says
 * where each action's successes, refusals and faults lead, state by state.
 */
import type { BffErrorCode, CheckoutState, ProviderErrorCode, ViewError, ViewErrorCode, ViewMessageKey } from '@bank-checkout/contract';
import type { CheckoutPatch } from '../store/types.js';
import type { Internal } from './internal.js';

/* ---------- outcomes: what an action reports, naming no state ---------- */

/** The successes an action may report. */
export const SUCCESS_OUTCOMES = [
  /** The bank asks for a second login. */
  'second-login-required',
  /** Logged in, with several contracts to choose from. */
  'contracts-listed',
  /** Logged in (with one contract or none), the accounts listed. */
  'accounts-listed',
  /** A transfer started, or a round answered, and the bank asks for (more) validations. */
  'validation-required',
  /** The money moved. */
  'paid',
  /** The transfer waited for was dropped; the bank session and the account list stay. */
  'transfer-abandoned',
  /** Back at the bank list: the native mode from its start. */
  'bank-list',
  /** Back at the periodic form: the periodic mode from its start. */
  'periodic-form',
  /** Back at the contracts, the bank session kept. */
  'contracts',
  /** Back at the same bank's sign-in: the bank session ended, the bank stays chosen. */
  'signed-out',
  /** A signed payment-link URL was made; the payer goes to the bank's page. */
  'link-signed',
  /** The payer cancelled. */
  'cancelled',
] as const;
export type SuccessOutcome = (typeof SUCCESS_OUTCOMES)[number];

/** The steps whose provider errors move the checkout. */
export type ErrorStep = 'login' | 'second-login' | 'accounts' | 'transfer' | 'validate';

/**
 * What an action ends with: a success (`outcome` and the data for where it leads); a refusal
 * of the provider at a step (`refused`, with the provider's code); an upstream fault at a step
 * (`fault`: a timeout or any other); or `unchanged` (the state stays, an error may be answered).
 */
export type ActionOutcome =
  | {
      outcome: SuccessOutcome;
      data: Internal;
      patch?: Pick<CheckoutPatch, 'mode' | 'attemptsLeft' | 'error'>;
      /**
       * The provider's refusal that came first and used one of the payer's attempts (a wrong
       * validation code answered by a fresh challenge): the engine counts it as any refusal is
       * counted, and the view says why.
       */
      spent?: ProviderErrorCode;
    }
  | { outcome: 'refused'; step: ErrorStep; code: ProviderErrorCode; data: Internal }
  | { outcome: 'fault'; step: ErrorStep; timedOut: boolean; data: Internal }
  | { outcome: 'unchanged'; data: Internal };

/* ---------- where errors lead: the shape of a step's rule ---------- */

/**
 * Where the provider's refusal at a step leads: the codes listed go where they say, any other
 * code to `otherwise`; the codes in `again` are answered at once by the step started again (a
 * fresh challenge) while the payer has attempts left, and the engine counts the one spent.
 */
export interface Refusals {
  codes: Readonly<Partial<Record<ProviderErrorCode, CheckoutState>>>;
  otherwise: CheckoutState;
  again?: readonly ProviderErrorCode[];
}

/** Where an upstream fault at a step leads, and what the payer is told there. */
export interface FaultRule {
  timeout: CheckoutState;
  other: CheckoutState;
  /** The message of a fault that leaves the payer a way on (absent: the fault's own, `error.upstream_timeout` or `error.upstream`). */
  message?: Extract<ViewMessageKey, `error.${string}NoAnswer`>;
}

/**
 * One step of an action that calls the provider (in the manner of XState's `invoke`): where its
 * refusals lead (`onError`) and where its faults lead (`onFault`). The rules themselves are the
 * declaration's (declaration.ts), beside the actions that meet them.
 */
export interface StepRule {
  onError: Refusals;
  onFault: FaultRule;
}

/** Codes that use up one of the payer's attempts: wrong credentials, wrong validation code. */
export const ATTEMPT_CODES: readonly ProviderErrorCode[] = ['B100', 'B103'];

/** Where a refusal that spent the payer's last attempt leads, with the code `attempts`. */
export const ATTEMPTS_SPENT: CheckoutState = 'failed';

/**
 * The bank's session ended. The provider does not say how long a session lives nor how it
 * answers a call on one that ended; its test environment answers E301 (incorrect parameters)
 * after 15 quiet minutes. So an E301 on a call that names the session (the account list, a
 * transfer) once the session has been quiet for `quietMs` (`PROVIDER_SESSION_QUIET_SECONDS`,
 * 60 by default) is taken as the session having ended: the payer logs in again at the same
 * bank, with a message that says so. Sooner, the E301 is about the data, and the step's own
 * target applies.
 */
export const SESSION_END: { readonly code: ProviderErrorCode; readonly steps: readonly ErrorStep[]; readonly to: CheckoutState } = {
  code: 'E301',
  steps: ['accounts', 'transfer'],
  to: 'login',
};

/** The view's error of a code: the code, and its message key in the elements' catalogues. */
export function viewError(code: ViewErrorCode): ViewError {
  return { code, message: `error.${code}` };
}

/** The view's code for an upstream fault: a timeout, or any other. */
export const faultCode = (timedOut: boolean): Extract<BffErrorCode, 'upstream' | 'upstream_timeout'> => (timedOut ? 'upstream_timeout' : 'upstream');
