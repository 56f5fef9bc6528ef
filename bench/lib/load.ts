/**
 * A load of complete native checkouts through the BFF and the simulator over HTTP: `payers`
 * virtual payers, each in a loop until `seconds` have passed (a checkout under way is
 * finished): the merchant creates a checkout (POST /v1/checkouts), the payer's page reads it
 * with the bank list (GET /v1/checkout/start, as the element does), logs in with the bank's test values,
 * answers the second login, picks a contract, starts the transfer from an account that pays,
 * and answers every validation round with its test values. The banks rotate, so every kind of
 * step is exercised. Every request is timed per step; an HTTP error or an unexpected state
 * counts as an error.
 */
import { Agent, request } from 'node:http';
import type { BankView, BanksResponse, CheckoutView } from '@bank-checkout/contract';
import { payingAccount, testFields } from '../../packages/bff/test/flow.js';
import type { Servers } from './spawn.js';

/** One bank per kind of flow: plain, second login (SMS, app), contracts, two rounds, sign in the app. */
export const LOAD_BANKS = ['aurora', 'levante', 'cantabrico', 'aurora-empresas', 'cantabrico-empresas', 'meridiano'];

export const STEPS = ['create', 'start', 'login', 'second-login', 'contract', 'transfer', 'validate'] as const;
export type Step = (typeof STEPS)[number];

export interface LoadFigures {
  payers: number;
  /** Wall time from the start to the last payer's last checkout, in seconds. */
  seconds: number;
  succeeded: number;
  errors: number;
  /** The first few errors, for the report. */
  samples: string[];
  /** Latency per step, in ms. */
  steps: Record<Step, { count: number; p50: number; p99: number }>;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

class StepError extends Error {}

/**
 * `payers` loops, each making payment after payment (`pay(n)`, n counting across all of them)
 * until `seconds` have passed; a failed payment is counted and the first few quoted.
 */
export async function drive(
  { seconds, payers }: { seconds: number; payers: number },
  pay: (n: number) => Promise<void>,
): Promise<{ seconds: number; errors: number; samples: string[] }> {
  const started = performance.now();
  const end = started + seconds * 1000;
  let next = 0;
  let errors = 0;
  const samples: string[] = [];
  await Promise.all(
    Array.from({ length: payers }, async () => {
      while (performance.now() < end) {
        try {
          await pay(next++);
        } catch (err) {
          errors++;
          if (samples.length < 5) samples.push(err instanceof Error ? err.message : String(err));
        }
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, errors, samples };
}

/** p50 and p99 of each step's timings, in ms. */
export function stepFigures(times: Record<string, number[]>): Record<string, { count: number; p50: number; p99: number }> {
  return Object.fromEntries(
    Object.entries(times).map(([st, list]) => {
      const sorted = list.sort((a, b) => a - b);
      return [st, { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) }];
    }),
  );
}

/**
 * The payers' HTTP client: node:http with a keep-alive agent, as cheap per request as the
 * provider client the BFF (and the relay's direct payers) use, so the payers' own CPU takes as
 * little as possible from the servers on a shared machine (fetch costs several times more).
 */
const agent = new Agent({ keepAlive: true, scheduling: 'lifo' });

function send(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const req = request(
      url,
      { method: init.method, headers: body ? { ...init.headers, 'Content-Length': String(body.byteLength) } : init.headers, agent, timeout: 15_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer in 15 s')));
    req.on('error', reject);
    req.end(body);
  });
}

/** `times`: where each step's timings are added, when several runs share them. */
export async function runLoad(
  s: Pick<Servers, 'bffUrl' | 'merchantSecret'>,
  { seconds, payers, times = {} }: { seconds: number; payers: number; times?: Record<string, number[]> },
): Promise<LoadFigures> {
  for (const st of STEPS) times[st] ??= [];
  let succeeded = 0;

  async function call<T>(step: Step, path: string, init: { method?: string; headers: Record<string, string>; body?: unknown }): Promise<T> {
    const started = performance.now();
    const res = await send(`${s.bffUrl}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { ...init.headers, ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const text = res.text;
    times[step]!.push(performance.now() - started);
    if (res.status < 200 || res.status > 299) throw new StepError(`${step}: HTTP ${res.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  }

  async function checkout(n: number): Promise<void> {
    const bankId = LOAD_BANKS[n % LOAD_BANKS.length]!;
    const created = await call<{ clientSecret: string }>('create', '/v1/checkouts', {
      headers: { Authorization: `Bearer ${s.merchantSecret}` },
      body: { amount: 1000 + (n % 5000), subject: 'Load test order', reference: `LOAD-${n}`, isolation: 'inline' },
    });
    const payer = { 'X-Checkout-Secret': created.clientSecret };
    const first = await call<{ view: CheckoutView; banks: BanksResponse | null }>('start', '/v1/checkout/start', { headers: payer });
    const groups = first.banks?.groups ?? [];
    const bank = groups.flatMap((g) => g.types).find((b: BankView) => b.bankId === bankId);
    if (!bank) throw new StepError(`start: ${bankId} not listed`);
    let v = await call<CheckoutView>('login', '/v1/checkout/login', { headers: payer, body: { bankId, loginId: bank.defaultLogin, fields: testFields(bank) } });
    for (let guard = 0; guard < 10; guard++) {
      const st = v.step;
      switch (st.state) {
        case 'second-login':
          v = await call('second-login', '/v1/checkout/second-login', { headers: payer, body: { value: st.field.testValue } });
          break;
        case 'select-contract':
          v = await call('contract', '/v1/checkout/contract', { headers: payer, body: { contractId: st.contracts[0]!.contractId } });
          break;
        case 'select-account':
          v = await call('transfer', '/v1/checkout/transfer', { headers: payer, body: { accountId: payingAccount(bankId, st.accounts) } });
          break;
        case 'validate': {
          const values = Object.fromEntries(st.validations.map((x) => [x.fieldId, x.type === 6 ? 'SIGNED' : (x.testValue ?? '')]));
          v = await call('validate', '/v1/checkout/validate', { headers: payer, body: { values } });
          break;
        }
        case 'succeeded':
          succeeded++;
          return;
        default:
          throw new StepError(`${bankId}: unexpected state ${v.state}${v.error ? ` (${v.error.code})` : ''}`);
      }
    }
    throw new StepError(`${bankId}: no final state`);
  }

  const run = await drive({ seconds, payers }, checkout);
  return { payers, seconds: run.seconds, succeeded, errors: run.errors, samples: run.samples, steps: stepFigures(times) as LoadFigures['steps'] };
}
