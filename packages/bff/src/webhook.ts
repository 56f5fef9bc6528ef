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
 * A delivery the merchant acknowledged is recorded; when the store cannot take that record (it
 * is down), the instance keeps it in memory and records it as soon as the store answers, before
 * taking any due event, so the acknowledged event is not sent again. An event can still arrive
 * more than once (an instance stopped before it could record): the merchant deduplicates by its id.
 */
import type { Logger } from './log.js';
import type { Telemetry } from './telemetry.js';
import type { WebhookDelivery, WebhookEvent } from './events.js';
import type { OutboxEvent, OutboxRecord, Store } from './store/types.js';
import { createHmac } from 'node:crypto';
import { hmacHex, newId } from './checkout/secrets.js';

export type { WebhookDelivery, WebhookEvent };

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
  /** Told of each delivery tried (telemetry.ts). */
  telemetry?: Pick<Telemetry, 'delivery'>;
}

export function createWebhook(opts: WebhookOptions) {
  const delays = opts.delaysMs ?? RETRY_DELAYS_MS;
  const leaseMs = opts.leaseMs ?? 60_000;
  const enabled = Boolean(opts.url && opts.secret);
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<void> | null = null;
  /** Whether more became due while a drain ran (it then goes round once more). */
  const pending = { again: false };
  const more = () => pending.again;
  /**
   * Deliveries the merchant acknowledged (2xx) whose recording failed (the store did not answer):
   * kept here and recorded as soon as the store answers again, never sent again meanwhile.
   */
  const acknowledged = new Map<string, { deliveredAt: number; type: string; attempt: number }>();

  /** Records the acknowledged deliveries still unrecorded; false when the store still does not answer. */
  async function recordAcknowledged(): Promise<boolean> {
    for (const [id, d] of acknowledged) {
      try {
        await opts.store.settleEvent(id, { deliveredAt: d.deliveredAt });
      } catch {
        return false;
      }
      acknowledged.delete(id);
      opts.logger.log('info', 'webhook.delivered', { eventId: id, type: d.type, attempt: d.attempt, recordedLate: true });
    }
    return true;
  }

  /** The merchant has the event: recorded now, or kept until the store answers (never sent again meanwhile). */
  async function delivered(e: OutboxRecord): Promise<void> {
    const deliveredAt = opts.now();
    try {
      await opts.store.settleEvent(e.id, { deliveredAt });
    } catch (err) {
      acknowledged.set(e.id, { deliveredAt, type: e.type, attempt: e.attempts + 1 });
      opts.logger.log('warn', 'webhook.record_failed', {
        eventId: e.id,
        type: e.type,
        attempt: e.attempts + 1,
        reason: err instanceof Error ? err.message.slice(0, 200) : 'error',
        hint: 'the merchant acknowledged it; it is recorded once the store answers, not sent again',
      });
      return;
    }
    opts.logger.log('info', 'webhook.delivered', { eventId: e.id, type: e.type, attempt: e.attempts + 1 });
  }

  async function deliver(e: OutboxRecord): Promise<void> {
    // Acknowledged already, its recording pending: recorded, not sent again.
    if (acknowledged.has(e.id)) {
      await recordAcknowledged();
      return;
    }
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
        opts.telemetry?.delivery(e.type, 'delivered', opts.now() - e.createdAt);
        await delivered(e);
        return;
      }
      problem = `HTTP ${res.status}`;
    } catch (err) {
      problem = err instanceof Error ? err.message.slice(0, 200) : 'error';
    }
    const delay = delays[e.attempts];
    opts.telemetry?.delivery(e.type, delay === undefined ? 'gave_up' : 'failed');
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
      pending.again = true;
      return running;
    }
    running = (async () => {
      do {
        pending.again = false;
        // What the merchant acknowledged while the store was down comes first: recorded, so no
        // instance takes it for due once the store answers.
        if (!(await recordAcknowledged())) break;
        for (;;) {
          const due = await opts.store.claimDueEvents(opts.now(), leaseMs, 20);
          if (!due.length) break;
          await Promise.all(due.map(deliver));
        }
      } while (more());
    })()
      .catch((err: unknown) => opts.logger.log('error', 'webhook.outbox_failed', { reason: err instanceof Error ? err.message : 'error' }))
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
      timer.unref();
      void drain();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
      if (!(await recordAcknowledged()))
        opts.logger.log('error', 'webhook.unrecorded', {
          eventIds: [...acknowledged.keys()],
          hint: 'the merchant acknowledged these but the store could not record it before the stop: they will be sent again (the merchant deduplicates by id)',
        });
    },
    /** Deliveries acknowledged by the merchant whose recording waits for the store. */
    pendingRecords: (): number => acknowledged.size,
  };
}

export type Webhook = ReturnType<typeof createWebhook>;
