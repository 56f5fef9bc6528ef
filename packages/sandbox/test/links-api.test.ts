import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { links, todayIn } from '@bank-checkout/provider';
import { createSandbox } from '../src/app.js';
import { SANDBOX_DEFAULTS, type SandboxConfig } from '../src/context.js';
import { DEFAULT_HOLDER, LINK_BANKS } from '../src/links/index.js';

type Body = Record<string, any>;
type Client = 'current' | 'commerce' | 'business';

const KEYS: Record<Client, Record<string, string>> = {
  current: { 'X-Api-Key': SANDBOX_DEFAULTS.apiKey, Authorization: SANDBOX_DEFAULTS.apiToken },
  commerce: { 'X-Api-Key': SANDBOX_DEFAULTS.commerceApiKey, Authorization: SANDBOX_DEFAULTS.commerceApiToken },
  business: { 'X-Api-Key': SANDBOX_DEFAULTS.businessApiKey, Authorization: SANDBOX_DEFAULTS.businessApiToken },
};
/** 10:00 in Madrid on Saturday 10 January 2026. */
const T0 = Date.UTC(2026, 0, 10, 9, 0, 0);
const OTHER_VALIDATED = 'ES7620770024003102575766';
const NOT_VALIDATED = 'ES7921000813610123456789';
const DEBTOR = 'ES6000491500051234567892';
const SIMPLE = { subject: 'Order 1001', amount: 1999, reference: 'REF-1001' };

function setup(partial: Partial<SandboxConfig> = {}) {
  let clock = T0;
  const sandbox = createSandbox({ now: () => clock, fetch: async () => new Response('ok'), ...partial });
  async function post(path: string, body: unknown, opts: { client?: Client; env?: string; raw?: string; headers?: Record<string, string> } = {}) {
    const res = await sandbox.app.request(`/${opts.env ?? 'san'}/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...KEYS[opts.client ?? 'current'], ...opts.headers },
      body: opts.raw ?? JSON.stringify(body),
    });
    return { http: res.status, body: (await res.json()) as Body };
  }
  async function get(path: string, client: Client = 'current', env = 'san') {
    const res = await sandbox.app.request(`/${env}/${path}`, { headers: KEYS[client] });
    return { http: res.status, body: (await res.json()) as Body };
  }
  const orders = async (client: Client = 'current', env = 'san') =>
    (await post('info/payment-orders', { dateFrom: '0', pageRequest: '1', pageSize: '300' }, { client, env })).body;
  const debts = async (client: Client, env = 'san') => (await post('info/debts', { dateFrom: 0, pageRequest: 1, pageSize: 300 }, { client, env })).body;
  return {
    sandbox,
    post,
    get,
    orders,
    debts,
    setClock(t: number) {
      clock = t;
    },
  };
}

/** Asserts an E301 answer whose description names `field`. */
function assertE301(reply: { http: number; body: Body }, field: string | RegExp, what = '') {
  assert.equal(reply.http, 400, `${what} ${JSON.stringify(reply.body)}`);
  assert.equal(reply.body.status, 'E301', what);
  assert.match(reply.body.description, typeof field === 'string' ? new RegExp(`\\b${field}\\b`) : field, what);
}

describe('links API: authentication and environments', () => {
  test('every endpoint of both environments needs a known key and token', async () => {
    const { sandbox } = setup();
    for (const env of ['san', 'pro']) {
      for (const [method, path] of [
        ['POST', 'url/signer'],
        ['GET', 'banks'],
        ['POST', 'url/periodic-payment-signer'],
        ['POST', 'url/cancel-periodic-payment-signer'],
        ['POST', 'info/payment-orders'],
        ['POST', 'update/enable-disable-payment-order'],
        ['POST', 'info/debts'],
        ['POST', 'update/enable-disable-url'],
      ] as const) {
        for (const headers of [{}, { 'X-Api-Key': SANDBOX_DEFAULTS.apiKey }, { 'X-Api-Key': SANDBOX_DEFAULTS.apiKey, Authorization: 'wrong' }] as Record<
          string,
          string
        >[]) {
          const res = await sandbox.app.request(`/${env}/${path}`, {
            method,
            headers: { 'Content-Type': 'application/json', ...headers },
            ...(method === 'POST' ? { body: JSON.stringify(SIMPLE) } : {}),
          });
          assert.equal(res.status, 401, `${method} /${env}/${path}`);
          assert.equal(((await res.json()) as Body).status, 'E300');
        }
      }
    }
  });

  test('orders are kept apart per environment and per API client', async () => {
    const t = setup();
    const san = await t.post('url/signer', SIMPLE);
    assert.equal(san.body.status, '200');
    const pro = await t.post('url/signer', { ...SIMPLE, reference: 'PRO-1' }, { env: 'pro' });
    assert.match(pro.body.url, /\/gateway\/pro\/pay\//);
    assert.deepEqual(
      (await t.orders('current', 'san')).paymentOrders.map((o: Body) => o.reference),
      ['REF-1001'],
    );
    assert.deepEqual(
      (await t.orders('current', 'pro')).paymentOrders.map((o: Body) => o.reference),
      ['PRO-1'],
    );
    assert.equal((await t.orders('commerce', 'san')).totalItems, 0, 'another client sees none of them');
    assertE301(await t.post('update/enable-disable-payment-order', { idDebt: san.body.idDebt, enable: false }, { env: 'pro' }), 'idDebt');
    assertE301(await t.post('update/enable-disable-payment-order', { idDebt: san.body.idDebt, enable: false }, { client: 'business' }), 'idDebt');
    assert.equal((await t.orders()).paymentOrders[0].enabled, true, 'nothing changed');
  });
});

describe('links API: 1. url/signer', () => {
  test('creates a pending order with its signed URL, short URL and default 30 minutes', async () => {
    const t = setup();
    const reply = await t.post('url/signer', { ...SIMPLE, customRecipient: 'Shop;Street 1', customData: '{"cart":7}', urlNotif: 'https://shop.example/n' });
    assert.equal(reply.http, 200);
    assert.deepEqual(Object.keys(reply.body).sort(), ['description', 'idDebt', 'status', 'url']);
    assert.equal(reply.body.status, '200');
    assert.match(reply.body.url, new RegExp(`^http://127\\.0\\.0\\.1:4010/gateway/san/pay/${reply.body.idDebt}\\?sig=[\\w-]+$`));
    const [order] = (await t.orders()).paymentOrders;
    assert.equal(links.paymentOrder.safeParse(order).success, true);
    assert.equal(order.idDebt, reply.body.idDebt);
    assert.equal(order.codStatus, 'PENDING');
    assert.equal(order.enabled, true);
    assert.equal(order.amount, 1999);
    assert.equal(order.subject, SIMPLE.subject);
    assert.equal(order.reference, SIMPLE.reference);
    assert.equal(order.customRecipient, 'Shop;Street 1');
    assert.equal(order.customData, '{"cart":7}');
    assert.equal(order.urlLong, reply.body.url);
    assert.match(order.urlShort, /^http:\/\/127\.0\.0\.1:4010\/s\/san\/\?s=\w+$/);
    assert.equal(order.urlShortClicks, 0);
    assert.equal(order.createAt, T0);
    assert.equal(order.updateAt, T0);
    assert.equal(order.expireAt, T0 + 30 * 60_000);
    assert.equal(order.accountDestiny, SANDBOX_DEFAULTS.merchantIban, "the client's own account when none is named");
    assert.equal(order.holderDestiny, DEFAULT_HOLDER);
  });

  test('accepts every limit exactly and a pre-validated accountDestiny', async () => {
    const t = setup();
    const body = {
      subject: 's'.repeat(160),
      amount: 1,
      reference: 'r'.repeat(100),
      customRecipient: 'c'.repeat(200),
      customData: 'd'.repeat(4000),
      expireMinutes: 259200,
      holderDestiny: 'Otra Tienda',
      accountDestiny: 'es76 2077 0024 0031 0257 5766',
      partnerId: 'P-1',
      urlOk: 'https://shop.example/ok',
      urlError: 'https://shop.example/ko',
    };
    const reply = await t.post('url/signer', body);
    assert.equal(reply.body.status, '200', reply.body.description);
    const [order] = (await t.orders()).paymentOrders;
    assert.equal(order.expireAt - order.createAt, 259200 * 60_000);
    assert.equal(order.accountDestiny, OTHER_VALIDATED);
    assert.equal(order.holderDestiny, 'Otra Tienda');
  });

  test('refuses every broken rule with E301 naming the field, and stores nothing', async () => {
    const t = setup();
    const cases: [Body, string | RegExp][] = [
      [{ ...SIMPLE, subject: 's'.repeat(161) }, 'subject'],
      [{ amount: 100, reference: 'r' }, 'subject'],
      [{ ...SIMPLE, subject: '' }, 'subject'],
      [{ ...SIMPLE, reference: 'r'.repeat(101) }, 'reference'],
      [{ subject: 's', amount: 100 }, 'reference'],
      [{ ...SIMPLE, amount: 19.99 }, /amount: .*integer/],
      [{ ...SIMPLE, amount: '1999' }, 'amount'],
      [{ ...SIMPLE, amount: 0 }, 'amount'],
      [{ ...SIMPLE, amount: -5 }, 'amount'],
      [{ ...SIMPLE, customRecipient: 'c'.repeat(201) }, /customRecipient: .*200/],
      [{ ...SIMPLE, customData: 'd'.repeat(4001) }, /customData: .*4000/],
      [{ ...SIMPLE, expireMinutes: 259201 }, /expireMinutes: .*259200/],
      [{ ...SIMPLE, expireMinutes: 0 }, 'expireMinutes'],
      [{ ...SIMPLE, expireMinutes: 2.5 }, 'expireMinutes'],
      [{ ...SIMPLE, urlOk: 'not a url' }, 'urlOk'],
      [{ ...SIMPLE, urlNotif: 'ftp://shop.example/n' }, 'urlNotif'],
      [{ ...SIMPLE, accountDestiny: 'ES7620770024003102575767' }, /accountDestiny: .*IBAN/],
      [{ ...SIMPLE, accountDestiny: NOT_VALIDATED }, /accountDestiny: .*not been validated/],
    ];
    for (const [body, field] of cases) assertE301(await t.post('url/signer', body), field, JSON.stringify(body).slice(0, 80));
    assertE301(await t.post('url/signer', null, { raw: '{"subject":' }), /not valid JSON/);
    assertE301(await t.post('url/signer', null, { raw: '[1,2]' }), /JSON object/);
    // An own toString that is not a function (a length check converting it would throw): refused by name.
    assertE301(await t.post('url/signer', null, { raw: '{"amount":100,"subject":{"length":{"toString":""}}}' }), /toString: is not an accepted key/);
    assertE301(await t.post('url/signer', SIMPLE, { headers: { 'Content-Type': 'text/plain' } }), /Content-Type/);
    assert.equal((await t.orders()).totalItems, 0);
  });

  test('a local urlNotif is accepted at creation', async () => {
    const t = setup();
    const reply = await t.post('url/signer', { ...SIMPLE, urlNotif: 'http://127.0.0.1:8080/notify' });
    assert.equal(reply.body.status, '200');
  });
});

describe('links API: the earlier signer variants', () => {
  test("variant 1 (the 'commerce' client): fixed destination, 10 minutes, url/status/description only", async () => {
    const t = setup();
    const reply = await t.post('url/signer', { ...SIMPLE, partnerId: 'P', urlNotif: 'https://shop.example/n' }, { client: 'commerce' });
    assert.equal(reply.body.status, '200', reply.body.description);
    assert.deepEqual(Object.keys(reply.body).sort(), ['description', 'status', 'url']);
    const [debt] = (await t.debts('commerce')).listDebts;
    assert.equal(debt.urlLong, reply.body.url);
    assert.equal(debt.expireAt - debt.createAt, 10 * 60_000);
    assert.equal(debt.accountDestiny, SANDBOX_DEFAULTS.merchantIban);
    for (const field of ['expireMinutes', 'customRecipient', 'customData', 'holderDestiny', 'accountDestiny']) {
      const value = field === 'expireMinutes' ? 60 : field === 'accountDestiny' ? OTHER_VALIDATED : 'x';
      assertE301(await t.post('url/signer', { ...SIMPLE, [field]: value }, { client: 'commerce' }), new RegExp(`${field}: not accepted`));
    }
    assertE301(await t.post('url/signer', { ...SIMPLE, subject: 's'.repeat(161) }, { client: 'commerce' }), 'subject');
  });

  test("variant 2 (the 'business' client): required destination, 180 days by default", async () => {
    const t = setup();
    const missing = await t.post('url/signer', SIMPLE, { client: 'business' });
    for (const field of ['customRecipient', 'holderDestiny', 'accountDestiny']) assertE301(missing, field);
    const base = { ...SIMPLE, customRecipient: 'Shop', holderDestiny: 'Demo Shop', accountDestiny: OTHER_VALIDATED };
    assertE301(await t.post('url/signer', { ...base, accountDestiny: NOT_VALIDATED }, { client: 'business' }), /accountDestiny: .*validated/);
    assertE301(await t.post('url/signer', { ...base, expireMinutes: 259201 }, { client: 'business' }), 'expireMinutes');
    const reply = await t.post('url/signer', { ...base, customData: 'free' }, { client: 'business' });
    assert.deepEqual(Object.keys(reply.body).sort(), ['description', 'status', 'url']);
    t.setClock(T0 + 1000);
    await t.post('url/signer', { ...base, reference: 'REF-2', expireMinutes: 60 }, { client: 'business' });
    const debts = (await t.debts('business')).listDebts as Body[];
    const first = debts.find((d) => d.customReference === 'REF-1001')!;
    const second = debts.find((d) => d.customReference === 'REF-2')!;
    assert.equal(first.expireAt - first.createAt, 259200 * 60_000);
    assert.equal(second.expireAt - second.createAt, 60 * 60_000);
    assert.equal(first.holderDestiny, 'Demo Shop');
    assert.equal(first.accountDestiny, OTHER_VALIDATED);
    assert.equal(first.customRecipient, 'Shop');
    assert.equal(first.customData, 'free');
  });

  test("the 'current' client gets endpoint 1, with idDebt", async () => {
    const t = setup();
    const reply = await t.post('url/signer', SIMPLE);
    assert.ok(reply.body.idDebt);
  });
});

describe('links API: 2. banks', () => {
  test('the catalogue exercises groups, periodic frequencies and non-operational banks', () => {
    assert.ok(LINK_BANKS.length >= 10);
    assert.ok(new Set(LINK_BANKS.map((b) => b.country)).size >= 2);
    assert.ok(LINK_BANKS.filter((b) => b.country === 'ES').length > LINK_BANKS.length / 2);
    const groups = new Map<number, number>();
    for (const b of LINK_BANKS) if (b.bankGroupId != null) groups.set(b.bankGroupId, (groups.get(b.bankGroupId) ?? 0) + 1);
    assert.ok([...groups.values()].some((n) => n >= 2));
    assert.ok(LINK_BANKS.some((b) => b.enabledPeriodicPayment === 1 && b.frequencyPeriodicPayment?.join() === 'Monthly'));
    assert.ok(LINK_BANKS.some((b) => ['Monthly', 'Quarterly', 'Yearly'].every((f) => b.frequencyPeriodicPayment?.includes(f))));
    assert.ok(LINK_BANKS.some((b) => b.enabled === 0 && b.country === 'ES'));
    assert.ok(LINK_BANKS.every((b) => b.enabledPeriodicPayment === 1 || b.frequencyPeriodicPayment?.length === 0));
  });

  test('lists every bank, and filters by enabled, enabledPeriodicPayment and country', async () => {
    const t = setup();
    const all = await t.get('banks');
    assert.equal(all.http, 200);
    assert.equal(links.banksResponse.safeParse(all.body).success, true);
    assert.equal(all.body.status, '200');
    assert.deepEqual(all.body.data, LINK_BANKS);
    assert.equal(all.body.total, LINK_BANKS.length);

    const enabledEs = await t.get('banks?enabled=1&country=ES');
    const expected = LINK_BANKS.filter((b) => b.enabled === 1 && b.country === 'ES').map((b) => b.bankId);
    assert.deepEqual(
      enabledEs.body.data.map((b: Body) => b.bankId),
      expected,
    );
    assert.equal(enabledEs.body.total, expected.length);
    assert.ok(expected.length < LINK_BANKS.filter((b) => b.country === 'ES').length, 'a non-operational bank is left out');

    const periodicPt = await t.get('banks?enabledPeriodicPayment=1&country=pt', 'commerce', 'pro');
    assert.ok(periodicPt.body.total > 0);
    assert.ok(periodicPt.body.data.every((b: Body) => b.enabledPeriodicPayment === 1 && b.country === 'PT'));
    assert.deepEqual(
      periodicPt.body.data.map((b: Body) => b.bankId),
      LINK_BANKS.filter((b) => b.enabledPeriodicPayment === 1 && b.country === 'PT').map((b) => b.bankId),
    );

    assertE301(await t.get('banks?enabled=2'), 'enabled');
    assertE301(await t.get('banks?enabledPeriodicPayment=yes'), 'enabledPeriodicPayment');
    assertE301(await t.get('banks?country=Spain'), 'country');
  });
});

describe('links API: 3. url/periodic-payment-signer', () => {
  const tomorrow = '2026-01-11';
  const base = {
    subject: 'Monthly box',
    amount: 999,
    reference: 'SUB-1',
    frequency: 'Monthly',
    debtorAccount: DEBTOR,
    startDate: '2026-02-15',
    bankIdSelected: 'es-levante',
  };

  test('creates a pending periodic order behind a signed URL', async () => {
    const t = setup();
    const reply = await t.post('url/periodic-payment-signer', { ...base, endDate: '2026-12-15', urlNotif: 'https://shop.example/n', customData: 'x' });
    assert.equal(reply.body.status, '200', reply.body.description);
    assert.match(reply.body.url, new RegExp(`/gateway/san/periodic/${reply.body.idDebt}\\?sig=`));
    const [order] = (await t.orders()).paymentOrders;
    assert.equal(order.codStatus, 'PENDING');
    assert.equal(order.subject, 'Monthly box');
    assert.equal(order.periodicOriginAccount, undefined, 'set only once the payer authorises');
    assert.equal(order.expireAt - order.createAt, 30 * 60_000);
  });

  test('startDate must be after today in the configured time zone', async () => {
    // 23:30 UTC on 10 January is already 11 January in Madrid.
    const late = Date.UTC(2026, 0, 10, 23, 30);
    const madrid = setup({ now: () => late });
    assert.equal(todayIn('Europe/Madrid', late), tomorrow);
    assertE301(await madrid.post('url/periodic-payment-signer', { ...base, startDate: tomorrow }), /startDate: .*after the current date/);
    assert.equal((await madrid.post('url/periodic-payment-signer', { ...base, startDate: '2026-01-12' })).body.status, '200');
    const utc = setup({ now: () => late, timeZone: 'UTC' });
    assert.equal((await utc.post('url/periodic-payment-signer', { ...base, startDate: tomorrow })).body.status, '200');
  });

  test('refuses every broken rule with E301 naming the field', async () => {
    const t = setup();
    const cases: [Body, string | RegExp][] = [
      [{ ...base, startDate: '2026-01-10' }, 'startDate'],
      [{ ...base, startDate: '2026-02-30' }, /startDate: .*YYYY-MM-DD/],
      [{ ...base, startDate: '15/02/2026' }, 'startDate'],
      [{ ...base, endDate: '2026-02-14' }, /endDate: .*before startDate/],
      [{ ...base, endDate: '2026-2-20' }, 'endDate'],
      [{ ...base, subject: 'Box & more!' }, /subject: .*letters, digits, spaces and hyphens/],
      [{ ...base, subject: 's'.repeat(161) }, 'subject'],
      [{ ...base, reference: 'r'.repeat(101) }, 'reference'],
      [{ ...base, amount: 9.5 }, 'amount'],
      [{ ...base, debtorAccount: 'ES6000491500051234567893' }, 'debtorAccount'],
      [{ ...base, frequency: undefined }, 'frequency'],
      [{ ...base, customData: 'd'.repeat(4001) }, 'customData'],
      [{ ...base, expireMinutes: 259201 }, 'expireMinutes'],
      [{ ...base, urlNotif: 'nope' }, 'urlNotif'],
      [{ ...base, frequency: 'Quarterly' }, /frequency: must be one of Monthly \(the frequencies bank 'es-levante' accepts\)/],
      [{ ...base, bankIdSelected: 'es-meridiano' }, /bankIdSelected: .*does not allow periodic payments/],
      [{ ...base, bankIdSelected: 'es-norte' }, /bankIdSelected: .*not operational/],
      [{ ...base, bankIdSelected: 'no-such-bank' }, /bankIdSelected: unknown bank/],
      [{ ...base, bankIdSelected: undefined, frequency: 'Daily' }, /frequency: must be one of Weekly, Monthly, Quarterly, Yearly/],
      [{ ...base, accountDestiny: NOT_VALIDATED }, /accountDestiny: .*validated/],
      [{ ...base, accountDestiny: OTHER_VALIDATED, debtorAccount: OTHER_VALIDATED }, /debtorAccount: must differ/],
    ];
    for (const [body, field] of cases) assertE301(await t.post('url/periodic-payment-signer', body), field, JSON.stringify(body).slice(0, 120));
    assert.equal((await t.orders()).totalItems, 0);
  });

  test('without bankIdSelected, any frequency some periodic bank accepts', async () => {
    const t = setup();
    for (const frequency of ['Weekly', 'Monthly', 'Quarterly', 'Yearly']) {
      const reply = await t.post('url/periodic-payment-signer', { ...base, bankIdSelected: undefined, frequency });
      assert.equal(reply.body.status, '200', `${frequency}: ${reply.body.description}`);
    }
  });
});

describe('links API: 4. url/cancel-periodic-payment-signer', () => {
  test('refuses an unknown transactionId and a broken body', async () => {
    const t = setup();
    assertE301(
      await t.post('url/cancel-periodic-payment-signer', { transactionId: 'unknown-tx', reference: 'CAN-1' }),
      /transactionId: no authorised periodic/,
    );
    assertE301(await t.post('url/cancel-periodic-payment-signer', { transactionId: 'unknown-tx' }), 'reference');
    assertE301(await t.post('url/cancel-periodic-payment-signer', { reference: 'CAN-1' }), 'transactionId');
    assertE301(await t.post('url/cancel-periodic-payment-signer', { transactionId: 'tx', reference: 'CAN-1', expireMinutes: 259201 }), 'expireMinutes');
    assertE301(await t.post('url/cancel-periodic-payment-signer', { transactionId: 'tx', reference: 'CAN-1', customData: 'd'.repeat(4001) }), 'customData');
    assert.equal((await t.orders()).totalItems, 0);
  });
});
