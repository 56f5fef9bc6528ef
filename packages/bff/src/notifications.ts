/**
 * Result notifications of the payment-link service. In order: the signature is verified in
 * constant time (nothing is written when it fails), the notification is stored (deduplicated
 * on its content) before it is acknowledged, then matched to its checkout and applied forward
 * only, and the merchant is told.
 */
import { links, decodeDataReturn, encodeDataReturn, normalizeBase64, verifyNotification } from '@bank-checkout/provider';
import type { BffConfig } from './config.js';
import { ApiError, errors, zodIssues } from './errors.js';
import type { Logger } from './log.js';
import type { CheckoutRecord, NotificationRecord, Store } from './store/types.js';
import type { CheckoutService } from './checkout/service.js';
import type { OutboxEvent } from './store/types.js';
import type { WebhookEvent } from './webhook.js';
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
export function notificationView({ signature, dataReturn, dedupeKey, ...n }: NotificationRecord) {
  return { ...n, ...resultDetails(dataReturn), receivedAt: new Date(n.receivedAt).toISOString() };
}
export type NotificationEvent = ReturnType<typeof notificationView>;

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

  async function match(data: links.DataReturn, hint: string | undefined): Promise<CheckoutRecord | null> {
    const candidates = hint
      ? [await store.getCheckout(hint)].filter((r): r is CheckoutRecord => r !== null)
      : await store.findCheckoutsByReference(data.reference);
    // A result only counts for a checkout of the same reference and amount, in a link mode.
    return candidates.find((r) => r.reference === data.reference && r.amount === data.amount && r.mode !== 'native') ?? null;
  }

  /** Matches and applies a stored notification; the checkout it moved (or null) and the notification as now stored. */
  async function apply(n: NotificationRecord, data: links.DataReturn, hint: string | undefined, source: 'notification' | 'return', first: boolean) {
    const rec = await match(data, hint);
    if (!rec) {
      const patch = { outcome: 'unmatched', checkoutId: null } as const;
      await store.updateNotification(n.id, patch, eventsFor({ ...n, ...patch }, first));
      logger.log('warn', 'notification.unmatched', { notificationId: n.id, status: data.status });
      return { checkout: null, stored: { ...n, ...patch } };
    }
    const settled = await service.settle(rec);
    const { record, changed } = await service.applyLinkResult(settled, data.status, data.transactionId, source);
    // Paid at the bank's page: which bank, read from the provider afterwards (not waited for).
    if (changed && record.state === 'succeeded') void service.payingBank.learn(record);
    const patch = { outcome: changed ? 'applied' : 'ignored', checkoutId: rec.id } as const;
    await store.updateNotification(n.id, patch, eventsFor({ ...n, ...patch }, first));
    logger.log('info', 'notification.applied', { notificationId: n.id, checkoutId: rec.id, status: data.status, changed, state: record.state });
    return { checkout: record, stored: { ...n, ...patch } };
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
          const { stored } = await apply(n, parsed.data, undefined, 'notification', true);
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
      const keys = [config.provider.apiKey, config.provider.legacy.apiKey];
      let verified = false;
      for (const key of keys) verified = (await verifyNotification(dataReturn, signatureDataReturn, key)) || verified;
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
      const { checkout, stored } = await apply(record, data, hint, source, record.outcome === 'pending');
      if (inserted) deps.onReceived?.(notificationView(stored));
      return { notification: stored, duplicate: !inserted, checkout };
    },
  };
}

export type NotificationReceiver = ReturnType<typeof createNotificationReceiver>;
