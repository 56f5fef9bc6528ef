/**
 * The kit's events: typed, bubbling and composed (they cross shadow roots). No detail ever holds
 * a credential, a code the payer typed, or the client secret.
 */
import { funnelStepOf, type CheckoutOutcome, type CheckoutState, type CheckoutView, type FunnelStep } from '@bank-checkout/contract';

export type { CheckoutOutcome };

export interface CheckoutStepDetail {
  checkoutId: string;
  /** The state the BFF answered with. */
  state: CheckoutState;
  /** The state shown before, or null on the first view. */
  previous: CheckoutState | null;
  /**
   * The payer's funnel step this state counts as (`started`, `bank`, `signed-in`, `confirmed`,
   * `paid`); null for an ending without payment. The bank chosen in the list fires `bank-select`.
   */
  funnel: FunnelStep | null;
  /** The bank the step is at, when the view names one. */
  bankId?: string;
}

/** The detail of `bank-checkout-step` for a view (and the state shown before it). */
export function stepDetail(view: CheckoutView, previous: CheckoutState | null): CheckoutStepDetail {
  const bankId = 'bank' in view.step ? view.step.bank.bankId : '';
  return { checkoutId: view.id, state: view.state, previous, funnel: funnelStepOf(view.state), ...(bankId ? { bankId } : {}) };
}

export interface CheckoutCompleteDetail {
  checkoutId: string;
  outcome: CheckoutOutcome;
  /** The error code behind a failure (`B102`, `deadline`, …), null on success. */
  code: string | null;
}

export interface CheckoutErrorDetail {
  checkoutId: string | null;
  /** A BFF or provider code (`network`, `rate_limited`, `upstream`, `B100`, …). */
  code: string;
  /** The HTTP status of a failed call (0: not reached), null for an error the view carries. */
  status: number | null;
  requestId: string | null;
}

/** The chosen bank, named (its descriptors stay out of events: in test mode they hold test codes). */
export interface BankSelectDetail {
  bankId: string;
  label: string;
  /** 0 natural person, 1 legal person. */
  type: 0 | 1;
  /** False for a bank in maintenance: it cannot be signed in to now (`<bank-checkout>` offers its page or another bank). */
  active: boolean;
}

export interface ChallengeExpireDetail {
  deadline: string;
}

/**
 * What the payer set up in `<bank-periodic-form>`: the body of `POST /v1/checkout/periodic`.
 * `debtorAccount` is the payer's IBAN (compact, upper case): not a secret, but personal data to
 * keep out of logs.
 */
export interface PeriodicSubmitDetail {
  bankId: string;
  /** One of the bank's frequency codes (`Monthly`, …). */
  frequency: string;
  debtorAccount: string;
  /** `YYYY-MM-DD`, after today. */
  startDate: string;
  /** `YYYY-MM-DD`, after `startDate`; absent for an order without end. */
  endDate?: string;
}

/**
 * `<bank-checkout>` as every entry types it (`document.querySelector('bank-checkout')`,
 * `document.createElement('bank-checkout')`). With the full kit (`@bank-checkout/elements`) it is
 * the `BankCheckout` class and all its properties; with only the isolated host
 * (`@bank-checkout/elements/frame`) it has what both share. Its events are typed either way
 * (`bank-checkout-complete` carries `{checkoutId, outcome, code}`).
 */
export interface BankCheckoutElement extends HTMLElement {
  /** The BFF's URL. */
  api: string;
  /** The checkout's client secret. */
  checkoutSecret: string;
}

export interface BankEventMap {
  'bank-checkout-step': CheckoutStepDetail;
  'bank-checkout-complete': CheckoutCompleteDetail;
  'bank-checkout-error': CheckoutErrorDetail;
  /** `<bank-selector>`: the payer chose a bank; detail `{bankId, label, type, active}`. */
  'bank-select': BankSelectDetail;
  /** `<bank-challenge>`: the validation deadline passed. */
  'bank-challenge-expire': ChallengeExpireDetail;
  /** `<bank-result>`: the payer asked to try again. */
  'bank-retry': Record<string, never>;
  /** `<bank-maintenance>`: the payer wants another bank than the one in maintenance. */
  'bank-choose-other': Record<string, never>;
  /** `<bank-periodic-form>`: the payer submitted a valid periodic order. */
  'bank-periodic-submit': PeriodicSubmitDetail;
}

/** Each of the kit's events as the DOM types it: a `CustomEvent` of its detail (from BankEventMap). */
export type BankCustomEventMap = { [K in keyof BankEventMap]: CustomEvent<BankEventMap[K]> };

declare global {
  // `addEventListener('bank-checkout-complete', …)` is typed on any element and on the document.
  interface GlobalEventHandlersEventMap extends BankCustomEventMap {}
}

/** Dispatches one of the kit's events from `target` (bubbling, composed). */
export function emit<K extends keyof BankEventMap>(target: EventTarget, type: K, detail: BankEventMap[K]): boolean {
  return target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}

export { OUTCOMES, isOutcome } from '@bank-checkout/contract';
