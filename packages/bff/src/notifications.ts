/**
 * Result notifications of the payment-link service. In order: the signature is verified in
 * constant time (nothing is written when it fails), the notification is stored (deduplicated
 * on its content) before it is acknowledged, then matched to its checkout and applied forward
 * only, and the merchant is told.
 */
import { links, decodeDataReturn, encodeDataReturn, normalizeBase64 } from '@bank-checkout/provider';
import { verifiesResult } from './result-signature.js';
import type { BffConfig } from './config.js';
import { ApiError, errors, zodIssues } from './errors.js';
import type { Logger } from './log.js';
import type { CheckoutRecord, NotificationRecord, NotificationSettle, Store } from './store/types.js';
import type { CheckoutService } from './checkout/service.js';
import type { OutboxEvent } from './store/types.js';
import type { NotificationEvent, WebhookEvent } from './events.js';
import { newId, sha256Hex } from './checkout/secrets.js';

export const MAX_DATA_RETURN = 16 * 1024;

const looksLikeJson = (value: string) => value.trimStart().startsWith('{');

/** The result's own texts the merchant also sees: what the payer's bank said, and what was sent at creation. */
function resultDetails(dataReturn: string) {
  const parsed = links.dataReturn.partial().safeParse(decodeDataReturn(dataReturn));
  const d = parsed.success ? parsed.data : {};
  return { description: d.description ?? null, customData: d.customData ?? null, accountDestiny: d.accountDestiny ?? null };
}

/**
 * A stored notification as the merchant sees it (listing, hook and webhook): what the provider
 * said and what the BFF did with it; the raw `dataReturn` and its signature stay in the store.
 * An `unreadable` one verified but could not be understood: it is kept for the merchant, and
 * the provider is asked to send it again.
 */
export function notificationView({ signature, dataReturn, dedupeKey, ...n }: NotificationRecord): NotificationEvent {
  return { ...n, ...resultDetails(dataReturn), receivedAt: new Date(n.receivedAt).toISOString() };
}
export type { NotificationEvent };

export interface Received {
  notification: NotificationRecord;
  duplicate: boolean;
  checkout: CheckoutRecord | null;
}

export function createNotificationReceiver(deps: {
  config: BffConfig;
  store: Store;
  service: CheckoutService;
  logger: Logger;
  now: () => number;
  /** Told once per new notification, after it is stored and applied (never for a duplicate). */
  onReceived?: (event: NotificationEvent) => void;
  /** Webhook events, written with the notification's outcome (absent: no webhook configured). */
  webhook?: { enabled: boolean; event(e: WebhookEvent): OutboxEvent };
}) {
  const { config, store, service, logger, now } = deps;
  /** The `notification.received` event of a first delivery, written in the same transaction as its outcome. */
  const eventsFor = (n: NotificationRecord, first: boolean): OutboxEvent[] =>
    first && deps.webhook?.enabled ? [deps.webhook.event({ type: 'notification.received', data: notificationView(n) })] : [];

  /**
   * The checkout a result is for: the one the BFF's own URLs name (`hint`), else those of its
   * reference; of the same reference and amount, and bound to the payment it was issued for: a
   * checkout that signed a payment link, with the payment begun (`dateInitPayment`) between that
   * signing and the link's end (its expiry and grace period), give or take the clocks' skew. An
   * old signed result replayed onto a newer checkout of the same reference is for none.
   */
  async function match(data: links.DataReturn, hint: string | undefined): Promise<CheckoutRecord | null> {
    const candidates = hint
      ? [await store.getCheckout(hint)].filter((r): r is CheckoutRecord => r !== null)
      : await store.findCheckoutsByReference(data.reference);
    return candidates.find((r) => r.reference === data.reference && r.amount === data.amount && boundTo(r, data.dateInitPayment)) ?? null;
  }

  const skewMs = config.provider.clockSkewSeconds * 1000;
  /** Whether a payment begun at `begunAt` may be this checkout's (a link it signed, in the link's time). */
  function boundTo(r: CheckoutRecord, begunAt: number): boolean {
    // A checkout stored before the signing time was kept: its link mode and its creation stand for it.
    const signedAt = r.internal.linkSignedAt ?? (r.mode !== 'native' ? r.createdAt : undefined);
    if (signedAt === undefined) return false;
    const end = r.expiresAt + config.linkGraceMinutes * 60_000;
    return begunAt >= signedAt - skewMs && begunAt <= end + skewMs;
  }

  /**
   * Matches and applies a stored notification, and settles it with what it did, in one
   * transaction with the checkout's change: of several deliveries of one result (at once, on any
   * instance), one settles it and writes its event; the others change nothing. A checkout with a
   * call at the bank is left alone: the result stays pending for the sweeper.
   */
  async function apply(n: NotificationRecord, data: links.DataReturn, hint: string | undefined, source: 'notification' | 'return', first: boolean) {
    const from = n.outcome === 'unmatched' ? (['unmatched'] as const) : (['pending'] as const);
    const settle = (outcome: NotificationRecord['outcome'], checkoutId: string | null): NotificationSettle => ({
      id: n.id,
      from,
      to: { outcome, checkoutId },
      events: eventsFor({ ...n, outcome, checkoutId }, first),
    });
    const rec = await match(data, hint);
    if (!rec) {
      const settled = n.outcome === 'unmatched' || (await store.settleNotification(settle('unmatched', null)));
      if (settled) logger.log('warn', 'notification.unmatched', { notificationId: n.id, status: data.status });
      return { checkout: null, stored: { ...n, outcome: 'unmatched' as const, checkoutId: null }, settled: settled && n.outcome !== 'unmatched' };
    }
    const applied = await service.applyLinkResult(rec, data.status, data.transactionId, source, (changed) => settle(changed ? 'applied' : 'ignored', rec.id));
    if (applied.busy) {
      logger.log('info', 'notification.deferred', { notificationId: n.id, checkoutId: rec.id });
      return { checkout: applied.record, stored: n, settled: false };
    }
    // Paid at the bank's page: which bank, read from the provider afterwards (not waited for).
    if (applied.changed && applied.record.state === 'succeeded') void service.payingBank.learn(applied.record);
    const stored = (await store.getNotification(n.id)) ?? n;
    if (applied.settled)
      logger.log('info', 'notification.applied', {
        notificationId: n.id,
        checkoutId: rec.id,
        status: data.status,
        changed: applied.changed,
        state: applied.record.state,
      });
    return { checkout: applied.record, stored, settled: applied.settled === true };
  }

  return {
    /**
     * Applies the notifications stored but not applied (a crash or a database error came between
     * the two), received before `before`: a request still applying its own is left to it.
     * Applying is idempotent (results only move forward). Returns how many were applied.
     */
    async sweepPending(before: number, limit = 100): Promise<number> {
      let done = 0;
      for (const n of await store.listPendingNotifications(before, limit)) {
        const parsed = links.dataReturn.safeParse(decodeDataReturn(n.dataReturn));
        if (!parsed.success) continue;
        try {
          const { stored, settled } = await apply(n, parsed.data, undefined, 'notification', true);
          if (!settled) continue;
          deps.onReceived?.(notificationView(stored));
          done++;
        } catch (err) {
          logger.log('error', 'notification.sweep_failed', { notificationId: n.id, reason: err instanceof Error ? err.message : 'error' });
        }
      }
      return done;
    },

    /** Verifies, stores, deduplicates and applies one notification. Throws ApiError on bad input. */
    async receive(
      input: { dataReturn: unknown; signatureDataReturn: unknown; hint?: string | undefined },
      source: 'notification' | 'return',
    ): Promise<Received> {
      const { dataReturn, signatureDataReturn } = input;
      if (typeof dataReturn !== 'string' || typeof signatureDataReturn !== 'string' || !dataReturn || !signatureDataReturn) {
        throw errors.validation([{ path: 'dataReturn', message: 'dataReturn and signatureDataReturn are required strings' }]);
      }
      if (dataReturn.length > MAX_DATA_RETURN || signatureDataReturn.length > 512) throw errors.tooLarge();
      // Results of links made with the earlier variant are signed with its own key.
      const verified = await verifiesResult(config.provider, dataReturn, signatureDataReturn);
      if (!verified) {
        logger.log('warn', 'notification.rejected', { reason: 'signature' });
        throw new ApiError(401, 'invalid_signature', 'The notification signature does not verify.');
      }
      const raw = looksLikeJson(dataReturn) ? encodeDataReturn(dataReturn) : normalizeBase64(dataReturn.replace(/ /g, '+'));
      const parsed = links.dataReturn.safeParse(decodeDataReturn(raw));
      const base = {
        id: newId('ntf'),
        dedupeKey: await sha256Hex(raw),
        receivedAt: now(),
        dataReturn: raw,
        signature: signatureDataReturn.trim(),
        verified: true,
        checkoutId: null,
      };
      if (!parsed.success) {
        // Signed by the provider yet not understood: a payment result must not be dropped. It
        // is kept as received for the merchant to see, and the provider is asked to retry.
        const unreadable: NotificationRecord = { ...base, status: '', transactionId: '', reference: '', amount: 0, outcome: 'unreadable' };
        const { inserted, record } = await store.insertNotification(unreadable, eventsFor(unreadable, true));
        logger.log('error', 'notification.unreadable', {
          notificationId: record.id,
          issues: zodIssues(parsed.error.issues)
            .map((i) => `dataReturn.${i.path}`)
            .join(', '),
        });
        if (inserted) deps.onReceived?.(notificationView(record));
        throw new ApiError(
          503,
          'notification_unreadable',
          'The notification verifies but could not be read; it is kept for the merchant. Send it again later.',
        );
      }
      const data = parsed.data;
      const hint = input.hint && /^[A-Za-z0-9_-]{1,64}$/.test(input.hint) ? input.hint : undefined;
      const { inserted, record } = await store.insertNotification({
        ...base,
        status: data.status,
        transactionId: data.transactionId,
        reference: data.reference,
        amount: data.amount,
        outcome: 'pending',
      });
      // A duplicate whose first delivery was stored but not applied (a crash between the two),
      // or matched no checkout (anyone holding the signed result may post it first with another
      // checkout's hint), is applied now; applying is idempotent because results only move forward.
      const retry = inserted || record.outcome === 'pending' || record.outcome === 'unmatched';
      if (!retry) return { notification: record, duplicate: true, checkout: record.checkoutId ? await store.getCheckout(record.checkoutId) : null };
      const { checkout, stored, settled } = await apply(record, data, hint, source, record.outcome === 'pending');
      // Told once, by the request that settled the result (whichever delivery that was).
      if (settled && record.outcome === 'pending') deps.onReceived?.(notificationView(stored));
      return { notification: stored, duplicate: !inserted, checkout };
    },
  };
}

export type NotificationReceiver = ReturnType<typeof createNotificationReceiver>;
