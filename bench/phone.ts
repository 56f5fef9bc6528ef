/**
 * `npm run bench:phone`: the payer's first screen on a throttled phone (bench/lib/phone.ts):
 * the shop's isolated checkout page against the same page with its bank list written in as
 * static HTML, over the same network, in alternated runs; each run, the medians and their ratio.
 *
 * Environment: BENCH_RUNS (7; never fewer than 3), BENCH_TIMELINE=1 prints each run's
 * milestones and requests (ms from the navigation's start: sent, headers received, done).
 */
import { median } from './lib/load.js';
import { measureFirstScreen, PHONE, type PhoneRun } from './lib/phone.js';

const runs = Math.max(3, Number(process.env.BENCH_RUNS ?? 7));
const timeline = process.env.BENCH_TIMELINE === '1';
const r = await measureFirstScreen({ runs });

const ms = (v: number) => `${v.toFixed(0)} ms`;
const shown = (xs: PhoneRun[]) => xs.map((x) => x.shown);
const floor = median(shown(r.floor));
const checkout = median(shown(r.checkout));
console.log(
  `first screen on a phone (${PHONE.width} px, CPU ${PHONE.cpu}× slower, ${PHONE.latency} ms round trips, ${PHONE.download / 1e6} Mbps, cache empty), ${runs} alternated runs`,
);
console.log(`  the isolated checkout page → first bank shown   median ${ms(checkout)}; runs: ${shown(r.checkout).map(ms).join(' ')}`);
console.log(`  the same page, ${r.banks} banks as static HTML   median ${ms(floor)}; runs: ${shown(r.floor).map(ms).join(' ')}`);
console.log(`  ratio to the floor: ${(checkout / floor).toFixed(2)}× (goal ≤ 1.5×)`);
// The checkout API's calls: under /v1/, but not the frame's page and modules.
const calls = (run: PhoneRun) => run.requests.filter((q) => /^\/v1\/(?!frame$|frame\/assets\/)/.test(new URL(q.url).pathname));
console.log(
  `  requests before the first bank: ${r.checkout.map((x) => x.requests.length).join(' ')} (of which calls to the checkout API: ${r.checkout.map((x) => calls(x).length).join(' ')})`,
);
if (timeline) {
  for (const [name, list] of [
    ['checkout', r.checkout],
    ['floor', r.floor],
  ] as const) {
    list.forEach((run, i) => {
      console.log(`  ${name} run ${i + 1}: shown at ${ms(run.shown)}`);
      if (run.marks)
        console.log(
          `    milestones: ${Object.entries(run.marks)
            .sort((a, b) => a[1] - b[1])
            .map(([k, v]) => `${k} ${ms(v)}`)
            .join(', ')}`,
        );
      for (const q of run.requests) {
        const u = new URL(q.url);
        console.log(
          `    ${q.start.toFixed(0).padStart(5)} ${q.headers.toFixed(0).padStart(5)} ${q.end.toFixed(0).padStart(5)}  ${String(q.status).padStart(3)} ${String(q.bytes).padStart(7)} B  ${q.method} ${u.port}${u.pathname}`,
        );
      }
    });
  }
}
process.exit(0);
