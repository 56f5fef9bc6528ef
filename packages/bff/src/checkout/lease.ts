/**
 * The lease of a checkout's lock while its action runs and its answer is written (act.ts takes
 * the lock; this keeps it). Renewed every third of the lease, each renewal a compare-and-set on
 * the checkout's version; once lost (another write took the lock: time settled it, another
 * instance holds it) never renewed again; once run out by this instance's clock, never again
 * one a call may leave under (`timeLeft` is 0: the fence of act.ts). Besides the door, the only
 * writer of a checkout: it writes the lock alone.
 */
import type { Logger } from '../log.js';
import type { CheckoutRecord, Store } from '../store/types.js';

export interface LeaseDeps {
  store: Store;
  logger: Logger;
  now: () => number;
  leaseMs: number;
}

/**
 * Keeps the lease of a locked checkout while its action runs and its answer is written:
 * renewed every third of the lease, each renewal a compare-and-set. Writes of the holder go
 * through `serial`, one at a time with the renewals. `current` is the checkout as last written
 * by the holder; `lost` once the lease belongs to it no more.
 */
export function holdLease(locked: CheckoutRecord, token: string, { store, logger, now, leaseMs }: LeaseDeps) {
  let current = locked;
  let lost = false;
  /** The lease ran out at least once (by this instance's clock): no call may leave under it any more. */
  let lapsed = false;
  let stopped = false;
  const until = () => (current.internal.busy?.token === token ? (current.internal.busy.until ?? 0) : 0);
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = chain.then(work);
    chain = run.catch(() => undefined);
    return run;
  };
  const renew = async () => {
    const busy = current.internal.busy;
    if (stopped || lost || !busy) return;
    // Renewed all the same (the answer of a call already sent is still to be written), but a
    // lease that ran out is never again one a call may leave under (fence).
    if (now() > until()) lapsed = true;
    try {
      // A renewal also answers a reader that found the lease overdue: the holder is alive.
      const { overdueSince: _, ...lock } = busy;
      const renewed = await store.updateCheckout(current.id, current.version, {
        internal: { ...current.internal, busy: { ...lock, until: now() + leaseMs } },
      });
      if (renewed) current = renewed;
      else {
        // Another write came between (a launch token, say): the lease is still ours if its token is.
        const fresh = await store.getCheckout(current.id);
        if (fresh?.internal.busy?.token === token) current = fresh;
        else {
          // Taken over (time settled it, another instance holds it): never renewed again.
          lost = true;
          logger.log('warn', 'checkout.lease_lost', { checkoutId: locked.id, op: busy.op });
        }
      }
    } catch (err) {
      // The store is away for a moment: the next renewal tries again.
      logger.log('warn', 'checkout.lease_not_renewed', { checkoutId: locked.id, reason: err instanceof Error ? err.message : 'error' });
    }
  };
  const timer = setInterval(() => void serial(renew), Math.max(50, Math.floor(leaseMs / 3)));
  timer.unref();
  return {
    get current() {
      return current;
    },
    set current(r: CheckoutRecord) {
      current = r;
    },
    serial,
    /** Renews the lease now (one compare-and-set), after any write of the holder under way. */
    renewNow: () => serial(renew),
    /**
     * How long the lease still covers a call sent now: 0 once it ran out (even if renewed
     * since), once it was lost, or once it no longer holds this lock.
     */
    timeLeft(): number {
      if (lost || lapsed) return 0;
      const left = until() - now();
      if (left <= 0) lapsed = true;
      return Math.max(0, left);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await chain;
    },
  };
}

export type Lease = ReturnType<typeof holdLease>;
