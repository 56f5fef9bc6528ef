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
 */
import { createNativeClient, type BankType, type NativeClient } from '@bank-checkout/provider';
import { SANDBOX_DEFAULTS } from '@bank-checkout/sandbox/testing';
import { payingAccount } from '../../packages/bff/test/flow.js';
import { LOAD_BANKS, drive, runLoad, stepFigures, type LoadFigures } from './load.js';
import { startServers, type Servers } from './spawn.js';

export interface Leg {
  payments: number;
  seconds: number;
  errors: number;
  samples: string[];
  /** CPU ms per payment of each process over the leg. */
  cpuPerPayment: { sandbox: number; bff: number | null };
  /** Share of one core each process used over the leg. */
  cpuShare: { sandbox: number; bff: number | null };
  steps: Record<string, { count: number; p50: number; p99: number }>;
}

export interface RelayFigures {
  payers: number;
  direct: Leg;
  bff: Leg;
}

const cpuMs = (u: { user: number; system: number }) => (u.user + u.system) / 1000;

/** Complete native payments straight against the simulator, as the BFF would make them. */
async function runDirect(sandboxUrl: string, { seconds, payers }: { seconds: number; payers: number }) {
  const native: NativeClient = createNativeClient({ baseUrl: sandboxUrl, env: 'test', apiKey: SANDBOX_DEFAULTS.apiKey, apiToken: SANDBOX_DEFAULTS.apiToken, timeoutMs: 15_000 });
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
    const res = await timed('login', native.login({ bankId, userId: f.userId!, userSecret: f.userSecret!, ...(f.userExtraField ? { userExtraField: f.userExtraField } : {}) }));
    let sessionId = res.sessionId!;
    let contracts = res.listContracts;
    if (res.status === '229') {
      const second = await timed('second-login', native.secondLogin({ sessionId, secondLoginType: String(res.secondLoginType), valueFromUser: res.secondLoginField!.testValue ?? '' }));
      sessionId = second.sessionId ?? sessionId;
      contracts = second.listContracts;
    }
    const contractId = contracts?.[0]?.contractId;
    const accounts = await timed(contractId ? 'contract' : 'accounts', native.accountsList({ sessionId, ...(contractId ? { contractId } : {}) }));
    const accountId = payingAccount(bankId, accounts.listAccounts ?? []);
    const init = await timed(
      'transfer',
      native.transferInit({ sessionId, accountIdOrigin: accountId, amount: 1000 + (n % 5000), subject: 'Relay test order', holderDestiny: 'Demo Shop S.L.', accountDestiny: SANDBOX_DEFAULTS.merchantIban }),
    );
    let validations = init.validations ?? [];
    for (let round = 0; round < 5; round++) {
      const answer = validations.map((v) => ({ ...Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined)), fieldId: v.fieldId, type: v.type, valueFromUser: v.type === 6 ? 'SIGNED' : (v.testValue ?? '') }));
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

/** Runs `leg` and measures the CPU each process spent during it. */
async function measured<T extends { payments: number; seconds: number }>(procs: { sandbox: Servers; bff: Servers | null }, leg: () => Promise<T>) {
  const before = { sandbox: await procs.sandbox.cpu(), bff: procs.bff ? await procs.bff.cpu() : null };
  const out = await leg();
  const after = { sandbox: await procs.sandbox.cpu(), bff: procs.bff ? await procs.bff.cpu() : null };
  const used = (a: { user: number; system: number } | null, b: { user: number; system: number } | null) => (a && b ? cpuMs(b) - cpuMs(a) : null);
  const sandboxMs = used(before.sandbox, after.sandbox)!;
  const bffMs = used(before.bff, after.bff);
  const per = (ms: number | null) => (ms === null ? null : out.payments ? ms / out.payments : NaN);
  return {
    out,
    cpuPerPayment: { sandbox: per(sandboxMs)!, bff: per(bffMs) },
    cpuShare: { sandbox: sandboxMs / (out.seconds * 1000), bff: bffMs === null ? null : bffMs / (out.seconds * 1000) },
  };
}

export interface RelayOptions {
  seconds: number;
  payers: number;
  /** Node flags of the BFF's process, e.g. `['--cpu-prof', '--cpu-prof-dir=prof']`. */
  bffNodeArgs?: string[];
}

export async function measureRelay({ seconds, payers, bffNodeArgs = [] }: RelayOptions): Promise<RelayFigures> {
  const sandbox = await startServers({ BENCH_ROLE: 'sandbox', LOG_LEVEL: 'warn' });
  let bff: Servers | null = null;
  try {
    bff = await startServers({ BENCH_ROLE: 'bff', SANDBOX_URL: sandbox.sandboxUrl, LOG_LEVEL: 'warn' }, { nodeArgs: bffNodeArgs });
    // A short warm-up of each path (JIT, connection pools, the bank list cache), not counted.
    await runDirect(sandbox.sandboxUrl, { seconds: 1, payers });
    await runLoad(bff, { seconds: 1, payers });
    const d = await measured({ sandbox, bff: null }, () => runDirect(sandbox.sandboxUrl, { seconds, payers }));
    const b = await measured({ sandbox, bff }, async () => {
      const f: LoadFigures = await runLoad(bff!, { seconds, payers });
      return { ...f, payments: f.succeeded };
    });
    return {
      payers,
      direct: { payments: d.out.payments, seconds: d.out.seconds, errors: d.out.errors, samples: d.out.samples, steps: d.out.steps, cpuPerPayment: { sandbox: d.cpuPerPayment.sandbox, bff: null }, cpuShare: { sandbox: d.cpuShare.sandbox, bff: null } },
      bff: { payments: b.out.payments, seconds: b.out.seconds, errors: b.out.errors, samples: b.out.samples, steps: b.out.steps, cpuPerPayment: b.cpuPerPayment, cpuShare: b.cpuShare },
    };
  } finally {
    bff?.stop();
    sandbox.stop();
  }
}
