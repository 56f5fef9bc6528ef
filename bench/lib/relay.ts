/**
 * The relay benchmark: the same complete native payments (login, second login where the bank
 * asks, contracts, accounts, transfer, every validation round, with each bank's test values)
 * driven straight against the simulator's native service, then through the BFF's checkout API,
 * in one run, with the simulator and the BFF each in a process of its own. Reports payments/s of
 * each, their ratio, the CPU time per payment of each process, and p50/p99 per step.
 *
 * The direct payer speaks to the simulator as the BFF does (the provider package's native
 * client, the same requests); the BFF payer does what the page and the merchant's server do
 * (create the checkout, read the first screen, then the payer's actions).
 *
 * A third leg gives the ceiling: the direct payments through a bare relay (a process that
 * passes each request on and its answer back, nothing checked or stored; bench/lib/servers.ts
 * `BENCH_ROLE=relay`). No relay made with Node's HTTP modules does less per call, so its ratio
 * bounds what the BFF's could be on the same machine and harness. An optional fourth leg runs
 * the same relay as a Hono app on @hono/node-server (`BENCH_ROLE=hono-relay`), the BFF's stack:
 * it splits the BFF's distance to the bare relay into what the framework adds and what the BFF
 * itself does.
 *
 * The floor of the BFF's guarantees (DESIGN: one door, answers that survive the store, leases,
 * never traded for throughput) is the **journaling relay** (`BENCH_ROLE=journal-relay`): the Hono
 * relay writing, for each call it passes on, one row in one transaction to the same store engine
 * as the BFF's, with the BFF's durability (the BFF's own driver). No relay that cannot forget an
 * answer does less; the BFF is measured against it first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createNativeClient, type BankType, type NativeClient } from '@bank-checkout/provider';
import { SANDBOX_DEFAULTS } from '@bank-checkout/sandbox/testing';
import { payingAccount } from '../../packages/bff/test/flow.js';
import { LOAD_BANKS, drive, runLoad, stepFigures, type LoadFigures } from './load.js';
import { startServers, type Servers } from './spawn.js';
import { measureStorage, type StorageFigures } from './storage.js';

export interface Leg {
  payments: number;
  seconds: number;
  errors: number;
  samples: string[];
  /** CPU ms per payment of each process over the leg (`relay`: the BFF or the bare relay, when the leg has one; `payers`: the benchmark's own process). */
  cpuPerPayment: { sandbox: number; relay: number | null; payers: number };
  /** Share of one core each process used over the leg. */
  cpuShare: { sandbox: number; relay: number | null; payers: number };
  steps: Record<string, { count: number; p50: number; p99: number }>;
}

export interface RelayFigures {
  payers: number;
  direct: Leg;
  /** The direct payments through the bare relay: the ceiling of any relay. */
  bare: Leg;
  /** The direct payments through the same relay on Hono and @hono/node-server, when asked for. */
  hono: Leg | null;
  /** The direct payments through the journaling relay (one durable row per call): the floor of the BFF's guarantees. */
  journal: Leg | null;
  bff: Leg;
  /** What the BFF's SQLite store holds after every leg through it (warm-up included). */
  storage: StorageFigures | null;
}

/**
 * The relay's headline figures, both measured in the same run against a bare relay (a process
 * that passes each call on and keeps nothing): payments/s through the BFF ÷ through the bare
 * relay, and the BFF's CPU per payment ÷ the bare relay's. The goals are 60% and 3×; the floors
 * `bench:ci` enforces sit far below them, because one machine gives the same code 26–43% from
 * run to run: they catch a collapse (the BFF at under half its speed on a slow, busy machine,
 * where it measures about 20%), not a drift, which only alternated runs show.
 */
export const RELAY_BUDGET = { ratioFloor: 0.12, ratioGoal: 0.6, cpuCeiling: 16, cpuGoal: 3 };

/** The goals against the journaling relay, the floor of the BFF's guarantees: 60% of its rate, 2.5× its CPU per payment at most. */
export const JOURNAL_GOAL = { ratio: 0.6, cpu: 2.5 };

/** The BFF's rate ÷ a leg's, and its CPU per payment ÷ that leg's. */
export function against(r: RelayFigures, leg: Leg): { ratio: number; cpu: number } {
  return {
    ratio: r.bff.payments / r.bff.seconds / (leg.payments / leg.seconds),
    cpu: (r.bff.cpuPerPayment.relay ?? NaN) / (leg.cpuPerPayment.relay ?? NaN),
  };
}

/**
 * The headline figures of a run (see RELAY_BUDGET): against the bare relay, and against the
 * journaling relay when it ran (`journal`); `clean` when no leg had an error.
 */
export function relayHeadline(r: RelayFigures): { ratio: number; cpu: number; clean: boolean; journal: { ratio: number; cpu: number } | null } {
  return {
    ...against(r, r.bare),
    journal: r.journal ? against(r, r.journal) : null,
    clean: r.direct.errors === 0 && r.bare.errors === 0 && r.bff.errors === 0 && (r.journal?.errors ?? 0) === 0,
  };
}

/** Whether a run meets the floors `bench:ci` enforces, with no error on any leg. */
export function relayMet(r: RelayFigures): boolean {
  const { ratio, cpu, clean } = relayHeadline(r);
  return clean && ratio >= RELAY_BUDGET.ratioFloor && cpu <= RELAY_BUDGET.cpuCeiling;
}

/** Seconds of uncounted payments on each path before the measured legs. */
export const RELAY_WARMUP_SECONDS = 6;

/** A process's CPU time (`process.cpuUsage()`, µs) in ms. */
export const cpuMs = (u: { user: number; system: number }) => (u.user + u.system) / 1000;

/** Complete native payments straight against the simulator, as the BFF would make them. */
async function runDirect(sandboxUrl: string, { seconds, payers, times = {} }: { seconds: number; payers: number; times?: Record<string, number[]> }) {
  const native: NativeClient = createNativeClient({
    baseUrl: sandboxUrl,
    env: 'test',
    apiKey: SANDBOX_DEFAULTS.apiKey,
    apiToken: SANDBOX_DEFAULTS.apiToken,
    timeoutMs: 15_000,
  });
  const banks = new Map<string, BankType>(((await native.banksList()).listBanks ?? []).flatMap((g) => g.types).map((b) => [b.bankId, b]));
  const timed = async <T>(step: string, call: Promise<T>): Promise<T> => {
    const started = performance.now();
    const out = await call;
    (times[step] ??= []).push(performance.now() - started);
    return out;
  };
  let payments = 0;

  async function pay(n: number): Promise<void> {
    const bankId = LOAD_BANKS[n % LOAD_BANKS.length]!;
    const bank = banks.get(bankId)!;
    const login = bank.logins.find((l) => l.loginId === bank.defaultLogin)!;
    const f = Object.fromEntries(login.fields.map((x) => [x.fieldId, x.testValue ?? '']));
    const res = await timed(
      'login',
      native.login({ bankId, userId: f.userId!, userSecret: f.userSecret!, ...(f.userExtraField ? { userExtraField: f.userExtraField } : {}) }),
    );
    let sessionId = res.sessionId!;
    let contracts = res.listContracts;
    if (res.status === '229') {
      const second = await timed(
        'second-login',
        native.secondLogin({ sessionId, secondLoginType: String(res.secondLoginType), valueFromUser: res.secondLoginField!.testValue ?? '' }),
      );
      sessionId = second.sessionId ?? sessionId;
      contracts = second.listContracts;
    }
    const contractId = contracts?.[0]?.contractId;
    const accounts = await timed(contractId ? 'contract' : 'accounts', native.accountsList({ sessionId, ...(contractId ? { contractId } : {}) }));
    const accountId = payingAccount(bankId, accounts.listAccounts ?? []);
    const init = await timed(
      'transfer',
      native.transferInit({
        sessionId,
        accountIdOrigin: accountId,
        amount: 1000 + (n % 5000),
        subject: 'Relay test order',
        holderDestiny: 'Demo Shop S.L.',
        accountDestiny: SANDBOX_DEFAULTS.merchantIban,
      }),
    );
    let validations = init.validations ?? [];
    for (let round = 0; round < 5; round++) {
      const answer = validations.map((v) => ({
        ...Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined)),
        fieldId: v.fieldId,
        type: v.type,
        valueFromUser: v.type === 6 ? 'SIGNED' : (v.testValue ?? ''),
      }));
      const done = await timed('validate', native.transferValidate({ sessionId, validations: answer }));
      if (done.status === '200') {
        payments++;
        return;
      }
      validations = done.validations?.length ? done.validations : validations;
    }
    throw new Error(`${bankId}: no final answer`);
  }

  const run = await drive({ seconds, payers }, pay);
  return { payments, ...run, steps: stepFigures(times) };
}

/** What one turn of payments on a path gives back. */
type TurnRun = Pick<Leg, 'payments' | 'seconds' | 'errors' | 'samples'>;

/** A path's turns added up: payments, wall time, errors, CPU of each process (ms), and every step's timings. */
interface Tally {
  payments: number;
  seconds: number;
  errors: number;
  samples: string[];
  cpu: { sandbox: number; relay: number | null; payers: number };
  times: Record<string, number[]>;
}

const newTally = (withRelay: boolean): Tally => ({
  payments: 0,
  seconds: 0,
  errors: 0,
  samples: [],
  cpu: { sandbox: 0, relay: withRelay ? 0 : null, payers: 0 },
  times: {},
});

/**
 * Runs one turn of `run` (its step timings added to the tally's) and adds to `tally` what it
 * paid and the CPU each process spent during it (`relay`: the process between the payers and
 * the simulator, if any).
 */
async function turn(
  procs: { sandbox: Servers; relay: Servers | null },
  tally: Tally,
  run: (times: Record<string, number[]>) => Promise<TurnRun>,
): Promise<void> {
  /** The CPU time each process has used so far, in ms. */
  const sample = async () => ({
    sandbox: cpuMs(await procs.sandbox.cpu()),
    relay: procs.relay ? cpuMs(await procs.relay.cpu()) : 0,
    payers: cpuMs(process.cpuUsage()),
  });
  const before = await sample();
  const out = await run(tally.times);
  const after = await sample();
  tally.payments += out.payments;
  tally.seconds += out.seconds;
  tally.errors += out.errors;
  tally.samples.push(...out.samples.slice(0, 5 - tally.samples.length));
  tally.cpu.sandbox += after.sandbox - before.sandbox;
  if (tally.cpu.relay !== null) tally.cpu.relay += after.relay - before.relay;
  tally.cpu.payers += after.payers - before.payers;
}

/** A path's figures from its turns. */
function legOf(t: Tally): Leg {
  const per = (ms: number) => (t.payments ? ms / t.payments : NaN);
  const share = (ms: number) => ms / (t.seconds * 1000);
  return {
    payments: t.payments,
    seconds: t.seconds,
    errors: t.errors,
    samples: t.samples,
    steps: stepFigures(t.times),
    cpuPerPayment: { sandbox: per(t.cpu.sandbox), relay: t.cpu.relay === null ? null : per(t.cpu.relay), payers: per(t.cpu.payers) },
    cpuShare: { sandbox: share(t.cpu.sandbox), relay: t.cpu.relay === null ? null : share(t.cpu.relay), payers: share(t.cpu.payers) },
  };
}

export interface RelayOptions {
  seconds: number;
  payers: number;
  /** Seconds of payments on each path before the legs, not counted (default RELAY_WARMUP_SECONDS). */
  warmupSeconds?: number;
  /** Where to write a CPU profile of the BFF's process over the measured turns (a .cpuprofile file). */
  profileFile?: string;
  /** Also measure the relay on Hono and @hono/node-server (the framework's share). */
  hono?: boolean;
  /** Measure the journaling relay (default true): the floor of the BFF's guarantees. */
  journal?: boolean;
  /**
   * Turns each path's `seconds` is split into (default RELAY_ROUNDS): the bare relay, the Hono
   * relay and the BFF take turns, in the reverse order every other round, so that a slow or a
   * fast phase of the machine falls on every path rather than on the one that ran then.
   */
  rounds?: number;
}

/** Turns of the relay's paths (see RelayOptions.rounds). */
export const RELAY_ROUNDS = 4;

export async function measureRelay({
  seconds,
  payers,
  warmupSeconds = RELAY_WARMUP_SECONDS,
  profileFile,
  hono = false,
  journal = true,
  rounds = RELAY_ROUNDS,
}: RelayOptions): Promise<RelayFigures> {
  const sandbox = await startServers({ BENCH_ROLE: 'sandbox', LOG_LEVEL: 'warn' });
  let bff: Servers | null = null;
  let bare: Servers | null = null;
  let honoRelay: Servers | null = null;
  let journalRelay: Servers | null = null;
  // The BFF's store in a file of its own, read for its size once the BFF has stopped.
  const dbFile = process.env.DATABASE_URL ? null : join(mkdtempSync(join(tmpdir(), 'bench-relay-')), 'bff.db');
  let figures: Omit<RelayFigures, 'storage'>;
  try {
    bff = await startServers({ BENCH_ROLE: 'bff', SANDBOX_URL: sandbox.sandboxUrl, LOG_LEVEL: 'warn', ...(dbFile ? { DATABASE_URL: `file:${dbFile}` } : {}) });
    bare = await startServers({ BENCH_ROLE: 'relay', SANDBOX_URL: sandbox.sandboxUrl });
    const relayUrl = bare.relayUrl!;
    if (hono) honoRelay = await startServers({ BENCH_ROLE: 'hono-relay', SANDBOX_URL: sandbox.sandboxUrl });
    // The journal on the BFF's engine: PostgreSQL when the BFF is given one, else a SQLite file of its own.
    if (journal)
      journalRelay = await startServers({
        BENCH_ROLE: 'journal-relay',
        SANDBOX_URL: sandbox.sandboxUrl,
        ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      });
    // A warm-up of each path (JIT, connection pools, the bank list cache), not counted: long
    // enough for the BFF, whose code is much larger than a relay's, to reach its steady state
    // (after one second it still ran at about half its speed; after six, at its steady rate).
    await runDirect(sandbox.sandboxUrl, { seconds: warmupSeconds, payers });
    await runDirect(relayUrl, { seconds: warmupSeconds, payers });
    if (honoRelay) await runDirect(honoRelay.relayUrl!, { seconds: warmupSeconds, payers });
    if (journalRelay) await runDirect(journalRelay.relayUrl!, { seconds: warmupSeconds, payers });
    await runLoad(bff, { seconds: warmupSeconds, payers });
    const direct = newTally(false);
    await turn({ sandbox, relay: null }, direct, (times) => runDirect(sandbox.sandboxUrl, { seconds, payers, times }));
    // The paths that are compared take turns (see RelayOptions.rounds).
    const each = seconds / rounds;
    const via = (relay: Servers, url: string, tally: Tally) => () =>
      turn({ sandbox, relay }, tally, (times) => runDirect(url, { seconds: each, payers, times }));
    const throughBff = (server: Servers, tally: Tally) => () =>
      turn({ sandbox, relay: server }, tally, async (times) => {
        const f: LoadFigures = await runLoad(server, { seconds: each, payers, times });
        return { ...f, payments: f.succeeded };
      });
    const tallies = { bare: newTally(true), hono: honoRelay ? newTally(true) : null, journal: journalRelay ? newTally(true) : null, bff: newTally(true) };
    const turns = [
      via(bare, relayUrl, tallies.bare),
      ...(honoRelay && tallies.hono ? [via(honoRelay, honoRelay.relayUrl!, tallies.hono)] : []),
      ...(journalRelay && tallies.journal ? [via(journalRelay, journalRelay.relayUrl!, tallies.journal)] : []),
      throughBff(bff, tallies.bff),
    ];
    if (profileFile) await bff.profile();
    for (let round = 0; round < rounds; round++) for (const next of round % 2 ? [...turns].reverse() : turns) await next();
    if (profileFile) await bff.profile(profileFile);
    figures = {
      payers,
      direct: legOf(direct),
      bare: legOf(tallies.bare),
      hono: tallies.hono && legOf(tallies.hono),
      journal: tallies.journal && legOf(tallies.journal),
      bff: legOf(tallies.bff),
    };
  } finally {
    bare?.stop();
    honoRelay?.stop();
    journalRelay?.stop();
    bff?.stop();
    sandbox.stop();
  }
  if (bff) await new Promise((r) => (bff!.child.exitCode === null ? bff!.child.once('exit', r) : r(null)));
  if (!dbFile) return { ...figures, storage: null };
  try {
    return { ...figures, storage: measureStorage(dbFile) };
  } finally {
    rmSync(dirname(dbFile), { recursive: true, force: true });
  }
}
