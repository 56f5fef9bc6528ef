#!/usr/bin/env node
// Runs every test suite (node's test runner, then the browser suites under web-test-runner),
// keeps going when one fails, and ends with one line the CI can count:
//   tests: N passed, N failed, N skipped
// Usage: node scripts/test.mjs [node|browser] [file filter…]
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const [only, ...filters] = process.argv.slice(2);
const wanted = (name) => !only || only === name;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'dist' || name === 'data') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(relative(root, p));
  }
  return out;
}

const all = walk(root).filter((f) => f.endsWith('.test.ts') && (f.startsWith('packages/') || f.startsWith('test/') || f.startsWith('apps/')));
const match = (f) => filters.length === 0 || filters.some((x) => f.includes(x));
const nodeFiles = all.filter((f) => !f.endsWith('.browser.test.ts') && match(f)).sort();
const browserFiles = all.filter((f) => f.endsWith('.browser.test.ts') && match(f)).sort();

// Inside the repository the packages resolve to their TypeScript sources (the
// `bank-checkout-source` export condition); published, they resolve to built JavaScript.
const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=bank-checkout-source`.trim() };

function run(cmd, args, parse) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env });
    let tail = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString()).slice(-20000);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, ...parse(tail) }));
  });
}

const num = (text, re) => {
  const all = [...text.matchAll(re)];
  return all.length ? Number(all.at(-1)[1]) : 0;
};

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedSuites = [];

if (wanted('node') && nodeFiles.length) {
  console.log(`\n== node suites: ${nodeFiles.length} files ==`);
  const r = await run(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', ...nodeFiles],
    (t) => ({
      passed: num(t, /ℹ pass (\d+)/g),
      failed: num(t, /ℹ fail (\d+)/g) + num(t, /ℹ cancelled (\d+)/g),
      skipped: num(t, /ℹ skipped (\d+)/g) + num(t, /ℹ todo (\d+)/g),
    }),
  );
  totals.passed += r.passed;
  totals.failed += r.failed;
  totals.skipped += r.skipped;
  if (r.code !== 0) {
    failedSuites.push('node');
    if (r.failed === 0) totals.failed += 1; // a file that did not load still fails the run
  }
}

if (wanted('browser') && browserFiles.length) {
  console.log(`\n== browser suites: ${browserFiles.length} files ==`);
  const r = await run(
    process.execPath,
    [join(root, 'node_modules/@web/test-runner/dist/bin.js'), '--config', 'web-test-runner.config.mjs', ...browserFiles.flatMap((f) => ['--files', f])],
    (t) => {
      const m = [...t.matchAll(/^wtr: (\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/gm)].at(-1);
      return m ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) } : { passed: 0, failed: 0, skipped: 0 };
    },
  );
  totals.passed += r.passed;
  totals.failed += r.failed;
  totals.skipped += r.skipped;
  if (r.code !== 0) {
    failedSuites.push('browser');
    if (r.failed === 0) totals.failed += 1;
  }
}

if (failedSuites.length) console.log(`\nfailing suites: ${failedSuites.join(', ')}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSuites.length || totals.failed ? 1 : 0);
