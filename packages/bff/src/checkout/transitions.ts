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
import { CHECKOUT_ACTIONS, CHECKOUT_STATES, FINAL_STATES, type CheckoutAction, type CheckoutMode, type CheckoutState } from '@bank-checkout/contract';
import type { CheckoutPatch, CheckoutRecord } from '../store/types.js';
import { merchantData, scrubSession, unlocked, type Internal } from './internal.js';

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
  | { outcome: SuccessOutcome; data: Internal; patch?: Pick<CheckoutPatch, 'mode' | 'attemptsLeft' | 'error'> }
  | { outcome: 'refused'; step: ErrorStep; code: string; data: Internal }
  | { outcome: 'fault'; step: ErrorStep; timedOut: boolean; data: Internal }
  | { outcome: 'unchanged'; data: Internal };

/* ---------- where errors lead ---------- */

/** Where a provider error code at a step leads: the codes listed go where they say, any other code to `otherwise`. */
export interface Refusals {
  codes: Readonly<Partial<Record<string, CheckoutState>>>;
  otherwise: CheckoutState;
}

/**
 * Where a provider error code at each step leaves the checkout (the provider does not say;
 * these are the product's choices, docs/provider.md lists the codes).
 */
export const ERROR_TARGETS: Readonly<Record<ErrorStep, Refusals>> = {
  // The bank cannot be used now (maintenance, action needed at the bank, the user may not pay).
  login: { codes: { B104: 'select-bank', B105: 'select-bank', B108: 'select-bank' }, otherwise: 'login' },
  'second-login': { codes: {}, otherwise: 'login' },
  accounts: { codes: {}, otherwise: 'select-bank' },
  // Another account may work.
  transfer: { codes: { B101: 'select-account', B106: 'select-account', B107: 'select-account', E302: 'select-account' }, otherwise: 'failed' },
  // A wrong code with attempts left: a fresh challenge for the same transfer, the bank session
  // still open (the native action, not the declaration, restarts the transfer).
  validate: { codes: { B103: 'validate' }, otherwise: 'failed' },
};

/**
 * Where an upstream fault (timeout, 5xx, garbage) at each step leaves the checkout. A call
 * whose outcome is not known is never sent again: `unknown` when a transfer or a validation
 * meets any fault (money may have moved), and when a login or second login times out (the bank
 * may have counted the attempt). A failed account list goes back to the bank list.
 */
export const FAULT_TARGETS: Readonly<Record<ErrorStep, { timeout: CheckoutState; other: CheckoutState }>> = {
  login: { timeout: 'unknown', other: 'login' },
  'second-login': { timeout: 'unknown', other: 'login' },
  accounts: { timeout: 'select-bank', other: 'select-bank' },
  transfer: { timeout: 'unknown', other: 'unknown' },
  validate: { timeout: 'unknown', other: 'unknown' },
};

/** Codes that use up one of the payer's attempts: wrong credentials, wrong validation code. */
export const ATTEMPT_CODES: readonly string[] = ['B100', 'B103'];

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
export const SESSION_END = { code: 'E301', steps: ['accounts', 'transfer'] as readonly ErrorStep[], to: 'login' as CheckoutState };

/* ---------- the declaration ---------- */

/** One action accepted in a state: where each of its outcomes leads. */
export interface ActionDecl {
  /** Where each success leads. */
  on: Readonly<Partial<Record<SuccessOutcome, CheckoutState>>>;
  /** The steps whose provider refusals and faults the action may meet (ERROR_TARGETS, FAULT_TARGETS). */
  steps?: readonly ErrorStep[];
  /** A mode the merchant must have allowed for this checkout. */
  needsMode?: CheckoutMode;
  /** Offered only when the merchant allowed more than one mode. */
  needsChoice?: boolean;
}

/** What time alone does to a state. */
export interface TimeRule {
  /** Past `expiresAt` (plus the link's grace period when `grace`), the checkout becomes `expired`. */
  expires?: { grace: boolean };
  /** Past the state's `deadline` (set on entry, `windowMs` from the call that started it), the checkout goes to `to` with the code. */
  deadline?: { windowMs: number; to: CheckoutState; code: string };
}

export interface StateDecl {
  /** The actions the state accepts. */
  on: Readonly<Partial<Record<CheckoutAction, ActionDecl>>>;
  time: TimeRule;
  /** The data the state must hold (the engine refuses to enter the state without it). */
  holds: readonly (keyof Internal)[];
  /** What the state keeps of the data when an error of the provider sends the checkout there. */
  keepsOnError?: (data: Internal) => Internal;
}

const login: ActionDecl = {
  on: { 'second-login-required': 'second-login', 'contracts-listed': 'select-contract', 'accounts-listed': 'select-account' },
  steps: ['login', 'accounts'],
  needsMode: 'native',
};
const cancel: ActionDecl = { on: { cancelled: 'cancelled' } };
const mode: ActionDecl = { on: { 'bank-list': 'select-bank', 'periodic-form': 'periodic' }, needsChoice: true };
const redirect: ActionDecl = { on: { 'link-signed': 'redirect' }, needsMode: 'redirect' };
const periodic: ActionDecl = { on: { 'link-signed': 'redirect' }, needsMode: 'periodic' };
// One step back before any transfer is initiated: from the sign-in, another bank; from a bank
// session (second login, contracts, accounts), the same bank's sign-in (the session ends) or,
// from the accounts, the contracts (the session goes on). `backTarget` says which.
const back: ActionDecl = { on: { 'bank-list': 'select-bank' } };
const signOut: ActionDecl = { on: { 'signed-out': 'login' } };
// A fresh start after a failure or a cancellation (not once paid, expired or unknown), until
// the checkout expires (FROM_ENDING); the attempts left are kept, so starting over never gives
// a guesser more tries.
const restart: ActionDecl = { on: { 'bank-list': 'select-bank', 'periodic-form': 'periodic' } };

const expires: TimeRule = { expires: { grace: false } };
const bankOnly = (i: Internal): Internal => ({ ...merchantData(i), ...(i.bank ? { bank: i.bank } : {}) });

const DECLARED = {
  'select-bank': { on: { login, cancel, mode, redirect, periodic }, time: expires, holds: [], keepsOnError: merchantData },
  login: { on: { login, cancel, mode, redirect, back }, time: expires, holds: [], keepsOnError: bankOnly },
  'second-login': {
    on: {
      'second-login': { on: { 'contracts-listed': 'select-contract', 'accounts-listed': 'select-account' }, steps: ['second-login', 'accounts'] },
      cancel,
      back: signOut,
    },
    time: expires,
    holds: ['sessionId', 'secondLogin'],
  },
  'select-contract': {
    on: { contract: { on: { 'accounts-listed': 'select-account' }, steps: ['accounts'] }, cancel, back: signOut },
    time: expires,
    holds: ['sessionId', 'contracts'],
  },
  'select-account': {
    on: {
      transfer: { on: { 'validation-required': 'validate', paid: 'succeeded' }, steps: ['transfer'] },
      cancel,
      back: { on: { ...signOut.on, contracts: 'select-contract' } },
    },
    time: expires,
    holds: ['sessionId', 'accounts'],
  },
  validate: {
    on: {
      validate: { on: { 'validation-required': 'validate', paid: 'succeeded', 'transfer-abandoned': 'select-account' }, steps: ['validate'] },
      cancel,
    },
    // The bank session outlives the validation window: a new transfer from the account list.
    time: { ...expires, deadline: { windowMs: VALIDATION_WINDOW_MS, to: 'select-account', code: 'deadline' } },
    holds: ['sessionId', 'accountId', 'validations', 'deadline'],
  },
  // At the bank's page the link lives until expiresAt; a payment begun just before may still
  // finish, so its result is awaited a grace period longer (a later success still wins).
  redirect: { on: { cancel }, time: { expires: { grace: true } }, holds: ['url'] },
  periodic: { on: { cancel, mode, redirect, periodic }, time: expires, holds: [] },
  succeeded: { on: {}, time: {}, holds: [] },
  failed: { on: { restart }, time: {}, holds: [], keepsOnError: bankOnly },
  expired: { on: {}, time: {}, holds: [] },
  cancelled: { on: { restart }, time: {}, holds: [] },
  // Only the merchant's decision moves it (RESOLVE).
  unknown: { on: {}, time: {}, holds: [] },
} satisfies Readonly<Record<CheckoutState, StateDecl>>;

/** One declaration per state: the actions it accepts, where each leads, its time rule and the data it holds. */
export const STATES: Readonly<Record<CheckoutState, StateDecl>> = DECLARED;

/** The data a checkout in one of `S` holds for sure (its declaration's `holds`), beside what it may hold. */
export type InternalIn<S extends CheckoutState> = S extends CheckoutState ? Internal & Required<Pick<Internal, (typeof DECLARED)[S]['holds'][number]>> : never;

/** The states that accept `A`. */
export type AcceptingStates<A extends CheckoutAction> = {
  [S in CheckoutState]: A extends keyof (typeof DECLARED)[S]['on'] ? S : never;
}[CheckoutState];

/** The data `state` must hold that `data` lacks (none: the checkout may be in that state). */
export function missingData(state: CheckoutState, data: Internal): (keyof Internal)[] {
  return STATES[state].holds.filter((k) => data[k] === undefined || data[k] === null);
}

/**
 * Where the back action leads from `state` (the view tells the payer before they go): from the
 * accounts to the contracts when the bank offered several (the bank session goes on); from the
 * accounts, contracts or second login to the same bank's sign-in (the session ends); from the
 * sign-in to the bank list.
 */
export function backTarget(state: CheckoutState, contracts: number): CheckoutState {
  if (state === 'select-account' && contracts > 1) return 'select-contract';
  return state === 'login' ? 'select-bank' : 'login';
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

/* ---------- reading the declaration ---------- */

/** Every state an action accepted in `state` may lead to, by its successes, the provider's answers and faults. */
export function targetsOf(decl: ActionDecl): CheckoutState[] {
  const out = new Set<CheckoutState>(Object.values(decl.on));
  for (const step of decl.steps ?? []) {
    const r = ERROR_TARGETS[step];
    for (const s of [...Object.values(r.codes), r.otherwise] as CheckoutState[]) out.add(s);
    out.add(ATTEMPTS_SPENT);
    if (SESSION_END.steps.includes(step)) out.add(SESSION_END.to);
    out.add(FAULT_TARGETS[step].timeout).add(FAULT_TARGETS[step].other);
  }
  return [...out];
}

export interface ActionRule {
  /** The states the action is allowed from. */
  from: readonly CheckoutState[];
  /** Every state the action can lead to, by the provider's answers and faults included. */
  to: readonly CheckoutState[];
  needsMode?: CheckoutMode;
  needsChoice?: boolean;
}

/** The declaration read by action: the states each action is accepted in and where it may lead, in the contract's order. */
export const ACTIONS: Readonly<Record<CheckoutAction, ActionRule>> = actionRules();

function actionRules(): Record<CheckoutAction, ActionRule> {
  const out = {} as Record<CheckoutAction, ActionRule>;
  for (const action of CHECKOUT_ACTIONS) {
    const from = CHECKOUT_STATES.filter((s) => STATES[s].on[action]);
    const decls = from.map((s) => STATES[s].on[action]!);
    const to = new Set(decls.flatMap(targetsOf));
    const first = decls[0];
    out[action] = {
      from,
      to: CHECKOUT_STATES.filter((s) => to.has(s)),
      ...(first?.needsMode ? { needsMode: first.needsMode } : {}),
      ...(first?.needsChoice ? { needsChoice: true } : {}),
    };
  }
  return out;
}

export function isFinal(state: CheckoutState): boolean {
  return FINAL_STATES.includes(state);
}

/** Whether the merchant allowed `mode` for a checkout with these modes (absent: no mode needed). */
export function modeAllowed(modes: readonly CheckoutMode[], mode: CheckoutMode | undefined): boolean {
  return mode === undefined || modes.includes(mode);
}

/** Whether `action` is allowed on a checkout in `state` with these modes (and, for restart, before it expires). */
export function allows(action: CheckoutAction, state: CheckoutState, modes: readonly CheckoutMode[], open = true): boolean {
  const decl = STATES[state].on[action];
  if (!decl) return false;
  if (FROM_ENDING.includes(action) && !open) return false;
  if (!modeAllowed(modes, decl.needsMode)) return false;
  if (decl.needsChoice && modes.length < 2) return false;
  return true;
}

/** The actions the payer may take now, in the contract's order; `now` tells whether a restart is still in time. */
export function actionsFor(rec: Pick<CheckoutRecord, 'state' | 'modes'> & Partial<Pick<CheckoutRecord, 'expiresAt'>>, now = Date.now()): CheckoutAction[] {
  const open = rec.expiresAt === undefined || now < rec.expiresAt;
  return CHECKOUT_ACTIONS.filter((a) => allows(a, rec.state, rec.modes, open));
}

/** Where a provider error at each step leaves the checkout. */
export function stateAfterError(step: ErrorStep, code: string): CheckoutState {
  const rule = ERROR_TARGETS[step];
  return rule.codes[code] ?? rule.otherwise;
}

export function costsAttempt(code: string): boolean {
  return ATTEMPT_CODES.includes(code);
}

/** Whether a provider error at `step` means the bank's session ended (last used at `usedAt`, quiet since for `quietMs` or more). */
export function sessionEnded(step: ErrorStep, code: string, usedAt: number | undefined, now: number, quietMs: number): boolean {
  return code === SESSION_END.code && SESSION_END.steps.includes(step) && usedAt !== undefined && now - usedAt >= quietMs;
}

/** Whether a fault at `step` leaves the call's outcome unknown. */
export function unknownAfterFault(step: ErrorStep, timedOut: boolean): boolean {
  return FAULT_TARGETS[step][timedOut ? 'timeout' : 'other'] === 'unknown';
}

export function viewError(code: string): { code: string; message: string } {
  return { code, message: `error.${code}` };
}

/** The view's code for an upstream fault: a timeout, or any other. */
export const faultCode = (timedOut: boolean) => (timedOut ? 'upstream_timeout' : 'upstream');

/** What the engine needs to resolve an outcome besides the declaration. */
export interface ResolveContext {
  attemptsLeft: number;
  now: number;
  /** How quiet a bank session must be before an E301 on it is taken as its end. */
  sessionQuietMs: number;
}

/** Thrown when an action reports an outcome the declaration does not name for its state: nothing is written. */
export class UndeclaredTransition extends Error {
  constructor(
    readonly from: CheckoutState,
    readonly action: CheckoutAction,
    readonly outcome: string,
  ) {
    super(`checkout: ${action} from ${from} reported ${outcome}, which the declaration does not name there`);
  }
}

/**
 * Where `outcome` of `action` leads a checkout in `from`, and what is written: the state (named
 * by the declaration, never by the action), the data the state holds, the view's error and the
 * attempts left. Throws UndeclaredTransition for a target the declaration does not name, and
 * when the data lacks what the target must hold.
 */
export function resolveOutcome(from: CheckoutState, action: CheckoutAction, outcome: ActionOutcome, ctx: ResolveContext): CheckoutPatch {
  const decl = STATES[from].on[action];
  if (!decl) throw new UndeclaredTransition(from, action, outcome.outcome);
  let patch: CheckoutPatch;
  switch (outcome.outcome) {
    case 'unchanged':
      return { internal: outcome.data };
    case 'refused':
      patch = refusal(decl, from, action, outcome, ctx);
      break;
    case 'fault': {
      if (!decl.steps?.includes(outcome.step)) throw new UndeclaredTransition(from, action, `fault at ${outcome.step}`);
      const state = FAULT_TARGETS[outcome.step][outcome.timedOut ? 'timeout' : 'other'];
      patch = { state, error: viewError(state === 'unknown' ? 'unknown' : faultCode(outcome.timedOut)), internal: outcome.data };
      break;
    }
    default: {
      const state = decl.on[outcome.outcome];
      if (!state) throw new UndeclaredTransition(from, action, outcome.outcome);
      patch = { error: null, ...outcome.patch, state, internal: outcome.data };
    }
  }
  const missing = missingData(patch.state!, patch.internal!);
  if (missing.length) throw new UndeclaredTransition(from, action, `${outcome.outcome} without ${missing.join(', ')} for ${patch.state}`);
  return patch;
}

/** A provider refusal at a step: where the checkout goes, attempts spent, and what it keeps. */
function refusal(
  decl: ActionDecl,
  from: CheckoutState,
  action: CheckoutAction,
  outcome: Extract<ActionOutcome, { outcome: 'refused' }>,
  ctx: ResolveContext,
): CheckoutPatch {
  const { step, code, data } = outcome;
  if (!decl.steps?.includes(step)) throw new UndeclaredTransition(from, action, `refusal at ${step}`);
  const spends = costsAttempt(code);
  const attemptsLeft = spends ? Math.max(0, ctx.attemptsLeft - 1) : ctx.attemptsLeft;
  const ended = sessionEnded(step, code, data.sessionAt, ctx.now, ctx.sessionQuietMs);
  let state = ended ? SESSION_END.to : stateAfterError(step, code);
  let shown = code;
  if (attemptsLeft === 0 && spends && state !== ATTEMPTS_SPENT) {
    state = ATTEMPTS_SPENT;
    shown = 'attempts';
  }
  // A wrong second-login code is not wrong credentials, a session that ended is not bad data:
  // the message says which it was.
  let error = viewError(shown);
  if (ended) error = { code: shown, message: 'error.sessionEnded' };
  else if (step === 'second-login' && shown === 'B100') error = { code: shown, message: 'error.secondLoginCode' };
  return { state, attemptsLeft, error, internal: STATES[state].keepsOnError?.(data) ?? data };
}

/* ---------- time ---------- */

/** When a state with a deadline must be done, for one entered by a call started at `startedAt`. */
export function deadlineFrom(state: CheckoutState, startedAt: number): number {
  const rule = STATES[state].time.deadline;
  if (!rule) throw new Error(`${state} has no deadline`);
  return startedAt + rule.windowMs;
}

/** A lock older than any call could take is released; if it held one of these calls, the checkout becomes `unknown`. */
export const TIME_RULES = { lapsedLock: { unknownFor: ['transfer', 'validate'] as readonly string[] } };

/**
 * What time alone does to a checkout now (each state's `time`); null: nothing. A lapsed lock
 * is released first (TIME_RULES.lapsedLock); a state's deadline comes before its expiry.
 */
export function timePatch(rec: CheckoutRecord, now: number, leaseMs: number, linkGraceMs = 0): CheckoutPatch | null {
  const i = rec.internal;
  // A lock is a lease until `until` (renewed by its holder); a lock without one lasts `leaseMs`.
  if (i.busy && now > (i.busy.until ?? i.busy.since + leaseMs)) {
    const internal = unlocked(i);
    if (TIME_RULES.lapsedLock.unknownFor.includes(i.busy.op)) return { state: 'unknown', internal, error: viewError('unknown') };
    return { internal };
  }
  if (i.busy) return null;
  const { deadline, expires } = STATES[rec.state].time;
  if (deadline && i.deadline !== undefined && now > i.deadline) {
    // The transfer waited for is abandoned; the bank session, the account list and the account chosen stay.
    const { validations, deadline: _, round, transactionId, ...rest } = i;
    return { state: deadline.to, error: viewError(deadline.code), internal: rest };
  }
  if (!expires) return null;
  const end = expires.grace ? rec.expiresAt + linkGraceMs : rec.expiresAt;
  if (now > end) return { state: 'expired', error: viewError('expired'), internal: scrubSession(i) };
  return null;
}

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
