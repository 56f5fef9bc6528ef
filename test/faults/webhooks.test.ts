/**
 * Durable webhooks: each event is written with the change it reports, carries an id, a type and
 * a creation time (in the body and in headers), is retried with growing delays for more than a
 * day, survives a restart of the BFF, is delivered by one instance when several share the store,
 * and can be sent again through the merchant API.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBff, createStore, loadConfig, type BffApp, type Store } from '@bank-checkout/bff';
import { verifyWebhook } from '@bank-checkout/bff/client';
import { bodyText, urlOf } from '../support/fake-fetch.js';

const SECRET = 'merchant-secret-for-webhook-tests-0123456789';
const HOOK_SECRET = 'webhook-secret-0123456789abcdef';

interface Received {
  headers: Headers;
  body: string;
}

/** The merchant's endpoint: answers with `status()` and keeps what it was sent. */
function merchantEndpoint() {
  const received: Received[] = [];
  let status = 500;
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(urlOf(input));
    if (url.origin !== 'http://merchant.test') throw new TypeError(`unreachable: ${url.origin}`);
    received.push({ headers: new Headers(init?.headers), body: bodyText(init?.body) });
    return new Response(status === 204 ? null : '', { status });
  }) as typeof fetch;
  return { received, fetch: fetchFn, answer: (s: number) => (status = s) };
}

describe('durable webhooks', () => {
  const apps: BffApp[] = [];
  /** The folders of the SQLite files the tests boot on, removed once their apps are closed. */
  const dirs: string[] = [];
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  const clock = { now: Date.parse('2026-11-20T10:00:00Z') };
  function boot(databaseUrl: string, fetchFn: typeof fetch, store?: Store, log?: (line: string) => void) {
    const app = createBff(
      loadConfig({
        DATABASE_URL: databaseUrl,
        BFF_MERCHANT_SECRET: SECRET,
        MERCHANT_WEBHOOK_URL: 'http://merchant.test/hooks',
        MERCHANT_WEBHOOK_SECRET: HOOK_SECRET,
        LOG_LEVEL: log ? 'info' : 'silent',
      }),
      { fetch: fetchFn, now: () => clock.now, webhookPollMs: 60_000, ...(store ? { store } : {}), ...(log ? { log } : {}) },
    );
    apps.push(app);
    return app;
  }
  async function cancelledCheckout(app: BffApp) {
    const created = await app.request('/v1/checkouts', {
      method: 'POST',
      headers: { Authorization: `Bearer ${SECRET}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 1234, subject: 'Order', reference: `WH-${Math.random().toString(36).slice(2, 8)}`, isolation: 'inline' }),
    });
    const { id, clientSecret } = (await created.json()) as { id: string; clientSecret: string };
    const cancel = await app.request('/v1/checkout/cancel', {
      method: 'POST',
      headers: { 'X-Checkout-Secret': clientSecret, 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(cancel.status, 200);
    return id;
  }
  const file = () => {
    const dir = mkdtempSync(join(tmpdir(), 'bff-webhooks-'));
    dirs.push(dir);
    return `file:${join(dir, 'bff.db')}`;
  };

  it('keeps an undelivered event across a restart, and the new process delivers it, signed, with its id', async () => {
    const db = file();
    const merchant = merchantEndpoint();
    const first = boot(db, merchant.fetch);
    await first.ready;
    const checkoutId = await cancelledCheckout(first);
    await first.parts.webhook.drain();
    assert.equal(merchant.received.length, 1, 'tried at once');
    const eventId = merchant.received[0]!.headers.get('X-Bank-Checkout-Event-Id')!;
    assert.match(eventId, /^evt_/);
    await first.close();
    apps.length = 0;

    merchant.answer(200);
    clock.now += 10_000;
    const second = boot(db, merchant.fetch);
    await second.ready;
    await second.parts.webhook.drain();
    assert.equal(merchant.received.length, 2);
    const delivered = merchant.received[1]!;
    assert.equal(delivered.headers.get('X-Bank-Checkout-Event-Id'), eventId, 'the same event, by id');
    assert.equal(delivered.headers.get('X-Bank-Checkout-Event-Type'), 'checkout.updated');
    assert.equal(delivered.headers.get('X-Bank-Checkout-Event-Created'), new Date(clock.now - 10_000).toISOString());
    const event = await verifyWebhook(delivered.body, delivered.headers, HOOK_SECRET, { now: clock.now });
    assert.equal(event.id, eventId);
    assert.equal(event.type === 'checkout.updated' && event.data.checkoutId, checkoutId);
    assert.equal(event.type === 'checkout.updated' && event.data.mode, 'native');
    await second.parts.webhook.drain();
    assert.equal(merchant.received.length, 2, 'delivered once');
  });

  it('a delivery the merchant acknowledged while the store could not record it is recorded once the store is back, never sent again', async () => {
    const merchant = merchantEndpoint();
    merchant.answer(200);
    const logs: string[] = [];
    const app = boot(':memory:', merchant.fetch, undefined, (l) => logs.push(l));
    await app.ready;
    const store = app.parts.store;
    const down = () => Promise.reject(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    const { settleEvent, claimDueEvents } = store;
    // The store stops answering between the delivery and its recording.
    store.settleEvent = down;
    await cancelledCheckout(app);
    await app.parts.webhook.drain();
    assert.equal(merchant.received.length, 1, 'delivered');
    assert.equal(app.parts.webhook.pendingRecords(), 1);
    const eventId = merchant.received[0]!.headers.get('webhook-id')!;
    // Down for longer than the event's lease: nothing is sent again meanwhile.
    store.claimDueEvents = down;
    for (let i = 0; i < 3; i++) {
      clock.now += 60_000;
      await app.parts.webhook.drain();
    }
    // Back: the acknowledged delivery is recorded first; the event is not due again.
    store.settleEvent = settleEvent;
    store.claimDueEvents = claimDueEvents;
    clock.now += 60_000;
    await app.parts.webhook.drain();
    await app.parts.webhook.drain();
    assert.equal(merchant.received.length, 1, 'sent once');
    assert.equal(app.parts.webhook.pendingRecords(), 0);
    assert.notEqual((await store.getEvent(eventId))?.deliveredAt, null);
    assert.deepEqual(
      logs.filter((l) => l.includes('"webhook.failed"')),
      [],
      'never counted as a failed delivery',
    );
    assert.equal(logs.filter((l) => l.includes('"webhook.record_failed"')).length, 1);
    assert.ok(logs.some((l) => l.includes('"webhook.delivered"') && l.includes('"recordedLate":true')));
  });

  it('retries for more than a day with growing delays, then marks it failed; the merchant API sends it again', async () => {
    const merchant = merchantEndpoint();
    const app = boot(':memory:', merchant.fetch);
    await app.ready;
    const started = clock.now;
    await cancelledCheckout(app);
    await app.parts.webhook.drain();
    const gaps: number[] = [];
    let last = clock.now;
    for (let i = 0; i < 40 && merchant.received.length < 14; i++) {
      clock.now += 60_000;
      const before = merchant.received.length;
      await app.parts.webhook.drain();
      if (merchant.received.length > before) {
        gaps.push(clock.now - last);
        last = clock.now;
      }
      // Skip ahead to just before the next try.
      const [next] = await app.parts.store.listEvents({ status: 'pending', limit: 1 });
      if (next) clock.now = Math.max(clock.now, next.nextAttemptAt - 60_000);
    }
    assert.equal(merchant.received.length, 14, 'one try and 13 retries');
    assert.ok(
      gaps.every((g, i) => i === 0 || g >= gaps[i - 1]!),
      `growing delays: ${gaps.join(', ')}`,
    );
    assert.ok(last - started >= 24 * 3600_000, `retried for ${((last - started) / 3600_000).toFixed(1)} h`);
    const listed = await app.request('/v1/webhooks/events?status=failed', { headers: { Authorization: `Bearer ${SECRET}` } });
    const { events } = (await listed.json()) as { events: { id: string; status: string; attempts: number; lastError: string }[] };
    assert.equal(events.length, 1);
    assert.deepEqual([events[0]!.status, events[0]!.attempts, events[0]!.lastError], ['failed', 14, 'HTTP 500']);

    merchant.answer(204);
    const again = await app.request(`/v1/webhooks/events/${events[0]!.id}/redeliver`, { method: 'POST', headers: { Authorization: `Bearer ${SECRET}` } });
    assert.equal(again.status, 200);
    await app.parts.webhook.drain();
    assert.equal(merchant.received.length, 15);
    const after = (await (await app.request(`/v1/webhooks/events?status=delivered`, { headers: { Authorization: `Bearer ${SECRET}` } })).json()) as {
      events: { id: string }[];
    };
    assert.deepEqual(
      after.events.map((e) => e.id),
      [events[0]!.id],
    );
    const unknown = await app.request('/v1/webhooks/events/evt_nope/redeliver', { method: 'POST', headers: { Authorization: `Bearer ${SECRET}` } });
    assert.equal(unknown.status, 404);
  });

  it('is delivered by one instance when several share the store', async () => {
    const db = file();
    const merchant = merchantEndpoint();
    merchant.answer(200);
    // One process serves a SQLite file (several instances share PostgreSQL): the other two
    // dispatchers here open the file as a tool does, to race for its outbox all the same.
    const a = boot(db, merchant.fetch);
    const b = boot(db, merchant.fetch, createStore(db));
    const c = boot(db, merchant.fetch, createStore(db));
    await Promise.all([a.ready, b.ready, c.ready]);
    for (let i = 0; i < 5; i++) await cancelledCheckout(a);
    await Promise.all([a.parts.webhook.drain(), b.parts.webhook.drain(), c.parts.webhook.drain(), a.parts.webhook.drain()]);
    await Promise.all([a.parts.webhook.drain(), b.parts.webhook.drain(), c.parts.webhook.drain()]);
    const ids = merchant.received.map((r) => r.headers.get('X-Bank-Checkout-Event-Id'));
    assert.equal(ids.length, 5, `deliveries: ${ids.length}`);
    assert.equal(new Set(ids).size, 5);
  });
});

describe('checkouts that end by time alone', () => {
  it('expires a redirect checkout whose payer never came back, after the link and its grace, and tells the merchant', async () => {
    const received: string[] = [];
    const clock = { now: Date.parse('2026-11-20T10:00:00Z') };
    const sandboxUrl = 'http://sandbox.test';
    const { createSandbox } = await import('@bank-checkout/sandbox');
    const sandbox = createSandbox({ publicUrl: sandboxUrl, now: () => clock.now });
    const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(urlOf(input));
      if (url.origin === sandboxUrl) return sandbox.app.request(url.toString(), init);
      received.push(bodyText(init?.body));
      return new Response(null, { status: 204 });
    }) as typeof fetch;
    const app = createBff(
      loadConfig({
        DATABASE_URL: ':memory:',
        BFF_MERCHANT_SECRET: SECRET,
        MERCHANT_WEBHOOK_URL: 'http://merchant.test/hooks',
        MERCHANT_WEBHOOK_SECRET: HOOK_SECRET,
        PROVIDER_LINKS_URL: sandboxUrl,
        PROVIDER_NATIVE_URL: sandboxUrl,
        LOG_LEVEL: 'silent',
      }),
      { fetch: fetchFn, now: () => clock.now, sweepMs: 0 },
    );
    try {
      await app.ready;
      const auth = { Authorization: `Bearer ${SECRET}`, 'Content-Type': 'application/json' };
      const made = async (modes: string[]) => {
        const res = await app.request('/v1/checkouts', {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ amount: 500, subject: 'Order', reference: `END-${modes[0]}`, modes, isolation: 'inline' }),
        });
        return (await res.json()) as { id: string; clientSecret: string };
      };
      const redirect = await made(['redirect']);
      const started = await app.request('/v1/checkout/redirect', {
        method: 'POST',
        headers: { 'X-Checkout-Secret': redirect.clientSecret, 'Content-Type': 'application/json' },
        body: '{}',
      });
      assert.equal(((await started.json()) as { state: string }).state, 'redirect');
      const native = await made(['native']);

      clock.now += 30 * 60_000 + 1_000; // past both expiries
      assert.equal(await app.parts.service.sweep(), 1, 'the native one ends; the redirect one is in its grace period');
      clock.now += 15 * 60_000;
      assert.equal(await app.parts.service.sweep(), 1);
      assert.equal(await app.parts.service.sweep(), 0, 'nothing left to end');
      for (const c of [redirect, native]) assert.equal((await app.parts.store.getCheckout(c.id))?.state, 'expired');

      await app.parts.webhook.drain();
      const told = received.map((b) => JSON.parse(b) as { type: string; data: { checkoutId: string; state: string; source: string; mode: string } });
      assert.deepEqual(
        told.map((e) => [e.data.checkoutId, e.data.state, e.data.source, e.data.mode]).sort(),
        [
          [native.id, 'expired', 'time', 'native'],
          [redirect.id, 'expired', 'time', 'redirect'],
        ].sort(),
      );
    } finally {
      await app.close();
    }
  });
});
