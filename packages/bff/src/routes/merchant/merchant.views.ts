/**
 * What the merchant API shows of the BFF's records: a checkout (never its session data), a page's
 * credential, an event of the webhook and how its delivery went.
 */
import type { z } from '@hono/zod-openapi';
import type { webhookEventEntry } from '@bank-checkout/contract/schemas';
import { toView } from '../../checkout/view.js';
import type { CheckoutRecord, OutboxRecord } from '../../store/types.js';
import type { RouteDeps } from '../../parts.js';

/** What the merchant sees of a checkout: the view plus link-service ids and a periodic order's schedule, never session data. */
export function merchantCheckoutView(p: Pick<RouteDeps, 'config' | 'upstream'>, rec: CheckoutRecord) {
  const i = rec.internal;
  return {
    ...toView(rec, { sandbox: p.config.sandbox, payeeName: p.config.merchant.name, bankInfo: p.upstream.cachedNativeBank }),
    modes: rec.modes,
    customData: rec.customData,
    createdAt: new Date(rec.createdAt).toISOString(),
    updatedAt: new Date(rec.updatedAt).toISOString(),
    ...(i.idDebt ? { idDebt: i.idDebt } : {}),
    ...(i.linkTransactionId ? { providerTransactionId: i.linkTransactionId } : {}),
    ...(rec.mode === 'periodic' && i.schedule ? { schedule: i.schedule } : {}),
    ...(i.resolution
      ? {
          resolution: { outcome: i.resolution.outcome, at: new Date(i.resolution.at).toISOString(), ...(i.resolution.note ? { note: i.resolution.note } : {}) },
        }
      : {}),
    ...(rec.state === 'unknown' && i.doubt
      ? {
          inDoubt: {
            call: i.doubt.op,
            at: new Date(i.doubt.at).toISOString(),
            why: i.doubt.why,
            ...(i.bank ? { bank: { bankId: i.bank.bankId, label: i.bank.label } } : {}),
            ...(i.transactionId ? { providerTransactionId: i.transactionId } : {}),
          },
        }
      : {}),
    ...(i.reconciliation
      ? {
          reconciliation: {
            checkedAt: new Date(i.reconciliation.checkedAt).toISOString(),
            ...(i.reconciliation.codStatus ? { codStatus: i.reconciliation.codStatus } : {}),
            ...(i.reconciliation.done ? { done: i.reconciliation.done } : {}),
          },
        }
      : {}),
    isolation: rec.isolation ?? ('inline' as const),
    ...(rec.launch ? { launch: launchView(rec.launch) } : {}),
  };
}

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/** What the merchant sees of an isolated checkout's launches (never a hash). */
function launchView(l: NonNullable<CheckoutRecord['launch']>) {
  return { redeemedAt: iso(l.redeemedAt), refusals: l.refusals, lastRefusedAt: iso(l.lastRefusedAt) };
}

/** The page's credential of a checkout, as the merchant API answers it. */
export function pageCredential(rec: CheckoutRecord, c: { clientSecret?: string | undefined; launchToken?: string | undefined }) {
  if (c.launchToken) return { launchToken: c.launchToken, launchExpiresAt: new Date(rec.launch!.tokenExpiresAt).toISOString() };
  return c.clientSecret ? { clientSecret: c.clientSecret } : {};
}

/** An outbox row as the merchant sees it. */
export function eventEntry(e: OutboxRecord): z.output<typeof webhookEventEntry> {
  return {
    id: e.id,
    type: e.type,
    createdAt: new Date(e.createdAt).toISOString(),
    status: e.deliveredAt !== null ? 'delivered' : e.failedAt !== null ? 'failed' : 'pending',
    attempts: e.attempts,
    nextAttemptAt: e.deliveredAt === null && e.failedAt === null ? iso(e.nextAttemptAt) : null,
    deliveredAt: iso(e.deliveredAt),
    failedAt: iso(e.failedAt),
    lastError: e.lastError,
    data: e.data,
  };
}
