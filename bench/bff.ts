/**
 * `npm run bench:bff`: the BFF's overhead. autocannon against GET /v1/banks and
 * GET /v1/checkout through the BFF, and against the simulator's banks/list directly, in one
 * run; prints requests/s, p50 and p99 for each and the ratios against the direct call.
 * Budget: the BFF keeps at least 70% of the direct throughput and adds at most 1 ms at p50.
 */
import autocannon from 'autocannon';
import { startServers } from './lib/spawn.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Figure {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function run(name: string, opts: autocannon.Options): Promise<Figure> {
  await autocannon({ ...opts, duration: 1, connections }); // warm-up
  const r = await autocannon({ ...opts, duration: seconds, connections });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

const s = await startServers();
try {
  const direct = await run('direct  POST /test/banks/list', {
    url: `${s.sandboxUrl}/test/banks/list`,
    method: 'POST',
    headers: { 'X-Api-Key': 'sandbox-api-key', Authorization: 'sandbox-api-token', 'Content-Type': 'application/json' },
    body: '{}',
  });
  const banks = await run('bff     GET /v1/banks', { url: `${s.bffUrl}/v1/banks`, headers: { 'X-Checkout-Secret': s.clientSecret } });
  const checkout = await run('bff     GET /v1/checkout', { url: `${s.bffUrl}/v1/checkout`, headers: { 'X-Checkout-Secret': s.clientSecret } });

  const rows = [direct, banks, checkout];
  console.log(`\nBFF overhead (${seconds} s each, ${connections} connections, loopback, 2 cores shared by client and servers)`);
  console.log('target                          req/s    p50 ms  p99 ms  errors  throughput vs direct  p50 added');
  for (const f of rows) {
    const ratio = f === direct ? '' : `${((f.rps / direct.rps) * 100).toFixed(0)}%`;
    const added = f === direct ? '' : `${(f.p50 - direct.p50).toFixed(2)} ms`;
    console.log(`${f.name.padEnd(30)} ${f.rps.toFixed(0).padStart(7)} ${f.p50.toFixed(2).padStart(8)} ${f.p99.toFixed(2).padStart(7)} ${String(f.errors).padStart(7)}  ${ratio.padStart(20)}  ${added.padStart(9)}`);
  }
  const worst = Math.min(banks.rps, checkout.rps) / direct.rps;
  const addedP50 = Math.max(banks.p50, checkout.p50) - direct.p50;
  const ok = worst >= 0.7 && addedP50 <= 1 && rows.every((r) => r.errors === 0);
  console.log(`budget: >= 70% of direct throughput (worst ${(worst * 100).toFixed(0)}%), <= 1 ms added at p50 (worst ${addedP50.toFixed(2)} ms), 0 errors: ${ok ? 'met' : 'NOT met'}`);
  process.exitCode = ok ? 0 : 1;
} finally {
  s.stop();
}
