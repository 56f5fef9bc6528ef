import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  InvalidRequestError,
  ProviderError,
  UpstreamError,
  createLinksClient,
  createNativeClient,
  type CallEvent,
  type LinksClientOptions,
} from '@bank-checkout/provider';
import { urlOf } from '../../../test/support/fake-fetch.js';

const API_KEY = 'key-0123456789-secret';
const API_TOKEN = 'token-9876543210-secret';
const USER_SECRET = 'payer-password-4321';
const IBAN = 'ES9121000418450200051332';

interface Sent {
  url: URL;
  method: string;
  headers: Headers;
  body: string | undefined;
  signal: AbortSignal | undefined;
  redirect: RequestRedirect | undefined;
}

type Responder = (sent: Sent) => Response | Promise<Response>;

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** A fetch that records what it is given and answers with `respond`. */
function fakeFetch(respond: Responder = () => json({ status: '200', description: 'OK' })) {
  const sent: Sent[] = [];
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const s: Sent = {
      url: new URL(urlOf(input)),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
      signal: init.signal ?? undefined,
      redirect: init.redirect,
    };
    sent.push(s);
    return respond(s);
  };
  return { fetch, sent };
}

function options(fetch: typeof globalThis.fetch, extra: Partial<LinksClientOptions> = {}): LinksClientOptions & { events: CallEvent[] } {
  const events: CallEvent[] = [];
  return {
    baseUrl: 'https://provider.example/api/',
    env: 'test',
    apiKey: API_KEY,
    apiToken: API_TOKEN,
    fetch,
    onCall: (e) => events.push(e),
    events,
    ...extra,
  };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  assert.fail('expected a rejection');
}

const LOGIN = { bankId: 'aurora', userId: '12345678Z', userSecret: USER_SECRET };
const TRANSFER = { sessionId: 'S1', accountIdOrigin: 'A1', amount: 1999, subject: 'Pedido 1', holderDestiny: 'Tienda', accountDestiny: IBAN };

describe('native client: requests as sent', () => {
  test('path, method, headers and body of each endpoint', async () => {
    const f = fakeFetch();
    const client = createNativeClient(options(f.fetch));
    await client.banksList();
    await client.login({ ...LOGIN, userExtraField: 'B1' });
    await client.secondLogin({ sessionId: 'S1', secondLoginType: 2, valueFromUser: '42' });
    await client.accountsList({ sessionId: 'S1', contractId: 'C1' });
    await client.transferInit(TRANSFER);
    await client.transferValidate({ sessionId: 'S1', validations: [{ fieldId: 'sms', type: 1, valueFromUser: '123456' }] });

    assert.deepEqual(
      f.sent.map((s) => `${s.method} ${s.url.href}`),
      ['banks/list', 'login', 'secondlogin', 'accounts/list', 'transfer/init', 'transfer/validate'].map((p) => `POST https://provider.example/api/test/${p}`),
    );
    for (const s of f.sent) {
      assert.equal(s.headers.get('X-Api-Key'), API_KEY);
      assert.equal(s.headers.get('Authorization'), API_TOKEN);
      assert.equal(s.headers.get('Content-Type'), 'application/json');
      assert.equal(s.redirect, 'error');
      assert.ok(s.signal instanceof AbortSignal);
    }
    assert.deepEqual(
      f.sent.map((s) => JSON.parse(s.body!)),
      [
        {},
        { ...LOGIN, userExtraField: 'B1' },
        { sessionId: 'S1', secondLoginType: '2', valueFromUser: '42' },
        { sessionId: 'S1', contractId: 'C1' },
        TRANSFER,
        { sessionId: 'S1', validations: [{ fieldId: 'sms', type: 1, valueFromUser: '123456' }] },
      ],
    );
  });

  test('custom header names carry the key and token instead of the defaults', async () => {
    const f = fakeFetch();
    await createNativeClient(options(f.fetch, { headerNames: { apiKey: 'X-Native-Key', apiToken: 'X-Native-Token' } })).banksList();
    const h = f.sent[0]!.headers;
    assert.equal(h.get('X-Native-Key'), API_KEY);
    assert.equal(h.get('X-Native-Token'), API_TOKEN);
    assert.equal(h.get('X-Api-Key'), null);
    assert.equal(h.get('Authorization'), null);
  });

  test('the environment segment is encoded and the base URL keeps its path', async () => {
    const f = fakeFetch();
    await createNativeClient(options(f.fetch, { baseUrl: 'http://127.0.0.1:4010', env: 'prod v2' })).banksList();
    assert.equal(f.sent[0]!.url.href, 'http://127.0.0.1:4010/prod%20v2/banks/list');
  });
});

describe('payment-links client: requests as sent', () => {
  const signer = { subject: 'Pedido 1', amount: 1250, reference: 'ORDER-1' };
  const at = Date.UTC(2026, 0, 10, 12);

  test('path, method, headers and body of each endpoint', async () => {
    const f = fakeFetch();
    const client = createLinksClient(options(f.fetch, { env: 'san', dateRules: { now: () => at } }));
    await client.signer({ ...signer, accountDestiny: 'es91 2100 0418 4502 0005 1332' });
    await client.periodicSigner({ ...signer, frequency: 'Monthly', debtorAccount: IBAN, startDate: '2026-02-01', bankIdSelected: 'b1' });
    await client.cancelPeriodic({ transactionId: 'TX1', reference: 'CANCEL-1' });
    await client.paymentOrders({ dateFrom: 1767225600000, dateTo: '1767312000000', pageRequest: 2, pageSize: 300, orderAsc: true });
    await client.enableDisable({ idDebt: 'D1', enable: false });
    await client.legacySigner({ variant: 'commerce', body: signer });
    await client.legacySigner({ variant: 'business', body: { ...signer, customRecipient: 'Tienda', holderDestiny: 'Tienda SL', accountDestiny: IBAN } });
    await client.debts({ dateFrom: '0', pageRequest: '1' });
    await client.legacyEnableDisable({ idProvider: 'U1', enable: true });

    assert.deepEqual(
      f.sent.map((s) => `${s.method} ${s.url.pathname}`),
      [
        'url/signer',
        'url/periodic-payment-signer',
        'url/cancel-periodic-payment-signer',
        'info/payment-orders',
        'update/enable-disable-payment-order',
        'url/signer',
        'url/signer',
        'info/debts',
        'update/enable-disable-url',
      ].map((p) => `POST /api/san/${p}`),
    );
    for (const s of f.sent) {
      assert.equal(s.headers.get('X-Api-Key'), API_KEY);
      assert.equal(s.headers.get('Authorization'), API_TOKEN);
      assert.equal(s.headers.get('Content-Type'), 'application/json');
    }
    const bodies = f.sent.map((s) => JSON.parse(s.body!) as Record<string, unknown>);
    assert.deepEqual(bodies[0], { ...signer, accountDestiny: IBAN });
    assert.deepEqual(bodies[1], { ...signer, frequency: 'Monthly', debtorAccount: IBAN, startDate: '2026-02-01', bankIdSelected: 'b1' });
    assert.deepEqual(bodies[2], { transactionId: 'TX1', reference: 'CANCEL-1' });
    // The spec types dateFrom, pageRequest and pageSize as String and dateTo as Number.
    assert.deepEqual(bodies[3], { dateFrom: '1767225600000', dateTo: 1767312000000, pageRequest: '2', pageSize: '300', orderAsc: true });
    assert.deepEqual(bodies[4], { idDebt: 'D1', enable: false });
    assert.deepEqual(bodies[5], signer);
    assert.deepEqual(bodies[6], { ...signer, customRecipient: 'Tienda', holderDestiny: 'Tienda SL', accountDestiny: IBAN });
    assert.deepEqual(bodies[7], { dateFrom: '0', pageRequest: '1' });
    assert.deepEqual(bodies[8], { idProvider: 'U1', enable: true });
  });

  test('banks: GET with the filters in the query string, no body', async () => {
    const f = fakeFetch(() => json({ status: '200', description: 'OK', total: 1, data: [{ bankId: 'b1', name: 'Banco', enabled: 1 }] }));
    const client = createLinksClient(options(f.fetch, { env: 'san' }));
    const all = await client.banks();
    assert.equal(all.data?.[0]?.bankId, 'b1');
    await client.banks({ enabled: '1', country: 'ES' });
    await client.banks({ enabledPeriodicPayment: '1', country: 'PT' });
    assert.deepEqual(
      f.sent.map((s) => [s.method, s.url.pathname, s.url.search, s.body]),
      [
        ['GET', '/api/san/banks', '', undefined],
        ['GET', '/api/san/banks', '?enabled=1&country=ES', undefined],
        ['GET', '/api/san/banks', '?enabledPeriodicPayment=1&country=PT', undefined],
      ],
    );
    assert.equal(f.sent[0]!.headers.get('Content-Type'), 'application/json', 'the three headers on every request');
  });

  test('the periodic date rules use the injected clock and Europe/Madrid', async () => {
    const f = fakeFetch();
    const body = { ...signer, frequency: 'Monthly', debtorAccount: IBAN, startDate: '2026-01-02' };
    const before = createLinksClient(options(f.fetch, { env: 'san', dateRules: { now: () => Date.UTC(2026, 0, 1, 22, 30) } }));
    await before.periodicSigner(body);
    const after = createLinksClient(options(f.fetch, { env: 'san', dateRules: { now: () => Date.UTC(2026, 0, 1, 23, 30) } }));
    const err = await rejection(after.periodicSigner(body));
    assert.ok(err instanceof InvalidRequestError);
    assert.equal(f.sent.length, 1);
  });
});

describe('answers', () => {
  test('login: `descripción` becomes description; 229 and 228 are successes', async () => {
    const answers = [
      json({
        status: '229',
        descripción: 'Segundo login requerido',
        sessionId: 'S1',
        secondLoginType: 1,
        secondLoginValue: '',
        secondLoginField: { fieldId: 'sms', label: 'SMS', valueType: 'numeric', min: 6, max: 6 },
      }),
      json({
        status: '228',
        description: 'Validación pendiente',
        sessionId: 'S1',
        transactionId: 'T1',
        validations: [{ fieldId: 'sms', label: 'SMS', valueType: 'numeric', type: '1' }],
      }),
      json({ status: 200, description: 'OK', sessionId: 'S1', transactionId: 'T1' }),
    ];
    const f = fakeFetch(() => answers.shift()!);
    const client = createNativeClient(options(f.fetch));
    const login = await client.login(LOGIN);
    assert.equal(login.status, '229');
    assert.equal(login.description, 'Segundo login requerido');
    assert.equal(login.secondLoginType, 1);
    const init = await client.transferInit(TRANSFER);
    assert.equal(init.status, '228');
    assert.equal(init.validations?.[0]?.type, 1);
    const done = await client.transferValidate({ sessionId: 'S1', validations: [{ fieldId: 'sms', type: 1, valueFromUser: '1' }] });
    assert.equal(done.status, '200', 'a numeric status is read as its string');
  });

  test('a provider code is a ProviderError with the code and its description', async () => {
    const f = fakeFetch(() => json({ status: 'B100', descripción: 'Credenciales incorrectas' }, 422));
    const opts = options(f.fetch);
    const err = await rejection(createNativeClient(opts).login(LOGIN));
    assert.ok(err instanceof ProviderError);
    assert.equal(err.code, 'B100');
    assert.equal(err.description, 'Credenciales incorrectas');
    assert.equal(err.endpoint, 'login');
    assert.equal(err.httpStatus, 422);
    assert.match(err.message, /ERROR_INVALID_ACCESS/);
    assert.equal(f.sent.length, 1, 'no retry');
    assert.deepEqual(
      opts.events.map((e) => [e.service, e.endpoint, e.outcome, e.httpStatus]),
      [['native', 'login', 'B100', 422]],
    );
  });

  test('the payment-link service succeeds only with 200', async () => {
    const f = fakeFetch(() => json({ status: '229', description: '?' }));
    const err = await rejection(createLinksClient(options(f.fetch, { env: 'san' })).enableDisable({ idDebt: 'D1', enable: true }));
    assert.ok(err instanceof ProviderError && err.code === '229');
    const e301 = fakeFetch(() => json({ status: 'E301', description: 'accountDestiny not validated' }, 400));
    const err2 = await rejection(createLinksClient(options(e301.fetch, { env: 'san' })).signer({ subject: 's', amount: 1, reference: 'r' }));
    assert.ok(err2 instanceof ProviderError);
    assert.equal(err2.code, 'E301');
    assert.equal(err2.description, 'accountDestiny not validated');
  });

  test('response bodies are validated: signer url and idDebt come through', async () => {
    const f = fakeFetch(() => json({ status: '200', description: 'OK', url: 'https://gw.example/pay?x=1', idDebt: 'D1' }));
    const r = await createLinksClient(options(f.fetch, { env: 'san' })).signer({ subject: 's', amount: 1, reference: 'r' });
    assert.equal(r.url, 'https://gw.example/pay?x=1');
    assert.equal(r.idDebt, 'D1');
  });
});

describe('faults: each becomes one typed error, after exactly one attempt', () => {
  const cases: { name: string; respond: Responder; kind: string; httpStatus?: number; opts?: Partial<LinksClientOptions> }[] = [
    { name: 'network error', respond: () => Promise.reject(new TypeError('fetch failed')), kind: 'network' },
    {
      name: 'HTML page with 200',
      respond: () => new Response('<html><body>Maintenance</body></html>', { status: 200, headers: { 'Content-Type': 'text/html' } }),
      kind: 'body',
      httpStatus: 200,
    },
    {
      name: 'HTML page with 502',
      respond: () => new Response('<html><body>Bad Gateway</body></html>', { status: 502, headers: { 'Content-Type': 'text/html' } }),
      kind: 'http',
      httpStatus: 502,
    },
    { name: 'truncated JSON', respond: () => new Response('{"status":"200","listBanks":[{"gro', { status: 200 }), kind: 'body' },
    { name: 'empty body', respond: () => new Response('', { status: 200 }), kind: 'body' },
    { name: 'JSON without status', respond: () => json({ listBanks: [] }), kind: 'schema' },
    { name: 'JSON without status, 500', respond: () => json({ error: 'boom' }, 500), kind: 'http', httpStatus: 500 },
    { name: 'JSON array', respond: () => json([{ status: '200' }]), kind: 'schema' },
    { name: 'wrong schema', respond: () => json({ status: '200', description: 'OK', listBanks: 'none' }), kind: 'schema', httpStatus: 200 },
    { name: 'body over the cap, declared', respond: () => json({ status: '200', pad: 'x'.repeat(2000) }), kind: 'too-large', opts: { maxBodyBytes: 1000 } },
    {
      name: 'body over the cap, streamed without length',
      respond: () => {
        let sent = 0;
        const stream = new ReadableStream<Uint8Array>({
          pull(c) {
            if (sent++ < 100) c.enqueue(new TextEncoder().encode('{"status":"200","pad":"' + 'x'.repeat(100)));
            else c.close();
          },
        });
        return new Response(stream, { status: 200 });
      },
      kind: 'too-large',
      opts: { maxBodyBytes: 1000 },
    },
    { name: 'body stream that breaks', respond: () => new Response(new ReadableStream({ start: (c) => c.error(new Error('reset')) })), kind: 'network' },
  ];

  for (const c of cases) {
    test(c.name, async () => {
      const f = fakeFetch(c.respond);
      const opts = options(f.fetch, c.opts);
      const err = await rejection(createNativeClient(opts).banksList());
      assert.ok(err instanceof UpstreamError, String(err));
      assert.equal(err.kind, c.kind);
      assert.equal(err.endpoint, 'banks/list');
      if (c.httpStatus) assert.equal(err.httpStatus, c.httpStatus);
      assert.equal(f.sent.length, 1, 'no retry');
      assert.deepEqual(
        opts.events.map((e) => e.outcome),
        [c.kind],
      );
    });
  }

  test('a body at the cap exactly is read', async () => {
    const body = JSON.stringify({ status: '200', description: 'x'.repeat(100) });
    const f = fakeFetch(() => new Response(body, { status: 200 }));
    const r = await createNativeClient(options(f.fetch, { maxBodyBytes: Buffer.byteLength(body) })).banksList();
    assert.equal(r.status, '200');
  });
});

describe('deadlines and aborts', () => {
  /** A fetch that answers only when aborted, rejecting like fetch does. */
  const untilAborted: Responder = (s) =>
    new Promise((_, reject) => s.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true }));

  test('timeout: a call that never answers fails as timeout after timeoutMs, once', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const f = fakeFetch(untilAborted);
    const opts = options(f.fetch, { timeoutMs: 30 });
    let settled = false;
    const call = rejection(createNativeClient(opts).transferInit(TRANSFER)).finally(() => (settled = true));
    while (f.sent.length === 0) await new Promise((r) => setImmediate(r));
    t.mock.timers.tick(29);
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    assert.equal(settled, false, 'not given up before the 30 ms timeout');
    t.mock.timers.tick(1);
    const err = await call;
    assert.ok(err instanceof UpstreamError && err.kind === 'timeout', String(err));
    assert.equal(f.sent.length, 1, 'a transfer is never retried');
    assert.equal(opts.events[0]?.outcome, 'timeout');
  });

  test('timeout holds even when the fetch ignores the signal', async () => {
    const f = fakeFetch(() => new Promise<Response>(() => {}));
    const err = await rejection(createNativeClient(options(f.fetch, { timeoutMs: 30 })).banksList());
    assert.ok(err instanceof UpstreamError && err.kind === 'timeout', String(err));
  });

  test('timeout holds while the body is still arriving', async () => {
    const f = fakeFetch(() => new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"status":')) }), { status: 200 }));
    const err = await rejection(createNativeClient(options(f.fetch, { timeoutMs: 30 })).banksList());
    assert.ok(err instanceof UpstreamError && err.kind === 'timeout', String(err));
  });

  test("the caller's abort fails as aborted; an aborted signal sends nothing", async () => {
    const f = fakeFetch(untilAborted);
    const client = createNativeClient(options(f.fetch, { timeoutMs: 5000 }));
    const ctl = new AbortController();
    const login = rejection(client.login(LOGIN, { signal: ctl.signal }));
    // Aborted once the request is out (not before it is sent).
    while (f.sent.length === 0) await new Promise((r) => setImmediate(r));
    ctl.abort();
    const err = await login;
    assert.ok(err instanceof UpstreamError && err.kind === 'aborted', String(err));
    assert.equal(f.sent.length, 1);
    const err2 = await rejection(client.login(LOGIN, { signal: AbortSignal.abort() }));
    assert.ok(err2 instanceof UpstreamError && err2.kind === 'aborted', String(err2));
    assert.equal(f.sent.length, 1, 'nothing sent with an aborted signal');
  });
});

describe('invalid requests and call events', () => {
  test('a request that breaks the spec is an InvalidRequestError, nothing is sent, no event', async () => {
    const f = fakeFetch();
    const opts = options(f.fetch);
    const nativeClient = createNativeClient(opts);
    const linksClient = createLinksClient({ ...opts, env: 'san' });
    const attempts: [string, Promise<unknown>, string][] = [
      ['login', nativeClient.login({ ...LOGIN, userSecret: '' }), 'userSecret'],
      ['transfer/init', nativeClient.transferInit({ ...TRANSFER, amount: 19.99 }), 'amount'],
      ['transfer/validate', nativeClient.transferValidate({ sessionId: 'S1', validations: [] }), 'validations'],
      ['url/signer', linksClient.signer({ subject: 'x'.repeat(161), amount: 1, reference: 'r' }), 'subject'],
      ['info/payment-orders', linksClient.paymentOrders({ dateFrom: 0, pageRequest: 1, pageSize: 301 }), 'pageSize'],
      ['banks', linksClient.banks({ country: 'Spain' }), 'country'],
      ['url/signer', linksClient.legacySigner({ variant: 'business', body: { subject: 's', amount: 1, reference: 'r' } as never }), 'customRecipient'],
    ];
    for (const [endpoint, p, path] of attempts) {
      const err = await rejection(p);
      assert.ok(err instanceof InvalidRequestError, `${endpoint}: ${String(err)}`);
      assert.equal(err.endpoint, endpoint);
      assert.ok(
        err.issues.some((i) => i.path === path),
        JSON.stringify(err.issues),
      );
      assert.ok(!err.message.includes(USER_SECRET));
    }
    assert.equal(f.sent.length, 0);
    assert.deepEqual(opts.events, []);
  });

  test('call events carry service, endpoint, outcome, status and duration, never secrets', async () => {
    const answers: Responder[] = [
      () => json({ status: '200', descripción: 'OK', sessionId: 'S1' }),
      () => json({ status: 'B100', descripción: 'Credenciales incorrectas' }, 422),
      () => Promise.reject(new TypeError('fetch failed')),
    ];
    const f = fakeFetch((s) => answers.shift()!(s));
    const opts = options(f.fetch);
    const client = createNativeClient(opts);
    await client.login(LOGIN);
    await rejection(client.login(LOGIN));
    await rejection(client.login(LOGIN));
    assert.deepEqual(
      opts.events.map((e) => [e.service, e.endpoint, e.outcome, e.httpStatus]),
      [
        ['native', 'login', 'ok', 200],
        ['native', 'login', 'B100', 422],
        ['native', 'login', 'network', undefined],
      ],
    );
    for (const e of opts.events) {
      assert.equal(typeof e.durationMs, 'number');
      assert.ok(e.durationMs >= 0);
      const text = JSON.stringify(e);
      for (const secret of [API_KEY, API_TOKEN, USER_SECRET, LOGIN.userId]) assert.ok(!text.includes(secret), `${secret} in ${text}`);
    }
  });

  test('errors carry no secrets either', async () => {
    const f = fakeFetch(() => json({ status: 'B100', descripción: 'no' }, 422));
    const err = (await rejection(createNativeClient(options(f.fetch)).login(LOGIN))) as Error;
    const text = `${err.message} ${JSON.stringify(err)} ${err.stack}`;
    for (const secret of [API_KEY, API_TOKEN, USER_SECRET]) assert.ok(!text.includes(secret));
  });
});
