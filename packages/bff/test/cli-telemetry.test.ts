/**
 * `bank-checkout-bff` with the standard OTEL_* variables: one payment through the CLI as a process,
 * exported as OTLP/HTTP JSON to a receiver of a few lines (`node:http`): the trace names the
 * provider calls, continues the shop's `traceparent` (and no browser's), is sent on to the provider,
 * carries the checkout's id; the metrics count the checkout by state and mode and time the provider
 * calls by operation and outcome. With `OTEL_METRICS_EXPORTER=prometheus`, the same metrics are
 * scraped from a port of their own.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createSandbox } from '@bank-checkout/sandbox';
import { createCheckoutClient } from '@bank-checkout/elements/client';
import { createMerchantClient } from '../src/merchant-client.js';
import { walk } from './flow.js';
import { until } from './until.js';
import { cliArgs } from '../../../test/support/cli.mjs';

const ROOT = new URL('../../..', import.meta.url).pathname;
const SECRET = 'telemetry-merchant-secret-0123456789';

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type Attribute = { key: string; value: AnyValue };
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Attribute[];
}
interface OtlpPoint {
  attributes?: Attribute[];
  asInt?: string | number;
  asDouble?: number;
  count?: string | number;
}
interface OtlpMetric {
  name: string;
  sum?: { dataPoints: OtlpPoint[] };
  histogram?: { dataPoints: OtlpPoint[] };
}

const attrs = (list: Attribute[] = []) =>
  Object.fromEntries(list.map((a) => [a.key, a.value.stringValue ?? a.value.intValue ?? a.value.doubleValue ?? a.value.boolValue]));
const text = async (req: IncomingMessage) => {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return body;
};
const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
};
const freePort = async () => {
  const s = createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
};

/** The BFF's CLI as a process with `env`, its port once it listens. */
async function startCli(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; stderr: () => string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, cliArgs('packages/bff/src/cli.ts'), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...(process.env.TEST_COMPILED_CLIS ? { TEST_COMPILED_CLIS: process.env.TEST_COMPILED_CLIS } : {}), ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', r));
  const port = await until(
    () => /bff: listening on http:\/\/[^:]+:(\d+)/.exec(stdout)?.[1] ?? (child.exitCode !== null ? 'exited' : null),
    'the BFF listening',
    30_000,
  );
  assert.notEqual(port, 'exited', stderr);
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    stderr: () => stderr,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('bank-checkout-bff with OpenTelemetry', () => {
  let provider: ReturnType<typeof serve>;
  let providerUrl: string;
  /** What the provider was sent: each call's path and `traceparent`. */
  const providerCalls: { path: string; traceparent: string | undefined; baggage: string | undefined }[] = [];

  before(async () => {
    const sandbox = createSandbox({ publicUrl: 'http://127.0.0.1:1', allowLocalNotif: false });
    provider = serve({
      fetch: (req, env) => {
        providerCalls.push({
          path: new URL(req.url).pathname,
          traceparent: req.headers.get('traceparent') ?? undefined,
          baggage: req.headers.get('baggage') ?? undefined,
        });
        return sandbox.app.fetch(req, env);
      },
      port: 0,
      hostname: '127.0.0.1',
    });
    await new Promise((r) => provider.once('listening', r));
    providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((r) => provider.close(r));
  });

  const bffEnv = () => ({
    PORT: '0',
    LOG_LEVEL: 'silent',
    DATABASE_URL: ':memory:',
    BFF_MERCHANT_SECRET: SECRET,
    PROVIDER_NATIVE_URL: providerUrl,
    PROVIDER_LINKS_URL: providerUrl,
  });

  /** One native payment, created by the shop with a trace of its own; its checkout's id and the shop's trace. */
  async function pay(url: string) {
    const shopTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const shopSpan = '00f067aa0ba902b7';
    const shop = createMerchantClient({
      url,
      secret: SECRET,
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), traceparent: `00-${shopTrace}-${shopSpan}-01`, baggage: 'user=shop-private' },
        }),
    });
    const created = await shop.createCheckout({ amount: 2500, subject: 'Traced order', reference: 'OTEL-1', isolation: 'inline' });
    // A browser's traceparent is not taken: its request starts a trace of its own.
    const hostile = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;
    const api = (secret: string) =>
      createCheckoutClient({
        api: url,
        secret,
        fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), traceparent: hostile } }),
      });
    const view = await walk({ api }, created.clientSecret!, 'aurora');
    assert.equal(view.state, 'succeeded');
    return { id: created.id, shopTrace, shopSpan, hostileTrace: 'ab'.repeat(16) };
  }

  it('exports one payment as OTLP/HTTP JSON: its trace names the provider calls, and its metrics count and time them', async () => {
    const spans: OtlpSpan[] = [];
    const metricExports: OtlpMetric[][] = [];
    const raw: string[] = [];
    const receiver = createServer((req, res) => {
      void text(req).then((body) => {
        raw.push(body);
        const json = JSON.parse(body) as {
          resourceSpans?: { scopeSpans: { spans: OtlpSpan[] }[] }[];
          resourceMetrics?: { scopeMetrics: { metrics: OtlpMetric[] }[] }[];
        };
        if (req.url === '/v1/traces') for (const r of json.resourceSpans ?? []) for (const s of r.scopeSpans) spans.push(...s.spans);
        if (req.url === '/v1/metrics') metricExports.push((json.resourceMetrics ?? []).flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics)));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    const port = await listen(receiver);
    const bff = await startCli({
      ...bffEnv(),
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRIC_EXPORT_INTERVAL: '300',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    try {
      const paid = await pay(bff.url);
      const provided = (name: string) => spans.find((s) => s.name === name);
      await until(() => provided('provider native transfer/validate'), 'the validation span exported', 20_000);

      // The provider calls, named by operation, each the child of the request that made it.
      for (const op of ['login', 'accounts/list', 'transfer/init', 'transfer/validate']) {
        const call = provided(`provider native ${op}`);
        assert.ok(call, `a span for ${op}: ${spans.map((s) => s.name).join(', ')}`);
        assert.equal(call.kind, 3, 'a client span');
        const a = attrs(call.attributes);
        assert.equal(a['bank_checkout.provider.operation'], op);
        assert.equal(a['bank_checkout.provider.outcome'], 'ok');
        assert.equal(a['bank_checkout.checkout_id'], paid.id);
        const parent = spans.find((s) => s.spanId === call.parentSpanId);
        assert.ok(parent, `the request that called ${op}`);
        assert.match(parent.name, /^POST \/v1\/checkout\//);
        assert.equal(attrs(parent.attributes)['bank_checkout.checkout_id'], paid.id);
        // The provider was sent this span as its parent.
        const sent = providerCalls.find((p) => p.path.endsWith(`/${op}`) && p.traceparent?.includes(call.spanId));
        assert.equal(sent?.traceparent, `00-${call.traceId}-${call.spanId}-01`);
      }
      // Nothing else of the context reaches the provider.
      assert.ok(providerCalls.every((p) => p.baggage === undefined));
      // The shop's creation continues the shop's trace; the browser's requests do not take theirs.
      const creation = spans.find((s) => s.name === 'POST /v1/checkouts')!;
      assert.equal(creation.traceId, paid.shopTrace);
      assert.equal(creation.parentSpanId, paid.shopSpan);
      assert.equal(attrs(creation.attributes)['http.response.status_code'], 201);
      assert.ok(spans.every((s) => s.traceId !== paid.hostileTrace));
      // No path (a hand-off link's is its token), no header: routes only.
      assert.ok(spans.filter((s) => s.kind === 2).every((s) => !('url.path' in attrs(s.attributes)) && 'http.route' in attrs(s.attributes)));

      // Metrics: the checkout by state and mode, the provider calls by operation and outcome.
      const point = (name: string, match: Record<string, unknown>) =>
        metricExports
          .at(-1)
          ?.find((m) => m.name === name)
          ?.[name.endsWith('duration') ? 'histogram' : 'sum']?.dataPoints.find((p) => Object.entries(match).every(([k, v]) => attrs(p.attributes)[k] === v));
      await until(() => point('bank_checkout.checkouts', { state: 'succeeded', mode: 'native' }), 'the succeeded checkout counted', 20_000);
      assert.equal(Number(point('bank_checkout.checkouts', { state: 'select-bank', mode: 'native' })?.asInt), 1, 'created');
      assert.equal(Number(point('bank_checkout.checkouts', { state: 'succeeded', mode: 'native' })?.asInt), 1);
      assert.ok(Number(point('bank_checkout.provider.duration', { service: 'native', operation: 'transfer/validate', outcome: 'ok' })?.count) >= 1);
      assert.ok(Number(point('http.server.request.duration', { 'http.route': '/v1/checkout/login' })?.count) >= 1);
      // What the payer typed is in no export.
      assert.ok(!raw.join('\n').includes('Aurora2024'));
    } finally {
      const status = await bff.stop();
      assert.equal(status, 0, bff.stderr());
      await new Promise((r) => receiver.close(r));
    }
  });

  it('serves a Prometheus scrape on a port of its own with OTEL_METRICS_EXPORTER=prometheus, and sends no trace anywhere', async () => {
    const port = await freePort();
    const bff = await startCli({ ...bffEnv(), OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_PORT: String(port) });
    try {
      await pay(bff.url);
      const scrape = await until(
        async () => {
          const body = await fetch(`http://127.0.0.1:${port}/metrics`).then(
            (r) => r.text(),
            () => '',
          );
          return body.includes('bank_checkout_checkouts_total{') ? body : null;
        },
        'the scrape counting checkouts',
        20_000,
        100,
      );
      assert.match(scrape, /bank_checkout_checkouts_total\{[^}]*state="succeeded"[^}]*\} 1/);
      assert.match(scrape, /bank_checkout_provider_duration(_seconds)?_count\{[^}]*operation="transfer\/validate"[^}]*\} 1/);
      // The scrape is the BFF's own port's neighbour, not the API's.
      assert.equal((await fetch(`${bff.url}/metrics`)).status, 404);
    } finally {
      assert.equal(await bff.stop(), 0, bff.stderr());
    }
    // No trace was sent anywhere (an export that failed would say so).
    assert.equal(bff.stderr(), '');
  });

  it('with OTEL_SDK_DISABLED=true, an endpoint set starts nothing of it and says nothing', async () => {
    const bff = await startCli({ ...bffEnv(), OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_SDK_DISABLED: 'true' });
    assert.equal(await bff.stop(), 0, bff.stderr());
    assert.equal(bff.stderr(), '');
  });
});
