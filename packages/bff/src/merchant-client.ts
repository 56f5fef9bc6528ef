/**
 * `@bank-checkout/bff/client`: the merchant API from the shop's server, typed from the
 * contract's schemas, and `verifyWebhook` for the BFF's signed webhooks. It loads no zod, no
 * store and no provider client: only `fetch` and Web Crypto, so it runs on Node.js, Deno, Bun
 * and edge runtimes.
 *
 * ```ts
 * const bff = createMerchantClient({ url: 'https://pay.shop.example', secret: process.env.BFF_MERCHANT_SECRET! });
 * const { id, launchToken } = await bff.createCheckout({ amount: 4840, subject: 'Order 1042', reference: 'ORD-1042' }, { idempotencyKey: cartKey });
 * // Each later load of the payer's page (a reload mid-payment too): a fresh token for the same checkout.
 * const { launchToken: fresh } = await bff.launchCheckout(id);
 * ```
 */
import type { z } from 'zod';
import { ApiClientError } from '@bank-checkout/contract';
import type * as m from '@bank-checkout/contract/schemas';
import type { WebhookDelivery, WebhookEvent } from './webhook.js';

export type { WebhookDelivery, WebhookEvent };
export type MerchantCheckout = z.output<typeof m.merchantCheckout>;
export type CreatedCheckout = z.output<typeof m.createdCheckout>;
export type CheckoutLaunch = z.output<typeof m.checkoutLaunch>;
export type SignedLink = z.output<typeof m.signedLink>;
export type LegacySignedLink = z.output<typeof m.legacySignedLink>;
export type ProviderStatusAnswer = z.output<typeof m.providerStatusAnswer>;
export type PaymentOrdersPage = z.output<typeof m.paymentOrdersPage>;
export type LegacyDebtsPage = z.output<typeof m.legacyDebtsPage>;
export type LinkBanksAnswer = z.output<typeof m.linkBanksAnswer>;
export type NotificationsPage = z.output<typeof m.notificationsPage>;
export type CheckoutsPage = z.output<typeof m.checkoutsPage>;
export type CheckoutsQuery = z.input<typeof m.checkoutsQuery>;
export type FunnelQuery = z.input<typeof m.funnelQuery>;
export type FunnelAnswer = z.output<typeof m.funnelAnswer>;
export type CreateCheckoutInput = z.input<typeof m.createCheckoutBody>;
export type LinkInput = z.input<typeof m.linkBody>;
export type PeriodicLinkInput = z.input<ReturnType<typeof m.periodicLinkBody>>;
export type CancelPeriodicInput = z.input<typeof m.cancelPeriodicBody>;
export type LegacyLinkInput = z.input<typeof m.legacyCommerceBody> | z.input<typeof m.legacyBusinessBody>;
export type OrdersQuery = z.input<ReturnType<typeof m.ordersQuery>>;
export type LinkBanksQuery = z.input<typeof m.linkBanksQuery>;
export type NotificationsQuery = z.input<typeof m.notificationsQuery>;
export type WebhookEventsPage = z.output<typeof m.webhookEventsPage>;
export type WebhookEventEntry = z.output<typeof m.webhookEventEntry>;
export type WebhookEventsQuery = z.input<typeof m.webhookEventsQuery>;

export interface MerchantClientOptions {
  /** The BFF's address as the shop's server reaches it (with its mount path, if any). */
  url: string;
  /** BFF_MERCHANT_SECRET. */
  secret: string;
  /** Another fetch (tests, a proxy agent). */
  fetch?: typeof fetch;
  /** Milliseconds before a call gives up (default 15 000). */
  timeoutMs?: number;
  /**
   * Tries after a network failure, a 429 or a 502/503/504, for calls that are safe to repeat:
   * reads, and checkout creation, whose every try carries the same idempotency key (yours, or one
   * made for the call), so a retry never creates a second checkout (default 2). A creation whose
   * first try is still running at the BFF (409 `idempotency_in_progress`) is tried again too.
   * Each waits 200 ms, then 400 ms… (with jitter), or the answer's `Retry-After` when longer
   * (10 s at most).
   */
  retries?: number;
}

/**
 * An answer other than 2xx, with the BFF's error code; `status` 0 when the BFF was not reached.
 * The one error class of the BFF's clients (`ApiClientError` of `@bank-checkout/contract`), here
 * named `MerchantApiError`.
 */
export { ApiClientError as MerchantApiError };

const fail = (status: number, code: string, message: string, requestId: string | null = null, issues: readonly { path: string; message: string }[] = []) =>
  new ApiClientError(status, code, message, requestId, issues, 'MerchantApiError');

const RETRYABLE = new Set([429, 502, 503, 504]);

export function createMerchantClient(opts: MerchantClientOptions) {
  const base = opts.url.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const retries = opts.retries ?? 2;

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    init: { body?: unknown; query?: object; headers?: Record<string, string>; repeatable: boolean },
  ): Promise<T> {
    const qs = init.query
      ? new URLSearchParams(
          Object.entries(init.query)
            .filter(([, v]) => v !== undefined && v !== null)
            .map(([k, v]) => [k, String(v)]),
        ).toString()
      : '';
    const url = `${base}${path}${qs ? `?${qs}` : ''}`;
    for (let attempt = 0; ; attempt++) {
      const last = !init.repeatable || attempt >= retries;
      let res: Response;
      try {
        res = await doFetch(url, {
          method,
          headers: {
            Authorization: `Bearer ${opts.secret}`,
            Accept: 'application/json',
            ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
            ...init.headers,
          },
          ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        if (!last) {
          await backoff(attempt);
          continue;
        }
        throw fail(0, 'network', `The BFF could not be reached: ${err instanceof Error ? err.message : 'error'}`);
      }
      if (RETRYABLE.has(res.status) && !last) {
        await res.body?.cancel().catch(() => {});
        await backoff(attempt, retryAfterMs(res.headers.get('Retry-After')));
        continue;
      }
      const text = await res.text();
      let data: unknown = null;
      try {
        data = text ? JSON.parse(text) : null;
      } catch {
        // Not JSON: reported below.
      }
      if (res.ok && data !== null) return data as T;
      const e = (data as { error?: { code?: string; message?: string; requestId?: string; issues?: { path: string; message: string }[] } } | null)?.error;
      // The same key's first try is still running (its answer was lost on the way, say): asked again, it gets that answer.
      if (res.status === 409 && e?.code === 'idempotency_in_progress' && !last) {
        await backoff(attempt, retryAfterMs(res.headers.get('Retry-After')));
        continue;
      }
      throw fail(
        res.status,
        e?.code ?? 'invalid_response',
        e?.message ?? `HTTP ${res.status}`,
        e?.requestId ?? res.headers.get('X-Request-Id'),
        e?.issues ?? [],
      );
    }
  }

  const get = <T>(path: string, query?: object) => call<T>('GET', path, { ...(query ? { query } : {}), repeatable: true });
  const post = <T>(path: string, body?: unknown, headers?: Record<string, string>, repeatable = false) =>
    call<T>('POST', path, { body: body ?? {}, ...(headers ? { headers } : {}), repeatable });
  const id = (value: string) => encodeURIComponent(value);

  return {
    /**
     * A checkout for an order. With `idempotencyKey` (the cart's, say), a retry or a double submit
     * finds the same one. Without it, the call makes a key of its own for its tries: its retries
     * never create twice, but another call creates another checkout.
     */
    createCheckout: (body: CreateCheckoutInput, o: { idempotencyKey?: string } = {}) =>
      post<CreatedCheckout>('/v1/checkouts', body, { 'Idempotency-Key': o.idempotencyKey ?? `bc_${crypto.randomUUID()}` }, true),
    getCheckout: (checkoutId: string) => get<MerchantCheckout>(`/v1/checkouts/${id(checkoutId)}`),
    /** A fresh launch token for an isolated checkout's page, each time the page loads. */
    launchCheckout: (checkoutId: string) => post<CheckoutLaunch>(`/v1/checkouts/${id(checkoutId)}/launch`),
    /**
     * Recent checkouts (or those in `state`), most recently changed first; `state: 'unknown'`
     * lists those waiting for your decision. The next page: `cursor: page.next`. The feed of every
     * change, oldest first: `after: '0'`, then `after: page.next` (keep it to read on later).
     */
    listCheckouts: (query: CheckoutsQuery = {}) => get<CheckoutsPage>('/v1/checkouts', query),
    /** How far payers got per bank, for checkouts created in a period (`from`, `to`: ms or YYYY-MM-DD; default the last 7 days). */
    funnel: (query: FunnelQuery = {}) => get<FunnelAnswer>('/v1/funnel', query),
    /** Records what the bank confirmed about a checkout left `unknown` (409 unless it is; the same outcome again is answered as is). */
    resolveCheckout: (checkoutId: string, outcome: 'succeeded' | 'failed', note?: string) =>
      post<MerchantCheckout>(`/v1/checkouts/${id(checkoutId)}/resolve`, { outcome, ...(note ? { note } : {}) }),
    /**
     * Cancels an open checkout for good (a changed cart: cancel, then create a checkout for the
     * same reference with the new amount). Safe to repeat: a cancelled checkout is answered as it
     * is. 409 `checkout_finished` when it ended otherwise, `invalid_state` when it is `unknown`,
     * `checkout_busy` while a call is with the bank (try again in a moment).
     */
    cancelCheckout: (checkoutId: string) => post<MerchantCheckout>(`/v1/checkouts/${id(checkoutId)}/cancel`, undefined, undefined, true),
    createLink: (body: LinkInput) => post<SignedLink>('/v1/links', body),
    createPeriodicLink: (body: PeriodicLinkInput) => post<SignedLink>('/v1/links/periodic', body),
    cancelPeriodicLink: (body: CancelPeriodicInput) => post<SignedLink>('/v1/links/periodic/cancel', body),
    listOrders: (query: OrdersQuery = {}) => get<PaymentOrdersPage>('/v1/orders', query),
    enableOrder: (idDebt: string) => post<ProviderStatusAnswer>(`/v1/orders/${id(idDebt)}/enable`),
    disableOrder: (idDebt: string) => post<ProviderStatusAnswer>(`/v1/orders/${id(idDebt)}/disable`),
    linkBanks: (query: LinkBanksQuery = {}) => get<LinkBanksAnswer>('/v1/link-banks', query),
    createLegacyLink: (body: LegacyLinkInput) => post<LegacySignedLink>('/v1/legacy/links', body),
    listLegacyDebts: (query: OrdersQuery = {}) => get<LegacyDebtsPage>('/v1/legacy/debts', query),
    enableLegacyLink: (idProvider: string) => post<ProviderStatusAnswer>(`/v1/legacy/links/${id(idProvider)}/enable`),
    disableLegacyLink: (idProvider: string) => post<ProviderStatusAnswer>(`/v1/legacy/links/${id(idProvider)}/disable`),
    /** Newest first; the next page: `cursor: page.next`. */
    listNotifications: (query: NotificationsQuery = {}) => get<NotificationsPage>('/v1/notifications', query),
    /** Webhook events and how their delivery went, newest first (`cursor: page.next` for the next page); `status: 'failed'` lists those that never got through. */
    listWebhookEvents: (query: WebhookEventsQuery = {}) => get<WebhookEventsPage>('/v1/webhooks/events', query),
    /** Sends a webhook event again (at once, then with the usual retries). */
    redeliverWebhookEvent: (eventId: string) => post<WebhookEventEntry>(`/v1/webhooks/events/${id(eventId)}/redeliver`),
  };
}

export type MerchantClient = ReturnType<typeof createMerchantClient>;

/** The longest `Retry-After` the client waits for before a retry (a longer one is cut to this). */
const MAX_RETRY_AFTER_MS = 10_000;
/** A `Retry-After` in seconds as ms (capped); 0 when absent or given as a date. */
const retryAfterMs = (header: string | null) => (header && /^\d{1,6}$/.test(header) ? Math.min(Number(header) * 1000, MAX_RETRY_AFTER_MS) : 0);
/** The wait before retry `attempt + 1`: exponential from 200 ms with jitter, and never shorter than the server asked. */
const backoff = (attempt: number, atLeastMs = 0) => new Promise((r) => setTimeout(r, Math.max(200 * 2 ** attempt, atLeastMs) + Math.random() * 100));

/** A webhook whose signature, timestamp or body does not check out. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

export interface VerifyWebhookOptions {
  /** How old (or early) a signature may be, in ms (default 5 minutes). */
  toleranceMs?: number;
  now?: number;
}

type Bytes = Uint8Array<ArrayBuffer>;
type HeaderBag = Headers | Record<string, string | string[] | undefined>;

const headerOf = (headers: HeaderBag, name: string): string | undefined => {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name.toLowerCase());
  const v = key === undefined ? undefined : bag[key];
  return Array.isArray(v) ? v[0] : v;
};

const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g)!, (b) => Number.parseInt(b, 16));
const utf8 = (text: string): Bytes => new TextEncoder().encode(text);

/** The most `v1,` signatures of one delivery that are tried. */
const MAX_SIGNATURES = 8;

/** Standard Webhooks' secret prefix: `whsec_` and the key in base64. */
const WHSEC = 'whsec_';

/** An HMAC-SHA256 key for `verify`, of the given bytes. */
const hmacKey = (bytes: Bytes) => crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);

/** Base64 to bytes; null when it is not base64. */
function base64Bytes(text: string): Bytes | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) return null;
  try {
    return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * The Standard Webhooks key of a secret: a `whsec_` secret's base64 part decoded, any other
 * secret's UTF-8 bytes (what the Standard Webhooks libraries do with a raw secret).
 */
function standardKey(secret: string): Bytes {
  if (!secret.startsWith(WHSEC)) return utf8(secret);
  const key = base64Bytes(secret.slice(WHSEC.length));
  if (!key?.length) throw new WebhookSignatureError('the whsec_ secret is not base64');
  return key;
}

/**
 * The Standard Webhooks check (https://www.standardwebhooks.com): `webhook-id`,
 * `webhook-timestamp` (unix seconds, within the tolerance) and `webhook-signature`, a list of
 * space-separated signatures of which one `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`
 * must match (a secret being rotated gives two). Returns the id the signature covers.
 */
async function verifyStandard(
  body: string,
  id: string | undefined,
  timestamp: string | undefined,
  signatures: string | undefined,
  secret: string,
  now: number,
  toleranceMs: number,
) {
  if (!id || !timestamp || !signatures) throw new WebhookSignatureError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (id.length > 256) throw new WebhookSignatureError('malformed webhook-id');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookSignatureError('malformed webhook-timestamp');
  if (Math.abs(now - Number(timestamp) * 1000) > toleranceMs) throw new WebhookSignatureError('signature timestamp outside the tolerance');
  const key = await hmacKey(standardKey(secret));
  const signed = utf8(`${id}.${timestamp}.${body}`);
  // A secret being rotated gives two; more than a few is no delivery of the BFF's (and each costs an HMAC).
  for (const candidate of signatures.split(' ').slice(0, MAX_SIGNATURES)) {
    const [version, value] = candidate.split(',', 2);
    const mac = version === 'v1' && value ? base64Bytes(value) : null;
    // crypto.subtle.verify compares in constant time.
    if (mac?.length === 32 && (await crypto.subtle.verify('HMAC', key, mac, signed))) return id;
  }
  throw new WebhookSignatureError('signature does not match');
}

/** Bytes as base64. */
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
/** Bytes as lowercase hex. */
const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
/** HMAC-SHA256 of `text` under `key`. */
async function hmac(key: Bytes, text: string): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, utf8(text)));
}

export interface SignWebhookForTestOptions {
  /** The signing time in ms (default now). */
  now?: number;
}

/** An event to sign for a test: a delivery's body, its `id` optional. */
export type TestWebhookPayload = WebhookDelivery extends infer D ? (D extends WebhookDelivery ? Omit<D, 'id'> & { id?: string } : never) : never;

/** A webhook delivery made by `signWebhookForTest`: the body to post and its headers. */
export interface SignedTestWebhook {
  body: string;
  headers: Record<string, string>;
}

/**
 * Signs a webhook as the BFF would, for a test of your webhook endpoint (no BFF needed): the body
 * and every header a delivery carries (the Standard Webhooks `webhook-id`, `webhook-timestamp`
 * and `webhook-signature`, the older `X-Bank-Checkout-Signature`, and the
 * `X-Bank-Checkout-Event-*` ones), signed with `secret` as MERCHANT_WEBHOOK_SECRET would be.
 * `verifyWebhook` and the Standard Webhooks libraries accept it. An event without an `id` gets
 * one (`evt_test_…`), since the signed `webhook-id` is the event's id.
 *
 * ```ts
 * const { body, headers } = await signWebhookForTest({ type: 'checkout.updated', createdAt: new Date().toISOString(), data }, secret);
 * const res = await fetch('http://localhost:3000/webhooks/bank-checkout', { method: 'POST', headers, body });
 * ```
 */
export async function signWebhookForTest(payload: TestWebhookPayload, secret: string, opts: SignWebhookForTestOptions = {}): Promise<SignedTestWebhook> {
  const id = payload.id ?? `evt_test_${toHex(crypto.getRandomValues(new Uint8Array(12)))}`;
  const body = JSON.stringify({ ...payload, id });
  const now = opts.now ?? Date.now();
  const timestamp = String(Math.floor(now / 1000));
  const standard = toBase64(await hmac(standardKey(secret), `${id}.${timestamp}.${body}`));
  const older = toHex(await hmac(utf8(secret), `${now}.${body}`));
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'X-Bank-Checkout-Event-Id': id,
      'X-Bank-Checkout-Event-Type': payload.type,
      'X-Bank-Checkout-Event-Created': payload.createdAt,
      'X-Bank-Checkout-Signature': `t=${now},v1=${older}`,
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${standard}`,
    },
  };
}

/** The older check: `X-Bank-Checkout-Signature: t=<ms>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the secret's UTF-8 bytes. */
async function verifyCompatible(body: string, header: string, secret: string, now: number, toleranceMs: number): Promise<undefined> {
  const parts = new Map(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = parts.get('t') ?? '';
  const v1 = parts.get('v1') ?? '';
  if (!/^\d{1,16}$/.test(t) || !/^[0-9a-f]{64}$/.test(v1)) throw new WebhookSignatureError('missing or malformed signature header');
  if (Math.abs(now - Number(t)) > toleranceMs) throw new WebhookSignatureError('signature timestamp outside the tolerance');
  if (!(await crypto.subtle.verify('HMAC', await hmacKey(utf8(secret)), hexBytes(v1), utf8(`${t}.${body}`))))
    throw new WebhookSignatureError('signature does not match');
  return undefined;
}

/**
 * Checks a webhook from the BFF and returns its event, with its `id`. Pass the body exactly as
 * received (before any JSON parsing), the request's headers (a `Headers` object or Node's
 * header object) and MERCHANT_WEBHOOK_SECRET (a `whsec_…` secret or any other).
 *
 * The Standard Webhooks headers are checked when the delivery carries any of them:
 * `webhook-id`, `webhook-timestamp` (unix seconds, within `toleranceMs` of now) and
 * `webhook-signature` (one of its space-separated `v1,<base64>` signatures of
 * `"<webhook-id>.<webhook-timestamp>.<raw body>"` must match, under the base64-decoded part of
 * a `whsec_` secret, or the UTF-8 bytes of any other); the event's own id must be the signed
 * `webhook-id`. Only a delivery without any of them is checked by the older
 * `X-Bank-Checkout-Signature: t=<ms>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. Signatures are
 * compared in constant time. Throws WebhookSignatureError otherwise. An event may arrive more
 * than once (a retry after a lost answer): handle it once per `id`.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderBag,
  secret: string,
  opts: VerifyWebhookOptions = {},
): Promise<WebhookDelivery> {
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const now = opts.now ?? Date.now();
  const toleranceMs = opts.toleranceMs ?? 5 * 60_000;
  const [id, timestamp, signatures] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => headerOf(headers, name));
  const standard = id !== undefined || timestamp !== undefined || signatures !== undefined;
  let signedId: string | undefined;
  if (standard) signedId = await verifyStandard(body, id, timestamp, signatures, secret, now, toleranceMs);
  else await verifyCompatible(body, headerOf(headers, 'X-Bank-Checkout-Signature') ?? '', secret, now, toleranceMs);
  let event: WebhookDelivery;
  try {
    event = JSON.parse(body) as WebhookDelivery;
  } catch {
    throw new WebhookSignatureError('body is not JSON');
  }
  if (signedId !== undefined && (event as { id?: unknown } | null)?.id !== signedId)
    throw new WebhookSignatureError('the event id is not the signed webhook-id');
  return event;
}
