/**
 * `npm run bench:bff`: the BFF's overhead. autocannon against GET /v1/banks and
 * GET /v1/checkout through the BFF, and against the simulator's banks/list directly, in one
 * run; prints requests/s, p50 and p99 for each and the ratios against the direct call.
 * Budget: the BFF keeps at least 70% of the direct throughput and adds at most 1 ms at p50.
 *
 * `measureOverhead(servers)` runs the same measurement against servers already started
 * (`npm run bench` uses it).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServers, type Servers } from './lib/spawn.js';

export interface Figure {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface Overhead {
  seconds: number;
  connections: number;
  direct: Figure;
  banks: Figure;
  checkout: Figure;
  /** Lowest throughput through the BFF as a share of the direct one. */
  worstRatio: number;
  /** Largest p50 added by the BFF, in ms. */
  addedP50: number;
  errors: number;
}

/** The budget: at least this share of the direct throughput, at most this many ms added at p50. */
export const OVERHEAD_BUDGET = { ratio: 0.7, addedP50Ms: 1 };

export async function measureOverhead(
  s: Pick<Servers, 'sandboxUrl' | 'bffUrl' | 'clientSecret'>,
  { seconds = 5, connections = 10 }: { seconds?: number; connections?: number } = {},
): Promise<Overhead> {
  async function run(name: string, opts: autocannon.Options): Promise<Figure> {
    await autocannon({ ...opts, duration: 1, connections }); // warm-up
    const r = await autocannon({ ...opts, duration: seconds, connections });
    return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx };
  }
  const direct = await run('direct  POST /test/banks/list', {
    url: `${s.sandboxUrl}/test/banks/list`,
    method: 'POST',
    headers: { 'X-Api-Key': 'sandbox-api-key', Authorization: 'sandbox-api-token', 'Content-Type': 'application/json' },
    body: '{}',
  });
  const banks = await run('bff     GET /v1/banks', { url: `${s.bffUrl}/v1/banks`, headers: { 'X-Checkout-Secret': s.clientSecret } });
  const checkout = await run('bff     GET /v1/checkout', { url: `${s.bffUrl}/v1/checkout`, headers: { 'X-Checkout-Secret': s.clientSecret } });
  return {
    seconds,
    connections,
    direct,
    banks,
    checkout,
    worstRatio: Math.min(banks.rps, checkout.rps) / direct.rps,
    addedP50: Math.max(banks.p50, checkout.p50) - direct.p50,
    errors: direct.errors + banks.errors + checkout.errors,
  };
}

export function overheadMet(o: Overhead): boolean {
  return o.worstRatio >= OVERHEAD_BUDGET.ratio && o.addedP50 <= OVERHEAD_BUDGET.addedP50Ms && o.errors === 0;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const s = await startServers();
  try {
    const o = await measureOverhead(s, { seconds: Number(process.env.BENCH_SECONDS ?? 5), connections: Number(process.env.BENCH_CONNECTIONS ?? 10) });
    const rows = [o.direct, o.banks, o.checkout];
    console.log(`\nBFF overhead (${o.seconds} s each, ${o.connections} connections, loopback, 2 cores shared by client and servers)`);
    console.log('target                          req/s    p50 ms  p99 ms  errors  throughput vs direct  p50 added');
    for (const f of rows) {
      const ratio = f === o.direct ? '' : `${((f.rps / o.direct.rps) * 100).toFixed(0)}%`;
      const added = f === o.direct ? '' : `${(f.p50 - o.direct.p50).toFixed(2)} ms`;
      console.log(
        `${f.name.padEnd(30)} ${f.rps.toFixed(0).padStart(7)} ${f.p50.toFixed(2).padStart(8)} ${f.p99.toFixed(2).padStart(7)} ${String(f.errors).padStart(7)}  ${ratio.padStart(20)}  ${added.padStart(9)}`,
      );
    }
    const ok = overheadMet(o);
    console.log(
      `budget: >= 70% of direct throughput (worst ${(o.worstRatio * 100).toFixed(0)}%), <= 1 ms added at p50 (worst ${o.addedP50.toFixed(2)} ms), 0 errors: ${ok ? 'met' : 'NOT met'}`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    s.stop();
  }
}
