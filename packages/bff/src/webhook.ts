/**
 * The optional outbound webhook that tells the merchant's server what happened: a checkout
 * reached a final state (`checkout.updated`), or a result notification of the payment-link
 * service arrived (`notification.received`, links made through the merchant API included).
 * Body JSON `{type, data}`; header `X-Bank-Checkout-Signature: t=<unix ms>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>" under MERCHANT_WEBHOOK_SECRET>`. Up to 4 attempts with backoff; never blocks
 * the request that caused it.
 */
import type { Logger } from './log.js';
import type { CheckoutEvent } from './checkout/service.js';
import type { NotificationEvent } from './notifications.js';

export type WebhookEvent = { type: 'checkout.updated'; data: CheckoutEvent } | { type: 'notification.received'; data: NotificationEvent };

/** What a log line about an event names: its type and the id of what it is about. */
export function eventSubject(event: WebhookEvent): Record<string, string> {
  return event.type === 'checkout.updated' ? { type: event.type, checkoutId: event.data.checkoutId } : { type: event.type, notificationId: event.data.id };
}
import { hmacHex } from './checkout/secrets.js';

export function createWebhook(opts: {
  url?: string;
  secret?: string;
  fetch: typeof fetch;
  logger: Logger;
  now: () => number;
  delaysMs?: number[];
}) {
  const delays = opts.delaysMs ?? [1_000, 5_000, 30_000];
  return {
    send(event: WebhookEvent): void {
      if (!opts.url || !opts.secret) return;
      const url = opts.url;
      const secret = opts.secret;
      const body = JSON.stringify(event);
      const attempt = async (n: number): Promise<void> => {
        const t = String(opts.now());
        try {
          const res = await opts.fetch(url, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Bank-Checkout-Signature': `t=${t},v1=${await hmacHex(secret, `${t}.${body}`)}` },
            body,
            signal: AbortSignal.timeout(10_000),
          });
          if (res.ok) return;
          throw new Error(`HTTP ${res.status}`);
        } catch (err) {
          const delay = delays[n];
          opts.logger.log('warn', 'webhook.failed', { ...eventSubject(event), attempt: n + 1, reason: err instanceof Error ? err.message : 'error' });
          if (delay === undefined) return;
          setTimeout(() => void attempt(n + 1), delay).unref?.();
        }
      };
      void attempt(0);
    },
  };
}
