/**
 * The outage drill: several BFF instances (DRILL_INSTANCES, default 2), each through its CLI, on
 * a PostgreSQL server of the drill's own, paid through without a break while the database and
 * the instances fail under them, for minutes. Run by `npm run test:drills` and by CI after
 * `npm test` (never by `npm test` itself: its faults last as long as the operator's would).
 *
 * The simulator runs in this process behind a watching proxy, one for each instance (so every
 * call with the bank is known by the instance that made it): it counts transfers by bank session,
 * and answers transfers and validations one to two seconds late, after the bank has acted, so
 * that calls are with the bank when the faults hit. A round-robin balancer in front of the
 * instances is the BFF's public address (the provider's notifications and the payer's return).
 * Payers pay native checkouts continuously (inline), each call of a payment to the next instance,
 * waiting out a 503 or a 409 and reading the checkout again, as the element does.
 *
 * The phases, each with its assertions:
 * 1. Every connection cut (pg_terminate_backend) several times during payments: they all pay.
 * 2. PostgreSQL stopped for 30 s (pg_ctl stop -m fast, then start) while calls are with the
 *    bank: every API answers 503 with Retry-After meanwhile; every answer the bank gave is
 *    written once the store is back: the payments under way all end `succeeded`, and none is
 *    `unknown` on the way (neither read so by its payer nor told so to the merchant).
 * 3. PostgreSQL frozen for 20 s (SIGSTOP of every server process): every request made during the
 *    freeze is answered within 3 s (503 with Retry-After is an answer), and one under way at the
 *    bank within 3 s of the bank's answer; the payments complete after the thaw, none through
 *    `unknown`.
 * 4. One instance killed with SIGKILL during slow transfers, and started again as a supervisor
 *    would: only a checkout whose validation was with the bank through it when it died may end
 *    `unknown`, by its lease, within two leases (a transfer's or validation's lapsed lease gives
 *    its holder one more before it is settled: a holder alive but cut from the store still writes
 *    its answer). A transfer's start it held moved no money: its checkout opens again at the
 *    accounts, and its payer starts a transfer again.
 * 5. A payment at the bank's page (redirect mode) made during a 90 s stop of PostgreSQL: every
 *    notification attempt of the provider and the payer's return fail; once the store is back
 *    the checkout ends `succeeded` by reconciliation (the provider's order query), told once.
 * 6. One instance paused for 60 s (SIGSTOP, as a VM pause or a long collection would) while
 *    validations, slowed to three or four seconds, are with the bank through it: no call with
 *    the bank leaves after its lease's end (each transfer and validation, as the bank receives
 *    it, is under a lock whose lease still runs), and no answer the bank gave it is lost (a
 *    payment the bank made ends `succeeded`, every change, out of `unknown` too, announced).
 * 7. PostgreSQL frozen right after it committed a validation's lock and before the instance
 *    heard so (a proxy holds the answer, then the server is stopped): the payer is answered 503
 *    at once, the validation is never sent, the lock is released once the server is back, and
 *    the checkout never becomes `unknown`: the payer confirms again and pays.
 *
 * Throughout: each checkout told to the merchant once, where it ended (one terminal webhook per
 * ended checkout, nothing before it; after the pause, `unknown` and then where the late answer
 * led), never two validations for one bank session (nor two transfers, but after the kill), no process exits but the one killed, no answer
 * 500, every transfer's and validation's answer written. A payer
 * who reads `unknown` watches it (for a lease; the element watches longer) and goes on if it
 * moves. A table of the figures is printed at the end, whatever failed.
 *
 * Needs PostgreSQL 15's server binaries (/usr/lib/postgresql/15/bin, or PG_BIN). Under CI=true
 * their absence is a failure; elsewhere the drill is skipped with a message.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve, type HttpBindings } from '@hono/node-server';
import type { BankView, CheckoutView } from '@bank-checkout/contract';
import { createSandbox } from '@bank-checkout/sandbox';
import { submit, walkGateway } from '@bank-checkout/sandbox/testing';
import { payingAccount, testFields } from '../../packages/bff/test/flow.js';
import { until } from '../../packages/bff/test/until.js';
import pgDriver from 'pg';
import { HAVE_PG, NO_PG_REASON, bffProcess, freePort, privatePostgres, sleep, type Instance, type PrivatePostgres } from '../support/cluster.js';
import { pgProxy } from '../support/pg-proxy.js';
import { opened } from '../support/opened.js';

const INSTANCES = Number(process.env.DRILL_INSTANCES ?? 2);
if (!Number.isInteger(INSTANCES) || INSTANCES < 2 || INSTANCES > 5) throw new Error(`DRILL_INSTANCES must be 2 to 5, got ${process.env.DRILL_INSTANCES}`);
/** Payers paying at once, each one payment after another. */
const PAYERS = 2 * INSTANCES;
const MERCHANT_SECRET = 'drill-merchant-secret-0123456789';
const WEBHOOK_SECRET = 'drill-webhook-secret-0123456789';
const PROVIDER_TIMEOUT_MS = 5_000;
/** A checkout's lease: one provider call and the margin (LEASE_MARGIN_MS, packages/bff/src/checkout/door.ts). */
const LEASE_MS = PROVIDER_TIMEOUT_MS + 2_000;
/** How often the sweeper runs (and with it the settling of lapsed leases and reconciliation). */
const SWEEP_SECONDS = 1;
/** How long after its link was signed a checkout with no result is looked up in the provider's order query. */
const RECONCILE_SECONDS = 10;
/** How late the bank answers a transfer or a validation: from one to two seconds, after it acted. */
const bankDelay = () => 1_000 + Math.floor(Math.random() * 1_000);
/** How late the bank answers a validation while an instance is paused: three to four seconds, under the timeout. */
const slowDelay = () => 3_000 + Math.floor(Math.random() * 1_000);
/** The faults' durations: the point of the drill, waited out in real time. */
const SWEEPS = 5;
const STOP_MS = 30_000;
const FREEZE_MS = 20_000;
const LINK_STOP_MS = 90_000;
const PAUSE_MS = 60_000;
/** How long the server stays frozen after it committed a validation's lock. */
const FROZEN_AFTER_LOCK_MS = 5_000;
/** Every request during the freeze is answered within this. */
const FREEZE_ANSWER_MS = 3_000;
/** The longest a payment may take, outages included. */
const PAYMENT_LIMIT_MS = 120_000;

type Phase = 'start' | 'sweeps' | 'stop' | 'freeze' | 'kill' | 'link' | 'pause' | 'lock-freeze';
type BankOp = 'login' | 'transfer' | 'validate';
const MONEY: readonly BankOp[] = ['transfer', 'validate'];

/** A call an instance made to the bank (the simulator), as its proxy saw it. */
interface BankCall {
  via: string;
  op: BankOp;
  session?: string;
  /** The payment's reference (from the transfer's subject; a validation by its session). */
  ref?: string;
  start: number;
  /** When the answer left for the instance (the bank had acted by then). */
  answeredAt?: number;
  /** The checkout's lock as stored when the bank received the call (phase 6): whose, until when (epoch ms). */
  lock?: { op?: string; until?: number; at: number } | null;
  /** When the instance's connection closed before the answer left (it died meanwhile). */
  closedAt?: number;
  status?: string;
}

/** A request of a payer or a probe to an instance, timed. `status` 0: no answer (the instance went away). */
interface Call {
  who: string;
  what: string;
  phase: Phase;
  ref?: string;
  op?: string;
  start: number;
  end?: number;
  status?: number;
  code?: string;
  retryAfter?: string | null;
}

interface Payment {
  ref: string;
  phase: Phase;
  id?: string;
  secret?: string;
  start: number;
  end?: number;
  state?: string;
  /** Answers a payer cannot wait out (anything but 200, 409, and 503 with Retry-After; no answer from a killed instance). */
  unexpected: string[];
  /** When the payer first read it `unknown`. */
  sawUnknown?: number;
  /** Where it ended, as the merchant API reads it at the end, and why it is in doubt when `unknown`. */
  final?: string;
  inDoubt?: { call: string; at: string; why: string };
}

interface Delivered {
  id: string;
  type: string;
  data: { checkoutId?: string; state?: string; source?: string };
}

const now = () => performance.now();

describe(`the outage drill: ${INSTANCES} instances on one PostgreSQL`, { skip: !HAVE_PG && process.env.CI !== 'true' ? NO_PG_REASON : false }, () => {
  let pg: PrivatePostgres;
  const servers: Server[] = [];
  const all: Instance[] = [];
  let env: Record<string, string>;
  let sandbox: ReturnType<typeof createSandbox>;

  const bankCalls: BankCall[] = [];
  const refBySession = new Map<string, string>();
  const calls: Call[] = [];
  const payments = new Map<string, Payment>();
  const delivered = new Map<string, Delivered>();
  let phase: Phase = 'start';
  const figures: Record<string, string | number> = {};
  const sweepsCut: number[] = [];
  let victim: Instance | undefined;
  /** Instances stopped on purpose at the end of their phase. */
  const retired = new Set<Instance>();
  /** The instance paused in phase 6, while it is. */
  let paused: Instance | undefined;
  let pausedAtPerf = Infinity;
  let pausedName = '';
  let resumedAtPerf = Infinity;
  let slowValidations = false;
  /** The drill's own connection to the database, to read a checkout's lock as the bank receives a call. */
  let watcher: pgDriver.Pool | undefined;
  /** When the instance was killed: by the wall clock (the instances' clock) and by this process's. */
  let killedAt = 0;
  let killedAtPerf = Infinity;

  /** Removes what the drill started even when the process ends before `after` (a timeout, a signal). */
  const cleanupNow = () => {
    for (const i of all) if (!i.exited) i.child.kill('SIGKILL');
    opened(pg)?.closeSync();
  };
  const onSignal = () => {
    cleanupNow();
    process.exit(130);
  };

  const listen = async (server: Server) => {
    servers.push(server);
    await until(() => server.listening, 'a server to listen');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  /**
   * The simulator as one instance reaches it: every call noted, transfers and validations
   * answered late (after the bank acted), the instance's connection watched.
   */
  function bankFor(via: string): Promise<string> {
    const server = serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: async (req, bindings) => {
        const path = new URL(req.url).pathname;
        const op: BankOp | null =
          req.method !== 'POST'
            ? null
            : path.endsWith('/transfer/init')
              ? 'transfer'
              : path.endsWith('/transfer/validate')
                ? 'validate'
                : path.endsWith('/login')
                  ? 'login'
                  : null;
        if (!op) return sandbox.app.fetch(req, bindings);
        const body = (await req
          .clone()
          .json()
          .catch(() => ({}))) as { sessionId?: string; subject?: string };
        const call: BankCall = { via, op, start: now(), ...(body.sessionId ? { session: body.sessionId } : {}) };
        if (op === 'transfer' && body.sessionId && body.subject?.startsWith('Drill ')) refBySession.set(body.sessionId, body.subject.slice(6));
        if (call.session && refBySession.has(call.session)) call.ref = refBySession.get(call.session)!;
        bankCalls.push(call);
        // While an instance is paused: the lock the call was sent under, as stored now.
        if (phase === 'pause' && watcher && op !== 'login' && call.ref) {
          const id = payments.get(call.ref)?.id;
          if (id)
            void watcher
              .query<{ busy: { op?: string; until?: number } | null }>("SELECT data->'internal'->'busy' AS busy FROM checkouts WHERE id = $1", [id])
              .then((r) => (call.lock = r.rows[0]?.busy ? { ...r.rows[0].busy, at: Date.now() } : null))
              .catch(() => undefined);
        }
        const socket = (bindings as HttpBindings).incoming.socket;
        const closed = () => (call.closedAt ??= now());
        socket.once('close', closed);
        try {
          const res = await sandbox.app.fetch(req, bindings);
          const text = await res.text();
          call.status = String((JSON.parse(text) as { status?: unknown }).status);
          if (MONEY.includes(op)) await sleep(slowValidations && op === 'validate' ? slowDelay() : bankDelay());
          call.answeredAt = now();
          return new Response(text, { status: res.status, headers: res.headers });
        } finally {
          socket.off('close', closed);
        }
      },
    }) as Server;
    return listen(server);
  }

  const live = () => all.filter((i) => !i.exited && i.child.signalCode === null && i !== victim && i !== paused && !retired.has(i));
  let turn = 0;
  const nextInstance = () => {
    const l = live();
    return l[turn++ % l.length]!;
  };

  async function startInstance(name: string): Promise<Instance> {
    const bank = await bankFor(name);
    const inst = await bffProcess(name, { ...env, PROVIDER_NATIVE_URL: bank, PROVIDER_LINKS_URL: bank });
    all.push(inst);
    return inst;
  }

  /** The BFF's public address: each request to the next live instance, as a load balancer does. */
  function balancer(): Promise<string> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const headers = Object.fromEntries(
            Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && !['host', 'connection', 'content-length', 'keep-alive'].includes(k)),
          ) as Record<string, string>;
          for (let attempt = 0; attempt < 3; attempt++) {
            const inst = nextInstance();
            try {
              const up = await fetch(`${inst.url}${req.url}`, {
                method: req.method,
                headers,
                ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
                redirect: 'manual',
              });
              const body = Buffer.from(await up.arrayBuffer());
              const out: Record<string, string> = {};
              up.headers.forEach((v, k) => {
                if (!['content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'content-length'].includes(k)) out[k] = v;
              });
              res.writeHead(up.status, out).end(body);
              return;
            } catch {
              // That instance went away: the next one.
            }
          }
          res.writeHead(502).end();
        })();
      });
    }).listen(0, '127.0.0.1');
    return listen(server);
  }

  /** One request to `inst` (the next live instance by default), timed and noted; the body read. */
  async function send(
    path: string,
    init: { method?: string; body?: unknown; secret?: string; ref?: string; op?: string; inst?: Instance; who?: string } = {},
  ): Promise<{ status: number; json: unknown; retryAfter: string | null; call: Call }> {
    const inst = init.inst ?? nextInstance();
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = init.secret ? { 'X-Checkout-Secret': init.secret } : { Authorization: `Bearer ${MERCHANT_SECRET}` };
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    const call: Call = {
      who: inst.name,
      what: `${init.who ?? 'payer'} ${method} ${path.replace(/\/ch_[^/?]+/, '/:id')}`,
      phase,
      start: now(),
      ...(init.ref ? { ref: init.ref } : {}),
      ...(init.op ? { op: init.op } : {}),
    };
    calls.push(call);
    try {
      const res = await fetch(`${inst.url}${path}`, {
        method,
        headers,
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await res.text();
      call.end = now();
      call.status = res.status;
      call.retryAfter = res.headers.get('Retry-After');
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      const code = (json as { error?: { code?: string } } | null)?.error?.code;
      if (code) call.code = code;
      return { status: res.status, json, retryAfter: call.retryAfter, call };
    } catch {
      call.end = now();
      call.status = 0;
      return { status: 0, json: null, retryAfter: null, call };
    }
  }

  /** Whether a payer may wait an answer out (and read the checkout again); else it is noted on the payment. */
  function waitable(p: Payment, r: Awaited<ReturnType<typeof send>>): boolean {
    if (r.status === 409) return true;
    if (r.status === 503 && Number(r.retryAfter) > 0) return true;
    if (r.status === 0) return true; // the instance went away mid-request: checked against the kill at the end
    p.unexpected.push(`${r.call.what} via ${r.call.who}: ${r.status} ${JSON.stringify(r.json)}`);
    return false;
  }
  /** The payer's pause before reading again: as the element does, shorter than Retry-After, so that the drill keeps asking. */
  const pause = (r: { status: number }) => sleep(r.status === 409 ? 150 : 250);

  /** Reads the checkout until it answers. */
  async function read(p: Payment, limit: number): Promise<CheckoutView> {
    for (;;) {
      const r = await send('/v1/checkout', { secret: p.secret!, ref: p.ref, op: 'read' });
      if (r.status === 200) return r.json as CheckoutView;
      waitable(p, r);
      if (now() > limit) throw new Error(`${p.ref}: the checkout did not answer`);
      await pause(r);
    }
  }

  /**
   * Pays one checkout through the native flow with the simulator's test values, as the element
   * would: a 503 or 409 is waited out, the checkout read again, and the walk goes on from what it
   * says (never by sending the same action blindly).
   */
  async function pay(ref: string): Promise<void> {
    const p: Payment = { ref, phase, start: now(), unexpected: [] };
    payments.set(ref, p);
    const limit = now() + PAYMENT_LIMIT_MS;
    for (;;) {
      const r = await send('/v1/checkouts', { body: { amount: 1999, subject: `Drill ${ref}`, reference: ref, isolation: 'inline' }, ref, op: 'create' });
      if (r.status === 201) {
        const c = r.json as { id: string; clientSecret: string };
        p.id = c.id;
        p.secret = c.clientSecret;
        break;
      }
      // A creation whose answer was lost is made again: a second checkout, never paid.
      waitable(p, r);
      if (now() > limit) throw new Error(`${ref}: not created`);
      await pause(r);
    }
    const secret = p.secret;
    let v = await read(p, limit);
    for (;;) {
      if (now() > limit) throw new Error(`${ref}: no end within ${PAYMENT_LIMIT_MS} ms, last ${v.state}`);
      const s = v.step;
      let r: Awaited<ReturnType<typeof send>>;
      switch (s.state) {
        case 'select-bank': {
          const banks = await send('/v1/banks', { secret, ref, op: 'banks' });
          if (banks.status !== 200) {
            waitable(p, banks);
            await pause(banks);
            v = await read(p, limit);
            continue;
          }
          const bank = (banks.json as { groups: { types: BankView[] }[] }).groups.flatMap((g) => g.types).find((b) => b.bankId === 'aurora')!;
          r = await send('/v1/checkout/login', { secret, ref, op: 'login', body: { bankId: 'aurora', loginId: bank.defaultLogin, fields: testFields(bank) } });
          break;
        }
        case 'second-login':
          r = await send('/v1/checkout/second-login', { secret, ref, op: 'second-login', body: { value: s.field.testValue } });
          break;
        case 'select-contract':
          r = await send('/v1/checkout/contract', { secret, ref, op: 'contract', body: { contractId: s.contracts[0]!.contractId } });
          break;
        case 'select-account':
          r = await send('/v1/checkout/transfer', { secret, ref, op: 'transfer', body: { accountId: payingAccount('aurora', s.accounts) } });
          break;
        case 'validate':
          r = await send('/v1/checkout/validate', {
            secret,
            ref,
            op: 'validate',
            body: { values: Object.fromEntries(s.validations.map((x) => [x.fieldId, x.type === 6 ? 'SIGNED' : (x.testValue ?? '')])) },
          });
          break;
        case 'unknown': {
          // As the element does, the payer watches an unknown outcome (for a lease here; the element longer): an answer still being written moves it on.
          p.sawUnknown ??= now();
          const watchEnd = now() + LEASE_MS;
          while (v.state === 'unknown' && now() < watchEnd) {
            await sleep(250);
            v = await read(p, limit);
          }
          if (v.state !== 'unknown') continue;
          p.state = v.state;
          p.end = now();
          return;
        }
        default:
          p.state = v.state;
          p.end = now();
          return;
      }
      if (r.status === 200) {
        v = r.json as CheckoutView;
        continue;
      }
      waitable(p, r);
      await pause(r);
      v = await read(p, limit);
    }
  }

  let paying = false;
  let seq = 0;
  let payers: Promise<void>[] = [];
  const payerErrors: string[] = [];
  let settledPayers = true;
  function startPayers() {
    paying = true;
    settledPayers = false;
    payers = Array.from({ length: PAYERS }, async () => {
      while (paying) {
        const ref = `DR-${++seq}`;
        await pay(ref).catch((err: unknown) => {
          payerErrors.push(err instanceof Error ? err.message : String(err));
        });
      }
    });
    void Promise.allSettled(payers).then(() => (settledPayers = true));
  }

  /** Calls with the bank now (sent, not yet answered), of `ops`, through `via` when given. */
  const atBank = (ops: readonly BankOp[] = MONEY, via?: string) =>
    bankCalls.filter((b) => ops.includes(b.op) && b.answeredAt === undefined && b.closedAt === undefined && (!via || b.via === via));
  /** How many of `bank` were with the bank at `t`. */
  const atBankAt = (bank: BankCall[], t: number) => bank.filter((b) => b.start <= t && (b.answeredAt === undefined || b.answeredAt >= t)).length;
  /** Payments under way at `t` (started, not ended). */
  const underWay = (t: number) => [...payments.values()].filter((p) => p.start <= t && (p.end === undefined || p.end >= t));
  const ended = (ps: Payment[], what: string, timeoutMs = PAYMENT_LIMIT_MS) => until(() => ps.every((p) => p.end !== undefined), what, timeoutMs, 50);
  const brief = (p: Payment) =>
    `${p.ref} ${p.id ?? '-'}: the payer saw ${p.sawUnknown && p.state !== 'unknown' ? `unknown, then ` : ''}${p.state ?? 'no end'}${p.final ? `, ended ${p.final}` : ''}`;
  /** A payment that did not pay, or that the payer was told `unknown` on the way. */
  const unpaid = (ps: Payment[]) => ps.filter((p) => p.state !== 'succeeded' || p.sawUnknown !== undefined);
  /** What happened to a payment, for a failure's message: its requests, its calls with the bank, the instances' log lines about it, its webhooks. */
  const story = (p: Payment) =>
    [
      `${brief(p)} (began in phase ${p.phase})`,
      ...calls.filter((c) => c.ref === p.ref).map((c) => `  ${c.start.toFixed(0)}-${c.end?.toFixed(0)} ${c.who} ${c.what} ${c.status} ${c.code ?? ''}`),
      ...bankCalls
        .filter((b) => b.ref === p.ref)
        .map(
          (b) =>
            `  bank ${b.start.toFixed(0)}-${b.answeredAt?.toFixed(0) ?? (b.closedAt ? `closed ${b.closedAt.toFixed(0)}` : 'open')} ${b.via} ${b.op} ${b.status}`,
        ),
      ...all.flatMap((i) => i.output.filter((l) => p.id && l.includes(p.id)).map((l) => `  ${i.name}: ${l}`)),
      ...[...delivered.values()].filter((d) => d.data.checkoutId === p.id).map((d) => `  webhook ${d.type} ${d.data.state} ${d.data.source}`),
    ].join('\n');
  const stories = (ps: Payment[]) => ps.map(story).join('\n');
  const exits = () =>
    all
      .filter((i) => i.exited && i !== victim && !(retired.has(i) && i.exited.code === 0))
      .map((i) => `${i.name} exited ${JSON.stringify(i.exited)}: ${i.output.slice(-5).join(' | ')}`);

  /** Reads where every payment ended through the merchant API (`final`, `inDoubt`). */
  async function readFinals() {
    for (const p of payments.values()) {
      if (!p.id) continue;
      const r = await send(`/v1/checkouts/${p.id}`, { who: 'check' });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      const m = r.json as { state: string; inDoubt?: { call: string; at: string; why: string } };
      p.final = m.state;
      if (m.inDoubt) p.inDoubt = m.inDoubt;
    }
  }

  /** One round of requests to every live instance on every API, timed. */
  async function probeRound(probe: { id: string; secret: string; bank: BankView }, tag: string): Promise<Call[]> {
    const rounds = live().flatMap((inst) => [
      send('/v1/checkout', { inst, secret: probe.secret, who: 'probe' }),
      send('/v1/banks', { inst, secret: probe.secret, who: 'probe' }),
      send('/v1/checkout/login', {
        inst,
        secret: probe.secret,
        who: 'probe',
        body: { bankId: 'aurora', loginId: probe.bank.defaultLogin, fields: testFields(probe.bank) },
      }),
      send(`/v1/checkouts/${probe.id}`, { inst, who: 'probe' }),
      send('/v1/checkouts?state=unknown&limit=5', { inst, who: 'probe' }),
      send('/v1/checkouts', { inst, who: 'probe', body: { amount: 700, subject: `Probe ${tag}`, reference: `DR-PROBE-${tag}`, isolation: 'inline' } }),
      send('/ready', { inst, who: 'probe' }),
      send('/health', { inst, who: 'probe' }),
    ]);
    return (await Promise.all(rounds)).map((r) => r.call);
  }

  /** A checkout no payer touches, for the probes: its id, secret and bank. */
  async function probeCheckout(tag: string) {
    const c = await send('/v1/checkouts', { who: 'probe', body: { amount: 700, subject: `Probe ${tag}`, reference: `DR-PROBE-${tag}`, isolation: 'inline' } });
    assert.equal(c.status, 201, JSON.stringify(c.json));
    const { id, clientSecret: secret } = c.json as { id: string; clientSecret: string };
    const banks = await send('/v1/banks', { secret, who: 'probe' });
    assert.equal(banks.status, 200);
    const bank = (banks.json as { groups: { types: BankView[] }[] }).groups.flatMap((g) => g.types).find((b) => b.bankId === 'aurora')!;
    return { id, secret, bank };
  }

  /** Asserts every probe answered 503 with Retry-After (/ready 503, /health 200). */
  function assertOutageAnswers(probes: Call[]) {
    for (const c of probes) {
      if (c.what.endsWith('/health')) assert.equal(c.status, 200, `${c.who} ${c.what}`);
      else {
        assert.equal(c.status, 503, `${c.who} ${c.what}: ${c.status} ${c.code ?? ''}`);
        if (!c.what.endsWith('/ready')) assert.ok(Number(c.retryAfter) > 0, `${c.who} ${c.what}: Retry-After ${c.retryAfter}`);
      }
    }
  }

  before(async () => {
    assert.ok(HAVE_PG, NO_PG_REASON);
    process.once('exit', cleanupNow);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    pg = await privatePostgres({ prefix: 'bc-drill-pg-', maxConnections: 100 });
    const gatewayPort = await freePort();
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    // The simulator notifies the BFF at its loopback address; its gateway pages are the bank's page.
    sandbox = createSandbox({ publicUrl: gatewayUrl, allowLocalNotif: true });
    await listen(serve({ port: gatewayPort, hostname: '127.0.0.1', fetch: sandbox.app.fetch }) as Server);
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const e = JSON.parse(body) as Delivered;
        delivered.set(e.id, e);
        res.end('ok');
      });
    }).listen(0, '127.0.0.1');
    const receiverUrl = await listen(receiver);
    const balancerUrl = await balancer();
    env = {
      PORT: '0',
      DATABASE_URL: pg.url,
      BFF_PUBLIC_URL: balancerUrl,
      PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
      BFF_MERCHANT_SECRET: MERCHANT_SECRET,
      MERCHANT_WEBHOOK_URL: `${receiverUrl}/hook`,
      MERCHANT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      RATE_LIMIT_PER_MINUTE: '100000',
      MERCHANT_RATE_LIMIT_PER_MINUTE: '1000000',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      SWEEP_SECONDS: String(SWEEP_SECONDS),
      RECONCILE_SECONDS: String(RECONCILE_SECONDS),
      LOG_LEVEL: 'warn',
    };
    // All boot at once: the schema is created once, under an advisory lock.
    await Promise.all(Array.from({ length: INSTANCES }, (_, n) => startInstance(`bff-${String.fromCharCode(97 + n)}`)));
  });

  after(async () => {
    paying = false;
    opened(pg)?.thaw();
    await opened(pg)
      ?.start()
      .catch(() => null); // running already
    await until(() => settledPayers, 'the payers to stop', PAYMENT_LIMIT_MS, 50).catch(() => null);
    await watcher?.end().catch(() => null);
    if (paused) paused.child.kill('SIGCONT');
    const stopping = all.filter((i) => !i.exited);
    for (const i of stopping) i.child.kill('SIGTERM');
    await Promise.all(stopping.map((i) => until(() => i.exited, `${i.name} to stop`, 30_000, 50).catch(() => i.child.kill('SIGKILL'))));
    figures['exits at the end (SIGTERM)'] = stopping.map((i) => `${i.name} ${i.exited?.code ?? i.exited?.signal ?? 'killed'}`).join(', ');
    for (const s of servers) s.close();
    for (const s of servers) s.closeAllConnections();
    await opened(pg)?.close();
    process.off('exit', cleanupNow);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    printFigures();
  });

  it('1. pays through while every connection is cut, several times', async () => {
    phase = 'sweeps';
    startPayers();
    const swept: number[] = [];
    for (let tries = 0; sweepsCut.length < SWEEPS; tries++) {
      assert.ok(tries < 3 * SWEEPS, `${tries} sweeps found no connection to cut`);
      // Each cut while calls are with the bank, after a transfer since the last cut.
      const transfers = bankCalls.filter((b) => b.op === 'transfer').length;
      await until(() => atBank().length > 0 && bankCalls.filter((b) => b.op === 'transfer').length > transfers, 'calls with the bank', 30_000, 20);
      const at = now();
      const cut = pg.sweep();
      // None when the pools had not connected again since the last cut: that one does not count.
      if (cut > 0) {
        swept.push(at);
        sweepsCut.push(cut);
      }
    }
    const hit = [...new Set(swept.flatMap(underWay))];
    await ended(hit, 'the payments under way at the cuts to end');
    const lost = unpaid(hit);
    figures['connection sweeps'] =
      `${SWEEPS} (connections cut: ${sweepsCut.join(', ')}); ${hit.length} payments under way, ${lost.length} of them through unknown or unpaid`;
    assert.deepEqual(lost.map(brief), [], `every payment under way at a cut paid, none through unknown:\n${stories(lost)}`);
    assert.deepEqual(exits(), []);
  });

  it('2. answers 503 with Retry-After while the database is stopped for 30 s, and writes every answer the bank gave once it is back', async () => {
    const probe = await probeCheckout('stop');
    await until(() => atBank().length >= 2, 'calls with the bank', 30_000, 20);
    phase = 'stop';
    const asked = now();
    await pg.stop();
    const stoppedAt = now();
    const hit = underWay(asked);
    const probes: Call[] = [];
    let round = 0;
    let startAsked = Infinity;
    try {
      while (now() - asked < STOP_MS) {
        probes.push(...(await probeRound(probe, `stop-${round++}`)));
        await sleep(500);
      }
    } finally {
      startAsked = now();
      await pg.start();
    }
    const restartedAt = now();
    await ended(underWay(restartedAt), 'the payments under way at the restart to end');
    const all503 = calls.filter((c) => c.start >= stoppedAt && c.end! <= startAsked && !c.what.endsWith('/health'));
    const answeredMeanwhile = bankCalls.filter(
      (b) => MONEY.includes(b.op) && b.answeredAt !== undefined && b.answeredAt >= asked && b.answeredAt <= restartedAt,
    );
    const refs = new Set(answeredMeanwhile.map((b) => b.ref));
    const known = [...payments.values()].filter((p) => refs.has(p.ref));
    const lost = unpaid([...new Set([...known, ...hit])]);
    figures['stop of 30 s'] =
      `${((restartedAt - asked) / 1000).toFixed(1)} s; ${probes.length} probes, ${all503.length} requests answered meanwhile; ` +
      `${answeredMeanwhile.length} bank answers during it; ${hit.length} payments under way, ${lost.length} of them through unknown or unpaid`;
    assertOutageAnswers(probes);
    for (const c of all503) {
      assert.equal(c.status, 503, `${c.who} ${c.what} during the stop: ${c.status} ${c.code ?? ''}`);
      if (!c.what.endsWith('/ready')) assert.ok(Number(c.retryAfter) > 0, `${c.who} ${c.what}: Retry-After`);
    }
    assert.ok(answeredMeanwhile.length > 0, 'the bank answered calls while the database was stopped');
    assert.deepEqual(
      lost.map(brief),
      [],
      `every payment under way, and every one the bank answered during the stop, paid, none through unknown:\n${stories(lost)}`,
    );
    assert.deepEqual(exits(), []);
  });

  it('3. answers every request within 3 s while the database is frozen for 20 s, and pays after the thaw', async () => {
    const probe = await probeCheckout('freeze');
    await until(() => atBank().length >= 2, 'calls with the bank', 30_000, 20);
    phase = 'freeze';
    const frozenAt = now();
    const stopped = pg.freeze();
    const probes: Call[] = [];
    let round = 0;
    let thawAsked = Infinity;
    try {
      // Rounds back to back: the connections open at the freeze, then the pool's waits and new connections.
      while (now() - frozenAt < FREEZE_MS) probes.push(...(await probeRound(probe, `freeze-${round++}`)));
    } finally {
      thawAsked = now();
      pg.thaw();
    }
    const thawedAt = now();
    const hit = underWay(frozenAt);
    await ended(underWay(thawedAt), 'the payments under way at the thaw to end');
    // Every request made during the freeze: answered within 3 s.
    const during = calls.filter((c) => c.start >= frozenAt && c.start < thawedAt);
    // Every request under way when it began: answered within 3 s of the freeze, or of the bank's answer when the call was with the bank.
    const across = calls
      .filter((c) => c.start < frozenAt && c.end !== undefined && c.end > frozenAt)
      .map((c) => {
        const bank = bankCalls.filter((b) => b.ref === c.ref && b.op === c.op && b.start >= c.start && b.answeredAt !== undefined && b.answeredAt <= c.end!);
        const from = Math.max(frozenAt, ...bank.map((b) => b.answeredAt!));
        return { c, waited: c.end! - from };
      });
    const longest = Math.max(...during.map((c) => c.end! - c.start), ...across.map((a) => a.waited));
    const lost = unpaid(hit);
    figures['freeze of 20 s'] =
      `${((thawedAt - frozenAt) / 1000).toFixed(1)} s, ${stopped} server processes stopped; ${during.length} requests made during it, ` +
      `${across.length} under way at it; ${hit.length} payments under way, ${lost.length} of them through unknown or unpaid`;
    figures['longest answer during the freeze'] = `${Math.round(longest)} ms (of ${during.length + across.length} requests)`;
    for (const c of during) {
      assert.ok(c.status !== undefined && c.status > 0, `${c.who} ${c.what}: no answer`);
      assert.ok(c.end! - c.start < FREEZE_ANSWER_MS, `${c.who} ${c.what}: answered in ${Math.round(c.end! - c.start)} ms`);
      if (c.what.endsWith('/health') || c.end! >= thawAsked) continue;
      // Nothing but the store can answer: a request made during the freeze could not read a checkout or take its lock.
      assert.equal(c.status, 503, `${c.who} ${c.what}: ${c.status} ${c.code ?? ''}`);
      if (!c.what.endsWith('/ready')) assert.ok(Number(c.retryAfter) > 0, `${c.who} ${c.what}: Retry-After`);
    }
    for (const { c, waited } of across)
      assert.ok(waited < FREEZE_ANSWER_MS, `${c.who} ${c.what} (${c.ref}) under way at the freeze: answered ${Math.round(waited)} ms after it`);
    assert.ok(probes.length > 0 && during.length > probes.length / 2);
    assert.deepEqual(lost.map(brief), [], `every payment under way at the freeze paid, none through unknown:\n${stories(lost)}`);
    assert.deepEqual(exits(), []);
  });

  it('4. an instance killed during slow transfers leaves unknown only the checkouts whose call was with the bank through it, within two leases', async () => {
    const target = all.filter((i) => !i.exited).at(-1)!;
    // The kill comes while transfers are with the bank through it (and validations, as they come).
    await until(
      () => atBank(['transfer'], target.name).length >= 1 && atBank(MONEY, target.name).length >= 2,
      `transfers with the bank through ${target.name}`,
      60_000,
      10,
    );
    phase = 'kill';
    victim = target;
    killedAt = Date.now();
    killedAtPerf = now();
    target.child.kill('SIGKILL');
    // The payers' money calls open on it, and its calls with the bank, when it died.
    const open = calls.filter((c) => c.who === target.name && c.end === undefined && MONEY.includes(c.op as BankOp));
    const openRefs = new Set(open.map((c) => c.ref));
    await until(() => target.exited, 'the killed instance to end', 10_000);
    await until(() => open.every((c) => c.end !== undefined), 'the calls open on it to fail', 10_000);
    // A supervisor starts it again.
    const restarted = await startInstance(`${target.name}-again`);
    const inDoubt = [...payments.values()].filter((p) => openRefs.has(p.ref));
    await ended(inDoubt, 'the payments it held to end', 2 * LEASE_MS + 60_000);
    // Payments after the kill complete on the others and on the restarted one.
    const afterKill = seq;
    await until(
      () => [...payments.values()].filter((p) => Number(p.ref.slice(3)) > afterKill && p.state === 'succeeded').length >= PAYERS,
      'payments after the kill',
      60_000,
      50,
    );
    paying = false;
    await Promise.all(payers);
    assert.deepEqual(payerErrors, []);
    const bankThroughVictim = bankCalls.filter((b) => b.via === target.name && MONEY.includes(b.op) && b.start < killedAtPerf);
    // Where every payment ended, as the merchant reads it.
    await readFinals();
    // The payments under way at the kill or begun after it (those before have their phase's assertions).
    const paid = [...payments.values()].filter((p) => p.end! >= killedAtPerf);
    const doubted = paid.filter((p) => p.sawUnknown !== undefined || p.final === 'unknown');
    const strays = doubted.filter((p) => !openRefs.has(p.ref));
    const unknowns = paid.filter((p) => p.final === 'unknown');
    /** How long after the kill it was settled `unknown`, and where its call was when the instance died. */
    const settled = unknowns.map((p) => {
      const d = p.inDoubt;
      const mine = bankThroughVictim.filter((b) => b.ref === p.ref && b.op === d?.call);
      const where = !mine.length
        ? 'its lock taken, the call not yet sent'
        : mine.some((b) => b.answeredAt === undefined || b.answeredAt >= killedAtPerf)
          ? 'the call with the bank'
          : 'the answer received, not yet written';
      return { p, d, after: d ? Date.parse(d.at) - killedAt : NaN, where };
    });
    figures['kill'] =
      `${target.name} SIGKILL with ${atBankAt(bankThroughVictim, killedAtPerf)} calls with the bank through it, ${open.length} payer calls open on it; ` +
      `restarted as ${restarted.name}`;
    figures['unknown'] = [
      String(unknowns.length),
      ...settled.map((u) => `${u.p.ref} ${u.d?.call} (${u.where} when it died), settled ${u.after} ms after the kill`),
    ].join('; ');
    assert.deepEqual(strays.map(brief), [], `unknown with no call open on ${target.name} when it died:\n${stories(strays)}`);
    for (const { p, d, after } of settled) {
      assert.ok(d, `${p.ref}: says why it is in doubt`);
      assert.equal(d.why, 'lease', `${p.ref}: ${JSON.stringify(d)}`);
      assert.ok(after >= 0 && after <= 2 * LEASE_MS + 2_000, `${p.ref}: unknown ${after} ms after the kill (two leases: ${2 * LEASE_MS} ms)`);
      // No instance alive had the bank's answer to the call in doubt.
      const answered = bankCalls.filter((b) => b.ref === p.ref && b.op === d.call && b.answeredAt !== undefined && b.via !== target.name && !b.closedAt);
      assert.deepEqual(
        answered.map((b) => `${b.via} ${b.op}`),
        [],
        `${p.ref}: unknown although an instance alive had the bank's answer:\n${story(p)}`,
      );
    }
    assert.equal(target.exited?.signal, 'SIGKILL');
    assert.deepEqual(exits(), []);
  });

  it('5. a link paid at the bank during a 90 s stop of the database ends succeeded by reconciliation, told once', async () => {
    phase = 'link';
    const created = await send('/v1/checkouts', {
      body: { amount: 4200, subject: 'Drill link', reference: 'DR-LINK', isolation: 'inline', modes: ['redirect'] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    const { id, clientSecret: secret } = created.json as { id: string; clientSecret: string };
    const link: Payment = { ref: 'DR-LINK', phase, start: now(), unexpected: [], id };
    const signed = await send('/v1/checkout/redirect', { secret, body: {}, ref: link.ref });
    assert.equal(signed.status, 200, JSON.stringify(signed.json));
    const step = (signed.json as CheckoutView).step;
    assert.ok(step.state === 'redirect', JSON.stringify(step));
    const stoppedAt = now();
    await pg.stop();
    let restartedAt = 0;
    let returned: number;
    let attempts: { url: string; status: number | null; ok: boolean; retrying: boolean; attempt: number }[];
    try {
      // The payer pays at the bank's page; the provider notifies at once and the payer returns: both meet the outage.
      const page = await walkGateway((url, init) => fetch(url, init), step.url, { user: 'demo-user', password: 'demo-password', code: '123456' });
      const back = page.forms.find((f) => f.action.includes('/v1/return/ok'));
      assert.ok(back, `the bank's page offers the way back: ${page.title}`);
      returned = (await submit((url, init) => fetch(url, { ...init, redirect: 'manual' }), back)).status;
      // Every notification attempt of the provider is over (and failed) within the outage.
      const mine = async () =>
        ((await (await sandbox.app.request('/__sandbox/notifications')).json()) as { notifications: NonNullable<typeof attempts> }).notifications.filter((n) =>
          n.url.includes(id),
        );
      attempts = await until(
        async () => {
          const a = await mine();
          return a.length > 0 && !a.at(-1)!.retrying ? a : null;
        },
        "the provider's notifications to give up",
        LINK_STOP_MS - (now() - stoppedAt) - 1_000,
        250,
      );
      await sleep(Math.max(0, LINK_STOP_MS - (now() - stoppedAt)));
    } finally {
      await pg.start();
      restartedAt = now();
    }
    figures['link during a 90 s stop'] =
      `${((restartedAt - stoppedAt) / 1000).toFixed(1)} s stopped; ${attempts.length} notification attempts (${attempts.map((a) => a.status).join(', ')}), ` +
      `the return answered ${returned}`;
    assert.equal(returned, 503, "the payer's return met the outage");
    assert.ok(attempts.length >= 2, `${attempts.length} notification attempts`);
    assert.ok(
      attempts.every((a) => !a.ok && a.status === 503),
      JSON.stringify(attempts.map((a) => a.status)),
    );
    type Reconciled = { state: string; reconciliation?: { codStatus?: string; done?: string } };
    const read = async () => {
      const r = await send(`/v1/checkouts/${id}`, { who: 'check', ref: link.ref });
      return r.status === 200 ? (r.json as Reconciled) : null;
    };
    await until(async () => ((await read())?.state ?? 'redirect') !== 'redirect', 'the checkout to be reconciled', 2 * RECONCILE_SECONDS * 1_000 + 30_000, 250);
    const movedAfter = now() - restartedAt;
    // What the order query found is marked by a second write, just after.
    const m = await until(
      async () => {
        const c = await read();
        return c?.reconciliation?.done ? c : null;
      },
      "the order query's finding to be marked",
      10_000,
      100,
    ).catch(async () => (await read()) ?? { state: 'unreadable' });
    figures['link during a 90 s stop'] += `; ${m.state} ${(movedAfter / 1000).toFixed(1)} s after the restart`;
    link.final = m.state;
    assert.equal(m.state, 'succeeded', story(link));
    assert.deepEqual(
      m.reconciliation && { codStatus: m.reconciliation.codStatus, done: m.reconciliation.done },
      { codStatus: 'OK', done: 'found' },
      `the order query found it: ${JSON.stringify(m)}\n${story(link)}`,
    );
    const told = await until(
      () => {
        const e = [...delivered.values()].filter((d) => d.type === 'checkout.updated' && d.data.checkoutId === id);
        return e.length ? e : null;
      },
      'the webhook of the link',
      30_000,
      50,
    );
    assert.deepEqual(
      told.map((e) => [e.data.state, e.data.source]),
      [['succeeded', 'reconciliation']],
      story(link),
    );
    assert.deepEqual(exits(), []);
  });

  it('6. an instance paused for 60 s with validations at the bank through it sends no call after its lease and loses no answer', async () => {
    phase = 'pause';
    watcher = new pgDriver.Pool({ connectionString: pg.url, max: 4 });
    slowValidations = true;
    startPayers();
    const target = live().at(-1)!;
    await until(() => atBank(['validate'], target.name).length >= 1, `validations with the bank through ${target.name}`, 60_000, 10);
    paused = target;
    pausedName = target.name;
    pausedAtPerf = now();
    target.child.kill('SIGSTOP');
    const withBank = atBank(['validate'], target.name);
    const openOnIt = calls.filter((c) => c.who === target.name && c.end === undefined);
    try {
      await sleep(PAUSE_MS);
    } finally {
      target.child.kill('SIGCONT');
      resumedAtPerf = now();
      paused = undefined;
    }
    // Its answers are written once it runs again: the payments whose validation it held end where the bank said.
    const held = [...new Set(withBank.map((b) => b.ref).filter((r): r is string => r !== undefined))];
    const finalOf = async (ref: string) => {
      const id = payments.get(ref)?.id;
      const r = id ? await send(`/v1/checkouts/${id}`, { who: 'check' }) : null;
      return r?.status === 200 ? (r.json as { state: string }).state : undefined;
    };
    const bankSaid = (ref: string) => bankCalls.filter((b) => b.ref === ref && b.op === 'validate' && b.via === target.name).at(-1)?.status;
    await until(
      async () => {
        for (const ref of held) if (bankSaid(ref) === '200' && (await finalOf(ref)) !== 'succeeded') return false;
        return true;
      },
      'the answers the paused instance held to be written',
      30_000,
      250,
    ).catch(() => null);
    slowValidations = false;
    paying = false;
    await Promise.all(payers);
    assert.deepEqual(payerErrors, []);
    const inWindow = bankCalls.filter((b) => b.lock !== undefined);
    // A call the bank received under no lock, or under one whose lease had run out: a call after its lease.
    const afterLease = inWindow.filter((b) => !b.lock || b.lock.op !== b.op || (b.lock.until ?? 0) < b.lock.at);
    const lost: string[] = [];
    for (const ref of held) {
      const said = bankSaid(ref);
      const final = await finalOf(ref);
      if (said === '200' && final !== 'succeeded') lost.push(`${ref}: the bank paid, the checkout is ${final}`);
    }
    const notSent = target.output.filter((l) => l.includes('"event":"checkout.not_sent"')).length;
    figures['pause of 60 s'] =
      `${target.name} SIGSTOP with ${withBank.length} validations with the bank through it (answered 3-4 s late) and ${openOnIt.length} requests open on it; ` +
      `${inWindow.length} calls checked at the bank against their lock, ${afterLease.length} after their lease; ${held.length} payments held, ${lost.length} answers lost; ` +
      `${notSent} calls it did not send on waking`;
    assert.ok(withBank.length >= 1, 'validations were with the bank through the paused instance');
    assert.deepEqual(
      afterLease.map((b) => `${b.via} ${b.op} ${b.ref}: lock ${JSON.stringify(b.lock)}`),
      [],
      'no call with the bank after its lease',
    );
    assert.deepEqual(lost, [], 'no answer the bank gave the paused instance is lost');
    assert.ok(!target.exited, `${target.name} runs on after its pause`);
    assert.deepEqual(exits(), []);
  });

  it('7. a database frozen right after it committed a validation’s lock: 503 at once, nothing sent, the lock released, never unknown, and the payer pays', async () => {
    phase = 'lock-freeze';
    const port = Number(new URL(pg.url).port);
    const proxy = await pgProxy({ host: '127.0.0.1', port }, 'bank_checkout');
    let held: Instance | undefined;
    try {
      const bank = await bankFor('bff-held');
      held = await bffProcess('bff-held', { ...env, DATABASE_URL: proxy.url, PROVIDER_NATIVE_URL: bank, PROVIDER_LINKS_URL: bank });
      all.push(held);
      const other = live().find((i) => i !== held)!;
      // A checkout at its confirmation, through another instance.
      const ref = 'DR-HELD';
      const p: Payment = { ref, phase, start: now(), unexpected: [] };
      payments.set(ref, p);
      const created = await send('/v1/checkouts', { inst: other, ref, body: { amount: 1999, subject: `Drill ${ref}`, reference: ref, isolation: 'inline' } });
      assert.equal(created.status, 201, JSON.stringify(created.json));
      const c = created.json as { id: string; clientSecret: string };
      p.id = c.id;
      p.secret = c.clientSecret;
      const banks = await send('/v1/banks', { inst: other, secret: c.clientSecret, ref });
      const aurora = (banks.json as { groups: { types: BankView[] }[] }).groups.flatMap((g) => g.types).find((b) => b.bankId === 'aurora')!;
      let v = (
        await send('/v1/checkout/login', {
          inst: other,
          secret: c.clientSecret,
          ref,
          op: 'login',
          body: { bankId: 'aurora', loginId: aurora.defaultLogin, fields: testFields(aurora) },
        })
      ).json as CheckoutView;
      assert.equal(v.step.state, 'select-account', JSON.stringify(v));
      v = (
        await send('/v1/checkout/transfer', {
          inst: other,
          secret: c.clientSecret,
          ref,
          op: 'transfer',
          body: { accountId: payingAccount('aurora', v.step.accounts) },
        })
      ).json as CheckoutView;
      assert.equal(v.step.state, 'validate', JSON.stringify(v));
      const values = Object.fromEntries(v.step.validations.map((x) => [x.fieldId, x.testValue ?? '']));
      // The server freezes as it answers the lock's write: committed, never heard of.
      let frozenAt = Infinity;
      proxy.arm('UPDATE checkouts', () => {
        frozenAt = now();
        pg.freeze();
      });
      const validationsBefore = bankCalls.filter((b) => b.ref === ref && b.op === 'validate').length;
      const answered = await send('/v1/checkout/validate', { inst: held, secret: c.clientSecret, ref, op: 'validate', body: { values } });
      try {
        assert.ok(proxy.holding, 'the lock was written and its answer held');
        await sleep(Math.max(0, FROZEN_AFTER_LOCK_MS - (now() - frozenAt)));
      } finally {
        pg.thaw();
        proxy.release();
      }
      const thawedAt = now();
      // The instance that took the lock and sent nothing releases it once the server answers.
      const released = await until(
        async () => {
          const r = await send('/v1/checkout', { inst: other, secret: c.clientSecret, ref, op: 'read' });
          const view = r.status === 200 ? (r.json as CheckoutView) : null;
          return view && !view.inFlight ? view : null;
        },
        'the lock to be released',
        30_000,
        100,
      );
      const releasedAfter = now() - thawedAt;
      const sentMeanwhile = bankCalls.filter((b) => b.ref === ref && b.op === 'validate').length - validationsBefore;
      // The payer confirms again and pays.
      const again = await send('/v1/checkout/validate', { inst: other, secret: c.clientSecret, ref, op: 'validate', body: { values } });
      p.state = (again.json as CheckoutView | null)?.state;
      p.end = now();
      figures['frozen after a lock'] =
        `the payer answered ${answered.status} ${answered.call.code ?? ''} in ${Math.round(answered.call.end! - answered.call.start)} ms; ` +
        `${sentMeanwhile} validations sent meanwhile; the lock released ${Math.round(releasedAfter)} ms after the thaw, the checkout ${released.state}; ` +
        `confirmed again: ${p.state}`;
      assert.equal(answered.status, 503, JSON.stringify(answered.json));
      assert.ok(Number(answered.retryAfter) > 0);
      assert.ok(answered.call.end! - answered.call.start < FREEZE_ANSWER_MS, `answered in ${Math.round(answered.call.end! - answered.call.start)} ms`);
      assert.equal(sentMeanwhile, 0, 'the validation whose lock was never confirmed was not sent');
      assert.equal(released.state, 'validate', 'the lock released, never unknown');
      assert.equal(again.status, 200, JSON.stringify(again.json));
      assert.equal(p.state, 'succeeded');
      const told = [...delivered.values()].filter((d) => d.type === 'checkout.updated' && d.data.checkoutId === c.id);
      assert.ok(!told.some((d) => d.data.state === 'unknown'), 'never told unknown');
      assert.deepEqual(exits(), []);
    } finally {
      // Its database path ends with the phase: the instance stops first (as a supervisor stops one).
      if (held && !held.exited) {
        retired.add(held);
        held.child.kill('SIGTERM');
        await until(() => held!.exited, `${held.name} to stop`, 30_000, 50).catch(() => held!.child.kill('SIGKILL'));
      }
      await proxy.close();
    }
  });

  it('throughout: one terminal webhook per ended checkout, one transfer per bank session, no exits, no 500', async () => {
    await readFinals();
    const paid = [...payments.values()];
    // No answer at all only from the instance killed, for requests open on it when it died.
    const unanswered = calls.filter((c) => c.status === 0);
    /** A request open on the paused instance while it was paused: no answer within the payer's minute. */
    const heldByPause = (c: Call) => c.status === 0 && c.start < resumedAtPerf && c.end! >= pausedAtPerf && all.find((i) => i.name === c.who)?.exited === null;
    // Transfers and validations the bank received, by bank session.
    const bySession = new Map<string, { transfer: number; validate: number }>();
    for (const b of bankCalls) {
      if (!b.session || b.op === 'login') continue;
      const n = bySession.get(b.session) ?? { transfer: 0, validate: 0 };
      n[b.op]++;
      bySession.set(b.session, n);
    }
    // An answer of the bank an instance gave up writing (it logs why).
    const byId = new Map(paid.map((p) => [p.id, p]));
    const notWritten = all.flatMap((i) =>
      i.output
        .filter((l) => l.includes('"event":"checkout.answer_not_written"'))
        .map((l) => {
          const e = JSON.parse(l) as { checkoutId?: string; op?: string; reason?: string };
          return `${i.name}: ${byId.get(e.checkoutId)?.ref ?? e.checkoutId} ${e.op}: ${e.reason}`;
        }),
    );
    if (notWritten.length) figures['answers not written'] = notWritten.join('; ');
    /**
     * Transfers whose answer the paused instance held past its lease and the one more, and gave up
     * writing on waking (another transfer of the payer's held the checkout by then): the bank
     * answered it just before the pause, or during it. No money moves on a transfer's start.
     */
    const heldPastLeases = new Set(
      all
        .filter((i) => i.name === pausedName)
        .flatMap((i) => i.output.filter((l) => l.includes('"event":"checkout.answer_not_written"')))
        .map((l) => JSON.parse(l) as { checkoutId?: string; op?: string })
        .filter((e) => e.op === 'transfer')
        .map((e) => byId.get(e.checkoutId)?.ref ?? e.checkoutId),
    );
    // A second transfer's start for one session only after the first's instance was killed with it (its answer never came
    // back: no money can have moved, the lock was released, the payer chose the account again); never two validations.
    const diedWithVictim = (session: string) =>
      bankCalls.some(
        (b) =>
          b.session === session &&
          b.op === 'transfer' &&
          ((b.via === victim?.name && b.start < killedAtPerf) ||
            // or stopped with the paused instance long enough for its lease and the one more to lapse
            (b.via === pausedName &&
              b.start < resumedAtPerf &&
              ((b.answeredAt ?? Infinity) >= pausedAtPerf || heldPastLeases.has(refBySession.get(session) ?? session)))),
      );
    const twice = [...bySession]
      .filter(([session, n]) => n.validate > 1 || (n.transfer > 1 && !(n.transfer === 2 && diedWithVictim(session))))
      .map(([session, n]) => [
        refBySession.get(session) ?? session,
        n,
        bankCalls.filter((b) => b.session === session).map((b) => `${b.via} ${b.op} ${b.status}`),
      ]);
    const again = [...bySession].filter(([, n]) => n.transfer > 1).length;
    // What the merchant was told of each checkout: the outbox delivers each event once its lease is free, from any instance.
    const told = (p: Payment) =>
      [...delivered.values()].filter((d) => d.type === 'checkout.updated' && d.data.checkoutId === p.id).map((d) => d.data.state ?? '');
    await until(() => paid.every((p) => told(p).includes(p.final!)), 'every outcome to reach the merchant', 60_000, 100).catch(() => null);
    // A checkout whose answer a paused instance wrote after it was settled `unknown`: told `unknown`, then where the answer led.
    const pausedOut = (p: Payment) => p.phase === 'pause' && told(p).length === 2 && told(p)[0] === 'unknown' && told(p)[1] === p.final;
    const wrong = paid.filter((p) => (told(p).length !== 1 || told(p)[0] !== p.final) && !pausedOut(p));

    const count = (state: string) => paid.filter((p) => p.final === state).length;
    const answers503 = calls.filter((c) => c.status === 503);
    const notices = (event: string) => all.flatMap((i) => i.output.filter((l) => l.includes(`"event":"${event}"`))).length;
    figures['payments (native)'] =
      `${paid.length}: ${count('succeeded')} succeeded, ${count('unknown')} unknown, ${paid.length - count('succeeded') - count('unknown')} other; ${PAYERS} payers at once`;
    figures['told unknown, then succeeded'] =
      `${paid.filter((p) => p.final === 'succeeded' && told(p).includes('unknown')).length} (payers who read unknown on the way: ${paid.filter((p) => p.sawUnknown !== undefined && p.final !== 'unknown').length})`;
    figures['transfers at the bank'] =
      `${bankCalls.filter((b) => b.op === 'transfer').length} for ${bySession.size} bank sessions; ${again} sessions with two (${again - twice.length} after their first's instance was killed or paused)`;
    const ready503 = answers503.filter((c) => c.what.endsWith('/ready')).length;
    figures['requests'] =
      `${calls.length}: ${answers503.length} answered 503 (${answers503.filter((c) => Number(c.retryAfter) > 0).length} with Retry-After, ${ready503} /ready probes), ` +
      `${calls.filter((c) => c.status === 409).length} 409, ${unanswered.length} unanswered (open on the killed instance), ${calls.filter((c) => c.status === 500).length} 500`;
    figures['webhook events'] =
      `${[...delivered.values()].filter((d) => d.type === 'checkout.updated').length} checkout.updated for ${paid.length} payments, ${wrong.length} told other than once where they ended (${delivered.size} events in all)`;
    figures['instances logged'] = ['checkout.late_answer', 'checkout.answer_not_written', 'checkout.lock_lost'].map((e) => `${notices(e)} ${e}`).join(', ');
    figures['exits during the drill'] = `${all.filter((i) => i.exited).length} (${victim?.name} by SIGKILL)`;

    assert.deepEqual(
      paid.filter((p) => p.unexpected.length).map((p) => `${p.ref}: ${p.unexpected.join('; ')}`),
      [],
    );
    assert.deepEqual(paid.filter((p) => !p.final || !['succeeded', 'unknown'].includes(p.final)).map(brief), []);
    assert.deepEqual(
      unanswered.filter((c) => (c.who !== victim?.name || c.start > killedAtPerf) && !heldByPause(c)).map((c) => `${c.who} ${c.what}`),
      [],
    );
    assert.deepEqual(
      calls.filter((c) => c.status === 500 || c.status === undefined).map((c) => `${c.who} ${c.what} ${c.status}`),
      [],
    );
    // Never two validations for one bank session (each payment's confirmation sent once), nor two transfers but after a kill.
    assert.deepEqual(twice, []);
    // Every checkout that ended was told to the merchant, once, where it ended: no `unknown` before a success, no second outcome.
    assert.deepEqual(
      wrong.map((p) => `${p.ref} ${p.final}: told ${told(p).join(', ') || 'nothing'}`),
      [],
      stories(wrong),
    );
    // Every 503 of an API said when to come back (`/ready` is a probe's, not an API's).
    assert.deepEqual(
      answers503.filter((c) => !c.what.endsWith('/ready') && !(Number(c.retryAfter) > 0)).map((c) => `${c.who} ${c.what}`),
      [],
    );
    // A transfer's or a validation's answer is written however long the store is away (another step's is given up after a few tries: the payer repeats it).
    // (But a transfer's the paused instance held past two leases: the payer chose the account again meanwhile.)
    assert.deepEqual(
      notWritten.filter((l) => / (transfer|validate): /.test(l) && !(l.startsWith(`${pausedName}: `) && / transfer: /.test(l))),
      [],
      'every answer to a transfer or a validation was written',
    );
    assert.deepEqual(all.map((i) => i.output.filter((l) => /Unhandled|uncaught/i.test(l))).flat(), []);
    assert.deepEqual(exits(), []);
    assert.equal(victim?.exited?.signal, 'SIGKILL');
  });

  function printFigures() {
    const rows = Object.entries(figures);
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log(
      `\noutage drill: ${INSTANCES} instances, PostgreSQL ${opened(pg) ? 'private' : ''}\n${rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n')}\n`,
    );
  }
});
