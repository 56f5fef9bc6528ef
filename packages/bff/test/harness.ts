/**
 * The BFF wired to the simulator in one process: each reaches the other through `app.request`
 * (no sockets), one clock drives both, and every log line is captured.
 */
import { createSandbox, type Sandbox } from '@bank-checkout/sandbox';
import { createBff, loadConfig, type BffApp, type CheckoutView } from '../src/index.js';
import { createMerchantClient } from '../src/merchant-client.js';
import { createCheckoutClient, type CheckoutClient } from '@bank-checkout/elements/client';
import type { CheckoutEvent } from '../src/checkout/service.js';
import type { NotificationEvent } from '../src/notifications.js';

type MerchantClient = ReturnType<typeof createMerchantClient>;
import { createStore, type Store } from '../src/store/index.js';
import type { TelemetryProviders } from '../src/telemetry.js';
import { bind, frameKeys, frameOrigin, proofHeaders, proved, type FrameKeys } from './frame-proof.js';
import { bodyText, urlOf } from '../../../test/support/fake-fetch.js';

export const MERCHANT_SECRET = 'test-merchant-secret-0123456789';
export const SANDBOX_HOST = 'http://sandbox.test';
export const BFF_HOST = 'http://bff.test';

export interface Harness {
  bff: BffApp;
  sandbox: Sandbox;
  logs: string[];
  events: CheckoutEvent[];
  /** What the in-process notification hook was told. */
  notifications: NotificationEvent[];
  clock: { now: number; advance(ms: number): void };
  /** Upstream requests the BFF made, as `METHOD path`, with their JSON bodies. */
  upstreamCalls: string[];
  upstreamBodies: { path: string; body: unknown }[];
  /**
   * The bank's answers to transfers and validations, in order (`status` of the answer's JSON):
   * `200` there means the money moved.
   */
  transferAnswers: { path: string; status: string | null; sessionId: string | null }[];
  /**
   * Answers upstream requests in the simulator's place while set (a path's answer, or undefined
   * to let it through); a promise holds the call until it settles.
   */
  override: ((path: string, pass: () => Promise<Response>) => Response | Promise<Response> | undefined) | null;
  /** While true, the provider's notifications never reach the BFF (an outage longer than its retries). */
  dropNotifications: boolean;
  /** Requests that reached the merchant's webhook (http://merchant.test). */
  webhooks: { headers: Headers; body: string }[];
  merchant(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  /**
   * The merchant API through its typed client (`createMerchantClient`), as a shop's server calls
   * it: a route or a schema that changes breaks the tests that call it at compile time.
   */
  merchantApi: MerchantClient;
  /** The checkout API through the elements' typed client, with `secret` (and its frame's proofs), as the page calls it. */
  api(secret: string): CheckoutClient;
  checkout(secret: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  createCheckout(body?: Record<string, unknown>): Promise<{ id: string; clientSecret: string } & Record<string, unknown>>;
  /**
   * A frame's redemption of a launch token as a browser sends it (from the BFF's origin, with a
   * proof of `keys`: a new key pair, another browser, unless given); a key it gets is bound to them.
   */
  redeem(token: string, keys?: FrameKeys): Promise<Response>;
  /** Stops the BFF and starts another on the same database (a file survives, :memory: does not). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  databaseUrl?: string;
  /** The store each BFF process opens (default: the one the database URL names). */
  store?: () => Store;
  /** Where the BFF's traces and metrics go (default: the process's providers, none). */
  telemetry?: TelemetryProviders;
}

export async function createHarness(env: Record<string, string> = {}, opts: HarnessOptions = {}): Promise<Harness> {
  const clock = {
    now: Date.parse('2026-11-20T10:00:00Z'),
    advance(ms: number) {
      clock.now += ms;
    },
  };
  const now = () => clock.now;
  const logs: string[] = [];
  const events: CheckoutEvent[] = [];
  const notifications: NotificationEvent[] = [];
  const upstreamCalls: string[] = [];
  const upstreamBodies: { path: string; body: unknown }[] = [];
  const webhooks: { headers: Headers; body: string }[] = [];
  const transferAnswers: Harness['transferAnswers'] = [];
  let bff: BffApp;
  const route = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input.toString() : input.url);
    if (url.origin === SANDBOX_HOST) {
      upstreamCalls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      if (typeof init?.body === 'string') {
        try {
          upstreamBodies.push({ path: url.pathname, body: JSON.parse(init.body) });
        } catch {
          upstreamBodies.push({ path: url.pathname, body: init.body });
        }
      }
      const pass = async () => sandbox.app.request(url.toString(), init);
      const res = (await harness.override?.(url.pathname, pass)) ?? (await pass());
      if (url.pathname.includes('/transfer/')) {
        const body = (await res
          .clone()
          .json()
          .catch(() => null)) as { status?: string } | null;
        const sent = typeof init?.body === 'string' ? (JSON.parse(init.body) as { sessionId?: string }) : undefined;
        transferAnswers.push({ path: url.pathname, status: body?.status ?? null, sessionId: sent?.sessionId ?? null });
      }
      return res;
    }
    if (url.origin === BFF_HOST) {
      if (harness.dropNotifications && url.pathname === '/v1/notifications/provider') return new Response('unavailable', { status: 503 });
      return bff.request(url.toString(), init);
    }
    if (url.origin === 'http://merchant.test') {
      webhooks.push({ headers: new Headers(init?.headers), body: bodyText(init?.body) });
      return new Response('ok');
    }
    throw new TypeError(`fetch failed: ${url.origin} is not reachable in tests`);
  };
  const sandbox = createSandbox({ publicUrl: SANDBOX_HOST, allowLocalNotif: true, fetch: route, now });
  const config = loadConfig({
    PROVIDER_LINKS_URL: SANDBOX_HOST,
    PROVIDER_NATIVE_URL: SANDBOX_HOST,
    BFF_PUBLIC_URL: BFF_HOST,
    BFF_MERCHANT_SECRET: MERCHANT_SECRET,
    DATABASE_URL: opts.databaseUrl ?? ':memory:',
    LOG_LEVEL: 'debug',
    RATE_LIMIT_PER_MINUTE: '100000',
    MERCHANT_RATE_LIMIT_PER_MINUTE: '10000000',
    PROVIDER_TIMEOUT_MS: '2000',
    ...env,
  });
  /** A BFF process: a fresh store connection on the same database, the same simulator. */
  const boot = async () => {
    bff = createBff(config, {
      store: opts.store?.() ?? createStore(config.databaseUrl),
      fetch: route,
      now,
      log: (line) => logs.push(line),
      onCheckoutUpdate: (e) => {
        events.push(e);
      },
      onNotification: (e) => {
        notifications.push(e);
      },
      retryDelayMs: 1,
      webhookDelaysMs: [1, 1],
      ...(opts.telemetry ? { telemetry: opts.telemetry } : {}),
    });
    await bff.ready;
  };
  await boot();

  const merchant: Harness['merchant'] = async (path, init = {}) =>
    bff.request(`${BFF_HOST}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        Authorization: `Bearer ${MERCHANT_SECRET}`,
        ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...init.headers,
      },
      ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
    });

  const checkout: Harness['checkout'] = async (secret, path, body, headers = {}) =>
    bff.request(`${BFF_HOST}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        'X-Checkout-Secret': secret,
        ...(await proofHeaders(secret, body === undefined ? 'GET' : 'POST', `${BFF_HOST}${path}`, clock.now)),
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });

  const merchantApi = createMerchantClient({
    url: BFF_HOST,
    secret: MERCHANT_SECRET,
    retries: 0,
    fetch: async (input, init) => bff.request(urlOf(input), init),
  });
  const api = (secret: string) =>
    createCheckoutClient({
      api: BFF_HOST,
      secret,
      fetch: async (input, init) => bff.request(urlOf(input), await proved(urlOf(input), init, clock.now)),
    });

  const harness: Harness = {
    merchantApi,
    api,
    override: null,
    dropNotifications: false,
    get bff() {
      return bff;
    },
    sandbox,
    logs,
    events,
    notifications,
    clock,
    upstreamCalls,
    upstreamBodies,
    transferAnswers,
    webhooks,
    merchant,
    checkout,
    async createCheckout(body = {}) {
      const res = await merchant('/v1/checkouts', {
        body: { amount: 4250, subject: 'Order 1001', reference: `REF-${Math.random().toString(36).slice(2, 10)}`, ...body },
      });
      if (res.status !== 201) throw new Error(`createCheckout: ${res.status} ${await res.text()}`);
      return asFrame(
        (await res.json()) as Created,
        async (token, headers) =>
          bff.request(`${BFF_HOST}/v1/frame/launch`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', ...headers },
            body: JSON.stringify({ token }),
          }),
        { publicUrl: BFF_HOST, at: clock.now },
      );
    },
    async redeem(token, keys) {
      const k = keys ?? (await frameKeys());
      const res = await bff.request(`${BFF_HOST}/v1/frame/launch`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          DPoP: await k.prove('POST', `${BFF_HOST}/v1/frame/launch`, undefined, clock.now),
          ...frameOrigin(BFF_HOST),
        },
        body: JSON.stringify({ token }),
      });
      if (res.status === 200) bind(((await res.clone().json()) as { key: string }).key, k);
      return res;
    },
    async restart() {
      await bff.close();
      await boot();
    },
    close: () => bff.close(),
  };
  return harness;
}

export async function view(res: Response): Promise<CheckoutView> {
  const text = await res.text();
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${text}`);
  return JSON.parse(text) as CheckoutView;
}

type Created = { id: string; clientSecret?: string; launchToken?: string } & Record<string, unknown>;

/**
 * A created checkout as its page's checkout uses it: an inline one with its client secret; an
 * isolated one (the default) with the key its frame gets for the launch token, as `clientSecret`,
 * redeemed as a browser's frame redeems it (from the BFF's origin at `publicUrl`, with a proof of
 * a key pair of its own, made at `at`); the key pair signs the proofs of later calls with the key.
 */
export async function asFrame<T extends Created>(
  created: T,
  redeem: (token: string, headers: Record<string, string>) => Promise<Response>,
  opts: { publicUrl: string; at?: number; keys?: FrameKeys },
): Promise<T & { clientSecret: string }> {
  if (!created.launchToken) return created as T & { clientSecret: string };
  const keys = opts.keys ?? (await frameKeys());
  const base = opts.publicUrl.replace(/\/+$/, '');
  const res = await redeem(created.launchToken, {
    DPoP: await keys.prove('POST', `${base}/v1/frame/launch`, undefined, opts.at),
    ...frameOrigin(new URL(base).origin),
  });
  if (res.status !== 200) throw new Error(`launch: ${res.status} ${await res.text()}`);
  const { key } = (await res.json()) as { key: string };
  bind(key, keys);
  return { ...created, clientSecret: key };
}
