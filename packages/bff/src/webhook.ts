/**
 * The optional outbound webhook that tells the merchant's server a checkout reached a final
 * state. Body JSON; header `X-Bank-Checkout-Signature: t=<unix ms>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>" under MERCHANT_WEBHOOK_SECRET>`. Up to 4 attempts with backoff; never blocks
 * the request that caused it.
 */
import type { Logger } from './log.js';
import type { CheckoutEvent } from './checkout/service.js';
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
    send(event: CheckoutEvent): void {
      if (!opts.url || !opts.secret) return;
      const url = opts.url;
      const secret = opts.secret;
      const body = JSON.stringify({ type: 'checkout.updated', data: event });
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
          opts.logger.log('warn', 'webhook.failed', { checkoutId: event.checkoutId, attempt: n + 1, reason: err instanceof Error ? err.message : 'error' });
          if (delay === undefined) return;
          setTimeout(() => void attempt(n + 1), delay).unref?.();
        }
      };
      void attempt(0);
    },
  };
}
