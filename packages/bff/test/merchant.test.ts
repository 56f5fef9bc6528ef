import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SANDBOX_DEFAULTS } from '@bank-checkout/sandbox/testing';
import { createHarness, MERCHANT_SECRET, type Harness } from './harness.js';

type Json = Record<string, any>;
const json = async (res: Response): Promise<Json> => (await res.json()) as Json;

function tomorrowPlus(h: Harness, days: number): string {
  return new Date(h.clock.now + days * 86_400_000).toISOString().slice(0, 10);
}

describe('merchant API', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());

  it('requires the bearer secret', async () => {
    for (const auth of [undefined, 'Bearer wrong-secret-of-same-len', `Basic ${MERCHANT_SECRET}`, `Bearer ${MERCHANT_SECRET}x`]) {
      const res = await h.bff.request('http://bff.test/v1/checkouts/chk_x', { headers: auth ? { Authorization: auth } : {} });
      assert.equal(res.status, 401, String(auth));
      assert.equal((await json(res)).error.code, 'unauthorized');
    }
  });

  it('validates a new checkout and explains every issue', async () => {
    const cases: Json[] = [
      { amount: 12.5, subject: 's', reference: 'r' },
      { amount: 100, subject: 'x'.repeat(141), reference: 'r' },
      { amount: 100, subject: 's', reference: 'r'.repeat(101) },
      { amount: 100, subject: 's', reference: 'r', accountDestiny: 'ES00 1234' },
      { amount: 100, subject: 's', reference: 'r', modes: ['native', 'native'] },
      { amount: 100, subject: 's', reference: 'r', urlOk: 'javascript:alert(1)' },
      { amount: -1, subject: 's', reference: 'r' },
      { subject: 's', reference: 'r' },
      { amount: 100, subject: 's', reference: 'r', customData: 'x'.repeat(4001) },
      { amount: 100, subject: 's', reference: 'r', unknown: true },
    ];
    for (const body of cases) {
      const res = await h.merchant('/v1/checkouts', { body });
      assert.equal(res.status, 422, JSON.stringify(body).slice(0, 80));
      const err = (await json(res)).error;
      assert.equal(err.code, 'validation_failed');
      assert.ok(err.issues.length >= 1 && err.issues[0].path !== undefined);
    }
  });

  it('makes creation safe to retry with an Idempotency-Key', async () => {
    const body = { amount: 5000, subject: 'Idempotent', reference: 'IDEM-1' };
    const first = await h.merchant('/v1/checkouts', { body, headers: { 'Idempotency-Key': 'key-123' } });
    const second = await h.merchant('/v1/checkouts', { body, headers: { 'Idempotency-Key': 'key-123' } });
    assert.equal(first.status, 201);
    assert.equal(second.status, 200);
    const a = await json(first);
    const b = await json(second);
    assert.equal(a.id, b.id);
    assert.equal(a.clientSecret, b.clientSecret);
    const other = await h.merchant('/v1/checkouts', { body: { ...body, amount: 5001 }, headers: { 'Idempotency-Key': 'key-123' } });
    assert.equal(other.status, 409);
    assert.equal((await json(other)).error.code, 'idempotency_mismatch');
    // The same order sent four times at once (a double click, a shop's retry): one checkout, made once, found by the others.
    const raced = { ...body, reference: 'IDEM-RACE' };
    const races = await Promise.all([1, 2, 3, 4].map(() => h.merchant('/v1/checkouts', { body: raced, headers: { 'Idempotency-Key': 'key-race' } })));
    assert.deepEqual(races.map((r) => r.status).sort(), [200, 200, 200, 201]);
    const ids = new Set(await Promise.all(races.map(async (r) => (await json(r)).id)));
    assert.equal(ids.size, 1);
    assert.match([...ids][0], /^chk_/);
  });

  it('reads a checkout without its secret or provider session', async () => {
    const c = await h.createCheckout({ customData: '{"cart":1}' });
    const res = await h.merchant(`/v1/checkouts/${c.id}`);
    assert.equal(res.status, 200);
    const body = await json(res);
    assert.equal(body.id, c.id);
    assert.equal(body.customData, '{"cart":1}');
    assert.equal(body.clientSecret, undefined);
    assert.equal((await h.merchant('/v1/checkouts/chk_unknown')).status, 404);
    assert.equal((await h.merchant('/v1/checkouts/bad%20id')).status, 404);
  });

  it('resolves only an unknown checkout', async () => {
    const c = await h.createCheckout();
    const res = await h.merchant(`/v1/checkouts/${c.id}/resolve`, { body: { outcome: 'succeeded' } });
    assert.equal(res.status, 409);
  });

  it('creates a signed payment link with every limit checked first', async () => {
    const ok = await h.merchant('/v1/links', {
      body: { amount: 2500, subject: 'Invoice 42', reference: 'INV-42', customRecipient: 'Shop;Street 1', expireMinutes: 60 },
    });
    assert.equal(ok.status, 201);
    const link = await json(ok);
    assert.match(link.url, /^http:\/\/sandbox\.test\//);
    assert.ok(link.idDebt);
    const sent = h.upstreamBodies.filter((b) => b.path === '/san/url/signer').at(-1)!.body as Json;
    assert.equal(sent.urlNotif, 'http://bff.test/v1/notifications/provider');
    for (const body of [
      { amount: 2500, subject: 'x'.repeat(161), reference: 'r' },
      { amount: 2500, subject: 's', reference: 'r', expireMinutes: 259201 },
      { amount: 2500, subject: 's', reference: 'r', customRecipient: 'x'.repeat(201) },
      { amount: 2500, subject: 's', reference: 'r', urlNotif: 'https://elsewhere.example/n' },
    ]) {
      assert.equal((await h.merchant('/v1/links', { body })).status, 422);
    }
    const notValidated = await h.merchant('/v1/links', {
      body: { amount: 2500, subject: 's', reference: 'r', accountDestiny: 'ES7921000813610123456789', holderDestiny: 'X' },
    });
    assert.equal(notValidated.status, 422);
    const rejected = (await json(notValidated)).error;
    assert.equal(rejected.code, 'provider_rejected');
    const detail = rejected.issues.find((i: Json) => i.path === 'providerDescription');
    assert.match(detail.message, /accountDestiny/, 'the merchant learns which field the provider refused');
  });

  it('creates periodic links and refuses bad dates and subjects', async () => {
    const banks = await json(await h.merchant('/v1/link-banks?periodic=1'));
    const bank = banks.data.find((b: Json) => b.enabled === 1 && b.enabledPeriodicPayment === 1);
    assert.ok(bank, 'a periodic bank');
    const base = {
      amount: 999,
      subject: 'Monthly box',
      reference: 'SUB-1',
      frequency: bank.frequencyPeriodicPayment[0],
      debtorAccount: 'ES7620770024003102575766',
      startDate: tomorrowPlus(h, 2),
      bankIdSelected: bank.bankId,
    };
    const ok = await h.merchant('/v1/links/periodic', { body: base });
    assert.equal(ok.status, 201, JSON.stringify(await ok.clone().json()));
    assert.ok((await json(ok)).url);
    for (const body of [
      { ...base, startDate: new Date(h.clock.now).toISOString().slice(0, 10) },
      { ...base, subject: 'Box & more!' },
      { ...base, debtorAccount: 'ES7620770024003102575767' },
      { ...base, endDate: tomorrowPlus(h, 1) },
      { ...base, startDate: '2026-02-30' },
    ]) {
      assert.equal((await h.merchant('/v1/links/periodic', { body })).status, 422, JSON.stringify(body));
    }
  });

  it('cancels a periodic order only with a known transaction id', async () => {
    const res = await h.merchant('/v1/links/periodic/cancel', { body: { transactionId: 'unknown-tx', reference: 'CAN-1' } });
    assert.equal(res.status, 422);
    assert.equal((await json(res)).error.issues[0].message, 'E301');
  });

  it('lists orders with paging and order, and toggles them', async () => {
    for (let i = 0; i < 5; i++) {
      h.clock.advance(1000);
      await h.merchant('/v1/links', { body: { amount: 100 + i, subject: `Paged ${i}`, reference: `PAGE-${i}` } });
    }
    const page1 = await json(await h.merchant('/v1/orders?pageSize=2&page=1&order=desc'));
    assert.equal(page1.itemsReturned, 2);
    assert.equal(page1.currentPage, 1);
    assert.ok(page1.totalItems >= 5);
    assert.ok(page1.paymentOrders[0].createAt >= page1.paymentOrders[1].createAt);
    const asc = await json(await h.merchant('/v1/orders?pageSize=2&page=1&order=asc'));
    assert.ok(asc.paymentOrders[0].createAt <= asc.paymentOrders[1].createAt);
    assert.equal((await h.merchant('/v1/orders?pageSize=301')).status, 422);
    assert.equal((await h.merchant('/v1/orders?page=0')).status, 422);
    assert.equal((await h.merchant('/v1/orders?order=sideways')).status, 422);

    const id = page1.paymentOrders[0].idDebt;
    assert.equal((await h.merchant(`/v1/orders/${id}/disable`, { method: 'POST' })).status, 200);
    let found = (await json(await h.merchant('/v1/orders?pageSize=300'))).paymentOrders.find((o: Json) => o.idDebt === id);
    assert.equal(found.enabled, false);
    assert.equal((await h.merchant(`/v1/orders/${id}/enable`, { method: 'POST' })).status, 200);
    found = (await json(await h.merchant('/v1/orders?pageSize=300'))).paymentOrders.find((o: Json) => o.idDebt === id);
    assert.equal(found.enabled, true);
    assert.equal((await h.merchant('/v1/orders/nope/enable', { method: 'POST' })).status, 422);
  });

  it('filters the link banks', async () => {
    const all = await json(await h.merchant('/v1/link-banks'));
    const enabledEs = await json(await h.merchant('/v1/link-banks?country=ES&enabled=1'));
    assert.ok(all.total > enabledEs.total);
    assert.ok(enabledEs.data.every((b: Json) => b.enabled === 1 && b.country === 'ES'));
    const periodic = await json(await h.merchant('/v1/link-banks?country=es&periodic=1'));
    assert.ok(periodic.data.length > 0 && periodic.data.every((b: Json) => b.enabledPeriodicPayment === 1));
    assert.equal((await h.merchant('/v1/link-banks?country=Spain')).status, 422);
  });

  it('relays the earlier variant (business signer, debts, enable-disable-url)', async () => {
    const res = await h.merchant('/v1/legacy/links', {
      body: {
        amount: 300,
        subject: 'Legacy',
        reference: 'LEG-1',
        customRecipient: 'Shop',
        holderDestiny: 'Demo Shop',
        accountDestiny: SANDBOX_DEFAULTS.merchantIban,
      },
    });
    assert.equal(res.status, 201, JSON.stringify(await res.clone().json()));
    const body = await json(res);
    assert.equal(body.variant, 'business');
    assert.ok(body.url);
    const missing = await h.merchant('/v1/legacy/links', { body: { amount: 300, subject: 'Legacy', reference: 'LEG-2' } });
    assert.equal(missing.status, 422);
    const debts = await json(await h.merchant('/v1/legacy/debts?pageSize=10'));
    assert.ok(Array.isArray(debts.listDebts) && debts.listDebts.length >= 1);
    const debtId = debts.listDebts[0].debtLongId;
    assert.equal((await h.merchant(`/v1/legacy/links/${debtId}/disable`, { method: 'POST' })).status, 200);
  });

  it('serves an OpenAPI 3.1 document of every route', async () => {
    const doc = await json(await h.bff.request('http://bff.test/v1/openapi.json'));
    assert.equal(doc.openapi, '3.1.0');
    for (const path of ['/v1/checkouts', '/v1/checkout/login', '/v1/links/periodic', '/v1/orders', '/v1/notifications/provider']) {
      assert.ok(doc.paths[path], path);
    }
    const login = doc.paths['/v1/checkout/login'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(login.required.sort(), ['bankId', 'fields', 'loginId']);
  });

  it('answers CORS only for allowed origins, and never on the merchant API', async () => {
    const pre = (origin: string, path: string) =>
      h.bff.request(`http://bff.test${path}`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-checkout-secret' },
      });
    const ok = await pre('http://127.0.0.1:5173', '/v1/checkout/login');
    assert.equal(ok.headers.get('Access-Control-Allow-Origin'), 'http://127.0.0.1:5173');
    assert.notEqual(ok.headers.get('Access-Control-Allow-Credentials'), 'true');
    const evil = await pre('https://evil.example', '/v1/checkout/login');
    assert.equal(evil.headers.get('Access-Control-Allow-Origin'), null);
    const merchant = await pre('http://127.0.0.1:5173', '/v1/checkouts');
    assert.equal(merchant.headers.get('Access-Control-Allow-Origin'), null);
  });

  it('puts security headers and no-store on every response, errors included', async () => {
    for (const res of [
      await h.bff.request('http://bff.test/nowhere'),
      await h.merchant('/v1/checkouts/none'),
      await h.bff.request('http://bff.test/v1/openapi.json'),
    ]) {
      assert.equal(res.headers.get('X-Content-Type-Options'), 'nosniff');
      assert.equal(res.headers.get('Cache-Control'), 'no-store');
      assert.ok(res.headers.get('Content-Security-Policy'));
      assert.ok(res.headers.get('X-Request-Id'));
    }
  });
});

describe('guessing secrets', () => {
  it('refuses wrong secrets at an API from an address after 30 there in a minute (the default): at the merchant API the right one still passes, at the checkout API nothing does; the other API stays open', async () => {
    const h = await createHarness();
    try {
      const c = await h.createCheckout();
      for (let i = 0; i < 30; i++) assert.equal((await h.merchant(`/v1/checkouts/${c.id}`, { headers: { Authorization: `Bearer wrong-${i}` } })).status, 401);
      const wrong = await h.merchant(`/v1/checkouts/${c.id}`, { headers: { Authorization: 'Bearer wrong-30' } });
      assert.equal(wrong.status, 429, 'a wrong merchant secret is refused while the address is blocked');
      assert.ok(Number(wrong.headers.get('Retry-After')) > 0);
      assert.equal((await h.merchant(`/v1/checkouts/${c.id}`)).status, 200, 'the right one passes');
      assert.equal((await h.checkout(c.clientSecret, '/v1/checkout')).status, 200, 'the checkout API stays open');
      for (let i = 0; i < 30; i++) assert.equal((await h.checkout(`cs_wrong_${i}`, '/v1/checkout')).status, 401);
      assert.equal((await h.checkout(c.clientSecret, '/v1/checkout')).status, 429);
      h.clock.advance(60_000);
      assert.equal((await h.merchant(`/v1/checkouts/${c.id}`)).status, 200);
      assert.equal((await h.checkout(c.clientSecret, '/v1/checkout')).status, 200);
    } finally {
      await h.close();
    }
  });
});
