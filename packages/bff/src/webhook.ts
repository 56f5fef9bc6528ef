/**
 * The webhook that tells the merchant's server what happened: a checkout reached an outcome
 * (`checkout.updated`), or a result notification of the payment-link service arrived
 * (`notification.received`). Events are rows of the store's outbox, written in the same
 * transaction as the change they report; this dispatcher delivers them.
 *
 * Delivery: `POST MERCHANT_WEBHOOK_URL`, body `{id, type, createdAt, data}`, headers
 * `X-Bank-Checkout-Event-Id`, `X-Bank-Checkout-Event-Type`, `X-Bank-Checkout-Event-Created` and
 * `X-Bank-Checkout-Signature: t=<unix ms>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, and the
 * Standard Webhooks headers (https://www.standardwebhooks.com), which its libraries for every
 * server language verify: `webhook-id` (the event id), `webhook-timestamp` (unix seconds) and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the
 * base64-decoded part of a `whsec_…` secret, or with the secret's own bytes otherwise
 * (webhookKey). A 2xx answer
 * delivers it; anything else is retried with growing delays for about 32 hours (RETRY_DELAYS_MS),
 * across restarts, then the event is marked failed and can be sent again with the merchant
 * API's redeliver call. Several instances share the outbox: each event is leased to one.
 * An event can arrive more than once: the merchant deduplicates by its id.
 */
import type { z } from 'zod';
import type { webhookEventBody } from '@bank-checkout/contract/schemas';
import type { Logger } from './log.js';
import type { CheckoutEvent } from './checkout/service.js';
import type { NotificationEvent } from './notifications.js';
import type { LaunchRefusedEvent } from './checkout/launch.js';
import type { OutboxEvent, OutboxRecord, Store } from './store/types.js';
import { createHmac } from 'node:crypto';
import { hmacHex, newId } from './checkout/secrets.js';

export type WebhookEvent =
  | { type: 'checkout.updated'; data: CheckoutEvent }
  | { type: 'notification.received'; data: NotificationEvent }
  | { type: 'checkout.launch_refused'; data: LaunchRefusedEvent };

/**
 * What the merchant receives: the event with its id and creation time. It is one of the
 * contract's `webhookEventBody` (which documents every event): checked here, when compiled.
 */
export type WebhookDelivery = Conforming<WebhookEvent & { id: string; createdAt: string }>;
type Conforming<T extends z.output<typeof webhookEventBody>> = T;

/** Waits before each retry: 10 s, 30 s, 1, 2, 5, 10, 30 min, 1, 2, 4, then 8 h three times (about 32 h in all). */
export const RETRY_DELAYS_MS = [10, 30, 60, 120, 300, 600, 1_800, 3_600, 7_200, 14_400, 28_800, 28_800, 28_800].map((s) => s * 1000);

/** What a log line about an event names: its type and the id of what it is about. */
export function eventSubject(event: WebhookEvent): Record<string, string> {
  return event.type === 'notification.received' ? { type: event.type, notificationId: event.data.id } : { type: event.type, checkoutId: event.data.checkoutId };
}

/** The prefix of a Standard Webhooks secret: `whsec_` and the key in base64. */
export const WHSEC = 'whsec_';

/**
 * The HMAC key of the `webhook-signature` header: a `whsec_` secret's base64 part decoded (what
 * Standard Webhooks libraries do with it), any other secret's UTF-8 bytes (what they do with a
 * secret given as raw).
 */
export function webhookKey(secret: string): Buffer {
  return secret.startsWith(WHSEC) ? Buffer.from(secret.slice(WHSEC.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** The Standard Webhooks headers of one delivery sent at `nowMs`. */
export function standardWebhookHeaders(secret: string, id: string, nowMs: number, body: string): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const signature = createHmac('sha256', webhookKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

/** A new outbox row for `event`. */
export function outboxEvent(event: WebhookEvent, now: number): OutboxEvent {
  return { id: newId('evt'), type: event.type, createdAt: now, data: event.data };
}

export interface WebhookOptions {
  store: Store;
  url?: string;
  secret?: string;
  fetch: typeof fetch;
  logger: Logger;
  now: () => number;
  delaysMs?: number[];
  /** How often the outbox is looked at for due events (default 5 s). */
  pollMs?: number;
  /** How long an instance holds the events it took (default 60 s). */
  leaseMs?: number;
}

export function createWebhook(opts: WebhookOptions) {
  const delays = opts.delaysMs ?? RETRY_DELAYS_MS;
  const leaseMs = opts.leaseMs ?? 60_000;
  const enabled = Boolean(opts.url && opts.secret);
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<void> | null = null;
  let again = false;

  async function deliver(e: OutboxRecord): Promise<void> {
    const created = new Date(e.createdAt).toISOString();
    const body = JSON.stringify({ id: e.id, type: e.type, createdAt: created, data: e.data });
    const sentAt = opts.now();
    const t = String(sentAt);
    let problem: string;
    try {
      const res = await opts.fetch(opts.url!, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Bank-Checkout-Event-Id': e.id,
          'X-Bank-Checkout-Event-Type': e.type,
          'X-Bank-Checkout-Event-Created': created,
          'X-Bank-Checkout-Signature': `t=${t},v1=${await hmacHex(opts.secret!, `${t}.${body}`)}`,
          ...standardWebhookHeaders(opts.secret!, e.id, sentAt, body),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await res.body?.cancel().catch(() => {});
      if (res.ok) {
        await opts.store.settleEvent(e.id, { deliveredAt: opts.now() });
        opts.logger.log('info', 'webhook.delivered', { eventId: e.id, type: e.type, attempt: e.attempts + 1 });
        return;
      }
      problem = `HTTP ${res.status}`;
    } catch (err) {
      problem = err instanceof Error ? err.message.slice(0, 200) : 'error';
    }
    const delay = delays[e.attempts];
    if (delay === undefined) {
      await opts.store.settleEvent(e.id, { failedAt: opts.now(), lastError: problem });
      opts.logger.log('error', 'webhook.gave_up', { eventId: e.id, type: e.type, attempts: e.attempts + 1, reason: problem });
      return;
    }
    await opts.store.settleEvent(e.id, { nextAttemptAt: opts.now() + delay, lastError: problem });
    opts.logger.log('warn', 'webhook.failed', { eventId: e.id, type: e.type, attempt: e.attempts + 1, retryInMs: delay, reason: problem });
  }

  /** Delivers every event due now, a batch at a time; concurrent calls share one run. */
  function drain(): Promise<void> {
    if (!enabled) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        for (;;) {
          const due = await opts.store.claimDueEvents(opts.now(), leaseMs, 20);
          if (!due.length) break;
          await Promise.all(due.map(deliver));
        }
      } while (again);
    })()
      .catch((err) => opts.logger.log('error', 'webhook.outbox_failed', { reason: err instanceof Error ? err.message : 'error' }))
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    /** Whether events are written at all (a webhook URL and its secret are configured). */
    enabled,
    event: (event: WebhookEvent): OutboxEvent => outboxEvent(event, opts.now()),
    /** Delivers what is due now, without waiting for the next poll. */
    kick(): void {
      void drain();
    },
    drain,
    start(): void {
      if (!enabled || timer) return;
      timer = setInterval(() => void drain(), opts.pollMs ?? 5_000);
      timer.unref?.();
      void drain();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

export type Webhook = ReturnType<typeof createWebhook>;
