/**
 * The BFF's telemetry in-process (telemetry.ts), with providers of the test's own: the metrics a
 * payment alone does not show (a lease taken over, 503s by cause, webhook deliveries and their
 * lag), and what a span may carry. The export as a process, to an OTLP receiver and a Prometheus
 * scrape, is cli-telemetry.test.ts; the canaries (test/security/canaries.test.ts) search spans and
 * metric labels for secrets.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { createHarness, type Harness } from './harness.js';
import { breakStore } from './slow-store.js';

class Collect extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

type Point = { attributes: Record<string, unknown>; value: unknown };

/** The points of a metric as collected now, with their labels. */
async function points(reader: Collect, name: string): Promise<Point[]> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return (metric?.dataPoints ?? []).map((p) => ({ attributes: p.attributes, value: p.value }));
}

describe('telemetry', () => {
  let h: Harness;
  const spans = new InMemorySpanExporter();
  const reader = new Collect();
  before(async () => {
    h = await createHarness(
      { MERCHANT_WEBHOOK_URL: 'http://merchant.test/hook', MERCHANT_WEBHOOK_SECRET: 'webhook-secret-0123456789' },
      {
        telemetry: {
          tracerProvider: new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] }),
          meterProvider: new MeterProvider({ readers: [reader] }),
        },
      },
    );
  });
  after(() => h.close());

  it('counts a lock whose holder did not renew it, settled by time, as a lease taken over', async () => {
    const c = await h.createCheckout({ reference: 'TEL-LEASE' });
    const rec = (await h.bff.parts.store.getCheckout(c.id))!;
    // An instance took the sign-in's lock and stopped: its lease ended a minute ago.
    const since = h.clock.now - 120_000;
    await h.bff.parts.store.updateCheckout(rec.id, rec.version, {
      state: 'login',
      internal: { ...rec.internal, bank: { bankId: 'aurora' }, busy: { op: 'login', since, until: since + 1_000, holder: 'bff_gone', token: 'lk_gone' } },
    } as never);
    assert.equal((await h.checkout(c.clientSecret, '/v1/checkout')).status, 200);
    assert.deepEqual(
      (await points(reader, 'bank_checkout.leases.taken_over')).map((p) => [p.attributes, p.value]),
      [[{ op: 'login', to: 'released' }, 1]],
    );
  });

  it('counts 503s by cause', async () => {
    const c = await h.createCheckout({ reference: 'TEL-503' });
    const restore = breakStore(h.bff.parts.store, ['getCheckout', 'getCheckoutBySecretHash']);
    try {
      const res = await h.checkout(c.clientSecret, '/v1/checkout');
      assert.equal(res.status, 503);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'store_unavailable');
    } finally {
      restore();
    }
    h.bff.parts.telemetry.unavailable('connection_cap');
    const by = Object.fromEntries((await points(reader, 'bank_checkout.unavailable')).map((p) => [p.attributes.cause, p.value]));
    assert.deepEqual(by, { store_unavailable: 1, connection_cap: 1 });
    // The request's span says what it was answered with.
    const answered = spans.getFinishedSpans().find((s) => s.name === 'GET /v1/checkout' && s.attributes['http.response.status_code'] === 503);
    assert.equal(answered?.attributes['bank_checkout.error_code'], 'store_unavailable');
  });

  it("counts webhook deliveries by outcome, and the lag of those delivered from their event's writing", async () => {
    const c = await h.createCheckout({ reference: 'TEL-HOOK' });
    assert.equal((await h.checkout(c.clientSecret, '/v1/checkout/cancel', {})).status, 200);
    await h.bff.parts.webhook.drain();
    const delivered = (await points(reader, 'bank_checkout.outbox.deliveries')).find((p) => p.attributes.outcome === 'delivered');
    assert.deepEqual(delivered?.attributes, { type: 'checkout.updated', outcome: 'delivered' });
    const lag = (await points(reader, 'bank_checkout.outbox.lag'))[0];
    assert.equal((lag?.value as { count: number }).count, 1);
  });

  it('names a server span by its route, never by its path (a hand-off link is its token), and records no header', async () => {
    spans.reset();
    await h.bff.request('http://bff.test/v1/handoff/hof_secret-token-value', { headers: { Authorization: 'Bearer nope', Cookie: 'a=b' } });
    const [span] = spans.getFinishedSpans();
    assert.ok(span);
    assert.doesNotMatch(JSON.stringify({ name: span.name, attributes: span.attributes }), /secret-token-value|Bearer|a=b/);
    assert.match(span.name, /^GET \/v1\/handoff\/:/);
  });
});
