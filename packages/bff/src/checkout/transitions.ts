/**
 * The declaration read and applied, with no I/O: where each action may lead (from its successes,
 * the provider's answers and faults), which actions a checkout offers now, where an action's
 * outcome leads and what is written (`resolveOutcome`), what time alone does (`timePatch`) and
 * where a link's result leads (`linkOutcome`). The declaration itself is declaration.ts, the
 * outcomes outcomes.ts; both are re-exported here. The engine (core.ts) writes what these decide.
 */
import {
  CHECKOUT_ACTIONS,
  CHECKOUT_STATES,
  FINAL_STATES,
  type CheckoutAction,
  type CheckoutMode,
  type CheckoutState,
  type ProviderErrorCode,
  type ViewErrorCode,
} from '@bank-checkout/contract';
import type { CheckoutPatch, CheckoutRecord } from '../store/types.js';
import { scrubSession, unlocked } from './internal.js';
import { ATTEMPTS_SPENT, ATTEMPT_CODES, SESSION_END, faultCode, viewError, type ActionOutcome, type ErrorStep, type StepRule } from './outcomes.js';
import { FROM_ENDING, STATES, STEP_RULES, missingData, type ActionDecl } from './declaration.js';

export * from './outcomes.js';
export * from './declaration.js';

/* ---------- reading the declaration ---------- */

/** Every state an action accepted in `state` may lead to, by its successes, the provider's answers and faults. */
export function targetsOf(decl: ActionDecl): CheckoutState[] {
  const out = new Set<CheckoutState>(Object.values(decl.on));
  for (const [step, rule] of Object.entries(decl.steps ?? {}) as [ErrorStep, StepRule][]) {
    for (const s of [...Object.values(rule.onError.codes), rule.onError.otherwise] as CheckoutState[]) out.add(s);
    out.add(ATTEMPTS_SPENT);
    if (SESSION_END.steps.includes(step)) out.add(SESSION_END.to);
    out.add(rule.onFault.timeout).add(rule.onFault.other);
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

/** Where a provider error at a step leaves the checkout (the step's rule, or the rule of `step` wherever it is met). */
export function stateAfterError(step: ErrorStep | StepRule, code: ProviderErrorCode): CheckoutState {
  const { onError } = typeof step === 'string' ? STEP_RULES[step] : step;
  return onError.codes[code] ?? onError.otherwise;
}

/**
 * Whether a refusal at `step` of `action` in `from` is answered at once by the step started again
 * (a fresh challenge), as the declaration says (`again`); the action still needs attempts left.
 */
export function startsAgain(from: CheckoutState, action: CheckoutAction, step: ErrorStep, code: ProviderErrorCode): boolean {
  return STATES[from].on[action]?.steps?.[step]?.onError.again?.includes(code) ?? false;
}

export function costsAttempt(code: ProviderErrorCode): boolean {
  return ATTEMPT_CODES.includes(code);
}

/** Whether a provider error at `step` means the bank's session ended (last used at `usedAt`, quiet since for `quietMs` or more). */
export function sessionEnded(step: ErrorStep, code: ProviderErrorCode, usedAt: number | undefined, now: number, quietMs: number): boolean {
  return code === SESSION_END.code && SESSION_END.steps.includes(step) && usedAt !== undefined && now - usedAt >= quietMs;
}

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
      const rule = decl.steps?.[outcome.step]?.onFault;
      if (!rule) throw new UndeclaredTransition(from, action, `fault at ${outcome.step}`);
      const state = rule[outcome.timedOut ? 'timeout' : 'other'];
      const doubt = { op: action, at: ctx.now, why: outcome.timedOut ? ('timeout' as const) : ('fault' as const) };
      const code = faultCode(outcome.timedOut);
      patch = {
        state,
        error: state === 'unknown' ? viewError('unknown') : rule.message ? { code, message: rule.message } : viewError(code),
        internal: state === 'unknown' ? { ...outcome.data, doubt } : outcome.data,
      };
      break;
    }
    default: {
      const state = decl.on[outcome.outcome];
      if (!state) throw new UndeclaredTransition(from, action, outcome.outcome);
      patch = { error: null, ...outcome.patch, state, internal: outcome.data };
      // A refusal came first and was answered at once (a wrong code, then a fresh challenge):
      // it is counted as any refusal is, and the view says why.
      if (outcome.spent !== undefined) {
        if (!decl.steps) throw new UndeclaredTransition(from, action, `${outcome.outcome} after ${outcome.spent}`);
        patch.attemptsLeft = costsAttempt(outcome.spent) ? Math.max(0, ctx.attemptsLeft - 1) : ctx.attemptsLeft;
        patch.error = viewError(outcome.spent);
      }
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
  const rule = decl.steps?.[step];
  if (!rule) throw new UndeclaredTransition(from, action, `refusal at ${step}`);
  const spends = costsAttempt(code);
  const attemptsLeft = spends ? Math.max(0, ctx.attemptsLeft - 1) : ctx.attemptsLeft;
  const ended = sessionEnded(step, code, data.sessionAt, ctx.now, ctx.sessionQuietMs);
  let state = ended ? SESSION_END.to : stateAfterError(rule, code);
  let shown: ViewErrorCode = code;
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

/**
 * A lock older than any call could take is released. The holder of a call whose answer is kept
 * until written (`keptFor`: a transfer's start, whose answer is the challenge the bank has just
 * sent the payer, and a validation) may be alive and only kept from the store: it is given one
 * more lease to come back first. If the lock held the call that may move money (`unknownFor`:
 * a validation), the checkout then becomes `unknown`; any other is simply released (its call
 * moved no money: the payer repeats the step).
 */
export const TIME_RULES = {
  lapsedLock: { keptFor: ['transfer', 'validate'] as readonly string[], unknownFor: ['validate'] as readonly string[] },
};

/**
 * What time alone does to a checkout now (each state's `time`); null: nothing. A lapsed lock
 * is released first (TIME_RULES.lapsedLock); a state's deadline comes before its expiry.
 */
export function timePatch(rec: CheckoutRecord, now: number, leaseMs: number, linkGraceMs = 0): CheckoutPatch | null {
  const i = rec.internal;
  // A lock is a lease until `until` (renewed by its holder); a lock without one lasts `leaseMs`.
  if (i.busy && now > (i.busy.until ?? i.busy.since + leaseMs)) {
    const internal = unlocked(i);
    const { keptFor, unknownFor } = TIME_RULES.lapsedLock;
    // The holder of a kept answer may be alive and only kept from the store (an outage longer
    // than the lease, the answer in its hands): it gets one more lease to renew or write before
    // the call is taken for lost. Its renewal, or its answer, wins over this write by compare-and-set.
    if (keptFor.includes(i.busy.op) && i.busy.overdueSince === undefined)
      return { internal: { ...i, busy: { ...i.busy, until: now + leaseMs, overdueSince: now } } };
    // The lock that lapsed is remembered: should its holder still come back with the bank's
    // answer, the answer is written after all (the `late-answer` change).
    if (unknownFor.includes(i.busy.op))
      return {
        state: 'unknown',
        internal: { ...internal, lapsed: { ...i.busy, at: now }, doubt: { op: i.busy.op, at: now, why: 'lease' } },
        error: viewError('unknown'),
      };
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
