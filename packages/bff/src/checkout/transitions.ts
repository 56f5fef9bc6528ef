/**
 * The checkout's transition table, in one place: where a checkout starts, each payer action
 * with the states it is allowed from and the states it can lead to, where each provider answer
 * leaves it, what time alone does, how a payment link's result moves it, and the merchant's
 * decision on an `unknown` one. The service reads this table; the README's state table is
 * tested against it; the view's `actions` come from it.
 */
import { FINAL_STATES, type CheckoutAction, type CheckoutMode, type CheckoutState } from '@bank-checkout/contract';
import type { CheckoutRecord } from '../store/types.js';

export interface ActionRule {
  /** The states the action is allowed from. */
  from: readonly CheckoutState[];
  /** Every state the action can lead to, by the provider's answers and faults included. */
  to: readonly CheckoutState[];
  /** A mode the merchant must have allowed for this checkout. */
  needsMode?: CheckoutMode;
  /** Offered only when the merchant allowed more than one mode. */
  needsChoice?: boolean;
}

/** Where a checkout is before the payer starts: the bank list, or the periodic form. */
const START: readonly CheckoutState[] = ['select-bank', 'login', 'periodic'];
/** Every state the payer may still leave by cancelling. */
const OPEN: readonly CheckoutState[] = ['select-bank', 'login', 'second-login', 'select-contract', 'select-account', 'validate', 'periodic', 'redirect'];

export const ACTIONS: Readonly<Record<CheckoutAction, ActionRule>> = {
  login: { from: ['select-bank', 'login'], to: ['second-login', 'select-contract', 'select-account', 'login', 'select-bank', 'failed', 'unknown'], needsMode: 'native' },
  'second-login': { from: ['second-login'], to: ['select-contract', 'select-account', 'login', 'select-bank', 'failed', 'unknown'] },
  contract: { from: ['select-contract'], to: ['select-account', 'login', 'select-bank'] },
  transfer: { from: ['select-account'], to: ['validate', 'succeeded', 'select-account', 'login', 'failed', 'unknown'] },
  validate: { from: ['validate'], to: ['validate', 'succeeded', 'select-account', 'failed', 'unknown'] },
  cancel: { from: OPEN, to: ['cancelled'] },
  mode: { from: START, to: ['select-bank', 'periodic', 'redirect'], needsChoice: true },
  redirect: { from: START, to: ['redirect'], needsMode: 'redirect' },
  periodic: { from: ['periodic', 'select-bank'], to: ['redirect'], needsMode: 'periodic' },
  // One step back before any transfer is initiated (backTarget says where).
  back: { from: ['login', 'second-login', 'select-contract', 'select-account'], to: ['select-bank', 'login', 'select-contract'] },
  // A fresh start after a failure or a cancellation (not once paid, expired or unknown); the
  // attempts left are kept, so starting over never gives a guesser more tries.
  restart: { from: ['failed', 'cancelled'], to: ['select-bank', 'periodic'] },
};

/**
 * Where the back action leads: from the accounts to the contracts when there were several (the
 * bank session goes on); from the accounts, contracts or second login to the same bank's
 * sign-in (the bank session ends, the bank stays chosen); from the sign-in to the bank list.
 */
export function backTarget(state: CheckoutState, contracts: number): CheckoutState {
  if (state === 'select-account' && contracts > 1) return 'select-contract';
  return state === 'login' ? 'select-bank' : 'login';
}

/** Actions that start from an ending (a checkout that failed or was cancelled may start over). */
export const FROM_ENDING: readonly CheckoutAction[] = ['restart'];

/** The merchant's decision on a checkout whose outcome the provider never gave. */
export const RESOLVE = { from: ['unknown'] as readonly CheckoutState[], to: ['succeeded', 'failed'] as readonly CheckoutState[] };

/** Where a new checkout starts: its first mode's first step. */
export function initialState(modes: readonly CheckoutMode[]): CheckoutState {
  return modes[0] === 'periodic' ? 'periodic' : 'select-bank';
}

export function isFinal(state: CheckoutState): boolean {
  return FINAL_STATES.includes(state);
}

/** Whether `action` is allowed on a checkout in `state` with these modes (and, for restart, before it expires). */
export function allows(action: CheckoutAction, state: CheckoutState, modes: readonly CheckoutMode[], open = true): boolean {
  const rule = ACTIONS[action];
  if (!rule.from.includes(state)) return false;
  if (FROM_ENDING.includes(action) && !open) return false;
  if (rule.needsMode && !modes.includes(rule.needsMode)) return false;
  if (rule.needsChoice && modes.length < 2) return false;
  return true;
}

/** The actions the payer may take now, in the table's order; `now` tells whether a restart is still in time. */
export function actionsFor(rec: Pick<CheckoutRecord, 'state' | 'modes'> & Partial<Pick<CheckoutRecord, 'expiresAt'>>, now = Date.now()): CheckoutAction[] {
  const open = rec.expiresAt === undefined || now < rec.expiresAt;
  return (Object.keys(ACTIONS) as CheckoutAction[]).filter((a) => allows(a, rec.state, rec.modes, open));
}

/* ---------- provider answers ---------- */

/** The steps whose provider errors move the checkout. */
export type ErrorStep = 'login' | 'second-login' | 'accounts' | 'transfer' | 'validate';

/**
 * Where a provider error code at a step leaves the checkout: the codes listed go where they
 * say, any other code to `otherwise`. (The spec does not say; these are the product's choices.)
 */
export const ERROR_TARGETS: Readonly<Record<ErrorStep, { codes: Readonly<Record<string, CheckoutState>>; otherwise: CheckoutState }>> = {
  // The bank cannot be used now (maintenance, action needed at the bank, the user may not pay).
  login: { codes: { B104: 'select-bank', B105: 'select-bank', B108: 'select-bank' }, otherwise: 'login' },
  'second-login': { codes: {}, otherwise: 'login' },
  accounts: { codes: {}, otherwise: 'select-bank' },
  // Another account may work.
  transfer: { codes: { B101: 'select-account', B106: 'select-account', B107: 'select-account', E302: 'select-account' }, otherwise: 'failed' },
  // A wrong code with attempts left: a fresh challenge for the same transfer, the bank session
  // still open (the native service, not the table, restarts the transfer).
  validate: { codes: { B103: 'validate' }, otherwise: 'failed' },
};

/**
 * The bank's session ended. The provider does not say how long a session lives nor how it
 * answers a call on one that ended; its test environment answers E301 (incorrect parameters)
 * after 15 quiet minutes. So an E301 on a call that names the session (the account list, a
 * transfer) once the session has been quiet for `quietMs` (`PROVIDER_SESSION_QUIET_SECONDS`,
 * 60 by default) is taken as the session having ended: the payer logs in again at the same
 * bank, with a message that says so. Sooner, the E301 is about the data, and the step's own
 * target applies.
 */
export const SESSION_END = { code: 'E301', steps: ['accounts', 'transfer'] as readonly ErrorStep[], to: 'login' as CheckoutState };

/** Whether a provider error at `step` means the bank's session ended (last used at `usedAt`, quiet since for `quietMs` or more). */
export function sessionEnded(step: ErrorStep, code: string, usedAt: number | undefined, now: number, quietMs: number): boolean {
  return code === SESSION_END.code && SESSION_END.steps.includes(step) && usedAt !== undefined && now - usedAt >= quietMs;
}

/** Codes that use up one of the payer's attempts: wrong credentials, wrong validation code. */
export const ATTEMPT_CODES: readonly string[] = ['B100', 'B103'];

/** Where a provider error at each step leaves the checkout. */
export function stateAfterError(step: ErrorStep, code: string): CheckoutState {
  const rule = ERROR_TARGETS[step];
  return rule.codes[code] ?? rule.otherwise;
}

export function costsAttempt(code: string): boolean {
  return ATTEMPT_CODES.includes(code);
}

/**
 * A call whose outcome is not known is never sent again: the checkout becomes `unknown` when
 * a transfer or a validation meets any fault (money may have moved), and when a login or second
 * login times out (the bank may have counted the attempt). Other faults leave the state as is.
 */
export function unknownAfterFault(step: string, timedOut: boolean): boolean {
  return step === 'transfer' || step === 'validate' || (timedOut && (step === 'login' || step === 'second-login'));
}

/* ---------- time ---------- */

/**
 * What time alone does: past `expiresAt` an open checkout becomes `expired` (one at the bank's
 * page after the link's lifetime plus a grace period); a validation past its deadline `failed`
 * with code `deadline`; a lock older than any call could take is released, and if it held a
 * transfer or a validation, the checkout becomes `unknown`.
 */
export const TIME_RULES = {
  expiry: { to: 'expired' as CheckoutState, graceFor: ['redirect'] as readonly CheckoutState[] },
  // The bank session outlives the validation window: a new transfer from the account list.
  deadline: { in: 'validate' as CheckoutState, to: 'select-account' as CheckoutState, code: 'deadline' },
  lapsedLock: { unknownFor: ['transfer', 'validate'] as readonly string[] },
};

/* ---------- payment-link results ---------- */

/**
 * Where a verified payment-link result moves a checkout: `200` to succeeded, any other status
 * to failed; only forward (a success stays; a late failure never undoes an ending). A success
 * still wins over an earlier failure, cancellation or expiry: the money moved. Null: no change.
 */
export function linkOutcome(current: CheckoutState, providerStatus: string): CheckoutState | null {
  const next: CheckoutState = providerStatus === '200' ? 'succeeded' : 'failed';
  if (current === 'succeeded') return null;
  if (next === 'failed' && (current === 'failed' || current === 'cancelled' || current === 'expired')) return null;
  return next;
}
