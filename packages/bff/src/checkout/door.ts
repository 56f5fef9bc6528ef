/**
 * The door through which every change of a checkout is written (the engine is core.ts: this
 * door, and the payer's actions of act.ts, which write through it). Each write is a
 * compare-and-set on the checkout's version, with the webhook event it reports in the same
 * transaction, checked against the declaration (declaration.ts) before it is made. `change` is
 * everything but a payer's action (time, a newer launch, the merchant, the provider's results, a
 * late answer), each a `Change` the state must declare; while a call is with the bank, a change
 * that would end or reset the checkout is refused (409 `checkout_busy`) or left for later, and
 * only time settles a lease that lapsed.
 *
 * Nothing else writes a checkout (test/structure/one-door-guard.test.ts keeps it so).
 */
import type { CheckoutAction, CheckoutMode } from '@bank-checkout/contract';
import type { BffConfig } from '../config.js';
import { ApiError, errors } from '../errors.js';
import type { Logger } from '../log.js';
import type { CheckoutPatch, CheckoutRecord, NotificationSettle, OutboxEvent, Store } from '../store/types.js';
import type { Upstream } from '../upstream.js';
import type { CheckoutEvent, WebhookEvent } from '../events.js';
import type { Telemetry } from '../telemetry.js';
import { finished, type Internal, type Lock } from './internal.js';
import { changeAllowed, isFinal, missingData, timePatch, type Change } from './transitions.js';
import { newId } from './secrets.js';
import { withFunnel } from './funnel.js';

/** How much longer than one provider call a checkout's lease runs before it must be renewed. */
export const LEASE_MARGIN_MS = 2_000;

export interface ServiceDeps {
  config: BffConfig;
  store: Store;
  upstream: Upstream;
  logger: Logger;
  now: () => number;
  onFinal: (event: CheckoutEvent) => void;
  /** Webhook events, written with the change they report (absent: no webhook configured). */
  webhook?: { enabled: boolean; event(e: WebhookEvent): OutboxEvent };
  /** Waits between tries of a write the store refused (default: real time, jittered backoff). */
  sleep?: (ms: number) => Promise<void>;
  /** Told of each change written and each checkout created (telemetry.ts). */
  telemetry?: Pick<Telemetry, 'changed' | 'created'>;
}

/**
 * Writes that never change a checkout's state: a launch token, a hand-off link, what
 * reconciliation asked, the bank a link payment came from, the bank the payer chose in the list.
 */
const NO_STATE = ['launch', 'handoff', 'reconcile', 'paying-bank', 'bank-chosen'] as const;
type NoStateChange = (typeof NO_STATE)[number];

/** What a change does while a call is with the bank: refused (409), left for later, or made (it touches nothing the call writes). */
export type WhenBusy = 'refuse' | 'skip' | 'allow';

export interface ChangeOptions {
  whenBusy?: WhenBusy;
  /** Webhook events the change reports besides a checkout's outcome, written with it. */
  events?: (rec: CheckoutRecord) => OutboxEvent[];
  /** A stored result of the provider, marked as settled in the same transaction (only by the request that writes it). */
  settle?: (changed: boolean) => NotificationSettle;
  tries?: number;
}

export interface Changed {
  record: CheckoutRecord;
  changed: boolean;
  /** Left as it was because a call is with the bank (`whenBusy: 'skip'`). */
  busy?: boolean;
  /** Whether this request settled the stored result it was given (another request did otherwise). */
  settled?: boolean;
}

/** Thrown when a change other than an action would lead where the declaration does not let it: nothing is written. */
export class UndeclaredChange extends Error {
  constructor(
    readonly from: CheckoutRecord['state'],
    readonly by: Change | NoStateChange,
    readonly to: CheckoutRecord['state'],
  ) {
    super(`checkout: ${by} from ${from} to ${to}, which the declaration does not name there`);
  }
}

export function createDoor(deps: ServiceDeps) {
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
   * Checkouts whose action holds a lock in this process's memory only, by the lock's token. The
   * embedded engine has one writer, this process, so a lock in memory excludes every other
   * request; the lock goes on disk only for the actions whose lapse after a crash means
   * something (transfer and validate: the checkout becomes `unknown`). For the others (login,
   * second login, contract, …) a crash leaves nothing to release, and the action costs one
   * write, not two.
   */
  const inMemory = new Map<string, { token: string; op: CheckoutAction }>();

  const leaseEnd = (busy: Lock) => busy.until ?? busy.since + leaseMs;
  /** The action whose call is with the bank for this checkout now, or null. */
  function inFlight(rec: CheckoutRecord): string | null {
    const mem = inMemory.get(rec.id);
    if (mem) return mem.op;
    const busy = rec.internal.busy;
    return busy && now() <= leaseEnd(busy) ? busy.op : null;
  }

  /**
   * What the merchant is told when a checkout reaches an outcome or `unknown`, and when it leaves
   * `unknown` whichever way (a late answer that moved no money reopens the step the payer can go
   * on from: announced as the doubt was); null otherwise.
   */
  function checkoutEvent(
    before: CheckoutRecord,
    state: CheckoutRecord['state'],
    mode: CheckoutMode,
    internal: Internal,
    source: CheckoutEvent['source'],
  ): CheckoutEvent | null {
    if (before.state === state || !(isFinal(state) || state === 'unknown' || before.state === 'unknown')) return null;
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
   * same transaction (and the stored result it settles, if any), and tells the in-process hook.
   * `before` is the checkout as the action found it (its state is the event's previous state).
   * The furthest funnel step goes with every write (funnel.ts). Null when `from` was stale (or
   * the result was settled by another request).
   */
  async function commit(
    before: CheckoutRecord,
    from: CheckoutRecord,
    patch: CheckoutPatch,
    source: CheckoutEvent['source'],
    settle?: NotificationSettle,
    extra: OutboxEvent[] = [],
  ): Promise<CheckoutRecord | null> {
    patch = withFunnel(from, patch);
    // A checkout that ends keeps only what an ended one needs (internal.ts `finished`).
    if (isFinal(patch.state ?? from.state)) patch = { ...patch, internal: finished(patch.internal ?? from.internal) };
    // A state is entered only with the data its declaration says it holds (declaration.ts `holds`).
    assertHolds(from.id, patch.state ?? from.state, patch.internal ?? from.internal);
    const event = checkoutEvent(before, patch.state ?? from.state, patch.mode ?? from.mode, patch.internal ?? from.internal, source);
    const events = [...(event && deps.webhook?.enabled ? [deps.webhook.event({ type: 'checkout.updated', data: event })] : []), ...extra];
    const written = await store.updateCheckout(from.id, from.version, patch, events, settle);
    if (written) deps.telemetry?.changed(from, written, source);
    if (written && event) deps.onFinal(event);
    return written;
  }

  const reread = async (id: string) => {
    const fresh = await store.getCheckout(id);
    if (!fresh) throw errors.notFound('Checkout');
    return fresh;
  };

  /** 409 for a request whose checkout is held by another request (a call with the bank). */
  const busyConflict = () => errors.conflict('checkout_busy', 'Another request for this checkout is in progress.');

  /**
   * The door for every change that is not a payer's action: `decide` (on the checkout as stored)
   * gives the patch, or null for none; the declaration of the checkout's state must let `by`
   * lead where the patch goes (UndeclaredChange otherwise, nothing written). A concurrent change
   * makes it read the checkout again and decide again (at most `tries` times). While a call is
   * with the bank it is refused, skipped or made, as `whenBusy` says; time alone first settles
   * a lease that lapsed.
   */
  async function change(
    rec: CheckoutRecord,
    by: Change | NoStateChange,
    decide: (rec: CheckoutRecord) => CheckoutPatch | null,
    source: CheckoutEvent['source'],
    opts: ChangeOptions = {},
  ): Promise<Changed> {
    const whenBusy = opts.whenBusy ?? 'refuse';
    for (let i = 0; i < (opts.tries ?? 5); i++) {
      if (by !== 'time') {
        // A lease that lapsed is time's to settle first (a transfer's becomes `unknown`).
        if (rec.internal.busy && !inFlight(rec)) rec = await settle(rec);
        if (inFlight(rec) && whenBusy !== 'allow') {
          if (whenBusy === 'skip') return { record: rec, changed: false, busy: true };
          throw busyConflict();
        }
      }
      const patch = decide(rec);
      if (!patch) {
        const settled = opts.settle ? await store.settleNotification(opts.settle(false)) : undefined;
        return { record: rec, changed: false, ...(settled !== undefined ? { settled } : {}) };
      }
      const to = patch.state ?? rec.state;
      if (!(NO_STATE.includes(by as NoStateChange) ? to === rec.state : changeAllowed(rec.state, by as Change, to)))
        throw new UndeclaredChange(rec.state, by, to);
      const settling = opts.settle?.(true);
      const written = await commit(rec, rec, { ...patch, updatedAt: now() }, source, settling, opts.events?.(rec));
      if (written) return { record: written, changed: true, ...(settling ? { settled: true } : {}) };
      // The result may have been settled by another request (a second delivery of it).
      if (settling && !(await store.notificationOutcomeIs(settling.id, settling.from))) return { record: await reread(rec.id), changed: false, settled: false };
      rec = await reread(rec.id);
    }
    throw errors.conflict('checkout_busy', 'The checkout is being updated; try again.');
  }

  /** Applies what time alone has done (expiry, deadline, a lapsed lock); returns the current record. */
  async function settle(rec: CheckoutRecord): Promise<CheckoutRecord> {
    // An action under way holds the checkout: time waits for it.
    if (inMemory.has(rec.id)) return rec;
    try {
      return (await change(rec, 'time', (r) => timePatch(r, now(), leaseMs, config.linkGraceMinutes * 60_000), 'time', { tries: 3 })).record;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'checkout_busy') return (await store.getCheckout(rec.id)) ?? rec;
      throw err;
    }
  }

  /** Refuses (500, nothing written) a checkout in `state` without the data the state declares it holds. */
  function assertHolds(id: string, state: CheckoutRecord['state'], data: Internal): void {
    const missing = missingData(state, data);
    if (!missing.length) return;
    logger.log('error', 'checkout.undeclared_data', { checkoutId: id, state, missing });
    throw new Error(`checkout ${id} in ${state} lacks ${missing.join(', ')}`);
  }

  return {
    config,
    store,
    upstream,
    logger,
    now,
    leaseMs,
    holder,
    /** Checkouts whose action holds a lock in this process's memory only, by the lock's token. */
    inMemory,
    commit,
    change,
    settle,
    inFlight,
    reread,
    busyConflict,
    assertHolds,
  };
}

export type Door = ReturnType<typeof createDoor>;
