import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createNativeClient, native, UpstreamError, type UpstreamFault } from '@bank-checkout/provider';
import { readFileSync } from 'node:fs';
import { createSandbox, FAULT_KINDS, NATIVE_TEST_INPUTS, parseFaultRule, SANDBOX_DEFAULTS, testCredentials, type FaultRuleInput } from '../src/testing.js';
import { urlOf } from '../../../test/support/fake-fetch.js';

const AUTH = { 'X-Api-Key': SANDBOX_DEFAULTS.apiKey, Authorization: SANDBOX_DEFAULTS.apiToken, 'Content-Type': 'application/json' };
const BANKS = '/test/banks/list';
const START = Date.UTC(2026, 0, 15, 9, 0, 0);

/**
 * Sends `request` on the test's mocked timers: not answered a millisecond before `ms` of the
 * mocked clock, answered at `ms`.
 */
async function answeredAfter(t: TestContext, ms: number, request: () => Response | Promise<Response>): Promise<Response> {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const answer = Promise.resolve(request());
  let settled = false;
  void answer.finally(() => (settled = true)).catch(() => {});
  const turns = async () => {
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
  };
  await turns();
  t.mock.timers.tick(ms - 1);
  await turns();
  assert.equal(settled, false, `answered before ${ms} ms`);
  t.mock.timers.tick(1);
  return answer;
}

function setup() {
  const sandbox = createSandbox({ now: () => START });
  const { app } = sandbox;
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await app.request(`/__sandbox${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: res.status, body: await res.json() };
  };
  const addRule = async (rule: Partial<FaultRuleInput> & Record<string, unknown>) => {
    const r = await control('POST', '/faults', rule);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body.rule as { id: number };
  };
  const native_ = (path: string, body: unknown = {}, init: RequestInit = {}) =>
    app.request(`/test/${path}`, { method: 'POST', headers: AUTH, body: JSON.stringify(body), ...init });
  /** The provider's own client, reaching the simulator through app.request. */
  const client = (timeoutMs = 2000) =>
    createNativeClient({
      baseUrl: 'http://sandbox.test',
      env: 'test',
      apiKey: SANDBOX_DEFAULTS.apiKey,
      apiToken: SANDBOX_DEFAULTS.apiToken,
      timeoutMs,
      fetch: (input, init) => Promise.resolve(app.request(urlOf(input), init)),
    });
  return { sandbox, app, control, addRule, post: native_, client };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  assert.fail('expected a rejection');
}

describe('fault rules: every kind', () => {
  test('rules are off by default: the list is empty and the native service answers normally', async () => {
    const { control, post } = setup();
    assert.deepEqual((await control('GET', '/faults')).body, { rules: [] });
    const res = await post('banks/list');
    assert.equal(res.status, 200);
    assert.equal((await res.json()).status, '200');
  });

  test('latency: waits ms, then answers normally', async (t) => {
    const { addRule, post } = setup();
    await addRule({ path: BANKS, kind: 'latency', ms: 60 });
    const res = await answeredAfter(t, 60, () => post('banks/list'));
    assert.equal(res.status, 200);
    assert.ok(native.banksListResponse.safeParse(await res.json()).success);
  });

  test('latency: a client that gives up sees a timeout, not the late answer', async () => {
    const { addRule, client } = setup();
    await addRule({ path: BANKS, kind: 'latency', ms: 2000 });
    const err = await rejection(client(50).banksList());
    // A timeout, not the late answer (which would have parsed): no clock needed to tell them apart.
    assert.ok(err instanceof UpstreamError && err.kind === 'timeout', String(err));
  });

  test('status: the given HTTP status (default 503) with a body that is no provider answer', async () => {
    const { addRule, post } = setup();
    await addRule({ path: BANKS, kind: 'status', times: 1 });
    await addRule({ path: BANKS, kind: 'status', status: 500, times: 1 });
    const first = await post('banks/list');
    assert.equal(first.status, 503);
    assert.match(await first.text(), /503/);
    const second = await post('banks/list');
    assert.equal(second.status, 500);
    assert.match(second.headers.get('content-type') ?? '', /text\/plain/);
    assert.match(await second.text(), /500/);
  });

  test('malformed: 200 with a body that is not JSON', async () => {
    const { addRule, post } = setup();
    await addRule({ path: BANKS, kind: 'malformed' });
    const res = await post('banks/list');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const text = await res.text();
    assert.ok(text.length > 0);
    assert.throws(() => JSON.parse(text), SyntaxError);
  });

  test('html: 200 with an HTML page', async () => {
    const { addRule, post } = setup();
    await addRule({ path: BANKS, kind: 'html' });
    const res = await post('banks/list');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await res.text(), /^<!DOCTYPE html>.*<\/html>$/s);
  });

  test('truncated: 200 with the first half of the real answer', async () => {
    const { addRule, post } = setup();
    const whole = await (await post('banks/list')).text();
    await addRule({ path: BANKS, kind: 'truncated' });
    const res = await post('banks/list');
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.equal(text, whole.slice(0, Math.floor(whole.length / 2)));
    assert.throws(() => JSON.parse(text), SyntaxError);
  });

  test('schema: 200 with status "200" and fields of the wrong types for every response schema', async () => {
    const { addRule, post } = setup();
    await addRule({ path: '/test/*', kind: 'schema' });
    const res = await post('banks/list');
    assert.equal(res.status, 200);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.status, '200');
    for (const schema of [native.banksListResponse, native.loginResponse, native.secondLoginResponse, native.accountsResponse, native.transferResponse]) {
      assert.equal(schema.safeParse(body).success, false);
    }
  });

  test('large: 200 with a 10 MB JSON body', async () => {
    const { addRule, post } = setup();
    await addRule({ path: BANKS, kind: 'large' });
    const res = await post('banks/list');
    assert.equal(res.status, 200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.equal(bytes.byteLength, 10 * 1024 * 1024);
    assert.equal((JSON.parse(new TextDecoder().decode(bytes)) as { status: string }).status, '200');
  });

  test('hang: no answer until the client aborts, then a body that fails', async () => {
    const { addRule, app, sandbox } = setup();
    const rule = await addRule({ path: BANKS, kind: 'hang' });
    const ctl = new AbortController();
    let settled = false;
    const pending = Promise.resolve(app.request(BANKS, { method: 'POST', headers: AUTH, body: '{}', signal: ctl.signal })).finally(() => {
      settled = true;
    });
    // The request is in and the rule holds it (without the rule it is answered at once).
    await new Promise((r) => setImmediate(r));
    assert.ok(sandbox.faults.rules().some((r) => r.id === rule.id && r.hits === 1));
    assert.equal(settled, false, 'answered before the client aborted');
    ctl.abort();
    const res = await pending;
    await assert.rejects(res.text());
  });

  test('reset: under app.request, a response whose body stream errors', async () => {
    const { addRule, post } = setup();
    await addRule({ path: BANKS, kind: 'reset' });
    const res = await post('banks/list');
    await assert.rejects(res.text(), /connection reset/);
  });

  test('ms delays any kind before its fault', async (t) => {
    const { addRule, post } = setup();
    await addRule({ path: BANKS, kind: 'status', status: 502, ms: 40 });
    const res = await answeredAfter(t, 40, () => post('banks/list'));
    assert.equal(res.status, 502);
  });

  test('the provider client sees each kind as the matching upstream fault', async () => {
    const expected: [Partial<FaultRuleInput>, UpstreamFault][] = [
      [{ kind: 'status' }, 'http'],
      [{ kind: 'malformed' }, 'body'],
      [{ kind: 'html' }, 'body'],
      [{ kind: 'truncated' }, 'body'],
      [{ kind: 'schema' }, 'schema'],
      [{ kind: 'large' }, 'too-large'],
      [{ kind: 'hang' }, 'timeout'],
      [{ kind: 'reset' }, 'network'],
    ];
    for (const [rule, kind] of expected) {
      const { addRule, client } = setup();
      await addRule({ path: BANKS, ...rule });
      const err = await rejection(client(100).banksList());
      assert.ok(err instanceof UpstreamError, `${rule.kind}: ${String(err)}`);
      assert.equal(err.kind, kind, `${rule.kind} → ${err.kind}`);
    }
  });
});

describe('fault rules: matching and lifetime', () => {
  test('times limits the hits; the spent rule leaves the list', async () => {
    const { addRule, control, post } = setup();
    const rule = await addRule({ path: BANKS, kind: 'status', times: 2 });
    assert.equal((await post('banks/list')).status, 503);
    const listed = (await control('GET', '/faults')).body.rules;
    assert.deepEqual(
      listed.map((r: any) => [r.id, r.hits, r.times]),
      [[rule.id, 1, 2]],
    );
    assert.equal((await post('banks/list')).status, 503);
    assert.equal((await post('banks/list')).status, 200);
    assert.deepEqual((await control('GET', '/faults')).body.rules, []);
  });

  test('method, exact path and prefix', async () => {
    const { addRule, post, app } = setup();
    await addRule({ path: BANKS, method: 'get', kind: 'status', status: 500 });
    assert.equal((await post('banks/list')).status, 200, 'a GET rule does not hit a POST');
    assert.equal((await app.request(BANKS)).status, 500);
    await addRule({ path: '/test/log*', method: 'POST', kind: 'status', status: 502 });
    assert.equal((await post('login', testCredentials(NATIVE_TEST_INPUTS.simpleBankId))).status, 502);
    assert.equal((await post('banks/list')).status, 200, 'the prefix does not hit other paths');
    assert.notEqual((await app.request(`${BANKS}/x`)).status, 500, 'an exact rule does not hit a longer path');
  });

  test('the first matching rule wins; DELETE clears every rule', async () => {
    const { addRule, control, post } = setup();
    await addRule({ path: '*', kind: 'status', status: 500 });
    await addRule({ path: BANKS, kind: 'status', status: 502 });
    assert.equal((await post('banks/list')).status, 500);
    assert.deepEqual((await control('DELETE', '/faults')).body, { cleared: 2 });
    assert.equal((await post('banks/list')).status, 200);
  });

  test('/__sandbox itself is never faulted', async () => {
    const { addRule, control } = setup();
    await addRule({ path: '*', kind: 'hang' });
    await addRule({ path: '/__sandbox/*', kind: 'reset' });
    const r = await control('GET', '/clock');
    assert.equal(r.status, 200);
    assert.equal(r.body.now, START);
  });

  test('bad rule bodies get 400 JSON naming the problem, and add nothing', async () => {
    const { control } = setup();
    const cases: [unknown, RegExp][] = [
      ['{not json', /valid JSON/],
      [[1, 2], /JSON object/],
      [{ kind: 'status' }, /path/],
      [{ path: 'test/banks', kind: 'status' }, /path/],
      [{ path: '/a*b', kind: 'status' }, /\*/],
      [{ path: BANKS }, /kind must be one of/],
      [{ path: BANKS, kind: 'explode' }, /kind must be one of/],
      [{ path: BANKS, kind: 'latency' }, /ms.*required by latency/],
      [{ path: BANKS, kind: 'latency', ms: -1 }, /ms/],
      [{ path: BANKS, kind: 'latency', ms: 1.5 }, /ms/],
      [{ path: BANKS, kind: 'html', status: 500 }, /status applies only to kind status/],
      [{ path: BANKS, kind: 'status', status: 99 }, /status must be/],
      [{ path: BANKS, kind: 'status', status: 204 }, /status must be/],
      [{ path: BANKS, kind: 'status', status: '503' }, /status must be/],
      [{ path: BANKS, kind: 'status', times: 0 }, /times/],
      [{ path: BANKS, kind: 'status', method: 'FETCH' }, /method/],
      [{ path: BANKS, kind: 'status', colour: 'red' }, /unknown field.*colour/],
      ['x'.repeat(20_000), /too large/],
    ];
    for (const [body, pattern] of cases) {
      const r = await control('POST', '/faults', body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
      assert.match(r.body.error, pattern);
    }
    assert.deepEqual((await control('GET', '/faults')).body, { rules: [] });
  });

  test('parseFaultRule normalises the method and keeps only given fields', () => {
    const r = parseFaultRule({ path: '/x*', method: 'post', kind: 'latency', ms: 5, times: 3 });
    assert.deepEqual(r, { ok: true, value: { path: '/x*', method: 'POST', kind: 'latency', ms: 5, times: 3 } });
  });

  test('the programmatic API validates like the HTTP one', () => {
    const { sandbox } = setup();
    assert.throws(() => sandbox.faults.add({ path: BANKS, kind: 'latency' }), /ms/);
    const rule = sandbox.faults.add({ path: BANKS, kind: 'html' });
    assert.deepEqual(sandbox.faults.rules(), [{ ...rule }]);
  });
});

describe('call counting', () => {
  test('counts every request by method and path, /__sandbox excluded; DELETE resets', async () => {
    const { control, post, app, addRule } = setup();
    await addRule({ path: '/test/login', kind: 'status', times: 1 });
    await post('banks/list');
    await post('banks/list');
    await post('login', testCredentials(NATIVE_TEST_INPUTS.simpleBankId));
    await app.request('/nowhere');
    await control('GET', '/clock');
    assert.deepEqual((await control('GET', '/calls')).body, {
      'POST /test/banks/list': 2,
      'POST /test/login': 1,
      'GET /nowhere': 1,
    });
    assert.equal((await control('DELETE', '/calls')).status, 200);
    assert.deepEqual((await control('GET', '/calls')).body, {});
  });
});

describe('clock', () => {
  test('GET gives the injected time; POST moves it forward; bad bodies get 400; reset restores', async () => {
    const { control, sandbox } = setup();
    assert.deepEqual((await control('GET', '/clock')).body, { now: START });
    assert.deepEqual((await control('POST', '/clock', { advanceMs: 91_000 })).body, { now: START + 91_000 });
    assert.equal(sandbox.config.now(), START + 91_000);
    for (const bad of [{}, { advanceMs: -1 }, { advanceMs: 'soon' }, { advanceMs: 0.5 }, '[]', 'nope']) {
      const r = await control('POST', '/clock', bad);
      assert.equal(r.status, 400);
      assert.match(r.body.error, /advanceMs|JSON/);
    }
    assert.equal(sandbox.config.now(), START + 91_000);
    sandbox.faults.add({ path: '*', kind: 'html' });
    const reset = await control('POST', '/reset');
    assert.deepEqual(reset.body, { now: START });
    assert.deepEqual(sandbox.faults.rules(), []);
    sandbox.faults.reset();
    assert.equal(sandbox.faults.now(), START);
  });

  test('the native service runs on this clock: the 90-second validation deadline', async () => {
    async function validateAfter(advanceMs: number) {
      const { post, control } = setup();
      const login = await (await post('login', testCredentials(NATIVE_TEST_INPUTS.simpleBankId))).json();
      assert.equal(login.status, '200', JSON.stringify(login));
      const accounts = await (await post('accounts/list', { sessionId: login.sessionId })).json();
      const init = await (
        await post('transfer/init', {
          sessionId: login.sessionId,
          accountIdOrigin: accounts.listAccounts[0].accountId,
          amount: 1250,
          subject: 'Pedido 1',
          holderDestiny: 'Tienda Demo',
          accountDestiny: SANDBOX_DEFAULTS.merchantIban,
        })
      ).json();
      assert.equal(init.status, '228', JSON.stringify(init));
      await control('POST', '/clock', { advanceMs });
      const validations = init.validations.map((v: any) => ({ ...v, valueFromUser: v.testValue }));
      return (await (await post('transfer/validate', { sessionId: login.sessionId, validations })).json()).status;
    }
    assert.equal(await validateAfter(10_000), '200');
    assert.notEqual(await validateAfter(91_000), '200');
  });
});

describe('over a real socket', () => {
  test('reset closes the connection; hang holds it until the client aborts', async () => {
    const { sandbox } = setup();
    const server = serve({ fetch: sandbox.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      sandbox.faults.add({ path: BANKS, kind: 'reset', times: 1 });
      const err = await rejection(fetch(base + BANKS, { method: 'POST', headers: AUTH, body: '{}' }));
      assert.ok(err instanceof TypeError, String(err));

      const received = () => sandbox.faults.calls()[`POST ${BANKS}`] ?? 0;
      sandbox.faults.add({ path: BANKS, kind: 'hang', times: 1 });
      const ctl = new AbortController();
      // The server's handler has run its synchronous part (the rule taken) once the event loop turns after the request.
      const arrived = new Promise((r) => server.once('request', () => setImmediate(r)));
      const hanging = rejection(fetch(base + BANKS, { method: 'POST', headers: AUTH, body: '{}', signal: ctl.signal }));
      // Held until the client gives up: it gives up once the request is in (not before it arrives).
      await arrived;
      assert.equal(received(), 2);
      assert.equal(sandbox.faults.rules().length, 0, 'the hang took its request');
      ctl.abort();
      assert.equal(((await hanging) as Error).name, 'AbortError');

      // A client with a timeout of its own sees the hang as a timeout (whether or not its
      // request was in before it gave up: a loaded machine may be that slow).
      sandbox.faults.add({ path: BANKS, kind: 'hang' });
      // Its connection's close on the server's side: by then any request it sent has been counted.
      const clientGone = new Promise((r) => server.once('connection', (socket) => socket.once('close', () => setImmediate(r))));
      const nativeClient = createNativeClient({
        baseUrl: base,
        env: 'test',
        apiKey: SANDBOX_DEFAULTS.apiKey,
        apiToken: SANDBOX_DEFAULTS.apiToken,
        timeoutMs: 100,
      });
      const timedOut = await rejection(nativeClient.banksList());
      assert.ok(timedOut instanceof UpstreamError && timedOut.kind === 'timeout', String(timedOut));
      sandbox.faults.clear();
      // A loaded machine may read the timed-out request after the client gave up: counted before the next.
      await clientGone;

      const before = received();
      const ok = await fetch(base + BANKS, { method: 'POST', headers: AUTH, body: '{}' });
      assert.equal(ok.status, 200, 'the server still answers after the faults');
      await ok.arrayBuffer();
      const calls = (await (await fetch(`${base}/__sandbox/calls`)).json()) as Record<string, number>;
      assert.equal(calls[`POST ${BANKS}`], before + 1);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('the fault switch as its README documents it', () => {
  test('the README names every kind, in the order the simulator knows them, and its example rules are valid', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## The fault switch'), readme.indexOf('### Exports'));
    assert.deepEqual(
      [...section.matchAll(/^\| `([a-z]+)` \|/gm)].map((m) => m[1]),
      [...FAULT_KINDS],
    );
    const examples = [...section.matchAll(/-d '(\{[^']*\})'/g)].map((m) => JSON.parse(m[1]!) as unknown);
    assert.ok(examples.length >= 2);
    for (const rule of examples) assert.deepEqual(parseFaultRule(rule).ok, true, JSON.stringify(rule));
  });
});
