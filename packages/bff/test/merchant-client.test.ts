import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMerchantClient, MerchantApiError, verifyWebhook, WebhookSignatureError, type MerchantClient } from '../src/merchant-client.js';
import { createHarness, MERCHANT_SECRET, type Harness } from './harness.js';
import { urlOf } from '../../../test/support/fake-fetch.js';

const WEBHOOK_SECRET = 'webhook-secret-0123456789';

describe('createMerchantClient', () => {
  let h: Harness;
  let bff: MerchantClient;
  /** Requests the client made, as `METHOD path`. */
  const seen: string[] = [];
  /** Answers to give instead of the BFF's, first in first out. */
  const faults: (Response | Error)[] = [];

  before(async () => {
    h = await createHarness({ MERCHANT_WEBHOOK_URL: 'http://merchant.test/hook', MERCHANT_WEBHOOK_SECRET: WEBHOOK_SECRET });
    const fetchVia = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(urlOf(input));
      seen.push(`${init?.method} ${url.pathname}${url.search}`);
      const fault = faults.shift();
      if (fault instanceof Error) throw fault;
      if (fault) return fault;
      return h.bff.request(url.toString(), init);
    }) as typeof fetch;
    bff = createMerchantClient({ url: 'http://bff.test/', secret: MERCHANT_SECRET, fetch: fetchVia });
  });
  after(() => h.close());

  it('creates a checkout, reads it back, and a repeated idempotency key finds the same one', async () => {
    const body = { amount: 4840, subject: 'Order 1042', reference: 'ORD-CLIENT-1' };
    const first = await bff.createCheckout(body, { idempotencyKey: 'cart-1042' });
    assert.match(String(first.launchToken), /^lt_\S{60,}/);
    assert.equal(first.isolation, 'isolated');
    assert.equal(first.clientSecret, undefined, 'an isolated checkout has no client secret');
    assert.equal(first.state, 'select-bank');
    const again = await bff.createCheckout(body, { idempotencyKey: 'cart-1042' });
    assert.equal(again.id, first.id);
    assert.notEqual(again.launchToken, first.launchToken, 'a replay gives a fresh launch token');
    const relaunched = await bff.launchCheckout(first.id);
    assert.equal(relaunched.id, first.id);
    assert.match(relaunched.launchToken, /^lt_/);
    assert.ok(Date.parse(relaunched.launchExpiresAt) > h.clock.now);
    const read = await bff.getCheckout(first.id);
    assert.deepEqual([read.id, read.amount, read.reference], [first.id, 4840, 'ORD-CLIENT-1']);
    assert.equal('clientSecret' in read, false);
  });

  it('throws the BFF error with its code, status, request id and issues', async () => {
    const err = await bff.createCheckout({ amount: -1, subject: 'x', reference: 'R' }).then(
      () => assert.fail('accepted a negative amount'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof MerchantApiError);
    assert.equal(err.status, 422);
    assert.equal(err.code, 'validation_failed');
    assert.ok(
      err.issues.some((i) => i.path === 'amount'),
      JSON.stringify(err.issues),
    );
    assert.ok(err.requestId);
    const wrong = createMerchantClient({
      url: 'http://bff.test',
      secret: 'not-the-secret-0123456789',
      fetch: ((i: RequestInfo | URL, init?: RequestInit) => h.bff.request(urlOf(i), init)) as typeof fetch,
    });
    await assert.rejects(wrong.getCheckout('chk_x'), (e: unknown) => e instanceof MerchantApiError && e.status === 401);
    await assert.rejects(bff.getCheckout('chk_none'), (e: unknown) => e instanceof MerchantApiError && e.status === 404);
  });

  it('retries a read and a keyed creation after a network failure or a 503, never a link (it has no key)', async () => {
    seen.length = 0;
    faults.push(new TypeError('fetch failed'), new Response('busy', { status: 503 }));
    const page = await bff.listNotifications({ limit: 5 });
    assert.ok(Array.isArray(page.notifications));
    assert.deepEqual(seen, ['GET /v1/notifications?limit=5', 'GET /v1/notifications?limit=5', 'GET /v1/notifications?limit=5']);

    seen.length = 0;
    faults.push(new TypeError('fetch failed'));
    const keyed = await bff.createCheckout({ amount: 100, subject: 'Retry', reference: 'ORD-RETRY-1' }, { idempotencyKey: 'cart-retry' });
    assert.equal(seen.length, 2);
    assert.equal(keyed.amount, 100);

    // Links carry no key: never retried.
    seen.length = 0;
    faults.push(new TypeError('fetch failed'));
    await assert.rejects(
      bff.createLink({ amount: 100, subject: 'No key', reference: 'ORD-RETRY-2' }),
      (e: unknown) => e instanceof MerchantApiError && e.code === 'network',
    );
    assert.equal(seen.length, 1);
  });

  it('gives a creation without a key one of its own: its answer lost, a 429 and a 409 in progress later, it creates one checkout', async () => {
    const keys: (string | null)[] = [];
    let lose = 1;
    const flaky = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const key = new Headers(init?.headers).get('Idempotency-Key');
      keys.push(key);
      const answer = await h.bff.request(urlOf(input), init);
      // The first try is created at the BFF, and its answer lost on the way back.
      if (lose-- > 0) throw new TypeError('fetch failed');
      return answer;
    }) as typeof fetch;
    const client = createMerchantClient({ url: 'http://bff.test', secret: MERCHANT_SECRET, fetch: flaky, retries: 2 });
    const body = { amount: 4200, subject: 'Lost answer', reference: 'ORD-LOST-1' };
    const created = await client.createCheckout(body);
    assert.equal(keys.length, 2);
    assert.match(keys[0]!, /^bc_[0-9a-f-]{36}$/);
    assert.equal(keys[1], keys[0], 'the same key on the retry');
    const listed = await bff.listCheckouts({ limit: 100 });
    assert.deepEqual(
      listed.checkouts.filter((c) => c.reference === 'ORD-LOST-1').map((c) => c.id),
      [created.id],
      'one checkout',
    );
    // Another call is another checkout, with another key (a cart of its own needs its own key).
    const first = keys[0];
    keys.length = 0;
    const next = await client.createCheckout({ ...body, reference: 'ORD-LOST-2' });
    assert.notEqual(next.id, created.id);
    assert.match(keys[0]!, /^bc_/);
    assert.notEqual(keys[0], first);

    // A 429 and a 409 `idempotency_in_progress` are waited out and tried again, the key the same.
    seen.length = 0;
    faults.push(
      new Response('{"error":{"code":"rate_limited","message":"Slow down."}}', { status: 429, headers: { 'Retry-After': '0' } }),
      new Response('{"error":{"code":"idempotency_in_progress","message":"Still running."}}', { status: 409, headers: { 'Retry-After': '0' } }),
    );
    const third = await bff.createCheckout({ ...body, reference: 'ORD-LOST-3' });
    assert.equal(seen.length, 3);
    assert.equal(third.reference, 'ORD-LOST-3');
  });

  it('waits the Retry-After of a 503 before it tries again', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    seen.length = 0;
    faults.push(new Response('{}', { status: 503, headers: { 'Retry-After': '2' } }));
    const page = bff.listNotifications({ limit: 1 });
    // The 503 is in and the retry waits on a timer: not sent before 2 s, sent once they pass.
    while (seen.length < 1) await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    t.mock.timers.tick(1_900);
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    assert.equal(seen.length, 1, 'retried before the Retry-After');
    t.mock.timers.tick(300);
    assert.ok(Array.isArray((await page).notifications));
    assert.equal(seen.length, 2);
  });

  it('lists checkouts by state, most recently changed first, paged', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) {
      const c = await bff.createCheckout({ amount: 300 + i, subject: 'To cancel', reference: `ORD-LIST-${i}`, isolation: 'inline' });
      h.clock.advance(1_000);
      assert.equal((await h.checkout(c.clientSecret!, '/v1/checkout/cancel', {})).status, 200);
      made.push(c.id);
    }
    const page1 = await bff.listCheckouts({ state: 'cancelled', limit: 2 });
    assert.deepEqual(
      page1.checkouts.map((c) => c.id),
      [made[2], made[1]],
    );
    assert.ok(page1.next);
    const page2 = await bff.listCheckouts({ state: 'cancelled', limit: 2, cursor: page1.next });
    assert.equal(page2.checkouts[0]!.id, made[0]);
    assert.ok(page1.checkouts.every((c) => c.state === 'cancelled' && c.mode === 'native'));
    assert.deepEqual((await bff.listCheckouts({ state: 'unknown' })).checkouts, []);
    await assert.rejects(bff.listCheckouts({ state: 'nope' as never }), (e: unknown) => e instanceof MerchantApiError && e.status === 422);
  });

  it('lists recent checkouts in any state without a state filter', async () => {
    h.clock.advance(1_000);
    const open = await bff.createCheckout({ amount: 410, subject: 'Recent open', reference: 'ORD-RECENT-1' });
    h.clock.advance(1_000);
    const cancelled = await bff.createCheckout({ amount: 420, subject: 'Recent cancelled', reference: 'ORD-RECENT-2', isolation: 'inline' });
    assert.equal((await h.checkout(cancelled.clientSecret!, '/v1/checkout/cancel', {})).status, 200);
    const recent = await bff.listCheckouts({ limit: 2 });
    assert.deepEqual(
      recent.checkouts.map((c) => [c.id, c.state]),
      [
        [cancelled.id, 'cancelled'],
        [open.id, 'select-bank'],
      ],
    );
    assert.ok((await bff.listCheckouts()).checkouts.length > 2);
    const res = await h.merchant('/v1/checkouts');
    assert.equal(res.status, 200, 'GET /v1/checkouts without state');
  });

  it('lists webhook events and sends one again', async () => {
    await h.bff.parts.webhook.drain();
    const page = await bff.listWebhookEvents({ limit: 5 });
    assert.ok(page.events.length > 0);
    const first = page.events[0]!;
    assert.match(first.id, /^evt_/);
    assert.ok((await bff.listWebhookEvents({ status: 'delivered' })).events.every((e) => e.status === 'delivered'));
    const before = h.webhooks.length;
    const queued = await bff.redeliverWebhookEvent(first.id);
    assert.equal(queued.id, first.id);
    await h.bff.parts.webhook.drain();
    assert.equal(h.webhooks.length, before + 1, 'sent again once');
    assert.equal(JSON.parse(h.webhooks.at(-1)!.body).id, first.id);
    await assert.rejects(bff.redeliverWebhookEvent('evt_none'), (e: unknown) => e instanceof MerchantApiError && e.status === 404);
  });

  it('makes payment links and lists link banks', async () => {
    const link = await bff.createLink({ amount: 1999, subject: 'Link order', reference: 'LNK-CLIENT-1' });
    assert.match(String(link.url), /^http/);
    const banks = await bff.linkBanks({ country: 'es' });
    assert.ok((banks.data ?? []).length > 0);
  });

  it('verifies the BFF’s signed webhooks and refuses altered, stale or unsigned ones', async () => {
    const c = await bff.createCheckout({ amount: 700, subject: 'Cancelled order', reference: 'ORD-HOOK-1', isolation: 'inline' });
    const before = h.webhooks.length;
    const cancel = await h.checkout(c.clientSecret!, '/v1/checkout/cancel', {});
    assert.equal(cancel.status, 200);
    await h.bff.parts.webhook.drain();
    assert.equal(h.webhooks.length, before + 1, 'one delivery');
    const hook = h.webhooks.at(-1)!;
    const event = await verifyWebhook(hook.body, hook.headers, WEBHOOK_SECRET, { now: h.clock.now });
    assert.equal(event.type, 'checkout.updated');
    assert.equal(event.data.checkoutId, c.id);
    // Node's IncomingHttpHeaders (lower-case names) work as well as a Headers object.
    const plain = { 'x-bank-checkout-signature': hook.headers.get('X-Bank-Checkout-Signature')! };
    assert.equal((await verifyWebhook(new TextEncoder().encode(hook.body), plain, WEBHOOK_SECRET, { now: h.clock.now })).type, 'checkout.updated');

    const refused = (p: Promise<unknown>) => assert.rejects(p, WebhookSignatureError);
    await refused(verifyWebhook(hook.body.replace('700', '701'), hook.headers, WEBHOOK_SECRET, { now: h.clock.now }));
    await refused(verifyWebhook(hook.body, hook.headers, 'another-secret-0123456789', { now: h.clock.now }));
    await refused(verifyWebhook(hook.body, hook.headers, WEBHOOK_SECRET, { now: h.clock.now + 6 * 60_000 }));
    await refused(verifyWebhook(hook.body, {}, WEBHOOK_SECRET, { now: h.clock.now }));
    await refused(verifyWebhook(hook.body, { 'x-bank-checkout-signature': 't=1,v1=zz' }, WEBHOOK_SECRET));
  });
});
