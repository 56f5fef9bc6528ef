/**
 * Fuzzing the simulator with fast-check: 1,000 malformed bodies for every endpoint of the
 * native service (/test/*) and of the payment-link API (/san/*), with live session, order and
 * account ids among the values so that bodies reach past validation. Every answer is below
 * 500, every error is the provider's `{status, description}` (`descripción` in login and
 * secondlogin), none carries a stack trace or an internal path, and the app keeps answering.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createSandbox, type Sandbox } from '@bank-checkout/sandbox';
import { SECRETS } from './lib/canary.js';
import { FUZZ_RUNS, malformedBody, malformedQuery, plausible, requestInit, show, templated } from './lib/fuzz.js';
import { assertNoInternals, checkProviderError } from './lib/shapes.js';

const RUNS = FUZZ_RUNS;
const HOST = 'http://sandbox.test';
const CURRENT = { 'X-Api-Key': SECRETS.apiKey, Authorization: SECRETS.apiToken };
const BUSINESS = { 'X-Api-Key': SECRETS.legacyApiKey, Authorization: SECRETS.legacyApiToken };
const IBANS = ['ES9121000418450200051332', 'ES7620770024003102575766', 'ES0000000000000000000000', 'XX'];
const URLS = ['https://shop.example/ok', 'javascript:alert(1)', 'http://127.0.0.1/n', ''];
const DATES = ['2026-12-01', '2026-11-20', '2026-02-30', '9999-99-99'];

describe('fuzzing the simulator', () => {
  let sandbox: Sandbox;
  /** Live ids, so that some generated bodies name real sessions, accounts and orders. */
  const live = { sessions: [] as string[], orders: [] as string[] };
  const statuses = new Map<number, number>();

  const post = async (path: string, body: unknown, headers: Record<string, string> = CURRENT) => {
    const res = await sandbox.app.request(`${HOST}${path}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Record<string, any>;
  };

  before(async () => {
    sandbox = createSandbox({
      publicUrl: HOST,
      apiKey: SECRETS.apiKey,
      apiToken: SECRETS.apiToken,
      clients: [{ apiKey: SECRETS.legacyApiKey, apiToken: SECRETS.legacyApiToken, variant: 'business' }],
      now: () => Date.parse('2026-11-20T10:00:00Z'),
      fetch: async () => new Response('ok'),
    });
    const open = await post('/test/login', { bankId: 'aurora', userId: 'aurora.demo', userSecret: 'Aurora2024' });
    const second = await post('/test/login', { bankId: 'levante', userId: 'X1234567L', userSecret: '246810' });
    const transferring = await post('/test/login', { bankId: 'aurora', userId: 'aurora.demo', userSecret: 'Aurora2024' });
    await post('/test/transfer/init', {
      sessionId: transferring.sessionId,
      accountIdOrigin: 'AUR-0001',
      amount: 100,
      subject: 's',
      holderDestiny: 'h',
      accountDestiny: IBANS[0],
    });
    const contracts = await post('/test/login', { bankId: 'aurora-empresas', userId: 'B12345674', userSecret: 'Empresa2024', userExtraField: '7788' });
    live.sessions.push(open.sessionId, second.sessionId, transferring.sessionId, contracts.sessionId);
    const order = await post('/san/url/signer', { amount: 100, subject: 's', reference: 'r' });
    live.orders.push(order.idDebt);
    assert.ok(live.sessions.every((s) => typeof s === 'string') && typeof order.idDebt === 'string');
  });

  const sessionId = () =>
    fc.oneof(
      fc.constantFrom(...live.sessions).map((s) => JSON.stringify(s)),
      plausible('', 'nope', 1),
    );
  const idDebt = () =>
    fc.oneof(
      fc.constantFrom(...live.orders).map((s) => JSON.stringify(s)),
      plausible('', 'nope'),
    );

  const ENDPOINTS: { path: string; descriptionField?: string; fields: () => Record<string, fc.Arbitrary<string>> }[] = [
    { path: '/test/banks/list', fields: () => ({}) },
    {
      path: '/test/login',
      descriptionField: 'descripción',
      fields: () => ({
        bankId: plausible('aurora', 'norte', 'levante', 'nope'),
        userId: plausible('aurora.demo', '12345678Z', '00000104N', '00000108Q', 'X1234567L'),
        userSecret: plausible('Aurora2024', '135790', '246810', '0000'),
        userExtraField: plausible('7788', ''),
      }),
    },
    {
      path: '/test/secondlogin',
      descriptionField: 'descripción',
      fields: () => ({ sessionId: sessionId(), secondLoginType: plausible('1', 1, 2, '4', 0), valueFromUser: plausible('731904', '000000', 'abc') }),
    },
    { path: '/test/accounts/list', fields: () => ({ sessionId: sessionId(), contractId: plausible('AUE-C01', 'LVE-C01', '') }) },
    {
      path: '/test/transfer/init',
      fields: () => ({
        sessionId: sessionId(),
        holderOrigin: plausible('Payer'),
        accountIdOrigin: plausible('AUR-0001', 'AUR-0004', 'AUR-0005', 'AUE-0001', 'nope'),
        amount: plausible(100, 0, -1, 1.5, 2_000_000, '100'),
        subject: plausible('s', ''),
        holderDestiny: plausible('h', ''),
        accountDestiny: plausible(...IBANS),
      }),
    },
    {
      path: '/test/transfer/validate',
      fields: () => ({
        sessionId: sessionId(),
        validations: fc.oneof(
          plausible([{ fieldId: 'smsCode', type: 1, valueFromUser: '482913' }], [{ fieldId: 'smsCode', type: '1', valueFromUser: '0000' }], [], [{}]),
          fc
            .array(
              templated({
                fieldId: plausible('smsCode', 'token', ''),
                type: plausible(1, '1', 7, -1, 'x'),
                valueFromUser: plausible('482913', 'PENDING', 'SIGNED', ''),
              }),
              { maxLength: 3 },
            )
            .map((items) => `[${items.join(',')}]`),
        ),
      }),
    },
    {
      path: '/san/url/signer',
      fields: () => ({
        subject: plausible('Order', ''),
        amount: plausible(100, 0, -1, 1.5),
        reference: plausible('REF', ''),
        urlOk: plausible(...URLS),
        urlNotif: plausible(...URLS),
        expireMinutes: plausible(1, 0, 259_201),
        customRecipient: plausible('a;b'),
        customData: plausible('d'),
        holderDestiny: plausible('h'),
        accountDestiny: plausible(...IBANS),
      }),
    },
    {
      path: '/san/url/periodic-payment-signer',
      fields: () => ({
        subject: plausible('Cuota mensual', 'Order #1'),
        amount: plausible(100, -1),
        reference: plausible('REF'),
        frequency: plausible('Monthly', 'Daily'),
        debtorAccount: plausible(...IBANS),
        startDate: plausible(...DATES),
        endDate: plausible(...DATES),
        bankIdSelected: plausible('es-aurora', 'es-norte', 'nope'),
        urlNotif: plausible(...URLS),
      }),
    },
    {
      path: '/san/url/cancel-periodic-payment-signer',
      fields: () => ({ transactionId: plausible('TX-1', ''), reference: plausible('CAN'), expireMinutes: plausible(5, 0), urlNotif: plausible(...URLS) }),
    },
    {
      path: '/san/info/payment-orders',
      fields: () => ({
        dateFrom: plausible(0, '0', -1, 'x'),
        dateTo: plausible(1_900_000_000_000, 0),
        pageRequest: plausible(1, 0, '2'),
        pageSize: plausible(1, 300, 301),
        orderAsc: plausible(true, 'true'),
      }),
    },
    {
      path: '/san/info/debts',
      fields: () => ({
        dateFrom: plausible(0, '0', -1),
        dateTo: plausible(1_900_000_000_000),
        pageRequest: plausible(1, 0),
        pageSize: plausible(1000, 1001),
        orderAsc: plausible(false, 0),
      }),
    },
    { path: '/san/update/enable-disable-payment-order', fields: () => ({ idDebt: idDebt(), enable: plausible(true, false, 'true', 1) }) },
    { path: '/san/update/enable-disable-url', fields: () => ({ idProvider: idDebt(), enable: plausible(true, false, 0) }) },
  ];

  /** Sends one request and checks the answer. */
  async function probe(path: string, init: RequestInit, shown: string, descriptionField = 'description') {
    const res = await sandbox.app.request(`${HOST}${path}`, init);
    const text = await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const what = `${path} with ${shown}`;
    assert.ok(res.status < 500, `${what} → ${res.status} ${text.slice(0, 300)}`);
    assertNoInternals(text, what);
    if (res.status >= 400) checkProviderError(res.status, res.headers.get('Content-Type'), text, what, descriptionField);
    else assert.doesNotThrow(() => JSON.parse(text), `${what}: a JSON answer`);
  }

  async function stillHealthy() {
    const res = await sandbox.app.request(`${HOST}/test/banks/list`, {
      method: 'POST',
      headers: { ...CURRENT, 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 200);
  }

  for (const ep of ENDPOINTS) {
    it(`POST ${ep.path}: ${RUNS} malformed bodies`, async () => {
      const who = fc.oneof(
        { arbitrary: fc.constant(CURRENT), weight: 16 },
        { arbitrary: fc.constant(BUSINESS), weight: 2 },
        {
          arbitrary: fc.constantFrom<Record<string, string>>({}, { 'X-Api-Key': SECRETS.apiKey }, { 'X-Api-Key': SECRETS.apiKey, Authorization: 'nope' }),
          weight: 1,
        },
      );
      await fc.assert(
        fc.asyncProperty(malformedBody(ep.fields()), who, async (body, headers) => {
          await probe(ep.path, requestInit(body, headers), show(body), ep.descriptionField);
        }),
        { numRuns: RUNS },
      );
      await stillHealthy();
    });
  }

  it(`GET /san/banks: ${RUNS} malformed query strings`, async () => {
    await fc.assert(
      fc.asyncProperty(
        malformedQuery({
          enabled: fc.constantFrom('0', '1', '2'),
          enabledPeriodicPayment: fc.constantFrom('0', '1', 'x'),
          country: fc.constantFrom('ES', 'es', 'ESP', ''),
        }),
        async (query) => {
          await probe(`/san/banks?${query}`, { headers: CURRENT }, query);
        },
      ),
      { numRuns: RUNS },
    );
    await stillHealthy();
  });

  it('answered with successes and every kind of refusal (a known request of each beside the fuzz’s), none of them 5xx', async () => {
    // What the random bodies reach depends on the draw; one request known to get each answer makes the list whole.
    const login = (body: Record<string, unknown>, headers: Record<string, string>) =>
      probe(
        '/test/login',
        { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
        JSON.stringify(body),
        'descripción',
      );
    await login({ bankId: 'aurora', userId: 'aurora.demo', userSecret: 'Aurora2024' }, CURRENT);
    await login({ bankId: 'aurora', userId: 'aurora.demo', userSecret: 'wrong-secret' }, CURRENT);
    await login({ bankId: 'aurora' }, CURRENT);
    await login({ bankId: 'aurora', userId: 'aurora.demo', userSecret: 'Aurora2024' }, {});
    const seen = [...statuses.keys()].sort();
    for (const s of [200, 400, 401, 422]) assert.ok(seen.includes(s), `some request got ${s} (seen ${seen.join(', ')})`);
    assert.ok(seen.every((s) => s < 500));
  });
});
