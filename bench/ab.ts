/**
 * `npm run bench:ab -- <revision>`: the BFF of this working tree (B) against the BFF of a git
 * revision (A, default HEAD), both at steady state on one simulator, in alternated rounds of
 * the relay's payments (bench/lib/load.ts). Prints each round, the means and B ÷ A of
 * payments/s and of CPU per payment.
 *
 * The relay benchmark compares the BFF with a relay; on a shared machine its ratio moves by
 * several points from run to run, more than most single changes. Here two BFFs run side by
 * side, are warmed alike, and take turns (A B, B A, A B, …), so that what the machine does
 * meanwhile falls on both; the spread of the rounds says how far to trust the means.
 *
 * The revision's `packages`, `bench` and `test/support` are extracted (`git archive`) into a
 * temporary folder whose `node_modules` links to this tree's, except `@bank-checkout/*`, which
 * link to the revision's own packages. Both BFFs get the same environment (BENCH_AB_ENV, JSON,
 * is added to it: e.g. `{"DATABASE_URL":"…"}`).
 *
 * Environment: BENCH_AB_ROUNDS (8 per side), BENCH_AB_SECONDS (5 per round), BENCH_AB_WARMUP
 * (8 s per side first), BENCH_AB_PAYERS (16).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runLoad } from './lib/load.js';
import { cpuMs } from './lib/relay.js';
import { startServers, type Servers } from './lib/spawn.js';

const revision = process.argv[2] ?? 'HEAD';
const rounds = Number(process.env.BENCH_AB_ROUNDS ?? 8);
const seconds = Number(process.env.BENCH_AB_SECONDS ?? 5);
const warmup = Number(process.env.BENCH_AB_WARMUP ?? 8);
const payers = Number(process.env.BENCH_AB_PAYERS ?? 16);
const extraEnv = JSON.parse(process.env.BENCH_AB_ENV ?? '{}') as Record<string, string>;

const root = resolve(import.meta.dirname, '..');
const commit = execFileSync('git', ['rev-parse', '--short', revision], { cwd: root, encoding: 'utf8' }).trim();

/** The revision's sources in a folder of their own, with this tree's dependencies. */
function extract(): string {
  const dir = mkdtempSync(join(tmpdir(), `bench-ab-${commit}-`));
  const archive = execFileSync('git', ['archive', revision, 'package.json', 'tsconfig.json', 'packages', 'bench', 'test/support'], {
    cwd: root,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@bank-checkout'), { recursive: true });
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name !== '@bank-checkout') symlinkSync(join(root, 'node_modules', name), join(modules, name));
  }
  for (const name of readdirSync(join(dir, 'packages'))) symlinkSync(join(dir, 'packages', name), join(modules, '@bank-checkout', name));
  return dir;
}

const dir = extract();
const { startServers: startRevision } = (await import(pathToFileURL(join(dir, 'bench/lib/spawn.ts')).href)) as typeof import('./lib/spawn.js');
const started: Servers[] = [];
try {
  const sandbox = await startServers({ BENCH_ROLE: 'sandbox', LOG_LEVEL: 'warn' });
  started.push(sandbox);
  const env = { BENCH_ROLE: 'bff', SANDBOX_URL: sandbox.sandboxUrl, LOG_LEVEL: 'warn', ...extraEnv };
  const sides: Record<'A' | 'B', Servers> = { A: await startRevision(env), B: await startServers(env) };
  started.push(sides.A, sides.B);
  console.log(`A: ${commit} (${revision}); B: this working tree. ${rounds} rounds of ${seconds} s each, ${payers} payers, after ${warmup} s of warm-up each`);
  for (const side of ['A', 'B'] as const) await runLoad(sides[side], { seconds: warmup, payers });

  const figures = { A: { rate: [] as number[], cpu: [] as number[] }, B: { rate: [] as number[], cpu: [] as number[] } };
  for (let i = 0; i < 2 * rounds; i++) {
    // A B, B A, A B, …: neither side always runs right after the warm-up or the other.
    const side = (i % 4 === 0 || i % 4 === 3 ? 'A' : 'B') as 'A' | 'B';
    const before = await sides[side].cpu();
    const run = await runLoad(sides[side], { seconds, payers });
    const after = await sides[side].cpu();
    if (run.errors) throw new Error(`${side}: ${run.errors} errors (${run.samples.join('; ')})`);
    const perPayment = (cpuMs(after) - cpuMs(before)) / run.succeeded;
    figures[side].rate.push(run.succeeded / run.seconds);
    figures[side].cpu.push(perPayment);
    console.log(`  ${side}  ${(run.succeeded / run.seconds).toFixed(0).padStart(4)} payments/s  ${perPayment.toFixed(2)} ms CPU per payment`);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
  for (const side of ['A', 'B'] as const) {
    const f = figures[side];
    console.log(`${side}: ${mean(f.rate).toFixed(1)} payments/s, ${mean(f.cpu).toFixed(3)} ms CPU per payment (rounds ${spread(f.cpu)} ms)`);
  }
  const ratio = (k: 'rate' | 'cpu') => mean(figures.B[k]) / mean(figures.A[k]);
  console.log(`B ÷ A: payments/s ${ratio('rate').toFixed(3)}, CPU per payment ${ratio('cpu').toFixed(3)}`);
} finally {
  for (const s of started) s.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
