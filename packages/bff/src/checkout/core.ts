/**
 * How every change of a checkout is written: compare-and-set on its version, with the webhook
 * event it reports in the same transaction, and the in-process hook told after. Two helpers
 * serve every transition: `advance` (retry on a concurrent change: time, link results, the
 * merchant's decision) and `act` (a payer action under the checkout's lock, allowed by the
 * transition table, at most one upstream call).
 */
import type { CheckoutAction, CheckoutMode } from '@bank-checkout/contract';
import type { BffConfig } from '../config.js';
import { ApiError, StaleStep, errors } from '../errors.js';
import type { Logger } from '../log.js';
import type { CheckoutPatch, CheckoutRecord, OutboxEvent, Store } from '../store/types.js';
import type { Upstream } from '../upstream.js';
import type { WebhookEvent } from '../webhook.js';
import { timePatch } from './machine.js';
import { unlocked, type Internal } from './internal.js';
import { ACTIONS, TIME_RULES, isFinal } from './transitions.js';

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

/** The result of an action: what to write, and an error to answer with after writing. */
export interface Outcome {
  patch: CheckoutPatch;
  error?: ApiError;
}

export function createCore(deps: ServiceDeps) {
  const { config, store, upstream, logger, now } = deps;
  // The longest an action holds the checkout's lock: a login reads the bank list, logs in and
  // reads the accounts, each read-only call with its retries; plus a margin. Only a lock older
  // than that belongs to a process that stopped mid-call.
  const busyTtlMs = 2 * upstream.readOnlyMaxMs + config.provider.timeoutMs + 5_000;
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
  function checkoutEvent(before: CheckoutRecord, state: CheckoutRecord['state'], mode: CheckoutMode, internal: Internal, source: CheckoutEvent['source']): CheckoutEvent | null {
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
   * found it (its state is the event's previous state). Null when `from` was stale.
   */
  async function commit(before: CheckoutRecord, from: CheckoutRecord, patch: CheckoutPatch, source: CheckoutEvent['source']): Promise<CheckoutRecord | null> {
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
    return (await advance(rec, (r) => timePatch(r, now(), busyTtlMs, config.linkGraceMinutes * 60_000), 'time', 3).catch(async (err) => {
      if (err instanceof ApiError && err.code === 'checkout_busy') return { record: (await store.getCheckout(rec.id)) ?? rec };
      throw err;
    })).record;
  }

  function ensureMode(rec: CheckoutRecord, mode: CheckoutMode) {
    if (!rec.modes.includes(mode)) throw errors.conflict('mode_not_allowed', `This checkout does not allow the ${mode} mode.`);
  }

  /**
   * Runs one payer action under the checkout's lock, from the states the transition table
   * allows it. The lock is a `busy` marker written with compare-and-set; a second request
   * meanwhile gets 409. A failure before any upstream call releases it and changes nothing.
   */
  async function act(rec: CheckoutRecord, action: CheckoutAction, run: (locked: CheckoutRecord, i: Internal) => Promise<Outcome>): Promise<CheckoutRecord> {
    const rule = ACTIONS[action];
    if (isFinal(rec.state) && !rule.from.includes(rec.state)) throw errors.conflict('checkout_finished', `The checkout is already ${rec.state}.`);
    if (rec.internal.busy || inMemory.has(rec.id)) throw errors.conflict('checkout_busy', 'Another request for this checkout is in progress.');
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
        : await store.updateCheckout(rec.id, rec.version, { internal: { ...rec.internal, busy: { op: action, since: now() } } });
      if (!locked) throw errors.conflict('checkout_busy', 'Another request for this checkout is in progress.');
      let outcome: Outcome;
      try {
        outcome = await run(locked, locked.internal);
      } catch (err) {
        if (!inMemoryOnly) await store.updateCheckout(locked.id, locked.version, { internal: unlocked(locked.internal) });
        throw err;
      }
      const written = await commit(rec, locked, { ...outcome.patch, internal: unlocked(outcome.patch.internal ?? locked.internal), updatedAt: now() }, 'native');
      if (!written) throw new Error(`checkout ${locked.id}: lost its lock`);
      if (written.state !== rec.state && !rule.to.includes(written.state)) {
        logger.log('error', 'checkout.unexpected_transition', { checkoutId: written.id, op: action, from: rec.state, to: written.state });
      }
      logger.log('info', 'checkout.transition', { checkoutId: written.id, op: action, from: rec.state, to: written.state, ...(written.error ? { code: written.error.code } : {}) });
      if (outcome.error) throw outcome.error;
      return written;
    } finally {
      if (inMemoryOnly) inMemory.delete(rec.id);
    }
  }

  return { config, store, upstream, logger, now, busyTtlMs, commit, advance, settle, act, ensureMode };
}

export type Core = ReturnType<typeof createCore>;
