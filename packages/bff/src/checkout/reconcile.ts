/**
 * Reconciliation with the provider: a checkout whose payer went to the bank's page and whose
 * signed result never came (the provider's notifications and the payer's return were all lost,
 * to a long outage of the store, say) is looked up in the provider's order query
 * (`info/payment-orders`), by the order the link created (`idDebt`). An order `OK` moves the
 * checkout as a success result would, `ERROR` as a failure; `PENDING` is asked again later. A
 * signed result, when one arrives, remains the source: the query only fills its absence, and
 * results only move forward.
 *
 * The sweeper runs it under its lease (one instance at a time): every RECONCILE_SECONDS a
 * waiting checkout is asked about, from RECONCILE_SECONDS after its link was signed until
 * RECONCILE_HORIZON_HOURS after it expired; then it is given up on (the merchant sees it
 * expired, with what the query last said).
 */
import type { PaymentOrder } from '@bank-checkout/provider';
import type { CheckoutRecord } from '../store/types.js';
import type { Core } from './core.js';
import type { linkActions } from './links.js';

/** Most orders the query is paged through in one round (300 a page). */
const MAX_PAGES = 10;

export function reconcileActions(core: Core, links: ReturnType<typeof linkActions>) {
  const { config, reader, upstream, logger, now } = core;
  const everyMs = config.reconcile.everySeconds * 1000;
  const horizonMs = config.reconcile.horizonHours * 3_600_000;
  const skewMs = config.provider.clockSkewSeconds * 1000;

  /** Marks what the query said of a checkout (no state of its own changes). */
  const mark = (rec: CheckoutRecord, reconciliation: NonNullable<CheckoutRecord['internal']['reconciliation']>) =>
    core
      .change(rec, 'reconcile', (r) => ({ internal: { ...r.internal, reconciliation } }), 'time', { whenBusy: 'allow' })
      .catch((err: unknown) => {
        logger.log('warn', 'reconcile.not_marked', { checkoutId: rec.id, reason: err instanceof Error ? err.message : 'error' });
      });

  /** Applies an order's outcome to its checkout: as a success or a failure result would. */
  async function settle(rec: CheckoutRecord, order: PaymentOrder): Promise<boolean> {
    const status = order.codStatus === 'OK' ? '200' : 'E300';
    const { record, changed, busy } = await links.applyLinkResult(rec, status, undefined, 'reconciliation');
    if (busy) return false;
    await mark(record, { checkedAt: now(), done: 'found', codStatus: order.codStatus });
    logger.log('info', 'reconcile.found', { checkoutId: rec.id, codStatus: order.codStatus, changed, state: record.state });
    return changed;
  }

  /**
   * One round: the checkouts due, and the provider's orders since the earliest of their links
   * was signed (paged, oldest first). Returns how many checkouts it moved.
   */
  async function run(limit = 100): Promise<number> {
    const at = now();
    // Expired ones up to twice the horizon back, so that those past it are marked as given up on once.
    const due = await reader.findAwaitingLinkResult(at - everyMs, at - 2 * horizonMs, limit);
    if (!due.length) return 0;
    const byOrder = new Map(due.map((r) => [r.internal.idDebt!, r]));
    const since = Math.min(...due.map((r) => r.internal.linkSignedAt ?? r.createdAt)) - skewMs;
    let moved = 0;
    try {
      for (let page = 1; page <= MAX_PAGES && byOrder.size; page++) {
        const res = await upstream.readOnly(() => upstream.links.paymentOrders({ dateFrom: since, pageRequest: page, pageSize: 300, orderAsc: true }));
        for (const order of res.paymentOrders ?? []) {
          const rec = byOrder.get(order.idDebt);
          if (!rec || order.codStatus === 'PENDING') continue;
          byOrder.delete(order.idDebt);
          if (await settle(rec, order)) moved++;
        }
        if (!res.totalPages || page >= res.totalPages) break;
      }
    } catch (err) {
      // The provider cannot tell now: the next round asks again.
      logger.log('warn', 'reconcile.query_failed', { reason: err instanceof Error ? err.message : 'error' });
      return moved;
    }
    // Not found, or not finished at the bank: asked again later, or given up on once past the horizon.
    for (const rec of byOrder.values()) {
      const over = rec.state === 'expired' && at - rec.expiresAt > horizonMs;
      await mark(rec, { checkedAt: at, ...(over ? { done: 'gave-up' as const } : {}) });
    }
    return moved;
  }

  return { run };
}
