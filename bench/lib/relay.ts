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

/** The headline figures of a run (see RELAY_BUDGET); `clean` when no leg had an error. */
export function relayHeadline(r: RelayFigures): { ratio: number; cpu: number; clean: boolean } {
  return {
    ratio: r.bff.payments / r.bff.seconds / (r.bare.payments / r.bare.seconds),
    cpu: (r.bff.cpuPerPayment.relay ?? NaN) / (r.bare.cpuPerPayment.relay ?? NaN),
    clean: r.direct.errors === 0 && r.bare.errors === 0 && r.bff.errors === 0,
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
async function runDirect(sandboxUrl: string, { seconds, payers }: { seconds: number; payers: number }) {
  const native: NativeClient = createNativeClient({
    baseUrl: sandboxUrl,
    env: 'test',
    apiKey: SANDBOX_DEFAULTS.apiKey,
    apiToken: SANDBOX_DEFAULTS.apiToken,
    timeoutMs: 15_000,
  });
  const banks = new Map<string, BankType>(((await native.banksList()).listBanks ?? []).flatMap((g) => g.types).map((b) => [b.bankId, b]));
  const times: Record<string, number[]> = {};
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

type LegRun = Pick<Leg, 'payments' | 'seconds' | 'errors' | 'samples' | 'steps'>;

/** Runs `leg` and measures the CPU each process spent during it (`relay`: the process between the payers and the simulator, if any). */
async function measured(procs: { sandbox: Servers; relay: Servers | null }, leg: () => Promise<LegRun>): Promise<Leg> {
  /** The CPU time each process has used so far, in ms. */
  const sample = async () => ({
    sandbox: cpuMs(await procs.sandbox.cpu()),
    relay: procs.relay ? cpuMs(await procs.relay.cpu()) : null,
    payers: cpuMs(process.cpuUsage()),
  });
  const before = await sample();
  const out = await leg();
  const after = await sample();
  const { payments, seconds, errors, samples, steps } = out;
  const used = {
    sandbox: after.sandbox - before.sandbox,
    relay: after.relay === null ? null : after.relay - before.relay!,
    payers: after.payers - before.payers,
  };
  const per = (ms: number) => (payments ? ms / payments : NaN);
  const share = (ms: number) => ms / (seconds * 1000);
  return {
    payments,
    seconds,
    errors,
    samples,
    steps,
    cpuPerPayment: { sandbox: per(used.sandbox), relay: used.relay === null ? null : per(used.relay), payers: per(used.payers) },
    cpuShare: { sandbox: share(used.sandbox), relay: used.relay === null ? null : share(used.relay), payers: share(used.payers) },
  };
}

export interface RelayOptions {
  seconds: number;
  payers: number;
  /** Seconds of payments on each path before the legs, not counted (default RELAY_WARMUP_SECONDS). */
  warmupSeconds?: number;
  /** Where to write a CPU profile of the BFF's process over its measured leg (a .cpuprofile file). */
  profileFile?: string;
  /** Also measure the relay on Hono and @hono/node-server (the framework's share). */
  hono?: boolean;
}

export async function measureRelay({ seconds, payers, warmupSeconds = RELAY_WARMUP_SECONDS, profileFile, hono = false }: RelayOptions): Promise<RelayFigures> {
  const sandbox = await startServers({ BENCH_ROLE: 'sandbox', LOG_LEVEL: 'warn' });
  let bff: Servers | null = null;
  let bare: Servers | null = null;
  let honoRelay: Servers | null = null;
  // The BFF's store in a file of its own, read for its size once the BFF has stopped.
  const dbFile = process.env.DATABASE_URL ? null : join(mkdtempSync(join(tmpdir(), 'bench-relay-')), 'bff.db');
  let figures: Omit<RelayFigures, 'storage'>;
  try {
    bff = await startServers({ BENCH_ROLE: 'bff', SANDBOX_URL: sandbox.sandboxUrl, LOG_LEVEL: 'warn', ...(dbFile ? { DATABASE_URL: `file:${dbFile}` } : {}) });
    bare = await startServers({ BENCH_ROLE: 'relay', SANDBOX_URL: sandbox.sandboxUrl });
    const relayUrl = bare.relayUrl!;
    if (hono) honoRelay = await startServers({ BENCH_ROLE: 'hono-relay', SANDBOX_URL: sandbox.sandboxUrl });
    // A warm-up of each path (JIT, connection pools, the bank list cache), not counted: long
    // enough for the BFF, whose code is much larger than a relay's, to reach its steady state
    // (after one second it still ran at about half its speed; after six, at its steady rate).
    await runDirect(sandbox.sandboxUrl, { seconds: warmupSeconds, payers });
    await runDirect(relayUrl, { seconds: warmupSeconds, payers });
    if (honoRelay) await runDirect(honoRelay.relayUrl!, { seconds: warmupSeconds, payers });
    await runLoad(bff, { seconds: warmupSeconds, payers });
    const direct = await measured({ sandbox, relay: null }, () => runDirect(sandbox.sandboxUrl, { seconds, payers }));
    const bareLeg = await measured({ sandbox, relay: bare }, () => runDirect(relayUrl, { seconds, payers }));
    const honoLeg = honoRelay ? await measured({ sandbox, relay: honoRelay }, () => runDirect(honoRelay!.relayUrl!, { seconds, payers })) : null;
    if (profileFile) await bff.profile();
    const bffLeg = await measured({ sandbox, relay: bff }, async () => {
      const f: LoadFigures = await runLoad(bff!, { seconds, payers });
      return { ...f, payments: f.succeeded };
    });
    if (profileFile) await bff.profile(profileFile);
    figures = { payers, direct, bare: bareLeg, hono: honoLeg, bff: bffLeg };
  } finally {
    bare?.stop();
    honoRelay?.stop();
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
