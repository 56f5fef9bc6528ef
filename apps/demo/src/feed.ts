/**
 * The console's live feed. The BFF posts a signed webhook when a checkout changes
 * (`checkout.updated`) and when a result notification arrives (`notification.received`, results
 * of payment links included), with `X-Bank-Checkout-Signature: t=<ms>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">`; the shop verifies it in constant time and pushes the new row to every open
 * console over Server-Sent Events. While a console is open the feed also reads the BFF's
 * notifications every few seconds, so nothing is missed when a webhook is lost or not set up.
 */
import { verifyWebhook, WebhookSignatureError } from '@bank-checkout/bff/client';
import { dateTime, euros } from './format.js';
import type { MerchantClient, StoredNotification } from './merchant.js';

/** One table row, as cells of text: the server renders it and the console's script builds it. */
export interface FeedRow {
  id: string;
  cells: { text: string; className?: string }[];
  /** What a screen reader hears when the row arrives. */
  announce: string;
}

export interface CheckoutUpdate {
  checkoutId: string;
  reference: string;
  amount: number;
  state: string;
  previousState: string;
  source: string;
  receivedAt: number;
}

export type FeedEvent = { type: 'notification'; row: FeedRow } | { type: 'checkout'; row: FeedRow };

const WEBHOOK_TOLERANCE_MS = 5 * 60_000;
const MAX_WEBHOOK_BYTES = 64 * 1024;
const KEEP = 50;

/** What the BFF did with a notification, in words. */
const OUTCOMES: Record<StoredNotification['outcome'], string> = {
  applied: 'applied to checkout',
  ignored: 'already known for checkout',
  unmatched: 'payment link (no checkout)',
  pending: 'being applied',
  unreadable: 'signed but unreadable: kept, the provider will send it again',
};

export function notificationRow(n: StoredNotification): FeedRow {
  const ok = n.status === '200';
  return {
    id: n.id,
    cells: [
      { text: dateTime(n.receivedAt, true), className: 'when' },
      { text: ok ? '200 OK' : n.status, className: ok ? 'badge ok' : 'badge error' },
      { text: n.reference },
      { text: euros(n.amount), className: 'num' },
      { text: n.verified ? 'Verified' : 'Not verified', className: n.verified ? 'badge ok' : 'badge error' },
      { text: `${OUTCOMES[n.outcome]}${n.checkoutId ? ` ${n.checkoutId}` : ''} · transaction ${n.transactionId}`, className: 'detail' },
    ],
    announce: `Notification ${ok ? 'OK' : n.status} for ${n.reference}, ${euros(n.amount)}.`,
  };
}

export function checkoutRow(u: CheckoutUpdate): FeedRow {
  return {
    id: `${u.checkoutId}:${u.state}`,
    cells: [
      { text: dateTime(u.receivedAt, true), className: 'when' },
      { text: u.state, className: u.state === 'succeeded' ? 'badge ok' : u.state === 'unknown' ? 'badge' : 'badge error' },
      { text: u.reference },
      { text: euros(u.amount), className: 'num' },
      { text: 'Verified', className: 'badge ok' },
      { text: `${u.previousState} → ${u.state} (${u.source}) · ${u.checkoutId}`, className: 'detail' },
    ],
    announce: `Checkout ${u.reference} ${u.state}.`,
  };
}

const OUTCOME_NAMES = Object.keys(OUTCOMES);

/** A `notification.received` webhook's data, as the BFF lists notifications. */
function isStoredNotification(d: Record<string, unknown>): d is Record<string, unknown> & StoredNotification {
  const text = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 200;
  return (
    text(d.id) &&
    text(d.receivedAt) &&
    text(d.status) &&
    typeof d.transactionId === 'string' &&
    typeof d.reference === 'string' &&
    Number.isInteger(d.amount) &&
    typeof d.verified === 'boolean' &&
    (d.checkoutId === null || typeof d.checkoutId === 'string') &&
    OUTCOME_NAMES.includes(d.outcome as string)
  );
}

export function createFeed(opts: {
  merchant: MerchantClient;
  webhookSecret?: string;
  intervalMs: number;
  now: () => number;
  /** Each checkout update of a verified webhook (the shop empties a paid cart at once). */
  onCheckoutUpdate?: (update: CheckoutUpdate) => void;
}) {
  const listeners = new Set<(e: FeedEvent) => void>();
  const seen = new Set<string>();
  /** Webhook event ids already handled (the BFF may deliver one twice). */
  const handled = new Set<string>();
  const updates: CheckoutUpdate[] = [];
  let timer: ReturnType<typeof setInterval> | null = null;
  let refreshing: Promise<void> | null = null;

  const broadcast = (e: FeedEvent) => {
    for (const l of listeners) l(e);
  };

  /** The latest notifications, oldest first. */
  const latest = async (): Promise<StoredNotification[]> => {
    const res = await opts.merchant.notifications(KEEP);
    return res.ok ? [...res.data.notifications].reverse() : [];
  };

  /** Reads the latest notifications and announces the ones not announced before. */
  const refresh = (): Promise<void> =>
    (refreshing ??= latest()
      .then((list) => {
        for (const n of list) {
          if (seen.has(n.id)) continue;
          seen.add(n.id);
          broadcast({ type: 'notification', row: notificationRow(n) });
        }
        // Bounded: only ids that can still come back in a listing are worth keeping.
        if (seen.size > KEEP * 20) {
          const keep = new Set(list.map((n) => n.id));
          for (const id of seen) if (!keep.has(id)) seen.delete(id);
        }
      })
      .finally(() => {
        refreshing = null;
      }));

  return {
    /** Handles a webhook delivery (its headers and raw body): 401 unless signed with the shared secret, 400 for bad JSON. */
    async receive(headers: Headers, body: string): Promise<{ status: 200 | 400 | 401 | 413; code: string }> {
      if (body.length > MAX_WEBHOOK_BYTES) return { status: 413, code: 'payload_too_large' };
      if (!opts.webhookSecret) return { status: 401, code: 'invalid_signature' };
      let event: { id?: unknown; type?: unknown; data?: Record<string, unknown> } | null;
      try {
        event = (await verifyWebhook(body, headers, opts.webhookSecret, {
          now: opts.now(),
          toleranceMs: WEBHOOK_TOLERANCE_MS,
        })) as typeof event;
      } catch (err) {
        if (!(err instanceof WebhookSignatureError)) throw err;
        return err.message === 'body is not JSON' ? { status: 400, code: 'invalid_json' } : { status: 401, code: 'invalid_signature' };
      }
      // A retried delivery of an event already shown changes nothing.
      if (typeof event?.id === 'string') {
        if (handled.has(event.id)) return { status: 200, code: 'duplicate' };
        handled.add(event.id);
        if (handled.size > KEEP * 20) handled.delete(handled.values().next().value!);
      }
      const d = event?.data;
      if (event?.type === 'checkout.updated' && d && typeof d.checkoutId === 'string' && typeof d.state === 'string') {
        const update: CheckoutUpdate = {
          checkoutId: d.checkoutId,
          reference: typeof d.reference === 'string' ? d.reference : '',
          amount: typeof d.amount === 'number' ? d.amount : 0,
          state: d.state,
          previousState: typeof d.previousState === 'string' ? d.previousState : '',
          source: typeof d.source === 'string' ? d.source : '',
          receivedAt: opts.now(),
        };
        updates.unshift(update);
        updates.length = Math.min(updates.length, KEEP);
        broadcast({ type: 'checkout', row: checkoutRow(update) });
        opts.onCheckoutUpdate?.(update);
      }
      if (event?.type === 'notification.received' && d && isStoredNotification(d)) {
        if (!seen.has(d.id)) {
          seen.add(d.id);
          broadcast({ type: 'notification', row: notificationRow(d) });
        }
        return { status: 200, code: 'received' };
      }
      // A notification may have come with it (a redirect or periodic result): read them now.
      if (listeners.size) void refresh();
      return { status: 200, code: 'received' };
    },
    /**
     * Listens to the feed. The listener first gets the latest rows (the page it belongs to may
     * have been rendered a moment before something arrived; the console skips rows it shows),
     * then every new one. The returned function stops listening.
     */
    subscribe(listener: (e: FeedEvent) => void): () => void {
      listeners.add(listener);
      for (const u of [...updates].reverse()) listener({ type: 'checkout', row: checkoutRow(u) });
      void latest().then((list) => {
        if (!listeners.has(listener)) return;
        for (const n of list) {
          const e: FeedEvent = { type: 'notification', row: notificationRow(n) };
          if (seen.has(n.id)) listener(e);
          else {
            // New to every open console, not only to the one opening: announced to them all.
            seen.add(n.id);
            broadcast(e);
          }
        }
      });
      timer ??= setInterval(() => void refresh(), opts.intervalMs);
      timer.unref();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
    /** Checkout updates received by webhook, newest first. */
    updates: (): readonly CheckoutUpdate[] => updates,
    get listeners() {
      return listeners.size;
    },
    close(): void {
      listeners.clear();
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

export type Feed = ReturnType<typeof createFeed>;
