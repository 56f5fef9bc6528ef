/**
 * `npm run bench:render`: the render part of `npm run bench` alone (bench/lib/render.ts): the
 * first render of `<bank-checkout>` and of `<bank-checkout isolate>` to the bank list, the
 * first render of `<bank-selector>` with 500 banks, and search as you type over them. Prints
 * each run and the medians, so that a change can be compared run by run.
 *
 * Environment: BENCH_RUNS (7; never fewer than 5).
 */
import type { BanksResponse, CheckoutView } from '@bank-checkout/contract';
import { median, percentile } from './lib/load.js';
import { measureRender } from './lib/render.js';
import { startServers } from './lib/spawn.js';

const runs = Math.max(5, Number(process.env.BENCH_RUNS ?? 7));
const servers = await startServers({ LOG_LEVEL: 'warn' });
let checkout: CheckoutView;
let banks: BanksResponse;
try {
  const payer = { 'X-Checkout-Secret': servers.clientSecret };
  checkout = (await (await fetch(`${servers.bffUrl}/v1/checkout`, { headers: payer })).json()) as CheckoutView;
  banks = (await (await fetch(`${servers.bffUrl}/v1/banks`, { headers: payer })).json()) as BanksResponse;
} finally {
  servers.stop();
}

const r = await measureRender({ runs, checkout, banks });
const ms = (v: number) => `${v.toFixed(1)} ms`;
const runsOf = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' ');
const spread = (xs: number[]) => `${ms(Math.min(...xs))}–${ms(Math.max(...xs))}`;
console.log(`render, ${runs} runs (cold browser context each run)`);
for (const [name, xs] of [
  ['first render <bank-checkout> → bank list', r.checkoutFirstRender],
  ['  the same, modules preloaded (modulepreload)', r.preloadedFirstRender],
  ['first render <bank-checkout isolate> → bank list', r.isolatedFirstRender],
  [`first render <bank-selector>, ${r.banksListed} banks`, r.selectorFirstRender],
] as const) {
  console.log(`  ${name.padEnd(50)} median ${ms(median(xs))} (${spread(xs)}); runs: ${runsOf(xs)}`);
}
const keys = [...r.keystrokes].sort((a, b) => a - b);
console.log(
  `  ${`search as you type, ${r.banksListed} banks, per key`.padEnd(50)} median ${ms(percentile(keys, 50))}, p90 ${ms(percentile(keys, 90))}, max ${ms(keys.at(-1)!)} (${keys.length} keys)`,
);
console.log(`  matches per key: ${r.matchesPerKey.join(' ')}`);
// Where the inline first render went: medians of each instant, from navigation start.
const t = r.checkoutTimeline;
const at = (k: keyof (typeof t)[number]) =>
  median(t.map((x) => x[k]))
    .toFixed(0)
    .padStart(4);
console.log('  <bank-checkout> first render, medians from navigation start (ms):');
console.log(`    HTML received ${at('html')}`);
console.log(`    modules requested ${at('modulesStart')} … last received ${at('modulesEnd')} (${at('modules').trim()} files)`);
console.log(`    <bank-checkout> defined ${at('defined')}`);
console.log(`    BFF calls requested ${at('apiStart')} … answered ${at('apiEnd')} (${at('apiCalls').trim()} calls)`);
console.log(`    bank list shown ${at('shown')}`);
process.exit(0);
