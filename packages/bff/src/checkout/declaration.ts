/**
 * The checkout's state machine, declared once, one entry per state (in the manner of an XState
 * config): the actions the state accepts and where each outcome of each action leads (its
 * success and each error), what time alone does to it (expiry, the validation deadline), and
 * the data it must hold. The engine (core.ts) resolves every outcome an action returns through
 * this declaration and refuses a target it does not name; the actions (native.ts, links.ts,
 * service.ts) make the provider calls and return outcomes, naming no state. The view's
 * `actions` and the README's state tables (scripts/state-table.ts) come from here too.
 *
 * Which transitions may a checkout take from state X: `STATES[X]`. What may a one-off checkout
 * become: follow `STATES` from `initialState(['native'])`. Where is the 90 s deadline: the
 * `validate` entry's `deadline`.
 */
import { VALIDATION_WINDOW_MS } from '@bank-checkout/provider';
import type { BffErrorCode, CheckoutAction, CheckoutMode, CheckoutState } from '@bank-checkout/contract';
import type { CheckoutRecord } from '../store/types.js';
import { merchantData, scrubSession, type Internal } from './internal.js';
import { viewError, type ActionOutcome, type ErrorStep, type StepRule, type SuccessOutcome } from './outcomes.js';

/* ---------- the declaration ---------- */

/** One action accepted in a state: where each of its outcomes leads. */
export interface ActionDecl {
  /** Where each success leads. */
  on: Readonly<Partial<Record<SuccessOutcome, CheckoutState>>>;
  /** The calls the action makes, by step: where each one's refusals and faults lead. */
  steps?: Readonly<Partial<Record<ErrorStep, StepRule>>>;
  /** A mode the merchant must have allowed for this checkout. */
  needsMode?: CheckoutMode;
  /** Offered only when the merchant allowed more than one mode. */
  needsChoice?: boolean;
  /**
   * For an action that makes no provider call: the outcome it reports and what the checkout
   * keeps, decided here from the checkout alone (the engine writes it with one compare-and-set,
   * no lock: nothing is sent to the bank).
   */
  pick?: (rec: Pick<CheckoutRecord, 'modes' | 'attemptsLeft'> & { internal: Internal }) => Extract<ActionOutcome, { outcome: SuccessOutcome }>;
}

/**
 * What changes a checkout besides the payer's actions: time (expiry, a state's deadline, a
 * lease that lapsed), a newer launch of the isolated checkout in another browser (its bank
 * session is closed), the merchant (its decision on an unknown outcome, its cancellation), a
 * verified result of the payment-link service, and a bank's answer that arrives after its
 * call's lease lapsed. Each state declares which of them it accepts and where each may lead;
 * the engine refuses any other.
 */
export const CHANGES = ['time', 'relaunch', 'resolve', 'merchant-cancel', 'link-result', 'late-answer'] as const;
export type Change = (typeof CHANGES)[number];

/** What time alone does to a state. */
export interface TimeRule {
  /** Past `expiresAt` (plus the link's grace period when `grace`), the checkout becomes `expired`. */
  expires?: { grace: boolean };
  /** Past the state's `deadline` (set on entry, `windowMs` from the call that started it), the checkout goes to `to` with the code. */
  deadline?: { windowMs: number; to: CheckoutState; code: BffErrorCode };
}

export interface StateDecl {
  /** The actions the state accepts. */
  on: Readonly<Partial<Record<CheckoutAction, ActionDecl>>>;
  time: TimeRule;
  /** The data the state must hold (the engine refuses to enter the state without it). */
  holds: readonly (keyof Internal)[];
  /** What the state keeps of the data when an error of the provider sends the checkout there. */
  keepsOnError?: (data: Internal) => Internal;
  /** The changes other than the payer's actions the state accepts, and where each may lead. */
  by: Readonly<Partial<Record<Change, readonly CheckoutState[]>>>;
}

/*
 * The provider's calls, step by step: where their refusals and their faults lead (the provider
 * does not say; these are the product's choices, docs/provider.md lists the codes). A call whose
 * outcome is not known is never sent again, and doubt is said only where money may have moved:
 * money moves only on a validation (every bank asks for at least one), so only a validation
 * that meets a fault makes the checkout `unknown`.
 */

/** The sign-in: a bank that cannot be used now back to the bank list; a fault back to the same bank's sign-in (a timeout may have counted as an attempt at the bank: the message says so). */
const SIGN_IN: StepRule = {
  // The bank cannot be used now (maintenance, action needed at the bank, the user may not pay).
  onError: { codes: { B104: 'select-bank', B105: 'select-bank', B108: 'select-bank' }, otherwise: 'login' },
  onFault: { timeout: 'login', other: 'login', message: 'error.loginNoAnswer' },
};
/** The second sign-in: any refusal or fault back to the sign-in (the bank closes the login). */
const SECOND_SIGN_IN: StepRule = {
  onError: { codes: {}, otherwise: 'login' },
  onFault: { timeout: 'login', other: 'login', message: 'error.loginNoAnswer' },
};
/** The account list (read-only, tried again by itself): what it cannot give, back to the bank list. */
const ACCOUNTS: StepRule = { onError: { codes: {}, otherwise: 'select-bank' }, onFault: { timeout: 'select-bank', other: 'select-bank' } };
/** A transfer's start: another account may work; a fault moved no money: back to the accounts. */
const TRANSFER: StepRule = {
  onError: { codes: { B101: 'select-account', B106: 'select-account', B107: 'select-account', E302: 'select-account' }, otherwise: 'failed' },
  onFault: { timeout: 'select-account', other: 'select-account', message: 'error.transferNoAnswer' },
};
/**
 * A validation, the call that can move money. A wrong code with attempts left: the bank ends that
 * transaction but keeps the session, so the same transfer starts again at once (`again`) and the
 * payer gets a fresh challenge (or, if the bank will not, the account list). Any fault: `unknown`.
 */
const VALIDATE: StepRule = {
  onError: { codes: { B103: 'validate' }, otherwise: 'failed', again: ['B103'] },
  onFault: { timeout: 'unknown', other: 'unknown' },
};

/** Each step's rule, wherever an action meets it. */
export const STEP_RULES: Readonly<Record<ErrorStep, StepRule>> = {
  login: SIGN_IN,
  'second-login': SECOND_SIGN_IN,
  accounts: ACCOUNTS,
  transfer: TRANSFER,
  validate: VALIDATE,
};

const login: ActionDecl = {
  on: { 'second-login-required': 'second-login', 'contracts-listed': 'select-contract', 'accounts-listed': 'select-account' },
  steps: { login: SIGN_IN, accounts: ACCOUNTS },
  needsMode: 'native',
};
const cancel: ActionDecl = {
  on: { cancelled: 'cancelled' },
  pick: ({ internal }) => ({ outcome: 'cancelled', patch: { error: viewError('cancelled') }, data: scrubSession(internal) }),
};
const mode: ActionDecl = { on: { 'bank-list': 'select-bank', 'periodic-form': 'periodic' }, needsChoice: true };
const redirect: ActionDecl = { on: { 'link-signed': 'redirect' }, needsMode: 'redirect' };
const periodic: ActionDecl = { on: { 'link-signed': 'redirect' }, needsMode: 'periodic' };
/** Back to the same bank's sign-in: the bank session ends, the bank stays chosen. */
const signedOut = (i: Internal) => ({ outcome: 'signed-out' as const, data: bankOnly(i) });
// One step back before any transfer is initiated: from the sign-in, another bank; from a bank
// session (second login, contracts, accounts), the same bank's sign-in (the session ends) or,
// from the accounts, the contracts when the bank offered several (the session goes on).
const back: ActionDecl = { on: { 'bank-list': 'select-bank' }, pick: ({ internal }) => ({ outcome: 'bank-list', data: merchantData(internal) }) };
const signOut: ActionDecl = { on: { 'signed-out': 'login' }, pick: ({ internal }) => signedOut(internal) };
const backFromAccounts: ActionDecl = {
  on: { 'signed-out': 'login', contracts: 'select-contract' },
  pick: ({ internal }) => {
    if ((internal.contracts?.length ?? 0) < 2) return signedOut(internal);
    const { accounts, accountId, contractId, refused, ...rest } = internal;
    return { outcome: 'contracts', data: rest };
  },
};
// A fresh start after a failure or a cancellation (not once paid, expired or unknown), until
// the checkout expires (FROM_ENDING): its first mode's first step. The attempts left are kept,
// so starting over never gives a guesser more tries; after they ran out, the payer gets one
// (the form says it is the last), not a start that fails at once.
const restart: ActionDecl = {
  on: { 'bank-list': 'select-bank', 'periodic-form': 'periodic' },
  pick: ({ modes, attemptsLeft, internal }) => ({
    outcome: startOutcome(modes),
    patch: { mode: modes[0]!, attemptsLeft: Math.max(attemptsLeft, 1) },
    data: merchantData(internal),
  }),
};

const expires: TimeRule = { expires: { grace: false } };
const bankOnly = (i: Internal): Internal => ({ ...merchantData(i), ...(i.bank ? { bank: i.bank } : {}) });

/** A verified link result: a success from anywhere but a success, a failure from any open state (results only move forward). */
const linkResults = { open: ['succeeded', 'failed'], ended: ['succeeded'] } as const;
/** What the merchant and the provider may do to an open checkout (not yet ended, its outcome not in doubt). */
const openBy = (time: readonly CheckoutState[], extra: Partial<Record<Change, readonly CheckoutState[]>> = {}) => ({
  time,
  'merchant-cancel': ['cancelled'] as const,
  'link-result': linkResults.open,
  // Money a bank moved after its call's lease lapsed: the checkout ends paid, wherever it went.
  'late-answer': ['succeeded'] as const,
  ...extra,
});
/** A bank session is open: a newer launch in another browser closes it (the payer signs in again there). */
const session = { relaunch: ['select-bank'] as const };

const DECLARED = {
  'select-bank': { on: { login, cancel, mode, redirect, periodic }, time: expires, holds: [], keepsOnError: merchantData, by: openBy(['expired']) },
  login: { on: { login, cancel, mode, redirect, back }, time: expires, holds: [], keepsOnError: bankOnly, by: openBy(['expired']) },
  'second-login': {
    on: {
      'second-login': {
        on: { 'contracts-listed': 'select-contract', 'accounts-listed': 'select-account' },
        steps: { 'second-login': SECOND_SIGN_IN, accounts: ACCOUNTS },
      },
      cancel,
      back: signOut,
    },
    time: expires,
    holds: ['sessionId', 'secondLogin'],
    by: openBy(['expired'], session),
  },
  'select-contract': {
    on: { contract: { on: { 'accounts-listed': 'select-account' }, steps: { accounts: ACCOUNTS } }, cancel, back: signOut },
    time: expires,
    holds: ['sessionId', 'contracts'],
    by: openBy(['expired'], session),
  },
  'select-account': {
    on: {
      transfer: { on: { 'validation-required': 'validate', paid: 'succeeded' }, steps: { transfer: TRANSFER } },
      cancel,
      back: backFromAccounts,
    },
    time: expires,
    holds: ['sessionId', 'accounts'],
    by: openBy(['expired'], session),
  },
  validate: {
    on: {
      validate: { on: { 'validation-required': 'validate', paid: 'succeeded', 'transfer-abandoned': 'select-account' }, steps: { validate: VALIDATE } },
      cancel,
    },
    // The bank session outlives the validation window: a new transfer from the account list.
    time: { ...expires, deadline: { windowMs: VALIDATION_WINDOW_MS, to: 'select-account', code: 'deadline' } },
    holds: ['sessionId', 'accountId', 'validations', 'deadline'],
    by: openBy(['select-account', 'expired', 'unknown'], session),
  },
  // At the bank's page the link lives until expiresAt; a payment begun just before may still
  // finish, so its result is awaited a grace period longer (a later success still wins).
  redirect: { on: { cancel }, time: { expires: { grace: true } }, holds: ['url'], by: openBy(['expired']) },
  periodic: { on: { cancel, mode, redirect, periodic }, time: expires, holds: [], by: openBy(['expired']) },
  succeeded: { on: {}, time: {}, holds: [], by: {} },
  // A success still wins over an earlier failure, cancellation or expiry: the money moved (a
  // result of the bank's page, or a bank's answer that came after its lease lapsed).
  failed: { on: { restart }, time: {}, holds: [], keepsOnError: bankOnly, by: { 'link-result': linkResults.ended, 'late-answer': ['succeeded'] } },
  expired: { on: {}, time: {}, holds: [], by: { 'link-result': linkResults.ended, 'late-answer': ['succeeded'] } },
  cancelled: { on: { restart }, time: {}, holds: [], by: { 'link-result': linkResults.ended, 'late-answer': ['succeeded'] } },
  // The merchant's decision moves it (RESOLVE), a result of the bank's page, or the answer of
  // the call whose lease lapsed, when it arrives after all: where that call would have led.
  unknown: {
    on: {},
    time: {},
    holds: [],
    by: {
      resolve: ['succeeded', 'failed'],
      'link-result': linkResults.open,
      'late-answer': ['select-account', 'validate', 'succeeded', 'failed', 'login'],
    },
  },
} satisfies Readonly<Record<CheckoutState, StateDecl>>;

/** One declaration per state: the actions it accepts, where each leads, its time rule and the data it holds. */
export const STATES: Readonly<Record<CheckoutState, StateDecl>> = DECLARED;

/** The data a checkout in one of `S` holds for sure (its declaration's `holds`), beside what it may hold. */
export type InternalIn<S extends CheckoutState> = S extends CheckoutState ? Internal & Required<Pick<Internal, (typeof DECLARED)[S]['holds'][number]>> : never;

/** The states that accept `A`. */
export type AcceptingStates<A extends CheckoutAction> = {
  [S in CheckoutState]: A extends keyof (typeof DECLARED)[S]['on'] ? S : never;
}[CheckoutState];

/** Whether a field is missing (absent, or null as stored JSON may hold it). */
const absent = (v: unknown) => v === undefined || v === null;

/** The data `state` must hold that `data` lacks (none: the checkout may be in that state). */
export function missingData(state: CheckoutState, data: Internal): (keyof Internal)[] {
  return STATES[state].holds.filter((k) => absent(data[k]));
}

/**
 * Where the back action leads a checkout (the view tells the payer before they go): the
 * declaration's own choice (`back.pick`), read without acting.
 */
export function backLeadsTo(rec: Pick<CheckoutRecord, 'state' | 'modes' | 'attemptsLeft' | 'internal'>): CheckoutState | null {
  const decl = STATES[rec.state].on.back;
  if (!decl?.pick) return null;
  return decl.on[decl.pick(rec).outcome] ?? null;
}

/** Whether the declaration of `from` lets `by` lead there to `to`. */
export function changeAllowed(from: CheckoutState, by: Change, to: CheckoutState): boolean {
  return from === to || (STATES[from].by[by]?.includes(to) ?? false);
}

/** Actions that start from an ending (a checkout that failed or was cancelled may start over, until it expires). */
export const FROM_ENDING: readonly CheckoutAction[] = ['restart'];

/** The merchant's decision on a checkout whose outcome the provider never gave. */
export const RESOLVE = { from: ['unknown'] as readonly CheckoutState[], to: ['succeeded', 'failed'] as readonly CheckoutState[] };

/** Where a checkout starts, and where a restart or a mode switch leads: its first mode's first step. */
export function startOutcome(modes: readonly CheckoutMode[]): 'bank-list' | 'periodic-form' {
  return modes[0] === 'periodic' ? 'periodic-form' : 'bank-list';
}

/** Where a new checkout starts: its first mode's first step. */
export function initialState(modes: readonly CheckoutMode[]): CheckoutState {
  return startOutcome(modes) === 'periodic-form' ? 'periodic' : 'select-bank';
}
