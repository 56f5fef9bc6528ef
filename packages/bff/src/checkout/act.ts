/**
 * The payer's actions, written through the door (door.ts). An action is accepted by the
 * declaration of the checkout's state. One that calls the bank runs under the checkout's lock (a
 * lease, renewed while the call runs), at most one at a time; its outcome is resolved by the
 * declaration and written however the record or the store fared meanwhile (`record`): after a
 * lease that lapsed (`late`), after the store failed (tried again until it takes it). An action
 * that calls nothing is one compare-and-set.
 */
import type { CheckoutAction, CheckoutMode } from '@bank-checkout/contract';
import { StaleStep, errors, type ApiError } from '../errors.js';
import type { CheckoutPatch, CheckoutRecord } from '../store/types.js';
import { STORE_RETRY_AFTER_S, isUnavailable, unavailableCause } from '../store/failure.js';
import { unlocked, type Lock } from './internal.js';
import {
  ACTIONS,
  STATES,
  TIME_RULES,
  changeAllowed,
  isFinal,
  modeAllowed,
  resolveOutcome,
  type AcceptingStates,
  type ActionOutcome,
  type InternalIn,
} from './transitions.js';
import { newId } from './secrets.js';
import type { Door } from './door.js';
import { holdLease, type Lease } from './lease.js';

/**
 * How long a payer's request waits for the store to take the bank's answer to a transfer or a
 * validation before it is answered 503 (the element waits and reads again); the instance goes on
 * writing the answer, with backoff, for as long as the store is away.
 */
export const ANSWER_INLINE_MS = 1_500;

/** How often the answer of any other call is tried again before it is given up with the store (the payer repeats the step). */
const OTHER_ANSWER_TRIES = 4;

/** The result of an action: its outcome (the declaration says where it leads), and an error to answer with after writing. */
export type Outcome = ActionOutcome & { answer?: ApiError };

/**
 * A call of an action that did not leave: the action's lease would not have covered it (the
 * instance was paused, or its store slow), so nothing was sent and the lock is released; the
 * payer is answered 503 `not_sent` and tries again. The actions let it through unchanged (it is
 * no fault of the bank's).
 */
export class NotSent extends Error {
  override readonly name = 'NotSent';
}

/**
 * Sends one call of an action that may cost the payer an attempt or move money: only while the
 * action's lease still covers the call's whole timeout, checked right before the call leaves
 * (renewed first if it has run low); otherwise NotSent, and nothing leaves.
 */
export type Send = <T>(call: () => Promise<T>) => Promise<T>;

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createActs(door: Door, sleep: (ms: number) => Promise<void> = realSleep) {
  const { config, store, logger, now, leaseMs, holder, inMemory, commit, change, inFlight, reread, busyConflict, assertHolds } = door;
  /** A call whose answer is kept until the store takes it (a transfer's start, a validation). */
  const keepsAnswer = (action: CheckoutAction) => TIME_RULES.lapsedLock.keptFor.includes(action);
  /**
   * On the embedded engine (one writer, this process) a lock is held in memory, but for the call
   * whose lapse after a crash means something: a validation's, on disk, makes the checkout
   * `unknown` should the process die during it. A transfer's start that a crash cut short moved
   * no money: the payer starts it again.
   */
  const memoryLock = (action: CheckoutAction) => store.engine === 'sqlite' && !TIME_RULES.lapsedLock.unknownFor.includes(action);
  /** Answers of the bank still being written after the store failed (shutdown waits for them). */
  const writing = new Set<Promise<unknown>>();

  const hold = (locked: CheckoutRecord, token: string) => holdLease(locked, token, { store, logger, now, leaseMs });

  const resolveContext = (r: CheckoutRecord) => ({ attemptsLeft: r.attemptsLeft, now: now(), sessionQuietMs: config.provider.sessionQuietMs });

  /** Refuses an action the checkout cannot take now (its mode, an ending, a call in flight, another step). */
  function admit(rec: CheckoutRecord, action: CheckoutAction, mode: CheckoutMode | undefined): void {
    if (!modeAllowed(rec.modes, mode)) throw errors.conflict('mode_not_allowed', `This checkout does not allow the ${mode} mode.`);
    const rule = ACTIONS[action];
    if (isFinal(rec.state) && !rule.from.includes(rec.state)) throw errors.conflict('checkout_finished', `The checkout is already ${rec.state}.`);
    if (inFlight(rec)) throw busyConflict();
    if (!rule.from.includes(rec.state)) throw new StaleStep(`This action is not possible while the checkout is in state ${rec.state}.`);
  }

  /**
   * Runs one payer action, from the states whose declaration accepts it, for a checkout that
   * allows `mode` (by default the mode the action needs). An action the declaration answers
   * itself (`pick`: back, cancel, restart) is one compare-and-set. Any other runs under the
   * checkout's lock: a `busy` lease written with compare-and-set (renewed while the action runs),
   * or, for a step of the embedded engine that moves no money, a lock in this process's memory;
   * a second request meanwhile gets 409. `run` gets the checkout's data as the states that accept
   * the action hold it. A failure before any upstream call, or an outcome the declaration does
   * not name, releases the lock and changes nothing.
   */
  async function act<A extends CheckoutAction>(
    rec: CheckoutRecord,
    action: A,
    run?: (locked: CheckoutRecord, i: InternalIn<AcceptingStates<A>>, send: Send) => Promise<Outcome>,
    mode = ACTIONS[action].needsMode,
  ): Promise<CheckoutRecord> {
    admit(rec, action, mode);
    if (!run) return actAtOnce(rec, action, mode);
    const token = newId('lk');
    const inMemoryOnly = memoryLock(action);
    // Taken with nothing awaited since the check above: no other request can slip in between.
    if (inMemoryOnly) inMemory.set(rec.id, { token, op: action });
    let lease: Lease | null = null;
    let background = false;
    try {
      // Either way the lock holds only if the checkout is still the one this request read (a
      // compare-and-set on the version it read, never on one read again): a request that read
      // it before another action ended gets 409, and sends nothing upstream.
      const lock: Lock = { op: action, since: now(), until: now() + leaseMs, holder, token };
      const locked = inMemoryOnly
        ? await store.getCheckout(rec.id).then((current) => (current?.version === rec.version ? rec : null))
        : await takeLock(rec, lock);
      if (!locked) throw busyConflict();
      const held = inMemoryOnly ? null : hold(locked, token);
      lease = held;
      const send: Send = async (call) => {
        if (held && held.timeLeft() < config.provider.timeoutMs) await held.renewNow();
        // Nothing awaited from here to the call: the lease is read as the call leaves.
        if (held && held.timeLeft() < config.provider.timeoutMs) throw new NotSent(`${action}: the lease no longer covers the call`);
        return call();
      };
      let outcome: Outcome;
      let patch: CheckoutPatch;
      try {
        assertHolds(locked.id, locked.state, locked.internal);
        outcome = await run(locked, locked.internal as InternalIn<AcceptingStates<A>>, send);
        patch = resolveOutcome(locked.state, action, outcome, resolveContext(locked));
      } catch (err) {
        await release(locked, token, lease);
        if (err instanceof NotSent) {
          logger.log('warn', 'checkout.not_sent', { checkoutId: rec.id, op: action, reason: 'lease' });
          throw errors.notSent(STORE_RETRY_AFTER_S);
        }
        throw err;
      }
      const recording = record(rec, locked, {
        token,
        action,
        outcome,
        patch,
        lease,
        keep: keepsAnswer(action),
      });
      const written = await inTime(recording);
      if (written === TIMED_OUT) {
        // The store is away: the answer is written as soon as it is back, the lease kept meanwhile.
        background = true;
        const pending = recording
          .catch((err: unknown) =>
            logger.log('error', 'checkout.answer_not_written', { checkoutId: rec.id, op: action, reason: err instanceof Error ? err.message : 'error' }),
          )
          .finally(() => {
            writing.delete(pending);
            void lease?.stop();
            // A lock in memory holds until the answer is written: nothing else acts on the checkout meanwhile.
            if (inMemoryOnly && inMemory.get(rec.id)?.token === token) inMemory.delete(rec.id);
          });
        writing.add(pending);
        throw errors.storeUnavailable(STORE_RETRY_AFTER_S);
      }
      logger.log('info', 'checkout.transition', {
        checkoutId: written.id,
        op: action,
        from: rec.state,
        to: written.state,
        ...(written.error ? { code: written.error.code } : {}),
      });
      if (outcome.answer) throw outcome.answer;
      return written;
    } finally {
      if (!background) {
        await lease?.stop();
        if (inMemoryOnly && inMemory.get(rec.id)?.token === token) inMemory.delete(rec.id);
      }
    }
  }

  const TIMED_OUT = Symbol('timed out');
  /** The write's result, or TIMED_OUT once it has waited on the store for ANSWER_INLINE_MS. */
  async function inTime<T>(work: Promise<T>): Promise<T | typeof TIMED_OUT> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<typeof TIMED_OUT>((r) => (timer = setTimeout(() => r(TIMED_OUT), ANSWER_INLINE_MS)));
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Writes the lock of an action on the version the request read (null: the checkout changed
   * since). A store that does not confirm it within ANSWER_INLINE_MS sends nothing: the request is
   * answered 503 now, and the lock, should the write have landed after all, is released as soon
   * as the store can say so (never left to lapse into a doubt: no call left under it).
   */
  async function takeLock(rec: CheckoutRecord, lock: Lock): Promise<CheckoutRecord | null> {
    const taking = store.updateCheckout(rec.id, rec.version, { internal: { ...rec.internal, busy: lock } });
    let took: CheckoutRecord | null | typeof TIMED_OUT | Error;
    try {
      took = await inTime(taking);
    } catch (err) {
      if (!isUnavailable(err)) throw err;
      took = err instanceof Error ? err : new Error(String(err));
    }
    if (took !== TIMED_OUT && !(took instanceof Error)) return took;
    logger.log('warn', 'checkout.not_sent', {
      checkoutId: rec.id,
      op: lock.op,
      reason: 'lock_unconfirmed',
      cause: took === TIMED_OUT ? 'slow' : unavailableCause(took),
    });
    void releaseLater(rec.id, lock.token!, taking);
    throw errors.storeUnavailable(STORE_RETRY_AFTER_S);
  }

  /**
   * Gives the lock back after an action that sent nothing (its own lock, if it still holds it):
   * tried at once, and, while the store cannot take it, again with backoff in the background (the
   * request is not held past ANSWER_INLINE_MS), so that a lock under which nothing left never
   * lapses into a doubt.
   */
  async function release(locked: CheckoutRecord, token: string, lease: Lease | null): Promise<void> {
    if (!lease) return;
    await lease.stop();
    await inTime(releaseLater(locked.id, token, Promise.resolve(), lease.current));
  }

  /** Removes the lock `token` from the checkout once `after` settled, until it is gone (tracked: shutdown waits for it). */
  function releaseLater(id: string, token: string, after: Promise<unknown>, known?: CheckoutRecord): Promise<void> {
    const work = (async () => {
      await after.catch(() => undefined);
      let cur = known;
      for (let attempt = 1; ; attempt++) {
        try {
          cur ??= (await store.getCheckout(id)) ?? undefined;
          if (!cur || cur.internal.busy?.token !== token) return;
          if (await store.updateCheckout(id, cur.version, { internal: unlocked(cur.internal) })) {
            if (attempt > 1 || known === undefined) logger.log('info', 'checkout.lock_released', { checkoutId: id, op: cur.internal.busy.op });
            return;
          }
        } catch (err) {
          if (!isUnavailable(err)) {
            logger.log('error', 'checkout.lock_not_released', { checkoutId: id, reason: err instanceof Error ? err.message : 'error' });
            return;
          }
        }
        cur = undefined;
        // Soon after the store is back: the lock must go before its lease and the one more lapse.
        const wait = Math.min(1_000, 100 * 2 ** Math.min(attempt - 1, 6));
        await sleep(wait + Math.random() * wait * 0.25);
      }
    })();
    writing.add(work);
    void work.finally(() => writing.delete(work));
    return work;
  }

  /** An action that calls no one: the declaration's own outcome, written with one compare-and-set. */
  async function actAtOnce(rec: CheckoutRecord, action: CheckoutAction, mode: CheckoutMode | undefined): Promise<CheckoutRecord> {
    for (let i = 0; i < 3; i++) {
      const pick = STATES[rec.state].on[action]?.pick;
      if (!pick) throw new StaleStep(`This action is not possible while the checkout is in state ${rec.state}.`);
      const patch = resolveOutcome(rec.state, action, pick(rec), resolveContext(rec));
      const written = await commit(rec, rec, { ...patch, updatedAt: now() }, 'native');
      if (written) {
        logger.log('info', 'checkout.transition', { checkoutId: written.id, op: action, from: rec.state, to: written.state });
        return written;
      }
      rec = await reread(rec.id);
      admit(rec, action, mode);
    }
    throw busyConflict();
  }

  interface Answer {
    token: string;
    action: CheckoutAction;
    outcome: Outcome;
    patch: CheckoutPatch;
    lease: Lease | null;
    /** A transfer's start or a validation: its answer (the challenge the bank sent, the money moved) is kept until written. */
    keep: boolean;
  }

  /**
   * Writes the bank's answer to an action. Another write that left the lease its holder's (a
   * launch token issued meanwhile) is read and written over; a lease that lapsed meanwhile is
   * a late answer (`late`); a store that cannot take it is tried again with backoff, for a
   * transfer or a validation until it can (the lease kept meanwhile), for any other step a few
   * times (the payer repeats the step).
   */
  async function record(before: CheckoutRecord, locked: CheckoutRecord, a: Answer): Promise<CheckoutRecord> {
    let cur = locked;
    for (let attempt = 1; ; attempt++) {
      try {
        const base = a.lease?.current ?? cur;
        const next = { ...a.patch, internal: unlocked(a.patch.internal ?? base.internal), updatedAt: now() };
        const written = await (a.lease ? a.lease.serial(() => commit(before, a.lease!.current, next, 'native')) : commit(before, cur, next, 'native'));
        if (written) return written;
        const fresh = await reread(before.id);
        const ours = a.lease ? fresh.internal.busy?.token === a.token : inMemory.get(before.id)?.token === a.token;
        if (ours) {
          if (a.lease) a.lease.current = fresh;
          cur = fresh;
          continue;
        }
        return await late(fresh, locked, a);
      } catch (err) {
        if (!isUnavailable(err) || (!a.keep && attempt >= OTHER_ANSWER_TRIES)) throw err;
        const wait = Math.min(5_000, 100 * 2 ** Math.min(attempt - 1, 6));
        await sleep(wait + Math.random() * wait * 0.25);
      }
    }
  }

  /**
   * The bank answered after the call's lease was lost (it lapsed and the checkout was settled
   * meanwhile). Settled `unknown` for this very lock: the answer is where the call led after all.
   * Money that moved ends `succeeded` from wherever the checkout went. Any other answer is
   * dropped (the payer repeats the step) and the request gets 409.
   */
  async function late(fresh: CheckoutRecord, locked: CheckoutRecord, a: Answer): Promise<CheckoutRecord> {
    const ownUnknown = (r: CheckoutRecord) => r.state === 'unknown' && r.internal.lapsed?.token === a.token;
    const paid = a.outcome.outcome === 'paid';
    const { record, changed } = await change(
      fresh,
      'late-answer',
      (r) => {
        if (ownUnknown(r)) {
          const p = resolveOutcome(locked.state, a.action, a.outcome, resolveContext(r));
          return { ...p, internal: unlocked(p.internal ?? r.internal) };
        }
        if (paid && r.state !== 'succeeded' && changeAllowed(r.state, 'late-answer', 'succeeded')) {
          const { busy, lapsed, ...kept } = { ...r.internal, ...a.patch.internal };
          return { state: 'succeeded', error: null, internal: kept };
        }
        return null;
      },
      'native',
    );
    if (changed) {
      logger.log('warn', 'checkout.late_answer', { checkoutId: record.id, op: a.action, to: record.state });
      return record;
    }
    logger.log('warn', 'checkout.lock_lost', { checkoutId: fresh.id, op: a.action, state: fresh.state });
    throw busyConflict();
  }

  /** Waits (up to `timeoutMs`) for the answers still being written after a store failure. */
  async function drain(timeoutMs: number): Promise<number> {
    const left = [...writing];
    if (!left.length) return 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled(left), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
    return writing.size;
  }

  return { act, drain };
}
