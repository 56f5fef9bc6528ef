/**
 * The BFF and the simulator in one process, configured with canary secrets, with everything
 * that leaves either of them captured: every BFF response (status, headers, body), every log
 * line, every webhook, every request the BFF sends upstream, every page of the provider's
 * gateway the payer's browser sees, every notification the provider posts.
 *
 * The simulator's native service publishes each field's test value (`testValue`), the only
 * values it accepts. A real provider does not, so between the BFF and the simulator those
 * values are taken out of every answer and handed to the test as what the payer's own device
 * (the bank's SMS, app or card) tells the payer. What the payer then types is the only way a
 * credential or a code can reach the BFF, and any trace of it found later is a leak.
 *
 * The BFF's telemetry is recorded too (OpenTelemetry providers of the rig's own): every span, and
 * the metrics' labels as collected when the rig closes.
 */
import { createSandbox, type Sandbox } from '@bank-checkout/sandbox';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { after, before } from 'node:test';
import { createBff, createPostgresStore, createStore, loadConfig, type BffApp, type CheckoutEvent, type Store } from '@bank-checkout/bff';
import type { RequestFn } from '@bank-checkout/sandbox/testing';
import { SECRETS, type Sample } from './canary.js';
import { asFrame } from '../../../packages/bff/test/harness.js';
import { proved } from '../../../packages/bff/test/frame-proof.js';
import { dropSchemas, freshSchema } from '../../../packages/bff/test/store-fixtures.js';
import { bodyText } from '../../support/fake-fetch.js';

export const SANDBOX_HOST = 'http://sandbox.test';
export const BFF_HOST = 'http://bff.test';
export const MERCHANT_HOST = 'http://merchant.test';
export const START = Date.parse('2026-11-20T10:00:00Z');

export interface Captured {
  where: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RigOptions {
  /** More BFF environment variables (they win over the rig's). */
  env?: Record<string, string>;
  /** DATABASE_URL of the BFF (default `:memory:`). */
  databaseUrl?: string;
  /** A store to use instead of the one DATABASE_URL names. */
  store?: Store;
  /** Take `testValue` out of the simulator's native answers (default true). */
  hideTestValues?: boolean;
}

/** A metric reader the rig collects from when it closes. */
class CollectOnClose extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** What the BFF recorded: its spans (name, kind, attributes, events, status), and its metrics as last collected. */
export interface RecordedTelemetry {
  spans: { name: string; kind: number; attributes: Record<string, unknown>; events: unknown[]; status: unknown }[];
  metrics: ResourceMetrics | null;
}

export interface Rig {
  bff: BffApp;
  /** What the BFF's telemetry recorded (metrics: once the rig is closed). */
  telemetry(): RecordedTelemetry;
  sandbox: Sandbox;
  clock: { now: number; advance(ms: number): void };
  logs: string[];
  events: CheckoutEvent[];
  webhooks: Captured[];
  /** Requests the BFF sent to the provider, with the provider's answers (as the provider sent them). */
  upstream: { method: string; url: string; headers: Record<string, string>; body: unknown; answer?: string }[];
  /** Every BFF response: to the merchant, to the browser, to the provider's notifications. */
  responses: Captured[];
  /** Pages of the provider's gateway, as the payer's browser got them. */
  gatewayPages: Captured[];
  /** Notifications the provider posted to the BFF (request bodies). */
  notificationsIn: Captured[];
  /** What the payer's device shows, by field id (SMS codes, app tokens, card values). */
  device: Map<string, string>;
  /** What the payer typed anywhere; every one is a canary. */
  typed: Set<string>;
  /** A request to the BFF, captured. */
  call(path: string, init?: RequestInit, where?: string): Promise<Response>;
  merchant(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  checkout(secret: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  createCheckout(body?: Record<string, unknown>): Promise<{ id: string; clientSecret: string; reference: string; amount: number } & Record<string, unknown>>;
  /** The payer's browser on the provider's pages: captured, records what is typed. */
  browser: RequestFn;
  /** Everything captured, as text samples for the canary search. */
  samples(): Sample[];
  close(): Promise<void>;
}

const headersOf = (h: Headers | HeadersInit | undefined): Record<string, string> => Object.fromEntries(new Headers(h ?? {}).entries());

async function capture(where: string, res: Response): Promise<{ captured: Captured; response: Response }> {
  const body = await res.text();
  const captured: Captured = { where, status: res.status, headers: headersOf(res.headers), body };
  const response = new Response([101, 204, 205, 304].includes(res.status) ? null : body, { status: res.status, headers: res.headers });
  return { captured, response };
}

function stripTestValues(value: unknown, found: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => stripTestValues(v, found));
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) {
      if (k === 'testValue') {
        if (typeof o.fieldId === 'string' && typeof v === 'string') found.set(o.fieldId, v);
        continue;
      }
      out[k] = stripTestValues(v, found);
    }
    return out;
  }
  return value;
}

export async function createRig(opts: RigOptions = {}): Promise<Rig> {
  const clock = {
    now: START,
    advance(ms: number) {
      clock.now += ms;
    },
  };
  const now = () => clock.now;
  const logs: string[] = [];
  const events: CheckoutEvent[] = [];
  const webhooks: Captured[] = [];
  const upstream: Rig['upstream'] = [];
  const responses: Captured[] = [];
  const gatewayPages: Captured[] = [];
  const notificationsIn: Captured[] = [];
  const device = new Map<string, string>();
  const typed = new Set<string>();
  const hide = opts.hideTestValues ?? true;
  const nativePrefix = '/test/';
  let bff: BffApp;

  const call: Rig['call'] = async (path, init, where) => {
    const url = path.startsWith('http') ? path : `${BFF_HOST}${path}`;
    // A call with a frame key a frame of this rig redeemed carries that frame's proof, unless the test gives one.
    const res = await bff.request(url, await proved(url, init, clock.now));
    const { captured, response } = await capture(where ?? `BFF ${init?.method ?? 'GET'} ${path}`, res);
    responses.push(captured);
    return response;
  };

  const route = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input.toString() : input.url);
    if (url.origin === SANDBOX_HOST) {
      let body: unknown = init?.body;
      if (typeof body === 'string') {
        try {
          body = JSON.parse(body);
        } catch {
          /* kept as text */
        }
      }
      const sent: Rig['upstream'][number] = { method: init?.method ?? 'GET', url: url.toString(), headers: headersOf(init?.headers), body };
      upstream.push(sent);
      const res = await sandbox.app.request(url.toString(), init);
      if (res.status === 200 && res.headers.get('Content-Type')?.includes('json')) {
        const text = await res
          .clone()
          .text()
          .catch(() => undefined);
        if (text !== undefined) sent.answer = text;
      }
      if (!hide || !url.pathname.startsWith(nativePrefix)) return res;
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return new Response(text, { status: res.status, headers: res.headers });
      }
      return new Response(JSON.stringify(stripTestValues(json, device)), { status: res.status, headers: res.headers });
    }
    if (url.origin === BFF_HOST) {
      notificationsIn.push({ where: `provider → BFF ${url.pathname}`, status: 0, headers: headersOf(init?.headers), body: bodyText(init?.body) });
      return call(url.toString(), init, `BFF answer to the provider's notification ${url.pathname}`);
    }
    if (url.origin === MERCHANT_HOST) {
      webhooks.push({ where: `webhook ${url.pathname}`, status: 0, headers: headersOf(init?.headers), body: bodyText(init?.body) });
      return new Response('ok');
    }
    throw new TypeError(`fetch failed: ${url.origin} is not reachable in tests`);
  };

  const sandbox = createSandbox({
    publicUrl: SANDBOX_HOST,
    allowLocalNotif: true,
    fetch: route,
    now,
    apiKey: SECRETS.apiKey,
    apiToken: SECRETS.apiToken,
    clients: [{ apiKey: SECRETS.legacyApiKey, apiToken: SECRETS.legacyApiToken, variant: 'business' }],
  });
  const config = loadConfig({
    PROVIDER_LINKS_URL: SANDBOX_HOST,
    PROVIDER_NATIVE_URL: SANDBOX_HOST,
    PROVIDER_API_KEY: SECRETS.apiKey,
    PROVIDER_API_TOKEN: SECRETS.apiToken,
    PROVIDER_LEGACY_API_KEY: SECRETS.legacyApiKey,
    PROVIDER_LEGACY_API_TOKEN: SECRETS.legacyApiToken,
    BFF_PUBLIC_URL: BFF_HOST,
    BFF_MERCHANT_SECRET: SECRETS.merchantSecret,
    MERCHANT_WEBHOOK_URL: `${MERCHANT_HOST}/hook`,
    MERCHANT_WEBHOOK_SECRET: SECRETS.webhookSecret,
    DATABASE_URL: opts.databaseUrl ?? ':memory:',
    LOG_LEVEL: 'debug',
    RATE_LIMIT_PER_MINUTE: '1000000',
    MERCHANT_RATE_LIMIT_PER_MINUTE: '10000000',
    AUTH_FAILURES_PER_MINUTE: '1000000',
    PROVIDER_TIMEOUT_MS: '2000',
    ...opts.env,
  });
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spanExporter })] });
  const metricReader = new CollectOnClose();
  const meterProvider = new MeterProvider({ readers: [metricReader] });
  let collected: ResourceMetrics | null = null;
  bff = createBff(config, {
    telemetry: { tracerProvider, meterProvider },
    store: opts.store ?? createStore(config.databaseUrl),
    fetch: route,
    now,
    log: (line) => logs.push(line),
    onCheckoutUpdate: (e) => {
      events.push(e);
    },
    retryDelayMs: 1,
    webhookDelaysMs: [1, 1],
  });
  await bff.ready;

  const merchant: Rig['merchant'] = (path, init = {}) =>
    call(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        Authorization: `Bearer ${SECRETS.merchantSecret}`,
        ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...init.headers,
      },
      ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
    });

  const checkout: Rig['checkout'] = async (secret, path, body, headers = {}) =>
    call(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'X-Checkout-Secret': secret, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });

  const browser: RequestFn = async (url, init) => {
    if (typeof init?.body === 'string') {
      for (const [name, value] of new URLSearchParams(init.body)) if (['user', 'password', 'loginKey', 'code'].includes(name) && value) typed.add(value);
    }
    const target = new URL(url);
    const res = target.origin === BFF_HOST ? await call(url, init, `browser → BFF ${target.pathname}`) : await sandbox.app.request(url, init);
    if (target.origin === BFF_HOST) return res;
    const { captured, response } = await capture(`gateway page ${init?.method ?? 'GET'} ${target.pathname}`, res);
    gatewayPages.push(captured);
    return response;
  };

  const telemetry = (): RecordedTelemetry => ({
    spans: spanExporter
      .getFinishedSpans()
      .map((span) => ({ name: span.name, kind: span.kind, attributes: span.attributes, events: span.events, status: span.status })),
    metrics: collected,
  });

  let counter = 0;
  return {
    bff,
    telemetry,
    sandbox,
    clock,
    logs,
    events,
    webhooks,
    upstream,
    responses,
    gatewayPages,
    notificationsIn,
    device,
    typed,
    call,
    merchant,
    checkout,
    browser,
    async createCheckout(body = {}) {
      const res = await merchant('/v1/checkouts', {
        body: { amount: 4250, subject: 'Order 1001', reference: `SEC-${++counter}-${Math.random().toString(36).slice(2, 8)}`, ...body },
      });
      if (res.status !== 201) throw new Error(`createCheckout: ${res.status} ${await res.text()}`);
      const created = (await res.json()) as { id: string; clientSecret?: string; launchToken?: string; reference: string; amount: number };
      return asFrame(
        created,
        (token, headers) =>
          call('/v1/frame/launch', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ token }) }),
        { publicUrl: BFF_HOST, at: clock.now },
      );
    },
    samples() {
      const of = (c: Captured) => [
        { where: `${c.where} (body)`, text: c.body },
        { where: `${c.where} (headers)`, text: JSON.stringify(c.headers) },
      ];
      return [
        ...responses.flatMap(of),
        ...gatewayPages.flatMap(of),
        ...webhooks.flatMap(of),
        ...notificationsIn.flatMap(of),
        { where: 'log lines', text: logs.join('\n') },
        { where: 'URLs the BFF called upstream', text: upstream.map((u) => u.url).join('\n') },
        { where: 'spans', text: JSON.stringify(telemetry().spans) },
        { where: 'metrics (names and labels)', text: JSON.stringify(collected) },
      ];
    },
    async close() {
      await bff.close();
      collected = (await metricReader.collect()).resourceMetrics;
    },
  };
}

/** The first JSON body of a response; throws with the body when the status is not `status`. */
export async function json<T = Record<string, any>>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/**
 * Two BFF instances on one PostgreSQL schema of their own (each with its simulator and clock),
 * for a `describe` inside `withPostgres`: `rigs()` gives them once `before` has run; `after`
 * closes them and drops the schema.
 */
export function twoInstancesOnPostgres(url: string, name: string): () => [Rig, Rig] {
  const schema = freshSchema(name);
  let pair: [Rig, Rig] | undefined;
  before(async () => {
    const open = () => createRig({ databaseUrl: url, store: createPostgresStore(url, { schema, max: 4 }) });
    pair = [await open(), await open()];
  });
  after(async () => {
    for (const r of pair ?? []) await r.close();
    await dropSchemas(url, schema);
  });
  return () => {
    if (!pair) throw new Error('the two instances are made in before()');
    return pair;
  };
}
