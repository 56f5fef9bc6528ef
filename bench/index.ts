/**
 * `npm run bench`: every benchmark, one table (metric, value, budget, ok). `npm run bench:ci`
 * (`--ci`) runs the short form and exits 1 when an enforced budget is broken. bench/README.md
 * says what each figure means and how it is measured.
 *
 * Environment: BENCH_RUNS (render runs; 7, --ci 5), BENCH_SECONDS and BENCH_CONNECTIONS (BFF
 * overhead; 5 s and 10, --ci 3 s), BENCH_LOAD_SECONDS (60, --ci 10), BENCH_PAYERS (8),
 * BENCH_TRIES (timed budgets: how many runs a part gets before its budget counts as broken; 1,
 * --ci 3), BENCH_BUILT=1 (the packages' dist/ are current: measured without building them again;
 * CI sets it after its install check has built them).
 *
 * Timed budgets (the BFF's overhead, the relay's ratio and CPU) depend on what else the machine
 * does. A busy neighbour only ever makes a run slower, so a part whose run misses its budget is
 * measured again, up to BENCH_TRIES runs, and the best run is the one shown (with how many runs it
 * took). A real regression misses every run; a noisy one does not.
 */
import { OVERHEAD_BUDGET, measureOverhead, overheadMet, type Overhead } from './bff.js';
import { runLoad, median, percentile, STEPS, type LoadFigures } from './lib/load.js';
import { measureRender, type RenderFigures } from './lib/render.js';
import { BUNDLE_BUDGET_GZIP, HOST_BUDGET_GZIP, KIT_BUDGET_GZIP, kb, measureMerchantKit, measureSizes } from './lib/size.js';
import { measurePublished } from './lib/published.js';
import { startServers, type MemorySample } from './lib/spawn.js';
import { JOURNAL_GOAL, RELAY_BUDGET, RELAY_ROUNDS, RELAY_WARMUP_SECONDS, measureRelay, relayHeadline, relayMet, type RelayFigures } from './lib/relay.js';
import { bytesPerPayment } from './lib/storage.js';
import type { BanksResponse, CheckoutView } from '@bank-checkout/contract';

const ci = process.argv.includes('--ci');
const num = (name: string, full: number, short: number) => Number(process.env[name] ?? (ci ? short : full));
const settings = {
  runs: Math.max(5, num('BENCH_RUNS', 7, 5)),
  overheadSeconds: num('BENCH_SECONDS', 5, 3),
  connections: num('BENCH_CONNECTIONS', 10, 10),
  loadSeconds: num('BENCH_LOAD_SECONDS', 60, 10),
  payers: num('BENCH_PAYERS', 8, 8),
  relaySeconds: num('BENCH_RELAY_SECONDS', 10, 4),
  relayPayers: num('BENCH_RELAY_PAYERS', 16, 16),
  relayWarmup: num('BENCH_RELAY_WARMUP', RELAY_WARMUP_SECONDS, RELAY_WARMUP_SECONDS),
  relayRounds: num('BENCH_RELAY_ROUNDS', RELAY_ROUNDS, 2),
  tries: Math.max(1, num('BENCH_TRIES', 1, 3)),
};
/** Heap (after a full collection) may grow by at most this much over the load. */
const HEAP_GROWTH_BUDGET = 64 * 1024 * 1024;

type Verdict = 'ok' | 'FAIL' | '';
interface Row {
  metric: string;
  value: string;
  budget: string;
  ok: Verdict;
}
const rows: Row[] = [];
const notes: string[] = [];
let broken = false;

function row(metric: string, value: string, budget = '', met?: boolean): void {
  let ok: Verdict = '';
  if (met !== undefined) ok = met ? 'ok' : 'FAIL';
  if (ok === 'FAIL') broken = true;
  rows.push({ metric, value, budget, ok });
}

/** Runs one part; a part that cannot run is a failure of the benchmark, shown in the table. */
async function part<T>(name: string, fn: () => Promise<T>): Promise<T | null> {
  const started = performance.now();
  process.stderr.write(`bench: ${name}…\n`);
  try {
    const result = await fn();
    process.stderr.write(`bench: ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    return result;
  } catch (err) {
    row(name, `not measured: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, '', false);
    return null;
  }
}

/**
 * Runs a timed part up to `settings.tries` times, until a run meets its budget; returns the best
 * run by `score` (higher is better) and how many runs were made. A run with errors is returned
 * as it is: an error is a defect, not noise, and another run must not hide it.
 */
async function bestOf<T>(
  fn: () => Promise<T>,
  { met, score, errors }: { met: (r: T) => boolean; score: (r: T) => number; errors: (r: T) => boolean },
): Promise<{ best: T; runs: number }> {
  let best = await fn();
  let runs = 1;
  while (!errors(best) && !met(best) && runs < settings.tries) {
    process.stderr.write(`bench: a timed budget was missed; measuring again (run ${runs + 1} of at most ${settings.tries})\n`);
    const next = await fn();
    runs++;
    if (errors(next)) return { best: next, runs };
    if (score(next) > score(best)) best = next;
  }
  return { best, runs };
}
const runsNote = (runs: number) => (runs > 1 ? `, best of ${runs} runs` : '');

const ms = (v: number) => `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ms`;
const mb = (v: number) => `${(v / 1024 / 1024).toFixed(1)} MB`;

/* ---------- bundle size ---------- */

const sizes = await part('bundle size', measureSizes);
if (sizes) {
  row(
    'bundle <bank-checkout>, gzip -9',
    `${kb(sizes.checkout.gzip)} (${sizes.checkout.gzip} B)`,
    `≤ ${kb(BUNDLE_BUDGET_GZIP)}`,
    sizes.checkout.gzip <= BUNDLE_BUDGET_GZIP,
  );
  row('bundle <bank-checkout>, minified', kb(sizes.checkout.min));
  row('bundle whole kit (es, en; ca, eu, gl on demand), gzip -9', kb(sizes.kit.gzip));
  row(
    'bundle isolated host (@bank-checkout/elements/frame), gzip -9',
    `${kb(sizes.host.gzip)} (${sizes.host.gzip} B)`,
    `≤ ${kb(HOST_BUDGET_GZIP)}`,
    sizes.host.gzip <= HOST_BUDGET_GZIP,
  );
  row(
    'zod in the bundles',
    sizes.checkout.zod || sizes.kit.zod || sizes.host.zod ? 'yes' : 'no',
    'no',
    !sizes.checkout.zod && !sizes.kit.zod && !sizes.host.zod,
  );
}

/* ---------- what a merchant downloads ---------- */

const published = await part('published packages', async () => measurePublished());

// The whole kit as a merchant bundles it, from the dist/ just built (built again if that failed).
const merchantKit = await part('whole kit, merchant bundle', () => measureMerchantKit({ build: !published }));
if (merchantKit) {
  row(
    `bundle whole kit, merchant's esbuild on the published dist: ${merchantKit.chunks} files up front, each gzip -9, summed`,
    `${kb(merchantKit.gzip)} (${merchantKit.gzip} B; joined ${kb(merchantKit.joinedGzip)})`,
    `≤ ${kb(KIT_BUDGET_GZIP)}`,
    merchantKit.gzip <= KIT_BUDGET_GZIP && !merchantKit.zod,
  );
}
if (published) {
  const { oneFile, tarballs } = published;
  row('bank-checkout.min.js (one file, every element and language), gzip -9', `${kb(oneFile.gzip)} (${kb(oneFile.min)} minified)`);
  for (const t of tarballs) row(`npm pack ${t.name}`, `${kb(t.size)} (${kb(t.unpacked)} unpacked, ${t.files} files)`);
}

/* ---------- servers: render payloads, BFF overhead, load ---------- */

const servers = await startServers({ LOG_LEVEL: 'warn' }, { nodeArgs: ['--expose-gc'] });
try {
  const payer = { 'X-Checkout-Secret': servers.clientSecret };
  const checkout = (await (await fetch(`${servers.bffUrl}/v1/checkout`, { headers: payer })).json()) as CheckoutView;
  const banks = (await (await fetch(`${servers.bffUrl}/v1/banks`, { headers: payer })).json()) as BanksResponse;

  const render = await part('render in Chromium', () => measureRender({ runs: settings.runs, checkout, banks }));
  if (render) renderRows(render);

  const overhead = await part('BFF overhead', () =>
    bestOf(() => measureOverhead(servers, { seconds: settings.overheadSeconds, connections: settings.connections }), {
      met: overheadMet,
      score: (o) => o.worstRatio - o.addedP50 / 1000,
      errors: (o) => o.errors > 0,
    }),
  );
  if (overhead) overheadRows(overhead.best, overhead.runs);
} finally {
  servers.stop();
}

/* ---------- load and relay: the BFF and the simulator each in its own process ---------- */

const load = await part('load of native checkouts', async () => {
  const sandbox = await startServers({ BENCH_ROLE: 'sandbox', LOG_LEVEL: 'warn' });
  try {
    const bff = await startServers({ BENCH_ROLE: 'bff', SANDBOX_URL: sandbox.sandboxUrl, LOG_LEVEL: 'warn' }, { nodeArgs: ['--expose-gc'] });
    try {
      const start = await bff.memory(true);
      const figures = await runLoad(bff, { seconds: settings.loadSeconds, payers: settings.payers });
      const peak = await bff.memory();
      const end = await bff.memory(true);
      return { figures, start, peak, end };
    } finally {
      bff.stop();
    }
  } finally {
    sandbox.stop();
  }
});
if (load) loadRows(load.figures, load.start, load.peak, load.end);

const relay = await part('relay: direct vs through the BFF', () =>
  bestOf(
    () => measureRelay({ seconds: settings.relaySeconds, payers: settings.relayPayers, warmupSeconds: settings.relayWarmup, rounds: settings.relayRounds }),
    {
      met: relayMet,
      score: (r) => relayHeadline(r).ratio,
      errors: (r) => !relayHeadline(r).clean,
    },
  ),
);
if (relay) relayRows(relay.best, relay.runs);

function relayRows(r: RelayFigures, runs: number): void {
  const rate = (l: RelayFigures['direct']) => l.payments / l.seconds;
  const { ratio, cpu, clean, journal } = relayHeadline(r);
  if (journal && r.journal) {
    // The floor of the BFF's guarantees: a relay that writes one durable row per call (goals, not budgets).
    row('relay: payments/s through the BFF / through the journaling relay', `${(journal.ratio * 100).toFixed(1)}%`, `goal ${JOURNAL_GOAL.ratio * 100}%`);
    row(
      'relay: CPU per payment, BFF / journaling relay',
      `${journal.cpu.toFixed(2)}× (${ms(r.bff.cpuPerPayment.relay ?? NaN)} / ${ms(r.journal.cpuPerPayment.relay ?? NaN)})`,
      `goal ${JOURNAL_GOAL.cpu}×`,
    );
  }
  row(
    'relay: payments/s through the BFF / through a bare relay',
    `${(ratio * 100).toFixed(1)}%${runsNote(runs)}`,
    `≥ ${RELAY_BUDGET.ratioFloor * 100}% (goal ${RELAY_BUDGET.ratioGoal * 100}%)`,
    ratio >= RELAY_BUDGET.ratioFloor && clean,
  );
  row(
    'relay: CPU per payment, BFF / bare relay',
    `${cpu.toFixed(1)}× (${ms(r.bff.cpuPerPayment.relay ?? NaN)} / ${ms(r.bare.cpuPerPayment.relay ?? NaN)})`,
    `≤ ${RELAY_BUDGET.cpuCeiling}× (goal ${RELAY_BUDGET.cpuGoal}×)`,
    cpu <= RELAY_BUDGET.cpuCeiling,
  );
  row(
    `relay: payments/s straight to the simulator (${r.payers} payers)`,
    `${rate(r.direct).toFixed(0)} (${r.direct.payments} paid, ${r.direct.errors} errors)`,
  );
  row(`relay: payments/s through a bare relay (${r.payers} payers)`, `${rate(r.bare).toFixed(0)} (${r.bare.payments} paid, ${r.bare.errors} errors)`);
  row(`relay: payments/s through the BFF (${r.payers} payers)`, `${rate(r.bff).toFixed(0)} (${r.bff.payments} paid, ${r.bff.errors} errors)`);
  row('relay: through a bare relay / straight (the ceiling)', `${((rate(r.bare) / rate(r.direct)) * 100).toFixed(1)}%`);
  row('relay: through the BFF / straight', `${((rate(r.bff) / rate(r.direct)) * 100).toFixed(1)}%`);
  row(
    'relay: CPU per payment, simulator (straight / bare relay / via BFF)',
    `${ms(r.direct.cpuPerPayment.sandbox)} / ${ms(r.bare.cpuPerPayment.sandbox)} / ${ms(r.bff.cpuPerPayment.sandbox)}`,
  );
  row(
    'relay: CPU per payment, bare relay; its share of a core',
    `${ms(r.bare.cpuPerPayment.relay ?? NaN)}; ${((r.bare.cpuShare.relay ?? 0) * 100).toFixed(0)}%`,
  );
  row(
    'relay: CPU per payment, BFF; its share of a core',
    `${ms(r.bff.cpuPerPayment.relay ?? NaN)}; ${((r.bff.cpuShare.relay ?? 0) * 100).toFixed(0)}% (simulator ${(r.bff.cpuShare.sandbox * 100).toFixed(0)}%, payers ${(r.bff.cpuShare.payers * 100).toFixed(0)}%)`,
  );
  if (r.storage) {
    const per = bytesPerPayment(r.storage);
    row(
      `store: bytes per paid payment, SQLite file + WAL (${r.storage.paid} paid)`,
      `${per.asLeft.toFixed(0)} B; ${per.checkpointed.toFixed(0)} B after a checkpoint; a paid checkout's row ${r.storage.paidRowBytes} B`,
    );
  }
  const steps = [...new Set([...Object.keys(r.direct.steps), ...Object.keys(r.bff.steps)])];
  for (const st of steps) {
    const d = r.direct.steps[st];
    const b = r.bff.steps[st];
    const f = (x?: { count: number; p50: number; p99: number }) => (x && x.count ? `${ms(x.p50)} / ${ms(x.p99)}` : '-');
    row(`relay: ${st} p50 / p99 (straight | via BFF)`, `${f(d)} | ${f(b)}`);
  }
  notes.push('Relay: the simulator and the BFF each run in a process of their own; the payers, in this one, share the machine with both.');
}

function renderRows(r: RenderFigures): void {
  const n = r.checkoutFirstRender.length;
  row(`first render <bank-checkout> → bank list (median of ${n})`, ms(median(r.checkoutFirstRender)));
  row(`first render <bank-checkout> → bank list, modules preloaded (median of ${n})`, ms(median(r.preloadedFirstRender)));
  row(`first render <bank-checkout isolate> → bank list in the frame (median of ${n})`, ms(median(r.isolatedFirstRender)));
  row(`first render <bank-selector>, ${r.banksListed} banks (median of ${n})`, ms(median(r.selectorFirstRender)));
  const sorted = [...r.keystrokes].sort((a, b) => a - b);
  row(
    `search as you type, ${r.banksListed} banks, per key (${r.keystrokes.length} keys)`,
    `median ${ms(percentile(sorted, 50))}, p90 ${ms(percentile(sorted, 90))}, max ${ms(sorted.at(-1)!)}`,
  );
}

function overheadRows(o: Overhead, runs: number): void {
  const pct = (f: { rps: number }) => `${((f.rps / o.direct.rps) * 100).toFixed(0)}%`;
  row('direct simulator POST /test/banks/list', `${o.direct.rps.toFixed(0)} req/s, p50 ${ms(o.direct.p50)}`);
  for (const f of [o.banks, o.checkout]) {
    const name = f.name.replace(/^bff\s+/, '');
    row(
      `BFF ${name}: throughput vs direct`,
      `${pct(f)} (${f.rps.toFixed(0)} req/s)`,
      `≥ ${OVERHEAD_BUDGET.ratio * 100}%`,
      f.rps / o.direct.rps >= OVERHEAD_BUDGET.ratio,
    );
    row(`BFF ${name}: p50 added`, ms(f.p50 - o.direct.p50), `≤ ${OVERHEAD_BUDGET.addedP50Ms} ms`, f.p50 - o.direct.p50 <= OVERHEAD_BUDGET.addedP50Ms);
  }
  row(`BFF overhead runs: errors${runsNote(runs)}`, String(o.errors), '0', o.errors === 0);
  notes.push(`BFF overhead: autocannon, ${o.connections} connections, ${o.seconds} s per target; client and servers share the machine's cores.`);
}

function loadRows(f: LoadFigures, start: MemorySample, peak: MemorySample, end: MemorySample): void {
  row(`load: checkouts/s (${f.payers} payers, ${f.seconds.toFixed(0)} s)`, `${(f.succeeded / f.seconds).toFixed(1)} (${f.succeeded} paid)`);
  row('load: errors', `${f.errors}${f.samples.length ? ` (${f.samples[0]})` : ''}`, '0', f.errors === 0);
  for (const st of STEPS) {
    const s = f.steps[st];
    if (s.count) row(`load: ${st} p50 / p99 (${s.count})`, `${ms(s.p50)} / ${ms(s.p99)}`);
  }
  row('BFF RSS start → end (peak)', `${mb(start.rss)} → ${mb(end.rss)} (${mb(Math.max(peak.peakRss, end.peakRss))})`);
  const grew = end.heapUsed - start.heapUsed;
  row(
    'BFF heap after GC start → end',
    `${mb(start.heapUsed)} → ${mb(end.heapUsed)} (${grew >= 0 ? '+' : ''}${mb(grew)})`,
    `≤ +${mb(HEAP_GROWTH_BUDGET)}`,
    start.collected && end.collected && grew <= HEAP_GROWTH_BUDGET,
  );
  notes.push('Load: the BFF and the simulator run in processes of their own; the memory rows are the BFF process.');
}

/* ---------- the table ---------- */

const widths = {
  metric: Math.max(6, ...rows.map((r) => r.metric.length)),
  value: Math.max(5, ...rows.map((r) => r.value.length)),
  budget: Math.max(6, ...rows.map((r) => r.budget.length)),
};
const line = (m: string, v: string, b: string, o: string) => `${m.padEnd(widths.metric)}  ${v.padEnd(widths.value)}  ${b.padEnd(widths.budget)}  ${o}`;
console.log(`\nbank-checkout benchmarks (${ci ? 'short form, --ci' : 'full'}; loopback; client, servers and browser share this machine's cores)\n`);
console.log(line('metric', 'value', 'budget', 'ok'));
console.log(line('-'.repeat(widths.metric), '-'.repeat(widths.value), '-'.repeat(widths.budget), '--'));
for (const r of rows) console.log(line(r.metric, r.value, r.budget, r.ok));
console.log('');
for (const n of notes) console.log(`note: ${n}`);
console.log(broken ? 'result: a budget is broken (see FAIL above)' : 'result: every enforced budget is met');
process.exit(broken ? 1 : 0);
