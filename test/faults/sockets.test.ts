/**
 * The faults that behave differently over real sockets (a reset closes the TCP connection, a
 * hang holds it open, a 10 MB body streams), against the simulator and the BFF running as
 * HTTP servers in a child process: the BFF answers in time, the process stays up, its memory
 * does not grow with the body, and the simulator's call log (GET /__sandbox/calls) shows what
 * was sent.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startServers, type Servers } from '../../bench/lib/spawn.js';
import { READ_ONLY_TRIES, assertUpstreamError, timed, type FaultRule } from './support.js';
import { opened } from '../support/opened.js';

const MB = 1024 * 1024;

/** The BFF and the simulator in a child process, and the calls a test makes to them. */
function socketServers(timeoutMs: number) {
  const t = {
    s: undefined as unknown as Servers,
    bff: (path: string, init: RequestInit = {}) => fetch(`${t.s.bffUrl}${path}`, init),
    merchant: (path: string) => t.bff(path, { headers: { Authorization: `Bearer ${t.s.merchantSecret}` } }),
    async sandbox(path: string, method = 'GET', body?: unknown) {
      const res = await fetch(`${t.s.sandboxUrl}/__sandbox${path}`, {
        method,
        ...(body ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : {}),
      });
      assert.ok(res.ok, `${method} /__sandbox${path}: ${res.status}`);
      return res.json() as Promise<Record<string, unknown>>;
    },
    arm: (method: string, path: string, rule: FaultRule) => t.sandbox('/faults', 'POST', { method, path, ...rule }),
    calls: () => t.sandbox('/calls') as Promise<Record<string, number>>,
    /** The server process is alive and serves a normal request. */
    async assertAlive() {
      await t.sandbox('/faults', 'DELETE');
      assert.equal(t.s.child.exitCode, null, 'the server process is still running');
      const res = await t.bff('/v1/banks', { headers: { 'X-Checkout-Secret': t.s.clientSecret } });
      assert.equal(res.status, 200);
      assert.ok(((await res.json()) as { groups: unknown[] }).groups.length > 0);
    },
  };
  before(async () => {
    t.s = await startServers({ PROVIDER_TIMEOUT_MS: String(timeoutMs), BANKS_CACHE_TTL_MS: '0', LOG_LEVEL: 'silent' }, { nodeArgs: ['--expose-gc'] });
  });
  beforeEach(async () => {
    await t.sandbox('/reset', 'POST');
  });
  after(() => opened(t.s)?.stop());
  return t;
}

/**
 * The hang's timeout: longer than the suite's, as here the BFF and the simulator share a
 * process. A process stalled past the timeout on a loaded machine runs the BFF's timer before
 * it reads the simulator's socket, and that try is then never seen by the simulator.
 */
const HANG_TIMEOUT_MS = 1_000;

// A hang: each try waits the timeout out.
describe('a hang over real sockets', () => {
  const t = socketServers(HANG_TIMEOUT_MS);
  const { merchant, arm, calls, assertAlive } = t;

  it('a hang on orders: 504 once per try, within three timeouts', async () => {
    await arm('POST', '/san/info/payment-orders', { kind: 'hang' });
    const { value: res, ms } = await timed(() => merchant('/v1/orders'));
    await assertUpstreamError(res, { status: 504, code: 'upstream_timeout' });
    // The timeout waited out on each try (a lower bound only: a busy machine only adds to it).
    assert.ok(ms >= READ_ONLY_TRIES * HANG_TIMEOUT_MS - 20, `${ms.toFixed(0)} ms`);
    assert.deepEqual(await calls(), { 'POST /san/info/payment-orders': READ_ONLY_TRIES });
    await assertAlive();
  });
});

// Resets and 10 MB bodies with a timeout far from them. A reset must be the only fault: with
// the short timeout, a process stalled on a loaded machine could time a try out before the
// simulator read it, and that try would neither be counted nor answered 502. The 10 MB
// bodies' figure is the memory, and a loaded machine may take longer than the short timeout
// to stream the first MiB.
describe('resets and 10 MB answers over real sockets', () => {
  const t = socketServers(10_000);
  const { bff, merchant, arm, calls, assertAlive } = t;

  it('a connection reset on the bank list: 502 after three tries, and the process stays up', async () => {
    await arm('POST', '/test/banks/list', { kind: 'reset' });
    const res = await bff('/v1/banks', { headers: { 'X-Checkout-Secret': t.s.clientSecret } });
    // Three failures, never a timeout (which would answer 504 upstream-timeout).
    await assertUpstreamError(res, { status: 502, code: 'upstream' });
    assert.deepEqual(await calls(), { 'POST /test/banks/list': READ_ONLY_TRIES });
    await assertAlive();
  });

  it('a connection reset on login: 502, one login call', async () => {
    const res = await fetch(`${t.s.bffUrl}/v1/checkouts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.s.merchantSecret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 990, subject: 'Socket reset', reference: 'SOCK-1', isolation: 'inline' }),
    });
    const { clientSecret } = (await res.json()) as { clientSecret: string };
    await arm('POST', '/test/login', { kind: 'reset' });
    const login = await bff('/v1/checkout/login', {
      method: 'POST',
      headers: { 'X-Checkout-Secret': clientSecret, 'Content-Type': 'application/json' },
      body: JSON.stringify({ bankId: 'cantabrico-empresas', loginId: 'code', fields: { userId: '30012345', userSecret: 'Cantabrico24' } }),
    });
    await assertUpstreamError(login, { status: 502, code: 'upstream' });
    assert.equal((await calls())['POST /test/login'], 1);
    const view = (await (await bff('/v1/checkout', { headers: { 'X-Checkout-Secret': clientSecret } })).json()) as { state: string; error?: { code: string } };
    assert.equal(view.state, 'login');
    assert.equal(view.error?.code, 'upstream');
    await assertAlive();
  });

  it('10 MB bodies, eight at a time: 502, and the memory stays flat (the body read stops at 1 MiB)', async () => {
    const concurrent = 8;
    await arm('POST', '/san/info/payment-orders', { kind: 'large' });
    const burst = async () => {
      const answers = await Promise.all(Array.from({ length: concurrent }, () => merchant('/v1/orders')));
      for (const res of answers) await assertUpstreamError(res, { status: 502, code: 'upstream' });
    };
    // A first burst warms the process up (code compiled, pools grown); the second is measured.
    await burst();
    const before = await t.s.memory(true);
    assert.ok(before.collected, 'the server runs with --expose-gc');
    await burst();
    const during = await t.s.memory();
    const afterGc = await t.s.memory(true);
    assert.deepEqual(await calls(), { 'POST /san/info/payment-orders': 2 * concurrent * READ_ONLY_TRIES });
    // Read whole, the bodies in flight alone would take 10 MB each (and as much again decoded).
    const grew = (during.peakRss - before.rss) / MB;
    assert.ok(grew < 32, `peak RSS grew by ${grew.toFixed(1)} MB over ${concurrent * READ_ONLY_TRIES} bodies of 10 MB`);
    // Nothing of the bodies stays behind (what is left is sockets and streams still closing).
    const heapGrew = (afterGc.heapUsed + afterGc.arrayBuffers - before.heapUsed - before.arrayBuffers) / MB;
    assert.ok(heapGrew < 32, `heap after GC grew by ${heapGrew.toFixed(1)} MB`);
    await assertAlive();
  });
});
