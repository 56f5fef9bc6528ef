/**
 * How every change of a checkout is written: compare-and-set on its version, with the webhook
 * event it reports in the same transaction, and the in-process hook told after. Two helpers
 * serve every transition: `advance` (retry on a concurrent change: time, link results, the
 * merchant's decision) and `act` (a payer action under the checkout's lock, allowed by the
 * declaration of its state, at most one upstream call, its outcome resolved by that
 * declaration: a target the declaration does not name is refused and nothing is written).
 */
import type { CheckoutAction, CheckoutMode } from '@bank-checkout/contract';
import type { BffConfig } from '../config.js';
import { ApiError, StaleStep, errors } from '../errors.js';
import type { Logger } from '../log.js';
import type { CheckoutPatch, CheckoutRecord, OutboxEvent, Store } from '../store/types.js';
import type { Upstream } from '../upstream.js';
import type { WebhookEvent } from '../webhook.js';
import { finished, unlocked, type Internal } from './internal.js';
import {
  ACTIONS,
  TIME_RULES,
  isFinal,
  missingData,
  modeAllowed,
  resolveOutcome,
  timePatch,
  type AcceptingStates,
  type ActionOutcome,
  type InternalIn,
} from './transitions.js';
import { newId } from './secrets.js';

/** How much longer than one provider call a checkout's lease runs before it must be renewed. */
export const LEASE_MARGIN_MS = 2_000;
import { withFunnel } from './funnel.js';

export interface CheckoutEvent {
  checkoutId: string;
  reference: string;
  amount: number;
  state: CheckoutRecord['state'];
  previousState: CheckoutRecord['state'];
  source: 'native' | 'notification' | 'return' | 'merchant' | 'time';
  /** How it was paid: `periodic` is a mandate for future payments, nothing paid now. */
  mode: CheckoutMode;
  /** For `periodic`: the order the payer set up. */
  schedule?: { frequency: string; startDate: string; endDate?: string };
}

export interface ServiceDeps {
  config: BffConfig;
  store: Store;
  upstream: Upstream;
  logger: Logger;
  now: () => number;
  onFinal: (event: CheckoutEvent) => void;
  /** Webhook events, written with the change they report (absent: no webhook configured). */
  webhook?: { enabled: boolean; event(e: WebhookEvent): OutboxEvent };
}

/** The result of an action: its outcome (the declaration says where it leads), and an error to answer with after writing. */
export type Outcome = ActionOutcome & { answer?: ApiError };

export function createCore(deps: ServiceDeps) {
  const { config, store, upstream, logger, now } = deps;
  /**
   * A checkout's lock is a lease: its holder (this instance), and an expiry one provider call
   * and a small margin away, renewed while the action runs (an action may make several calls,
   * a login three). A lease that is not renewed belongs to an instance that stopped mid-call:
   * once it lapses, the next request (or the sweeper) settles the checkout: a step that moved no
   * money is simply open again, a transfer or validation becomes `unknown`.
   */
  const leaseMs = config.provider.timeoutMs + LEASE_MARGIN_MS;
  /** This instance, as a lease's holder. */
  const holder = newId('bff');
  /**
   * Checkouts whose action holds a lock in this process's memory only. The embedded engine
   * has one writer, this process, so a lock in memory excludes every other request; the lock
   * goes on disk only for the actions whose lapse after a crash means something (transfer and
   * validate: the checkout becomes `unknown`). For the others (login, second login, contract,
   * back, cancel, …) a crash leaves nothing to release, and the action costs one write, not two.
   */
  const inMemory = new Set<string>();
  const memoryLock = (action: CheckoutAction) => store.engine === 'sqlite' && !TIME_RULES.lapsedLock.unknownFor.includes(action);

  /** What the merchant is told when a checkout reaches an outcome (or unknown); null otherwise. */
  function checkoutEvent(
    before: CheckoutRecord,
    state: CheckoutRecord['state'],
    mode: CheckoutMode,
    internal: Internal,
    source: CheckoutEvent['source'],
  ): CheckoutEvent | null {
    if (before.state === state || !(isFinal(state) || state === 'unknown')) return null;
    return {
      checkoutId: before.id,
      reference: before.reference,
      amount: before.amount,
      state,
      previousState: before.state,
      source,
      mode,
      ...(mode === 'periodic' && internal.schedule ? { schedule: internal.schedule } : {}),
    };
  }

  /**
   * Writes a change of `from` with compare-and-set, with the webhook event it reports in the
   * same transaction, and tells the in-process hook. `before` is the checkout as the action
   * found it (its state is the event's previous state). The furthest funnel step goes with
   * every write (funnel.ts). Null when `from` was stale.
   */
  async function commit(before: CheckoutRecord, from: CheckoutRecord, patch: CheckoutPatch, source: CheckoutEvent['source']): Promise<CheckoutRecord | null> {
    patch = withFunnel(from, patch);
    // A checkout that ends keeps only what an ended one needs (internal.ts `finished`).
    if (isFinal(patch.state ?? from.state)) patch = { ...patch, internal: finished(patch.internal ?? from.internal) };
    // A state is entered only with the data its declaration says it holds (transitions.ts `holds`).
    assertHolds(from.id, patch.state ?? from.state, patch.internal ?? from.internal);
    const event = checkoutEvent(before, patch.state ?? from.state, patch.mode ?? from.mode, patch.internal ?? from.internal, source);
    const events = event && deps.webhook?.enabled ? [deps.webhook.event({ type: 'checkout.updated', data: event })] : [];
    const written = await store.updateCheckout(from.id, from.version, patch, events);
    if (written && event) deps.onFinal(event);
    return written;
  }

  /**
   * Applies `decide` to the checkout as stored until the write holds: a concurrent change makes
   * it read the checkout again and decide again (at most `tries` times). `decide` returning
   * null means nothing is to change.
   */
  async function advance(rec: CheckoutRecord, decide: (rec: CheckoutRecord) => CheckoutPatch | null, source: CheckoutEvent['source'], tries = 5) {
    for (let i = 0; i < tries; i++) {
      const patch = decide(rec);
      if (!patch) return { record: rec, changed: false };
      const written = await commit(rec, rec, { ...patch, updatedAt: now() }, source);
      if (written) return { record: written, changed: true };
      const fresh = await store.getCheckout(rec.id);
      if (!fresh) throw errors.notFound('Checkout');
      rec = fresh;
    }
    throw errors.conflict('checkout_busy', 'The checkout is being updated; try again.');
  }

  /** Applies what time alone has done (expiry, deadline, a lapsed lock); returns the current record. */
  async function settle(rec: CheckoutRecord): Promise<CheckoutRecord> {
    // An action under way holds the checkout (as a `busy` marker would): time waits for it.
    if (inMemory.has(rec.id)) return rec;
    return (
      await advance(rec, (r) => timePatch(r, now(), leaseMs, config.linkGraceMinutes * 60_000), 'time', 3).catch(async (err) => {
        if (err instanceof ApiError && err.code === 'checkout_busy') return { record: (await store.getCheckout(rec.id)) ?? rec };
        throw err;
      })
    ).record;
  }

  /**
   * Keeps the lease of a locked checkout while its action runs: renewed every third of the
   * lease, each renewal a compare-and-set. `release` stops renewing and gives the checkout as
   * last written, or null when the lease was lost (it lapsed and another request settled it).
   */
  function hold(locked: CheckoutRecord) {
    let current: CheckoutRecord | null = locked;
    let renewing: Promise<void> = Promise.resolve();
    const renew = async () => {
      const busy = current?.internal.busy;
      if (!current || !busy) return;
      const renewed = await store
        .updateCheckout(current.id, current.version, { internal: { ...current.internal, busy: { ...busy, until: now() + leaseMs } } })
        .catch((err: unknown) => {
          // The store is down for a moment: the next renewal tries again.
          logger.log('warn', 'checkout.lease_not_renewed', { checkoutId: locked.id, reason: err instanceof Error ? err.message : 'error' });
          return undefined;
        });
      if (renewed !== undefined) current = renewed;
    };
    const timer = setInterval(
      () => {
        renewing = renewing.then(renew);
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    timer.unref?.();
    return {
      async release() {
        clearInterval(timer);
        await renewing;
        return current;
      },
    };
  }

  /** 409 for a request whose checkout was taken by another request (or whose lease lapsed meanwhile). */
  const busyConflict = () => errors.conflict('checkout_busy', 'Another request for this checkout is in progress.');

  /** Refuses (500, nothing written) a checkout in `state` without the data the state declares it holds. */
  function assertHolds(id: string, state: CheckoutRecord['state'], data: Internal): void {
    const missing = missingData(state, data);
    if (!missing.length) return;
    logger.log('error', 'checkout.undeclared_data', { checkoutId: id, state, missing });
    throw new Error(`checkout ${id} in ${state} lacks ${missing.join(', ')}`);
  }

  /**
   * Runs one payer action under the checkout's lock, from the states whose declaration accepts
   * it, for a checkout that allows `mode` (by default the mode the action needs). The lock is a
   * `busy` lease written with compare-and-set (renewed while the action runs); a second request
   * meanwhile gets 409. `run` gets the checkout's data as the states that accept the action hold
   * it (typed from their declarations, checked before the call). A failure before any upstream
   * call, or an outcome the declaration does not name, releases the lock and changes nothing.
   */
  async function act<A extends CheckoutAction>(
    rec: CheckoutRecord,
    action: A,
    run: (locked: CheckoutRecord, i: InternalIn<AcceptingStates<A>>) => Promise<Outcome>,
    mode = ACTIONS[action].needsMode,
  ): Promise<CheckoutRecord> {
    if (!modeAllowed(rec.modes, mode)) throw errors.conflict('mode_not_allowed', `This checkout does not allow the ${mode} mode.`);
    const rule = ACTIONS[action];
    if (isFinal(rec.state) && !rule.from.includes(rec.state)) throw errors.conflict('checkout_finished', `The checkout is already ${rec.state}.`);
    if (rec.internal.busy || inMemory.has(rec.id)) throw busyConflict();
    if (!rule.from.includes(rec.state)) throw new StaleStep(`This action is not possible while the checkout is in state ${rec.state}.`);
    const inMemoryOnly = memoryLock(action);
    // Taken with nothing awaited since the check above: no other request can slip in between.
    if (inMemoryOnly) inMemory.add(rec.id);
    try {
      // Either way the lock holds only if the checkout is still the one this request read (a
      // compare-and-set on its version): a request that read it before another action ended
      // gets 409, and sends nothing upstream.
      const locked = inMemoryOnly
        ? await store.getCheckout(rec.id).then((current) => (current?.version === rec.version ? rec : null))
        : await store.updateCheckout(rec.id, rec.version, {
            internal: { ...rec.internal, busy: { op: action, since: now(), until: now() + leaseMs, holder } },
          });
      if (!locked) throw busyConflict();
      const lease = inMemoryOnly ? null : hold(locked);
      let outcome: Outcome;
      let patch: CheckoutPatch;
      try {
        assertHolds(locked.id, locked.state, locked.internal);
        outcome = await run(locked, locked.internal as InternalIn<AcceptingStates<A>>);
        patch = resolveOutcome(locked.state, action, outcome, {
          attemptsLeft: locked.attemptsLeft,
          now: now(),
          sessionQuietMs: config.provider.sessionQuietMs,
        });
      } catch (err) {
        const held = lease ? await lease.release() : null;
        if (held) await store.updateCheckout(held.id, held.version, { internal: unlocked(held.internal) });
        throw err;
      }
      const held = lease ? await lease.release() : locked;
      const written = held && (await commit(rec, held, { ...patch, internal: unlocked(patch.internal ?? held.internal), updatedAt: now() }, 'native'));
      if (!written) {
        // Another request changed the checkout meanwhile (a cancel that raced this one, or the
        // settling of a lease that lapsed): this request's outcome is not written, and it is told so.
        logger.log('warn', 'checkout.lock_lost', { checkoutId: rec.id, op: action });
        throw busyConflict();
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
      if (inMemoryOnly) inMemory.delete(rec.id);
    }
  }

  /** Whether an action holds the checkout now (its `busy` lease, or this process's in-memory lock): a call may be with the bank. */
  const busy = (rec: CheckoutRecord): boolean => Boolean(rec.internal.busy) || inMemory.has(rec.id);

  return { config, store, upstream, logger, now, leaseMs, holder, commit, advance, settle, act, busy };
}

export type Core = ReturnType<typeof createCore>;
