/**
 * Fuzzing the BFF with fast-check: 1,000 malformed bodies for every endpoint that takes one
 * (checkout API, merchant API, provider notifications, return routes) and malformed query
 * strings for the merchant API's reads. Every answer is below 500, every error is the BFF's
 * one JSON shape, no answer carries a stack trace or an internal path, nothing is logged as
 * unhandled, and the app keeps answering. Runs in-process (`app.request`).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeDataReturn, signNotification } from '@bank-checkout/provider';
import type { CheckoutState } from '@bank-checkout/contract';
import { SECRETS } from './lib/canary.js';
import { BFF_HOST, createRig, type Rig } from './lib/rig.js';
import { payNative } from './lib/journeys.js';
import { FUZZ_RUNS, jsonText, malformedBody, malformedQuery, plausible, requestInit, show, templated, type FuzzBody } from './lib/fuzz.js';
import { assertNoInternals, checkBffError } from './lib/shapes.js';

const RUNS = FUZZ_RUNS;
const QUERY_RUNS = Math.ceil(FUZZ_RUNS / 2);
const IBANS = ['ES9121000418450200051332', 'ES7620770024003102575766', 'ES0000000000000000000000', 'DE89370400440532013000', 'XX'];
const URLS = [
  'https://shop.example/ok',
  'https://shop.example/ok',
  'javascript:alert(1)',
  'ftp://shop.example',
  'http://127.0.0.1:1/x',
  '//evil.example',
  'https://',
];
const GOOD_DEBTOR = 'ES7620770024003102575766';
const DATES = ['2026-12-01', '2026-12-01', '2026-11-20', '2026-02-30', '9999-99-99', '2027-01-01T00:00:00Z', '20261201'];

interface CheckoutEndpoint {
  path: string;
  /** The state the checkout is kept in, so that bodies that pass validation go deep. */
  state: CheckoutState;
  bankId?: string;
  fields: Record<string, fc.Arbitrary<string>>;
}

const CHECKOUT_ENDPOINTS: CheckoutEndpoint[] = [
  {
    path: '/v1/checkout/login',
    state: 'select-bank',
    fields: {
      bankId: plausible('aurora', 'norte', 'meridiano', 'aurora-empresas', 'nope', ''),
      loginId: plausible('dni', 'user', 'card', 'cif', ''),
      fields: fc.oneof(
        plausible(
          { userId: 'aurora.demo', userSecret: 'Aurora2024' },
          { userId: '12345678Z', userSecret: '135790' },
          { userId: '00000104N', userSecret: '1234' },
          {},
        ),
        templated({
          userId: plausible('aurora.demo', '12345678Z', '00000108Q'),
          userSecret: plausible('Aurora2024', '0000', 'x'),
          userExtraField: plausible('7788', ''),
        }),
      ),
    },
  },
  { path: '/v1/checkout/second-login', state: 'second-login', bankId: 'levante', fields: { value: plausible('731904', '000000', '12', 'abcdef', 731904) } },
  {
    path: '/v1/checkout/contract',
    state: 'select-contract',
    bankId: 'aurora-empresas',
    fields: { contractId: plausible('AUE-C01', 'AUE-C02', 'LVE-C01', '') },
  },
  {
    path: '/v1/checkout/transfer',
    state: 'select-account',
    bankId: 'aurora',
    fields: { accountId: plausible('AUR-0001', 'AUR-0002', 'AUR-0004', 'AUR-0005', 'NO-SUCH-ACCOUNT') },
  },
  {
    path: '/v1/checkout/validate',
    state: 'validate',
    bankId: 'aurora',
    fields: {
      values: fc.oneof(
        plausible({ smsCode: '482913' }, { smsCode: '0000' }, { smsCode: '4829' }, {}),
        templated({ smsCode: plausible('482913', '0000', '12', 'abcdefgh', '4829130') }),
      ),
    },
  },
  { path: '/v1/checkout/cancel', state: 'select-bank', fields: {} },
  { path: '/v1/checkout/redirect', state: 'select-bank', fields: {} },
  {
    path: '/v1/checkout/periodic',
    state: 'select-bank',
    fields: {
      bankId: plausible('es-cantabrico', 'es-aurora', 'es-norte', 'nope'),
      frequency: plausible('Monthly', 'Monthly', 'Weekly', 'Daily'),
      debtorAccount: plausible(GOOD_DEBTOR, GOOD_DEBTOR, ...IBANS),
      startDate: plausible(...DATES),
      endDate: plausible(...DATES),
    },
  },
  { path: '/v1/checkout/mode', state: 'select-bank', fields: { mode: plausible('native', 'redirect', 'periodic', 'NATIVE', '') } },
  { path: '/v1/checkout/bank', state: 'select-bank', fields: { bankId: plausible('aurora', 'norte', 'levante-empresas', 'nope', '', 7) } },
];

const linkFields = {
  subject: plausible('Order 1', '', 'x'.repeat(200), 'Pedido ñ 1'),
  amount: plausible(1, 4250, 0, -5, 1.5, 99_999_999_999, '4250'),
  reference: plausible('REF-1', '', 'r'.repeat(300)),
  urlOk: plausible(...URLS),
  urlError: plausible(...URLS),
  expireMinutes: plausible(1, 30, 0, 259_201, 1.5),
  customRecipient: plausible('Shop;Street 1', ''),
  customData: plausible('{"order":1}', 'c'.repeat(600)),
  partnerId: plausible('partner-1'),
  holderDestiny: plausible('Shop', ''),
  accountDestiny: plausible(...IBANS),
};

const MERCHANT_ENDPOINTS: { path: string; fields: Record<string, fc.Arbitrary<string>> }[] = [
  {
    path: '/v1/checkouts',
    fields: {
      amount: plausible(1, 4250, 0, -1, 1.5, 99_999_999_99, 99_999_999_999, '4250'),
      subject: plausible('Order 1', '', 's'.repeat(141)),
      reference: plausible('REF-1', '', 'r'.repeat(300)),
      holderDestiny: plausible('Shop', ''),
      accountDestiny: plausible(...IBANS),
      customData: plausible('{"a":1}', 'c'.repeat(600)),
      urlOk: plausible(...URLS),
      urlError: plausible(...URLS),
      modes: plausible(['native'], ['redirect', 'periodic'], ['native', 'native'], [], ['cash'], 'native'),
      expiresInMinutes: plausible(1, 0, 1441, 30.5),
    },
  },
  { path: '/v1/checkouts/{id}/resolve', fields: { outcome: plausible('succeeded', 'failed', 'unknown', '') } },
  { path: '/v1/links', fields: linkFields },
  {
    path: '/v1/links/periodic',
    fields: {
      ...linkFields,
      subject: plausible('Cuota mensual', 'Cuota mensual', 'Order #1', ''),
      frequency: plausible('Monthly', 'Weekly', 'Daily'),
      debtorAccount: plausible(GOOD_DEBTOR, GOOD_DEBTOR, ...IBANS),
      startDate: plausible(...DATES),
      endDate: plausible(...DATES),
      bankIdSelected: plausible('es-aurora', 'es-norte', 'nope'),
    },
  },
  {
    path: '/v1/links/periodic/cancel',
    fields: {
      transactionId: plausible('TX-1', ''),
      reference: plausible('CAN-1'),
      urlOk: plausible(...URLS),
      urlNotif: plausible(...URLS),
      expireMinutes: plausible(5, 0),
    },
  },
  { path: '/v1/legacy/links', fields: linkFields },
];

const ORDERS_QUERY = {
  dateFrom: fc.constantFrom('0', '1795168800000', '2026-11-01', '2026-13-45', '99999999999999999'),
  dateTo: fc.constantFrom('1795168800000', '2026-11-30', '-1', ''),
  page: fc.constantFrom('1', '0', '-1', '1.5', '1e3', 'x'),
  pageSize: fc.constantFrom('1', '50', '300', '301', '1000', '1001', '0'),
  order: fc.constantFrom('asc', 'desc', 'ASC', ''),
};
const QUERIES: { path: string; params: Record<string, fc.Arbitrary<string>> }[] = [
  { path: '/v1/orders', params: ORDERS_QUERY },
  { path: '/v1/legacy/debts', params: ORDERS_QUERY },
  {
    path: '/v1/link-banks',
    params: { country: fc.constantFrom('ES', 'es', 'PT', 'ESP', '1'), enabled: fc.constantFrom('0', '1', '2'), periodic: fc.constantFrom('0', '1', 'true') },
  },
  { path: '/v1/notifications', params: { limit: fc.constantFrom('1', '50', '200', '201', '0', 'x'), before: fc.constantFrom('1', '0', '-5', '1e20', 'x') } },
];

/** Result bodies for the notification and return routes: forms, JSON, signed or not. */
function resultBody(): fc.Arbitrary<{ body: FuzzBody; sign: 'none' | 'form' | 'json' }> {
  const dataFields = {
    status: plausible('200', 'PENDING', 'E300', '', 200),
    description: plausible('OK', null),
    transactionId: plausible('TX-1', '', 't'.repeat(200)),
    amount: plausible(4250, '4250', -1, 1.5),
    reference: plausible('REF-1', ''),
    dateInitPayment: plausible(1, 'now', null),
    accountDestiny: plausible(...IBANS),
    customData: plausible('x'.repeat(600)),
  };
  return fc.oneof(
    {
      arbitrary: malformedBody({ dataReturn: plausible('eyJ9', '{}', ''), signatureDataReturn: plausible('QUFB', '') }).map((body) => ({
        body,
        sign: 'none' as const,
      })),
      weight: 4,
    },
    {
      arbitrary: fc
        .tuple(fc.array(fc.tuple(fc.constantFrom('dataReturn', 'signatureDataReturn', 'other', '__proto__'), fc.string({ maxLength: 30 })), { maxLength: 4 }))
        .map(([pairs]) => ({
          body: { contentType: 'application/x-www-form-urlencoded', body: new URLSearchParams(pairs).toString(), kind: 'form' },
          sign: 'none' as const,
        })),
      weight: 2,
    },
    {
      // Signed with the right key, so that what follows the signature check is exercised too.
      arbitrary: fc
        .tuple(fc.oneof(templated(dataFields), jsonText), fc.constantFrom<'form' | 'json'>('form', 'json'), fc.boolean())
        .map(([data, sign, base64]) => ({ body: { contentType: null, body: base64 ? encodeDataReturn(data) : data, kind: `signed ${sign}` }, sign })),
      weight: 4,
    },
  );
}

async function resultInit(r: { body: FuzzBody; sign: 'none' | 'form' | 'json' }): Promise<{ init: RequestInit; shown: string }> {
  if (r.sign === 'none') return { init: requestInit(r.body, {}), shown: show(r.body) };
  const dataReturn = String(r.body.body);
  const signatureDataReturn = await signNotification(dataReturn, SECRETS.apiKey);
  const init: RequestInit =
    r.sign === 'form'
      ? {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ dataReturn, signatureDataReturn }).toString(),
        }
      : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ dataReturn, signatureDataReturn }) };
  return { init, shown: `${r.body.kind}: ${dataReturn.slice(0, 300)}` };
}

/** Two valid creations under one Idempotency-Key with different amounts: the second is a conflict. */
const KEY_REUSED: [FuzzBody, string, string | undefined][] = [1, 2].map((amount) => [
  { contentType: 'application/json', body: JSON.stringify({ amount, subject: 'Order 1', reference: 'REF-KEY-REUSED' }), kind: 'a key sent again' },
  `Bearer ${SECRETS.merchantSecret}`,
  'fuzz-key-reused',
]);

describe('fuzzing the BFF', () => {
  let rig: Rig;
  let statuses: Map<number, number>;
  let unreadable = 0;
  before(async () => {
    rig = await createRig({ env: { LOG_LEVEL: 'warn' } });
    statuses = new Map();
  });
  after(async () => {
    await rig.close();
  });

  /** Sends one request and checks the answer; returns the status. */
  async function probe(path: string, init: RequestInit, shown: string, expect: { redirect?: boolean } = {}): Promise<number> {
    const res = await rig.bff.request(`${BFF_HOST}${path}`, init);
    const text = await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const what = `${path} with ${shown}`;
    // The one 5xx allowed: a result the provider signed but that cannot be read is kept, and
    // the provider is asked to send it again.
    const askedToRetry = res.status === 503 && path.startsWith('/v1/notifications/provider') && /"code":"notification_unreadable"/.test(text);
    if (askedToRetry) unreadable++;
    assert.ok(res.status < 500 || askedToRetry, `${what} → ${res.status} ${text.slice(0, 300)}`);
    assertNoInternals(text, what);
    assertNoInternals(JSON.stringify(Object.fromEntries(res.headers)), what);
    if (res.status >= 400) checkBffError(res.status, res.headers.get('Content-Type'), text, what);
    else if (expect.redirect && res.status === 303)
      assert.match(res.headers.get('Location') ?? '', /^https:\/\/shop\.example\/(ok|ko)\?checkout=chk_[\w-]+&result=[\w-]+$/, what);
    else assert.doesNotThrow(() => JSON.parse(text), `${what}: a JSON answer`);
    return res.status;
  }

  /** The app still answers, and nothing escaped to the error handler. */
  async function stillHealthy() {
    assert.equal((await rig.bff.request(`${BFF_HOST}/health`)).status, 200);
    const c = await rig.createCheckout();
    assert.equal((await rig.checkout(c.clientSecret, '/v1/checkout')).status, 200);
    const unhandled = rig.logs.filter((l) => l.includes('http.unhandled'));
    assert.deepEqual(unhandled, [], 'no request reached the internal error handler');
  }

  /** A checkout held in `state`; replaced by a fresh one when a valid body moved it on. */
  function checkoutIn(ep: CheckoutEndpoint) {
    let current: { id: string; secret: string } | null = null;
    return async () => {
      const rec = current ? await rig.bff.parts.store.getCheckout(current.id) : null;
      if (rec?.state === ep.state && !(rec.internal as { busy?: unknown }).busy) return current!.secret;
      const c = await rig.createCheckout({ urlOk: 'https://shop.example/ok', urlError: 'https://shop.example/ko' });
      if (ep.state !== 'select-bank') {
        const v = await payNative(rig, c.clientSecret, ep.bankId ?? 'aurora', { loginId: ep.bankId === 'aurora' ? 'user' : undefined, stopAt: ep.state });
        assert.equal(v.state, ep.state);
      }
      current = { id: c.id, secret: c.clientSecret };
      return c.clientSecret;
    };
  }

  for (const ep of CHECKOUT_ENDPOINTS) {
    it(`POST ${ep.path}: ${RUNS} malformed bodies`, async () => {
      const secret = checkoutIn(ep);
      const auth = fc.oneof({ arbitrary: fc.constant('valid'), weight: 19 }, { arbitrary: fc.constantFrom('', 'cs_x', 'x'.repeat(300)), weight: 1 });
      await fc.assert(
        fc.asyncProperty(malformedBody(ep.fields), auth, async (body, who) => {
          const headers = { 'X-Checkout-Secret': who === 'valid' ? await secret() : who };
          await probe(ep.path, requestInit(body, headers), show(body));
        }),
        { numRuns: RUNS },
      );
      await stillHealthy();
    });
  }

  for (const ep of MERCHANT_ENDPOINTS) {
    it(`POST ${ep.path}: ${RUNS} malformed bodies`, async () => {
      const target = await rig.createCheckout();
      const path = ep.path.replace('{id}', target.id);
      const auth = fc.oneof(
        { arbitrary: fc.constant(`Bearer ${SECRETS.merchantSecret}`), weight: 19 },
        { arbitrary: fc.constantFrom('', 'Bearer ', SECRETS.merchantSecret, `Bearer ${SECRETS.merchantSecret} `), weight: 1 },
      );
      await fc.assert(
        fc.asyncProperty(malformedBody(ep.fields), auth, fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), async (body, authorization, idem) => {
          const headers: Record<string, string> = { Authorization: authorization };
          if (idem !== undefined && /^[\x20-\x7e]*$/.test(idem)) headers['Idempotency-Key'] = idem;
          await probe(path, requestInit(body, headers), show(body));
        }),
        // Always tried first, whatever the draw: one key sent again with another body (409).
        { numRuns: RUNS, examples: ep.path === '/v1/checkouts' ? KEY_REUSED : [] },
      );
      await stillHealthy();
    });
  }

  for (const q of QUERIES) {
    it(`GET ${q.path}: ${QUERY_RUNS} malformed query strings`, async () => {
      await fc.assert(
        fc.asyncProperty(malformedQuery(q.params), async (query) => {
          await probe(`${q.path}?${query}`, { headers: { Authorization: `Bearer ${SECRETS.merchantSecret}` } }, query);
        }),
        { numRuns: QUERY_RUNS },
      );
      await stillHealthy();
    });
  }

  it(`POST /v1/notifications/provider: ${RUNS} malformed, altered and signed-but-wrong results`, async () => {
    const c = await rig.createCheckout({ modes: ['redirect'] });
    await fc.assert(
      fc.asyncProperty(resultBody(), fc.constantFrom('', `?c=${c.id}`, '?c=../x', `?c=${'a'.repeat(80)}`), async (r, hint) => {
        const { init, shown } = await resultInit(r);
        await probe(`/v1/notifications/provider${hint}`, init, shown);
      }),
      { numRuns: RUNS },
    );
    await stillHealthy();
  });

  for (const kind of ['ok', 'error']) {
    it(`POST /v1/return/${kind}: ${RUNS} malformed, altered and signed-but-wrong results`, async () => {
      const c = await rig.createCheckout({ modes: ['redirect'], urlOk: 'https://shop.example/ok', urlError: 'https://shop.example/ko' });
      await fc.assert(
        fc.asyncProperty(resultBody(), async (r) => {
          const { init, shown } = await resultInit(r);
          const status = await probe(`/v1/return/${kind}?c=${c.id}`, init, shown, { redirect: true });
          assert.equal(status, 303, shown);
        }),
        { numRuns: RUNS },
      );
      await stillHealthy();
    });
  }

  it('answered with every kind of status, no 5xx but the request to resend an unreadable signed result', () => {
    if (process.env.FUZZ_DEBUG)
      console.log(
        statuses,
        rig.upstream.length,
        rig.upstream.map((u) => new URL(u.url).pathname).reduce((m, p) => m.set(p, (m.get(p) ?? 0) + 1), new Map<string, number>()),
      );
    const seen = [...statuses.keys()].sort();
    for (const s of [200, 303, 400, 401, 409, 413, 415, 422]) assert.ok(seen.includes(s), `some request got ${s} (seen ${seen.join(', ')})`);
    assert.equal(statuses.get(503) ?? 0, unreadable, 'every 503 asked the provider to resend a signed result it could not read');
    assert.ok(seen.every((s) => s < 500 || s === 503));
  });
});
