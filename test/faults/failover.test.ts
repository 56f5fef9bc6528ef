/**
 * Several BFF instances on one PostgreSQL database, as an operator runs them, and the database
 * misbehaving under them. The suite starts its own PostgreSQL server (initdb in a temporary
 * directory, a free port; the shared test database is never touched), the simulator, a merchant
 * webhook receiver and two BFF processes (the real CLI, as child processes). Payments alternate
 * their calls between the instances while every connection is cut (pg_terminate_backend), the
 * database is stopped and started again, and one instance is killed with SIGKILL while it holds
 * a checkout's lock.
 *
 * It asserts: no process exits (but the one killed), no transfer is made twice, no webhook
 * event is lost, every API answers 503 with Retry-After while the database is down, payments
 * complete after it, and a payer whose checkout a dead instance held waits no longer than the
 * lease (then the step is open again).
 *
 * Needs PostgreSQL 15's server binaries (/usr/lib/postgresql/15/bin, or PG_BIN). Under CI=true
 * their absence is a failure; elsewhere the suite is skipped with a message.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import type { BankView, CheckoutView } from '@bank-checkout/contract';
import { createSandbox } from '@bank-checkout/sandbox';
import { payingAccount, testFields } from '../../packages/bff/test/flow.js';
import { until } from '../../packages/bff/test/until.js';
import { HAVE_PG, NO_PG_REASON, PG_BIN, bffProcess, privatePostgres, sleep, type Instance, type PrivatePostgres } from '../support/cluster.js';
import { opened } from '../support/opened.js';

const MERCHANT_SECRET = 'failover-merchant-secret-0123456789';
const WEBHOOK_SECRET = 'failover-webhook-secret-0123456789';
const PROVIDER_TIMEOUT_MS = 2_000;
/** A checkout's lease: one provider call and the margin (packages/bff/src/checkout/core.ts). */
const LEASE_MS = PROVIDER_TIMEOUT_MS + 2_000;

describe('several instances on one PostgreSQL, through failover', { skip: !HAVE_PG && process.env.CI !== 'true' ? NO_PG_REASON : false }, () => {
  let pg: PrivatePostgres;
  let sandboxServer: Server;
  let receiver: Server;
  const instances: Instance[] = [];
  /** Transfer inits the simulator received, by bank session. */
  const transfers = new Map<string, number>();
  /** Webhook events received, by event id (a redelivery is the same id). */
  const delivered = new Map<string, { type: string; data: { checkoutId?: string; state?: string } }>();
  /** While set, the next login call hangs (an instance then holds the checkout's lock). */
  let hangLogin: Promise<void> | null = null;
  let releaseHang = () => {};
  const seen503: { url: string; retryAfter: string | null }[] = [];

  before(async () => {
    assert.ok(HAVE_PG, `PostgreSQL server binaries not found in ${PG_BIN}: CI must install postgresql`);
    pg = await privatePostgres();
    const sandbox = createSandbox({});
    sandboxServer = serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: async (req, env) => {
        const path = new URL(req.url).pathname;
        if (req.method === 'POST' && path.endsWith('/transfer/init')) {
          const { sessionId } = (await req.clone().json()) as { sessionId: string };
          transfers.set(sessionId, (transfers.get(sessionId) ?? 0) + 1);
        }
        if (req.method === 'POST' && path.endsWith('/login') && hangLogin) {
          const hang = hangLogin;
          hangLogin = null;
          await hang;
        }
        return sandbox.app.fetch(req, env);
      },
    }) as Server;
    await until(() => sandboxServer.listening, 'the simulator');
    const sandboxUrl = `http://127.0.0.1:${(sandboxServer.address() as AddressInfo).port}`;
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const e = JSON.parse(body) as { id: string; type: string; data: { checkoutId?: string; state?: string } };
        delivered.set(e.id, e);
        res.end('ok');
      });
    }).listen(0, '127.0.0.1');
    await until(() => receiver.listening, 'the webhook receiver');
    const env = {
      PORT: '0',
      DATABASE_URL: pg.url,
      PROVIDER_LINKS_URL: sandboxUrl,
      PROVIDER_NATIVE_URL: sandboxUrl,
      PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
      BFF_MERCHANT_SECRET: MERCHANT_SECRET,
      MERCHANT_WEBHOOK_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      MERCHANT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      RATE_LIMIT_PER_MINUTE: '100000',
      MERCHANT_RATE_LIMIT_PER_MINUTE: '1000000',
      SWEEP_SECONDS: '1',
      LOG_LEVEL: 'warn',
    };
    // Both boot at once: the schema is created once, under an advisory lock.
    instances.push(...(await Promise.all([bffProcess('bff-a', env), bffProcess('bff-b', env)])));
  });

  after(async () => {
    releaseHang();
    for (const i of instances) if (!i.exited) i.child.kill('SIGTERM');
    await Promise.all(instances.map((i) => until(() => i.exited, `${i.name} to stop`, 15_000).catch(() => i.child.kill('SIGKILL'))));
    opened(sandboxServer)?.close();
    opened(receiver)?.close();
    await opened(pg)?.close();
  });

  let turn = 0;
  /** The instances still running, taken in turn: each call of a payment goes to the next. */
  const next = () => {
    const live = instances.filter((i) => !i.exited && i.child.signalCode === null && !i.child.killed);
    return live[turn++ % live.length]!;
  };

  async function request(path: string, init: { method?: string; body?: unknown; secret?: string } = {}): Promise<Response> {
    const inst = next();
    const headers: Record<string, string> = init.secret ? { 'X-Checkout-Secret': init.secret } : { Authorization: `Bearer ${MERCHANT_SECRET}` };
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const res = await fetch(`${inst.url}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers,
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      });
      if (res.status === 503) seen503.push({ url: `${inst.name} ${path}`, retryAfter: res.headers.get('Retry-After') });
      return res;
    } catch {
      // The instance went away mid-request: as a load balancer would, answer as a busy line.
      return Response.json({ error: { code: 'store_unavailable' } }, { status: 503 });
    }
  }

  /** Longest time a checkout answered checkout_busy without a break, by checkout. */
  const lockedFor = new Map<string, number>();

  /** Reads the checkout until it answers (a busy line is waited out, as the element does). */
  async function read(secret: string): Promise<CheckoutView> {
    return until(
      async () => {
        const res = await request('/v1/checkout', { secret });
        return res.status === 200 ? ((await res.json()) as CheckoutView) : null;
      },
      'the checkout to answer',
      30_000,
    );
  }

  /**
   * Pays one checkout through the native flow with the simulator's test values, as the element
   * would: a 503 or 409 on an action is waited out, the checkout read again, and the walk goes
   * on from what it says (never by sending the same action blindly).
   */
  async function pay(reference: string): Promise<{ id: string; state: string }> {
    const created = await until(
      async () => {
        const res = await request('/v1/checkouts', { body: { amount: 1999, subject: 'Failover order', reference, isolation: 'inline' } });
        return res.status === 503 ? null : res;
      },
      `${reference} created`,
      30_000,
      200,
    );
    assert.equal(created.status, 201);
    const { id, clientSecret: secret } = (await created.json()) as { id: string; clientSecret: string };
    let busySince: number | null = null;
    let v = await read(secret);
    for (let guard = 0; guard < 60; guard++) {
      const s = v.step;
      let res: Response;
      switch (s.state) {
        case 'select-bank': {
          const banks = await request('/v1/banks', { secret });
          if (banks.status !== 200) {
            v = await read(secret);
            continue;
          }
          const bank = ((await banks.json()) as { groups: { types: BankView[] }[] }).groups.flatMap((g) => g.types).find((b) => b.bankId === 'aurora')!;
          res = await request('/v1/checkout/login', { secret, body: { bankId: 'aurora', loginId: bank.defaultLogin, fields: testFields(bank) } });
          break;
        }
        case 'login':
          res = await request('/v1/checkout/login', { secret, body: { bankId: s.bank.bankId, loginId: s.bank.defaultLogin, fields: testFields(s.bank) } });
          break;
        case 'second-login':
          res = await request('/v1/checkout/second-login', { secret, body: { value: s.field.testValue } });
          break;
        case 'select-contract':
          res = await request('/v1/checkout/contract', { secret, body: { contractId: s.contracts[0]!.contractId } });
          break;
        case 'select-account':
          res = await request('/v1/checkout/transfer', { secret, body: { accountId: payingAccount('aurora', s.accounts) } });
          break;
        case 'validate':
          res = await request('/v1/checkout/validate', {
            secret,
            body: { values: Object.fromEntries(s.validations.map((x) => [x.fieldId, x.type === 6 ? 'SIGNED' : (x.testValue ?? '')])) },
          });
          break;
        default:
          return { id, state: v.state };
      }
      if (res.status === 200) {
        busySince = null;
        v = (await res.json()) as CheckoutView;
        continue;
      }
      const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
      if (res.status === 409 && body.error?.code === 'checkout_busy') {
        busySince ??= Date.now();
        lockedFor.set(id, Math.max(lockedFor.get(id) ?? 0, Date.now() - busySince));
      } else {
        busySince = null;
        assert.ok(res.status === 503 || res.status === 502 || res.status === 504, `${s.state}: ${res.status} ${JSON.stringify(body)}`);
      }
      // The payer's pause before trying again, as the element's after a 503 or 409: the try that
      // follows is the check, so this is the interval of a poll, not a wait for something known.
      await sleep(100);
      v = await read(secret);
    }
    throw new Error(`payment ${id} did not end`);
  }

  const alive = () => instances.filter((i) => i.exited).map((i) => `${i.name} exited ${JSON.stringify(i.exited)}: ${i.output.slice(-5).join(' | ')}`);

  it('keeps paying while every connection is cut', async () => {
    const payments = Array.from({ length: 4 }, (_, n) => pay(`FO-SWEEP-${n}`));
    // Cut every connection a few times while the payments run.
    let cut = 0;
    for (let n = 0; n < 3; n++) {
      await until(() => transfers.size > n || payments.length === 0, 'payments under way', 30_000).catch(() => null);
      cut += pg.sweep();
    }
    const results = await Promise.all(payments);
    assert.ok(cut > 0, 'connections were cut under load');
    assert.deepEqual(alive(), []);
    for (const r of results) assert.ok(['succeeded', 'unknown'].includes(r.state), `${r.id}: ${r.state}`);
    // A cut may leave a transfer in doubt (unknown, never paid twice); most still pay.
    assert.ok(results.filter((r) => r.state === 'succeeded').length >= 2, JSON.stringify(results));
    assert.deepEqual(
      instances.map((i) => i.output.filter((l) => /Unhandled|uncaught/i.test(l))),
      [[], []],
    );
  });

  it('answers 503 with Retry-After on every API while the database is stopped, and pays again once it is back', async () => {
    const c = (await (
      await request('/v1/checkouts', { body: { amount: 500, subject: 'Before the outage', reference: 'FO-OUTAGE', isolation: 'inline' } })
    ).json()) as {
      id: string;
      clientSecret: string;
    };
    await pg.stop();
    try {
      for (const inst of instances) {
        for (const [path, headers] of [
          ['/v1/checkout', { 'X-Checkout-Secret': c.clientSecret }],
          [`/v1/checkouts/${c.id}`, { Authorization: `Bearer ${MERCHANT_SECRET}` }],
        ] as const) {
          const res = await fetch(`${inst.url}${path}`, { headers });
          assert.equal(res.status, 503, `${inst.name} ${path}`);
          assert.ok(Number(res.headers.get('Retry-After')) > 0);
          assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'store_unavailable');
        }
        const intake = await fetch(`${inst.url}/v1/notifications/provider`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ dataReturn: 'e30=', signatureDataReturn: 'x' }),
        });
        assert.notEqual(intake.status, 500);
        assert.equal((await fetch(`${inst.url}/ready`)).status, 503);
        assert.equal((await fetch(`${inst.url}/health`)).status, 200, 'the process is up');
      }
      // Payments started during the outage wait it out.
      const during = [pay('FO-DURING-1'), pay('FO-DURING-2')];
      await until(() => seen503.length > 2, 'the payments to meet the outage');
      await pg.start();
      const results = await Promise.all(during);
      for (const r of results) assert.equal(r.state, 'succeeded', r.id);
    } finally {
      await pg.start().catch(() => null); // already running
    }
    for (const inst of instances) await until(async () => (await fetch(`${inst.url}/ready`)).status === 200, `${inst.name} ready again`);
    const after = await Promise.all([pay('FO-AFTER-1'), pay('FO-AFTER-2')]);
    for (const r of after) assert.equal(r.state, 'succeeded', r.id);
    assert.deepEqual(alive(), []);
  });

  it('answers 503 with Retry-After within 2 s, and /ready within 1 s, while the database is frozen; pays again once it thaws', async () => {
    const c = (await (
      await request('/v1/checkouts', { body: { amount: 600, subject: 'Before the freeze', reference: 'FO-FREEZE', isolation: 'inline' } })
    ).json()) as { id: string; clientSecret: string };
    /** One request to one instance: its status, Retry-After and how long it took. */
    const timedCall = async (inst: Instance, path: string, init: RequestInit = {}) => {
      const started = performance.now();
      const res = await fetch(`${inst.url}${path}`, init);
      await res.arrayBuffer();
      return {
        what: `${inst.name} ${init.method ?? 'GET'} ${path}`,
        status: res.status,
        retryAfter: res.headers.get('Retry-After'),
        ms: performance.now() - started,
      };
    };
    const merchant = { Authorization: `Bearer ${MERCHANT_SECRET}` };
    pg.freeze();
    const frozenAt = performance.now();
    const answers: Awaited<ReturnType<typeof timedCall>>[] = [];
    const ready: Awaited<ReturnType<typeof timedCall>>[] = [];
    try {
      // Rounds back to back for 6 s: the first meets the connections open at the freeze, the
      // later ones the pool's waits, new connections, and the sweeper and outbox stuck meanwhile.
      for (let round = 0; round < 2 || performance.now() - frozenAt < 6_000; round++) {
        const calls = instances.flatMap((inst) => [
          timedCall(inst, '/v1/checkout', { headers: { 'X-Checkout-Secret': c.clientSecret } }),
          timedCall(inst, `/v1/checkouts/${c.id}`, { headers: merchant }),
          timedCall(inst, '/v1/checkouts', {
            method: 'POST',
            headers: { ...merchant, 'Content-Type': 'application/json' },
            body: JSON.stringify({ amount: 600, subject: 'During the freeze', reference: `FO-FROZEN-${inst.name}-${round}`, isolation: 'inline' }),
          }),
        ]);
        const probes = instances.map((inst) => timedCall(inst, '/ready'));
        answers.push(...(await Promise.all(calls)));
        ready.push(...(await Promise.all(probes)));
      }
    } finally {
      pg.thaw();
    }
    if (process.env.FIGURES) console.log(JSON.stringify({ answers, ready }));
    for (const a of answers) {
      assert.equal(a.status, 503, a.what);
      assert.ok(Number(a.retryAfter) > 0, `${a.what}: Retry-After`);
      assert.ok(a.ms < 2_000, `${a.what}: answered in ${a.ms.toFixed(0)} ms`);
    }
    for (const r of ready) {
      assert.equal(r.status, 503, r.what);
      assert.ok(r.ms < 1_000, `${r.what}: answered in ${r.ms.toFixed(0)} ms`);
    }
    for (const inst of instances) await until(async () => (await fetch(`${inst.url}/ready`)).status === 200, `${inst.name} ready after the thaw`);
    const after = await Promise.all([pay('FO-THAWED-1'), pay('FO-THAWED-2')]);
    for (const r of after) assert.equal(r.state, 'succeeded', r.id);
    assert.deepEqual(alive(), []);
  });

  it('an instance killed while it holds a checkout leaves it locked no longer than the lease; the other serves on', async () => {
    const created = await request('/v1/checkouts', { body: { amount: 700, subject: 'Killed mid-login', reference: 'FO-KILL', isolation: 'inline' } });
    const { id, clientSecret: secret } = (await created.json()) as { id: string; clientSecret: string };
    const victim = instances[1]!;
    const bankRes = await fetch(`${victim.url}/v1/banks`, { headers: { 'X-Checkout-Secret': secret } });
    const bank = ((await bankRes.json()) as { groups: { types: BankView[] }[] }).groups.flatMap((g) => g.types).find((b) => b.bankId === 'aurora')!;
    hangLogin = new Promise<void>((r) => (releaseHang = r));
    const hanging = fetch(`${victim.url}/v1/checkout/login`, {
      method: 'POST',
      headers: { 'X-Checkout-Secret': secret, 'Content-Type': 'application/json' },
      body: JSON.stringify({ bankId: 'aurora', loginId: bank.defaultLogin, fields: testFields(bank) }),
    }).catch(() => null);
    await until(() => hangLogin === null, 'the login to reach the bank');
    victim.child.kill('SIGKILL');
    await until(() => victim.exited, 'the killed instance to end');
    await hanging;
    releaseHang();
    const survivor = instances[0]!;
    const login = () =>
      fetch(`${survivor.url}/v1/checkout/login`, {
        method: 'POST',
        headers: { 'X-Checkout-Secret': secret, 'Content-Type': 'application/json' },
        body: JSON.stringify({ bankId: 'aurora', loginId: bank.defaultLogin, fields: testFields(bank) }),
      });
    const first = await login();
    assert.equal(first.status, 409, 'the lock of the dead instance holds for now');
    const lockedAt = Date.now();
    const ok = await until(
      async () => {
        const res = await login();
        return res.status === 200 ? res : null;
      },
      'the lease to lapse',
      LEASE_MS + 10_000,
    );
    // The lease was taken before the kill; the payer waited at most one lease (and a sweep round).
    assert.ok(Date.now() - lockedAt <= LEASE_MS + 2_000, `locked for ${Date.now() - lockedAt} ms`);
    assert.notEqual(((await ok.json()) as CheckoutView).state, 'select-bank');
    // The payment then completes on the survivor alone.
    const rest = await pay('FO-AFTER-KILL');
    assert.equal(rest.state, 'succeeded');
    assert.equal(victim.exited?.signal, 'SIGKILL');
    assert.equal(instances.filter((i) => i.exited).length, 1, 'only the killed instance ended');
    assert.ok(id);
  });

  it('made no transfer twice, lost no webhook event, and locked no payer longer than the lease', async () => {
    for (const [session, n] of transfers) assert.equal(n, 1, `session ${session}: ${n} transfers`);
    assert.ok(transfers.size >= 8, `${transfers.size} transfers`);
    for (const [id, ms] of lockedFor) assert.ok(ms <= LEASE_MS + 3_000, `${id} answered checkout_busy for ${ms} ms`);
    assert.ok(seen503.every((s) => Number(s.retryAfter) > 0 || s.retryAfter === null));
    // Every checkout that ended was told to the merchant (the outbox delivers each event once
    // its lease is free, from any instance).
    const res = await request('/v1/checkouts?state=succeeded&limit=200');
    assert.equal(res.status, 200, await res.clone().text());
    const ended = ((await res.json()) as { checkouts: { id: string }[] }).checkouts.map((c) => c.id);
    assert.ok(ended.length >= 7, `${ended.length} paid`);
    await until(
      () => ended.every((id) => [...delivered.values()].some((e) => e.type === 'checkout.updated' && e.data.checkoutId === id && e.data.state === 'succeeded')),
      'every outcome to reach the merchant',
      20_000,
    );
  });
});
