import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { links } from '@bank-checkout/provider';
import { createSandbox } from '../src/app.js';
import { SANDBOX_DEFAULTS } from '../src/context.js';
import { DEBTS_PAGE_SIZE_MAX } from '../src/links/index.js';

type Body = Record<string, any>;
const AUTH = { 'X-Api-Key': SANDBOX_DEFAULTS.apiKey, Authorization: SANDBOX_DEFAULTS.apiToken };
const BUSINESS = { 'X-Api-Key': SANDBOX_DEFAULTS.businessApiKey, Authorization: SANDBOX_DEFAULTS.businessApiToken };
const T0 = Date.UTC(2026, 0, 10, 9, 0, 0);
const MINUTE = 60_000;

function setup() {
  let clock = T0;
  const sandbox = createSandbox({ now: () => clock, fetch: async () => new Response('ok') });
  async function post(path: string, body: unknown, headers: Record<string, string> = AUTH) {
    const res = await sandbox.app.request(`/san/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { http: res.status, body: (await res.json()) as Body };
  }
  /** Creates `n` orders one second apart; returns their idDebt in creation order. */
  async function create(n: number, extra: Body = {}) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      clock += 1000;
      const reply = await post('url/signer', { subject: `Order ${i}`, amount: 100 + i, reference: `REF-${i}`, ...extra });
      assert.equal(reply.body.status, '200', reply.body.description);
      ids.push(reply.body.idDebt);
    }
    return ids;
  }
  const query = (body: Body) => post('info/payment-orders', body);
  const order = async (idDebt: string) =>
    ((await query({ dateFrom: 0, pageRequest: 1, pageSize: 300 })).body.paymentOrders as Body[]).find((o) => o.idDebt === idDebt)!;
  const gateway = (url: string) => sandbox.app.request(url);
  return {
    sandbox,
    post,
    create,
    query,
    order,
    gateway,
    advance(ms: number) {
      clock += ms;
    },
    now: () => clock,
  };
}

function assertE301(reply: { http: number; body: Body }, field: RegExp) {
  assert.equal(reply.http, 400, JSON.stringify(reply.body));
  assert.equal(reply.body.status, 'E301');
  assert.match(reply.body.description, field);
}

describe('links API: 6. info/payment-orders', () => {
  test('orders by creation date, descending when orderAsc is absent', async () => {
    const t = setup();
    const ids = await t.create(4);
    const desc = await t.query({ dateFrom: '0', pageRequest: '1' });
    assert.equal(desc.body.status, '200');
    assert.equal(links.paymentOrdersResponse.safeParse(desc.body).success, true);
    assert.deepEqual(
      desc.body.paymentOrders.map((o: Body) => o.idDebt),
      [...ids].reverse(),
    );
    const asc = await t.query({ dateFrom: '0', pageRequest: '1', orderAsc: true });
    assert.deepEqual(
      asc.body.paymentOrders.map((o: Body) => o.idDebt),
      ids,
    );
    const explicitDesc = await t.query({ dateFrom: '0', pageRequest: '1', orderAsc: false });
    assert.deepEqual(
      explicitDesc.body.paymentOrders.map((o: Body) => o.idDebt),
      [...ids].reverse(),
    );
  });

  test('pages from 1, with totals; a page beyond the last is empty', async () => {
    const t = setup();
    const ids = await t.create(7);
    const pages = [];
    for (let page = 1; page <= 4; page++) pages.push((await t.query({ dateFrom: 0, pageRequest: page, pageSize: '3', orderAsc: true })).body);
    assert.deepEqual(
      pages.map((p) => [p.itemsReturned, p.currentPage, p.totalItems, p.totalPages]),
      [
        [3, 1, 7, 3],
        [3, 2, 7, 3],
        [1, 3, 7, 3],
        [0, 4, 7, 3],
      ],
    );
    assert.deepEqual(
      pages.flatMap((p) => p.paymentOrders.map((o: Body) => o.idDebt)),
      ids,
    );
  });

  test('pageSize defaults to 50 and may be 300 at most', async () => {
    const t = setup();
    await t.create(53);
    const first = await t.query({ dateFrom: 0, pageRequest: 1 });
    assert.equal(first.body.itemsReturned, 50);
    assert.equal(first.body.totalPages, 2);
    const second = await t.query({ dateFrom: 0, pageRequest: 2 });
    assert.equal(second.body.itemsReturned, 3);
    assert.equal((await t.query({ dateFrom: 0, pageRequest: 1, pageSize: 300 })).body.itemsReturned, 53);
    assertE301(await t.query({ dateFrom: 0, pageRequest: 1, pageSize: 301 }), /pageSize: at most 300/);
    assertE301(await t.query({ dateFrom: 0, pageRequest: 1, pageSize: '0' }), /pageSize/);
  });

  test('filters by dateFrom and dateTo (milliseconds, digits or numbers; dateTo defaults to now)', async () => {
    const t = setup();
    const ids = await t.create(5);
    const created = [];
    for (const id of ids) created.push((await t.order(id)).createAt as number);
    const window = await t.query({ dateFrom: String(created[1]), dateTo: created[3], pageRequest: '1', orderAsc: true });
    assert.deepEqual(
      window.body.paymentOrders.map((o: Body) => o.idDebt),
      ids.slice(1, 4),
    );
    const fromLast = await t.query({ dateFrom: created[4], pageRequest: 1 });
    assert.deepEqual(
      fromLast.body.paymentOrders.map((o: Body) => o.idDebt),
      [ids[4]],
      'dateTo defaults to now, which includes the last order',
    );
    assert.equal((await t.query({ dateFrom: t.now() + 1, pageRequest: 1 })).body.totalItems, 0);
  });

  test('refuses a broken query with E301 naming the field', async () => {
    const t = setup();
    assertE301(await t.query({ pageRequest: 1 }), /dateFrom/);
    assertE301(await t.query({ dateFrom: 'yesterday', pageRequest: 1 }), /dateFrom/);
    assertE301(await t.query({ dateFrom: 0 }), /pageRequest/);
    assertE301(await t.query({ dateFrom: 0, pageRequest: 0 }), /pageRequest: the first page is 1/);
    assertE301(await t.query({ dateFrom: 0, pageRequest: '1.5' }), /pageRequest/);
    assertE301(await t.query({ dateFrom: 10, dateTo: 5, pageRequest: 1 }), /dateTo: must not be before dateFrom/);
    assertE301(await t.query({ dateFrom: 0, pageRequest: 1, orderAsc: 'yes' }), /orderAsc/);
  });
});

describe('links API: 8. info/debts', () => {
  test('returns Debt items with short URLs and transactions, 50 per page by default', async () => {
    const t = setup();
    await t.create(52, { customRecipient: 'Shop', customData: 'd' });
    const reply = await t.post('info/debts', { dateFrom: '0', pageRequest: '1' });
    assert.equal(reply.body.status, '200');
    assert.equal(links.debtsResponse.safeParse(reply.body).success, true);
    assert.equal(reply.body.itemsReturned, 50);
    assert.equal(reply.body.totalItems, 52);
    const debt = reply.body.listDebts[0];
    const order = await t.order(debt.debtLongId);
    assert.equal(debt.customReference, order.reference);
    assert.equal(debt.partialsEnabled, false);
    assert.equal(debt.urlLong, order.urlLong);
    assert.equal(order.urlShort.endsWith(`?s=${debt.listUrlShort[0].urlShortName}`), true);
    assert.deepEqual(debt.listTransactions, []);
    assert.equal((await t.post('info/debts', { dateFrom: 0, pageRequest: 1, pageSize: DEBTS_PAGE_SIZE_MAX })).body.itemsReturned, 52);
    assertE301(
      await t.post('info/debts', { dateFrom: 0, pageRequest: 1, pageSize: DEBTS_PAGE_SIZE_MAX + 1 }),
      new RegExp(`pageSize: at most ${DEBTS_PAGE_SIZE_MAX}`),
    );
    assertE301(await t.post('info/debts', { dateFrom: 0, pageRequest: 0 }), /pageRequest/);
  });
});

describe('links: short URLs', () => {
  test('redirect (302) to the signed URL and count clicks', async () => {
    const t = setup();
    const [id] = await t.create(1);
    const before = await t.order(id!);
    t.advance(5000);
    for (let i = 0; i < 3; i++) {
      const res = await t.gateway(before.urlShort);
      assert.equal(res.status, 302);
      assert.equal(res.headers.get('Location'), before.urlLong);
    }
    const after = await t.order(id!);
    assert.equal(after.urlShortClicks, 3);
    const debt = (await t.post('info/debts', { dateFrom: 0, pageRequest: 1 })).body.listDebts[0];
    assert.equal(debt.listUrlShort[0].clicks, 3);
    assert.equal(debt.listUrlShort[0].updateAt, t.now());
    const name = new URL(before.urlShort).searchParams.get('s');
    assert.equal((await t.gateway(`/s/pro/?s=${name}`)).status, 404, 'another environment');
    assert.equal((await t.gateway('/s/san/?s=nope')).status, 404);
    assert.equal((await t.gateway(`/s/san?s=${name}`)).status, 302, 'with or without the trailing slash');
  });
});

describe('links API: 7. enable/disable and 8. enable-disable-url', () => {
  test('toggles a known order; the gateway refuses a disabled one', async () => {
    const t = setup();
    const [id] = await t.create(1);
    const { urlLong } = await t.order(id!);
    assert.equal((await t.gateway(urlLong)).status, 200);
    t.advance(1000);
    const off = await t.post('update/enable-disable-payment-order', { idDebt: id, enable: false });
    assert.deepEqual([off.http, off.body.status], [200, '200']);
    const disabled = await t.order(id!);
    assert.equal(disabled.enabled, false);
    assert.equal(disabled.updateAt, t.now());
    const refused = await t.gateway(urlLong);
    assert.equal(refused.status, 403);
    assert.match(await refused.text(), /disabled/);
    assert.equal((await t.post('update/enable-disable-payment-order', { idDebt: id, enable: true })).body.status, '200');
    assert.equal((await t.order(id!)).enabled, true);
    assert.equal((await t.gateway(urlLong)).status, 200);
  });

  test('refuses an unknown id or a broken body', async () => {
    const t = setup();
    await t.create(1);
    assertE301(await t.post('update/enable-disable-payment-order', { idDebt: 'nope', enable: true }), /idDebt: no payment order/);
    assertE301(await t.post('update/enable-disable-payment-order', { idDebt: 'nope' }), /enable/);
    assertE301(await t.post('update/enable-disable-payment-order', { idDebt: 'x', enable: 'false' }), /enable/);
    assertE301(await t.post('update/enable-disable-payment-order', { enable: true }), /idDebt/);
    assertE301(await t.post('update/enable-disable-url', { idProvider: 'nope', enable: true }), /idProvider: no payment order/);
    assertE301(await t.post('update/enable-disable-url', { idDebt: 'x', enable: true }), /idProvider/);
  });

  test('an expired order is refused until enabled again, which gives it its validity from now', async () => {
    const t = setup();
    const [id] = await t.create(1, { expireMinutes: 45 });
    const { urlLong, expireAt } = await t.order(id!);
    t.advance(45 * MINUTE - 1);
    assert.equal((await t.gateway(urlLong)).status, 200, 'valid until the last millisecond');
    t.advance(1);
    const expired = await t.gateway(urlLong);
    assert.equal(expired.status, 410);
    assert.match(await expired.text(), /expired/);
    assert.equal((await t.order(id!)).expireAt, expireAt);
    assert.equal((await t.order(id!)).codStatus, 'PENDING');

    t.advance(10 * MINUTE);
    await t.post('update/enable-disable-payment-order', { idDebt: id, enable: false });
    assert.equal((await t.gateway(urlLong)).status, 403);
    await t.post('update/enable-disable-payment-order', { idDebt: id, enable: true });
    const renewed = await t.order(id!);
    assert.equal(renewed.expireAt, t.now() + 45 * MINUTE);
    assert.equal((await t.gateway(urlLong)).status, 200);

    t.advance(45 * MINUTE);
    assert.equal((await t.gateway(urlLong)).status, 410);
    await t.post('update/enable-disable-payment-order', { idDebt: id, enable: true });
    assert.equal((await t.gateway(urlLong)).status, 200, 'enabling an enabled but expired order reactivates it too');
  });

  test('enable-disable-url takes idProvider (the debtLongId) from every client', async () => {
    const t = setup();
    const [id] = await t.create(1);
    assert.equal((await t.post('update/enable-disable-url', { idProvider: id, enable: false })).body.status, '200');
    assert.equal((await t.order(id!)).enabled, false);
    const legacy = await t.post(
      'url/signer',
      { subject: 'Legacy', amount: 300, reference: 'LEG-1', customRecipient: 'Shop', holderDestiny: 'Demo', accountDestiny: SANDBOX_DEFAULTS.merchantIban },
      BUSINESS,
    );
    const debts = await t.post('info/debts', { dateFrom: 0, pageRequest: 1 }, BUSINESS);
    const debt = debts.body.listDebts[0];
    assert.equal(debt.urlLong, legacy.body.url);
    assert.ok(legacy.body.url.includes(`/${debt.debtLongId}?`), 'the id is the last path segment of the signed URL');
    assert.equal((await t.post('update/enable-disable-url', { idProvider: debt.debtLongId, enable: false }, BUSINESS)).body.status, '200');
    assert.equal((await t.post('info/debts', { dateFrom: 0, pageRequest: 1 }, BUSINESS)).body.listDebts[0].enabled, false);
    assert.equal((await t.gateway(legacy.body.url)).status, 403);
  });
});
