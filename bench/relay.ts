/**
 * `npm run bench:relay`: the relay benchmark alone (bench/lib/relay.ts): the same complete
 * native payments straight to the simulator, through a bare relay (the ceiling of any relay),
 * through the same relay on Hono and @hono/node-server (what the framework alone adds), through
 * the journaling relay (that Hono relay writing one durable row per call to the BFF's engine:
 * the floor of the BFF's guarantees, the headline) and through the BFF, each server in its own
 * process. Prints payments/s of each, the ratios, CPU per payment of each process and p50/p99 per
 * step. No browser needed.
 *
 * Environment: BENCH_RELAY_SECONDS (10), BENCH_RELAY_PAYERS (16), BENCH_RELAY_WARMUP (6 s of
 * uncounted payments on each path first), BENCH_RELAY_ROUNDS (4 turns a path, alternated),
 * BENCH_RELAY_HONO=0 (leave the Hono relay out), BENCH_RELAY_JOURNAL=0 (leave the journaling relay
 * out); `DATABASE_URL=postgres://…` runs the BFF and the journal on PostgreSQL. `BENCH_PROFILE=<dir>` writes a CPU profile of
 * the BFF's process over the measured turns (warm-up left out; the other paths' turns show as
 * idle) to a .cpuprofile file in <dir> (open it in Chrome's DevTools).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { JOURNAL_GOAL, RELAY_BUDGET, RELAY_ROUNDS, RELAY_WARMUP_SECONDS, measureRelay, relayHeadline, type Leg } from './lib/relay.js';
import { bytesPerPayment } from './lib/storage.js';

const seconds = Number(process.env.BENCH_RELAY_SECONDS ?? 10);
const payers = Number(process.env.BENCH_RELAY_PAYERS ?? 16);
const warmupSeconds = Number(process.env.BENCH_RELAY_WARMUP ?? RELAY_WARMUP_SECONDS);
const profile = process.env.BENCH_PROFILE;
const hono = process.env.BENCH_RELAY_HONO !== '0';
const journal = process.env.BENCH_RELAY_JOURNAL !== '0';
const rounds = Number(process.env.BENCH_RELAY_ROUNDS ?? RELAY_ROUNDS);

if (profile) mkdirSync(resolve(profile), { recursive: true });
const profileFile = profile ? join(resolve(profile), `bff-leg-${Date.now()}.cpuprofile`) : undefined;
const r = await measureRelay({ seconds, payers, warmupSeconds, hono, journal, rounds, ...(profileFile ? { profileFile } : {}) });
const rate = (l: Leg) => l.payments / l.seconds;
const ms = (v: number | null) => (v === null || Number.isNaN(v) ? '-' : `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`);
const share = (x: number | null) => `${((x ?? 0) * 100).toFixed(0)}%`;
const head = relayHeadline(r);
console.log(
  `relay, ${payers} payers, ${seconds} s per path (the compared paths in ${rounds} alternated turns) after ${warmupSeconds} s of warm-up on each; store ${process.env.DATABASE_URL?.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}`,
);
if (head.journal && r.journal) {
  console.log(
    `  through the BFF / through the journaling relay (the floor of its guarantees): ${(head.journal.ratio * 100).toFixed(1)}% (goal ${JOURNAL_GOAL.ratio * 100}%)`,
  );
  console.log(
    `  CPU per payment, BFF / journaling relay:                                      ${head.journal.cpu.toFixed(2)}× (${ms(r.bff.cpuPerPayment.relay)} / ${ms(r.journal.cpuPerPayment.relay)}; goal ${JOURNAL_GOAL.cpu}×)`,
  );
}
console.log(
  `  through the BFF / through a bare relay: ${(head.ratio * 100).toFixed(1)}% (floor ${RELAY_BUDGET.ratioFloor * 100}%, goal ${RELAY_BUDGET.ratioGoal * 100}%)`,
);
console.log(
  `  CPU per payment, BFF / bare relay:      ${head.cpu.toFixed(1)}× (${ms(r.bff.cpuPerPayment.relay)} / ${ms(r.bare.cpuPerPayment.relay)}; ceiling ${RELAY_BUDGET.cpuCeiling}×, goal ${RELAY_BUDGET.cpuGoal}×)`,
);
console.log(
  `  straight to the simulator: ${rate(r.direct).toFixed(0)} payments/s (${r.direct.payments} paid, ${r.direct.errors} errors); simulator CPU ${ms(r.direct.cpuPerPayment.sandbox)}/payment, ${share(r.direct.cpuShare.sandbox)} of a core; payers ${ms(r.direct.cpuPerPayment.payers)}, ${share(r.direct.cpuShare.payers)}`,
);
console.log(
  `  through a bare relay:      ${rate(r.bare).toFixed(0)} payments/s (${r.bare.payments} paid, ${r.bare.errors} errors); relay CPU ${ms(r.bare.cpuPerPayment.relay)}/payment, ${share(r.bare.cpuShare.relay)} of a core; simulator ${ms(r.bare.cpuPerPayment.sandbox)}/payment, ${share(r.bare.cpuShare.sandbox)}; payers ${ms(r.bare.cpuPerPayment.payers)}, ${share(r.bare.cpuShare.payers)}`,
);
if (r.hono) {
  const h = r.hono;
  console.log(
    `  through a Hono relay:      ${rate(h).toFixed(0)} payments/s (${h.payments} paid, ${h.errors} errors); relay CPU ${ms(h.cpuPerPayment.relay)}/payment, ${share(h.cpuShare.relay)} of a core; ${((rate(h) / rate(r.bare)) * 100).toFixed(1)}% of the bare relay, ${((h.cpuPerPayment.relay ?? NaN) / (r.bare.cpuPerPayment.relay ?? NaN)).toFixed(2)}× its CPU`,
  );
}
if (r.journal) {
  const j = r.journal;
  console.log(
    `  through a journaling relay: ${rate(j).toFixed(0)} payments/s (${j.payments} paid, ${j.errors} errors); relay CPU ${ms(j.cpuPerPayment.relay)}/payment, ${share(j.cpuShare.relay)} of a core; ${((rate(j) / rate(r.bare)) * 100).toFixed(1)}% of the bare relay, ${((j.cpuPerPayment.relay ?? NaN) / (r.bare.cpuPerPayment.relay ?? NaN)).toFixed(2)}× its CPU`,
  );
}
console.log(
  `  through the BFF:           ${rate(r.bff).toFixed(0)} payments/s (${r.bff.payments} paid, ${r.bff.errors} errors); BFF CPU ${ms(r.bff.cpuPerPayment.relay)}/payment, ${share(r.bff.cpuShare.relay)} of a core; simulator ${ms(r.bff.cpuPerPayment.sandbox)}/payment, ${share(r.bff.cpuShare.sandbox)}; payers ${ms(r.bff.cpuPerPayment.payers)}, ${share(r.bff.cpuShare.payers)}`,
);
console.log(
  `  through the BFF / straight: ${((rate(r.bff) / rate(r.direct)) * 100).toFixed(1)}% (a bare relay / straight: ${((rate(r.bare) / rate(r.direct)) * 100).toFixed(1)}%)`,
);
for (const st of [...new Set([...Object.keys(r.direct.steps), ...Object.keys(r.bff.steps)])]) {
  const f = (x?: { count: number; p50: number; p99: number }) => (x?.count ? `${ms(x.p50)} / ${ms(x.p99)}` : '-');
  console.log(`  ${st.padEnd(13)} p50 / p99  straight ${f(r.direct.steps[st]).padEnd(20)} via BFF ${f(r.bff.steps[st])}`);
}
if (r.storage) {
  const per = bytesPerPayment(r.storage);
  console.log(
    `  stored per paid payment (SQLite): ${per.asLeft.toFixed(0)} B as the BFF left it (file ${r.storage.fileBytes} B + WAL ${r.storage.walBytes} B), ${per.checkpointed.toFixed(0)} B after a checkpoint; a paid checkout's row ${r.storage.paidRowBytes} B; ${r.storage.paid} paid of ${r.storage.checkouts} checkouts`,
  );
}
const legs = [r.direct, r.bare, ...(r.hono ? [r.hono] : []), ...(r.journal ? [r.journal] : []), r.bff];
for (const s of legs.flatMap((l) => l.samples)) console.log(`  error: ${s}`);
if (profileFile) console.log(`profile of the BFF's process over the measured turns: ${profileFile}`);
process.exit(legs.some((l) => l.errors) ? 1 : 0);
