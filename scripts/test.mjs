#!/usr/bin/env node
// Runs every test suite and ends with one line the CI can count:
//   tests: N passed, N failed, N skipped
// Usage: node scripts/test.mjs [node|browser|drills] [file filter…]   (filters are substrings of paths)
//
// `drills` runs the outage drills (test/drills/) alone: minutes of stopped and frozen databases
// and killed instances (`npm run test:drills`, and CI after `npm test`). `npm test` never runs
// them.
//
// The whole run aims at 150 s on a 2-core machine (the README says where it stands). What serves that:
// - the node test files are compiled to JavaScript first, in one esbuild build of about a
//   second (scripts/test-bundle.mjs), so that no test process loads a TypeScript loader;
// - node's test runner runs TEST_CONCURRENCY files at once (by default one for every core:
//   see `concurrency` below);
// - most node test files share one of eight processes, one file after another, so that the
//   product's modules are loaded eight times instead of once a file (OWN_PROCESS says which
//   keep a process of their own, PROCESS_WIDE which may not share one);
// - the end-to-end files (test/e2e/) run in a lane of their own, E2E_CONCURRENCY at a time
//   (as many as TEST_CONCURRENCY by default), beside the other node files;
// - the slowest files (SLOW_FIRST below) are spread over the shared processes first and run
//   first in each, so that no process holds several long ones; a new slow file belongs in
//   that list (`node --test` starts the processes' files in the order of their names);
// - the browser suites (web-test-runner, its own Chromium) run at the same time as the node
//   suites, most of their files joined into one page (SHARED_PAGES below); the output of the
//   end-to-end and browser lanes is held and printed after the node suites' so that they do
//   not mix;
// - the end-to-end files share one Chromium, started here (E2E_BROWSER_WS), each in its own
//   browser contexts, which its journeys take turns in (test/e2e/lib.ts `openPage`); run
//   alone, a file starts its own Chromium (test/support/stack.ts); they share one process,
//   and in it one server stack, but for those with servers of their own (E2E_SHARED_PROCESSES
//   below);
// - the fuzz suites run FUZZ_RUNS cases per property (50; .ci/run sets 1,000:
//   test/security/lib/fuzz.ts);
// - Chromium is Debian's headless shell when installed (scripts/chromium.mjs), about half the
//   CPU of the full browser for the same pages.
// Every suite runs whatever fails before it; the exit code is non-zero if any failed.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROME_PATH, CHROMIUM_ARGS, isHeadlessShell } from './chromium.mjs';
import { bundleTests, groupTests, scratchDir } from './test-bundle.mjs';

const root = new URL('..', import.meta.url).pathname;
const [only, ...filters] = process.argv.slice(2);
/** The drills are node files of their own lane: `drills` runs them and nothing else. */
const drills = only === 'drills';
const wanted = (name) => !only || only === name || (drills && name === 'node');
const isDrill = (f) => f.startsWith('test/drills/');

/**
 * Files known to take long (a server stack and a browser, a database failover, thousands of
 * fuzz cases, many provider timeouts), longest first: they are spread over the shared processes
 * first, and run first in each. (`node --test` itself starts its files in the order of their
 * names, whatever the order given; starting the files of their own in this order instead
 * measured no faster: node lane alone, 72.4 and 71.4 s against 75.1 and 71.7.)
 */
const SLOW_FIRST = [
  'test/faults/failover',
  'test/e2e/isolation',
  'test/e2e/hostile',
  'test/e2e/',
  'test/faults/',
  'test/security/fuzz',
  'test/security/kit',
  'test/security/',
  'packages/bff/test/',
];
const rank = (f) => {
  const i = SLOW_FIRST.findIndex((p) => f.startsWith(p));
  return i < 0 ? SLOW_FIRST.length : i;
};

/**
 * Most files share a process (see SHARED_PROCESSES below); these keep one of their own: the
 * end-to-end files, and the longest (a database failover, socket drills, the kit's bundles,
 * thousands of fuzz cases, the docs' snippets, CLIs started as processes), which keep the
 * lanes busy beside the shared ones.
 */
const OWN_PROCESS = [
  'test/drills/',
  'test/e2e/',
  'test/faults/failover',
  'test/faults/boot',
  'test/faults/sockets',
  'test/security/kit',
  'test/security/fuzz',
  'test/docs/',
  'packages/sandbox/test/cli',
  'packages/bff/test/cli',
];
/** A test file's text, read once (the rules below look at the same files several times). */
const sources = new Map();
const source = (f) => {
  if (!sources.has(f)) sources.set(f, readFileSync(join(root, f), 'utf8'));
  return sources.get(f);
};

/**
 * What a file may not do to share a process: hooks at its top level that run before its tests
 * or around each (they would run before or around every other file's tests too; a top-level
 * `after`, which runs once when the process's last file is done, is cleanup and may share), and
 * changes to the process itself (its environment, its handlers, mocked modules, or timers and
 * methods mocked for the whole process rather than for one test through its context, `t.mock`,
 * which restores them when that test ends), which would reach the files after it.
 */
const TOP_LEVEL_HOOKS = /^(before|beforeEach|afterEach)\(/m;
const PROCESS_CHANGES = /process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|process\.on\(|mock\.module\b|(?<!\bt\.)mock\.(timers|method)\b/m;
const PROCESS_WIDE = new RegExp(`${TOP_LEVEL_HOOKS.source}|${PROCESS_CHANGES.source}`, 'm');
/**
 * How many processes the shared files are spread over (TEST_SHARED_PROCESSES, 0: a process per
 * file): each loads the product's modules once (about a CPU-second) instead of once a file.
 * Eight keeps each process's files, run one after another, well inside TEST_TIMEOUT_MS, which
 * bounds the process as a whole, on a loaded two-core machine.
 */
const SHARED_PROCESSES = Number(process.env.TEST_SHARED_PROCESSES ?? 8);
if (!Number.isInteger(SHARED_PROCESSES) || SHARED_PROCESSES < 0)
  throw new Error(`TEST_SHARED_PROCESSES must be 0 or more, got ${process.env.TEST_SHARED_PROCESSES}`);
const sharesProcess = (f) => !OWN_PROCESS.some((p) => f.startsWith(p)) && !PROCESS_WIDE.test(source(f));
/**
 * End-to-end files share E2E_SHARED_PROCESSES processes (0: a process per file): those that take
 * the shared server stack (`startStack()` with no options: test/e2e/lib.ts) share one stack and
 * one pool of browser contexts in each, and those with servers of their own (the console's
 * journeys, which count every order; the proxy's nginx) save a process's start and module load
 * (about 1.5 CPU-seconds each). A file of its own cost about 5 CPU-seconds before its first test
 * (a process, the servers, a context). Their top-level hooks only take and give back their
 * servers. On two cores the end-to-end lane measured 248 CPU-seconds with a process per file,
 * 225 with two shared processes, 205–214 with one (see E2E_TIMEOUT_MS). Two, one beside the
 * other (E2E_CONCURRENCY): the journeys now wait, before each confirmation, until the frame has
 * been still as long as it asks (frame/visibility.ts), time the other process's journeys fill;
 * one sitting on a quiet two-core machine, the whole run: 218 s with one process (the
 * end-to-end lane last, at 218 s), 165 s with two.
 */
const E2E_SHARED_PROCESSES = Number(process.env.E2E_SHARED_PROCESSES ?? 2);
if (!Number.isInteger(E2E_SHARED_PROCESSES) || E2E_SHARED_PROCESSES < 0)
  throw new Error(`E2E_SHARED_PROCESSES must be 0 or more, got ${process.env.E2E_SHARED_PROCESSES}`);
const sharesE2eProcess = (f) => !PROCESS_CHANGES.test(source(f));
/**
 * A file that moves its servers' clock ahead (`stack.moveClock`, to pass a deadline) runs after
 * the other files of its process, which would otherwise meet servers living in the future.
 */
const movesClock = (f) => /\.moveClock\(/.test(source(f));

/**
 * Browser test files that keep a page of their own: those about what a page has loaded (the
 * first screen, languages and steps loaded on demand, the frame's host alone), the one under
 * a content security policy, and the journeys against the real servers, which keep a lane busy
 * beside the shared pages. A file PROCESS_WIDE names keeps one too (a top-level hook before or
 * around its tests, or one of the changes PROCESS_CHANGES names).
 */
const OWN_PAGE = [
  'packages/elements/test/bank-checkout-first-screen',
  'packages/elements/test/bank-checkout-later-steps',
  'packages/elements/test/i18n-lazy',
  'packages/elements/test/frame-host',
  'packages/elements/test/csp',
  'test/browser/native-journey',
];
/**
 * How many pages the other browser test files share (TEST_SHARED_PAGES, 0: a page per file).
 * One: on two cores the whole browser lane measured 93 CPU-seconds with a page per file, 56
 * with two shared pages, 49 with one.
 */
const SHARED_PAGES = Number(process.env.TEST_SHARED_PAGES ?? 1);
if (!Number.isInteger(SHARED_PAGES) || SHARED_PAGES < 0) throw new Error(`TEST_SHARED_PAGES must be 0 or more, got ${process.env.TEST_SHARED_PAGES}`);
const sharesPage = (f) => !OWN_PAGE.some((p) => f.startsWith(p)) && !PROCESS_WIDE.test(source(f));

/**
 * The programs tests start as processes, compiled with the test files: the CLIs, and the
 * servers the socket drills and the browser suites' journeys start (bench/lib/servers.ts).
 */
const CLIS = ['packages/bff/src/cli.ts', 'packages/sandbox/src/cli.ts', 'packages/create-bank-checkout/src/cli.ts', 'bench/lib/servers.ts'];

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
const nodeFiles = all
  .filter((f) => !f.endsWith('.browser.test.ts') && match(f) && isDrill(f) === drills)
  .sort()
  .sort((a, b) => rank(a) - rank(b));
const browserFiles = all.filter((f) => f.endsWith('.browser.test.ts') && match(f)).sort();

const lanes = (name, fallback) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${process.env[name]}`);
  return n;
};
/**
 * Files at once in each lane: a node file for every core, and as many end-to-end processes
 * (E2E_SHARED_PROCESSES above). The node files wait on sockets, timeouts and child
 * processes for half their time (alone, one at a time, their lane was half idle), so two at
 * once fill both cores: whole run on two cores, back to back, one at a time 308 CPU-seconds in
 * 177 s, two at a time 316 in 164 s. The end-to-end journeys wait for the frame's stillness
 * before each confirmation, so two of their processes at once fill each other's waits.
 */
const concurrency = lanes('TEST_CONCURRENCY', availableParallelism());
const E2E_CONCURRENCY = lanes('E2E_CONCURRENCY', availableParallelism());
/**
 * A test still running after this fails (a hang must not hold the whole run); `node --test`
 * also bounds each process with it, as a whole. The end-to-end lane's shared process runs all
 * its files, so that lane has twice the bound (E2E_TIMEOUT_MS). A drill runs about four minutes
 * of faults in one file: five minutes bound it.
 */
const TEST_TIMEOUT_MS = lanes('TEST_TIMEOUT_MS', drills ? 300_000 : 180_000);
const E2E_TIMEOUT_MS = lanes('E2E_TIMEOUT_MS', 2 * TEST_TIMEOUT_MS);

// Inside the repository the packages resolve to their TypeScript sources (the
// `bank-checkout-source` export condition); published, they resolve to built JavaScript.
const env = {
  ...process.env,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=bank-checkout-source`.trim(),
};

/** Runs a command; `live` streams its output, otherwise it is held and handed back. */
function run(cmd, args, { live, extraEnv = {} }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, ...extraEnv } });
    let out = '';
    const take = (stream, sink) =>
      stream.on('data', (chunk) => {
        if (live) sink.write(chunk);
        out += chunk.toString();
      });
    take(child.stdout, process.stdout);
    take(child.stderr, process.stderr);
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

const num = (text, re) => {
  const found = [...text.matchAll(re)];
  return found.length ? Number(found.at(-1)[1]) : 0;
};

const started = performance.now();
/** Which suites run Chromium: the browser suites, and the end-to-end files (one Chromium, started below). */
const browserSuites = wanted('browser') && browserFiles.length > 0;
const isE2e = (f) => f.startsWith('test/e2e/');
const e2e = wanted('node') && nodeFiles.some(isE2e);
if (browserSuites || e2e) {
  console.log(
    isHeadlessShell
      ? `Chromium: ${CHROME_PATH}`
      : `Chromium: ${CHROME_PATH} (Debian's headless shell, about half the CPU for the browser suites: apt-get install -y chromium-headless-shell)`,
  );
}
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);

/**
 * The node test files and the programs tests start, as JavaScript (scripts/test-bundle.mjs): no
 * test process loads a TypeScript loader (the browser suites' journey servers included).
 */
const testedNode = wanted('node') ? nodeFiles : [];
const {
  compiled,
  dir: compiledDir,
  remove: removeCompiled,
} = testedNode.length || browserSuites ? await bundleTests(root, [...testedNode, ...CLIS]) : { compiled: new Map(), remove: () => {} };
if (compiled.size) console.log(`compiled ${compiled.size} files in ${seconds()} s`);
process.on('exit', removeCompiled);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

/** The command-line programs, compiled with the tests, for the tests that start them (test/support/cli.mjs). */
const compiledClis = JSON.stringify(Object.fromEntries(CLIS.filter((c) => compiled.has(c)).map((c) => [c, join(root, compiled.get(c))])));

/** One Chromium for every end-to-end file (each opens its own contexts in it). */
const browserServer = e2e ? await chromium.launchServer({ executablePath: CHROME_PATH, args: CHROMIUM_ARGS, headless: true }) : null;

let closing = null;
const closeBrowserServer = () => (closing ??= browserServer?.close() ?? Promise.resolve());

/**
 * `files` with those `shares` accepts joined into `count` groups (none when `count` is 0):
 * the others as `own` maps them, then each group as `group(members, n)` writes it (n from 1).
 */
function joined(files, shares, count, own, group) {
  const shared = count ? files.filter(shares) : [];
  if (shared.length < 2) return files.map(own);
  const groups = Array.from({ length: Math.min(count, shared.length) }, () => []);
  shared.forEach((f, i) => groups[i % groups.length].push(f));
  return [...files.filter((f) => !shared.includes(f)).map(own), ...groups.map((members, i) => group(members, i + 1))];
}

/** The test files `node --test` runs for `files`: those `shares` accepts joined into `count` processes named `<name>-N`. */
const processes = (files, shares, count, name) =>
  joined(
    files,
    shares,
    count,
    (f) => compiled.get(f),
    (members, n) =>
      groupTests(
        root,
        compiledDir,
        `${name}-${n}`,
        members.map((f) => compiled.get(f)),
      ),
  );

/** One `node --test` run over `files`; `live` streams its output, else it is held. */
function runNode(label, files, entries, lanes, timeoutMs, live) {
  if (live) console.log(`\n== ${label}: ${files.length} files in ${entries.length} process${entries.length === 1 ? '' : 'es'}, ${lanes} at a time ==`);
  // TEST_TIMES_DIR=<dir>: each lane also writes TAP there, whose top-level entries are the files with their durations (the folder is made when missing).
  if (process.env.TEST_TIMES_DIR) mkdirSync(process.env.TEST_TIMES_DIR, { recursive: true });
  const times = process.env.TEST_TIMES_DIR
    ? [
        '--test-reporter-destination=stdout',
        '--test-reporter=tap',
        `--test-reporter-destination=${join(process.env.TEST_TIMES_DIR, `${label.replace(/\W+/g, '-')}.tap`)}`,
      ]
    : [];
  const args = ['--enable-source-maps', '--test', `--test-concurrency=${lanes}`, `--test-timeout=${timeoutMs}`, '--test-reporter=spec', ...times, ...entries];
  const extraEnv = { TEST_COMPILED_CLIS: compiledClis, ...(browserServer ? { E2E_BROWSER_WS: browserServer.wsEndpoint() } : {}) };
  return run(process.execPath, args, { live, extraEnv }).then((r) => ({
    ...r,
    label,
    files: files.length,
    passed: num(r.out, /ℹ pass (\d+)/g),
    failed: num(r.out, /ℹ fail (\d+)/g) + num(r.out, /ℹ cancelled (\d+)/g),
    skipped: num(r.out, /ℹ skipped (\d+)/g) + num(r.out, /ℹ todo (\d+)/g),
    seconds: seconds(),
  }));
}
const e2eFiles = nodeFiles.filter(isE2e).sort((a, b) => movesClock(a) - movesClock(b));
const otherFiles = nodeFiles.filter((f) => !isE2e(f));
const nodeRun =
  wanted('node') && otherFiles.length
    ? runNode('node suites', otherFiles, processes(otherFiles, sharesProcess, SHARED_PROCESSES, 'shared'), concurrency, TEST_TIMEOUT_MS, true)
    : null;
const e2eRun =
  wanted('node') && e2eFiles.length
    ? runNode('end-to-end suites', e2eFiles, processes(e2eFiles, sharesE2eProcess, E2E_SHARED_PROCESSES, 'e2e'), E2E_CONCURRENCY, E2E_TIMEOUT_MS, !nodeRun)
    : null;

/**
 * The browser test files web-test-runner loads, each in a page of its own: most are joined
 * into SHARED_PAGES files (written under the test cache, removed at exit), so that the test
 * framework and the kit's modules (about a hundred files, 2 MB of script) load once or twice
 * instead of once a file.
 */
function pages(files) {
  let dir = null;
  // Every test starts with the page's storage empty: a test finds nothing an earlier one left
  // there (a business bank used last opens the list at Business, where a test looking for a
  // personal bank timed out). Each page's storage is its own: its `localStorage` is its
  // `sessionStorage` (web-test-runner.config.mjs), so one call clears both.
  const preamble = '// Mocha: each test starts with empty storage.\nbeforeEach(() => sessionStorage.clear());';
  return joined(
    files,
    sharesPage,
    SHARED_PAGES,
    (f) => f,
    (members, n) => {
      if (!dir) {
        const scratch = scratchDir(root, 'browser-');
        process.on('exit', scratch.remove);
        dir = relative(root, scratch.dir);
      }
      return groupTests(root, dir, `shared-${n}`, members, '.browser.test.js', preamble);
    },
  );
}

const browserRun = browserSuites
  ? run(
      process.execPath,
      [
        join(root, 'node_modules/@web/test-runner/dist/bin.js'),
        '--config',
        'web-test-runner.config.mjs',
        ...pages(browserFiles).flatMap((f) => ['--files', f]),
      ],
      { live: !nodeRun && !e2eRun, extraEnv: { TEST_COMPILED_CLIS: compiledClis } },
    ).then((r) => {
      const m = [...r.out.matchAll(/^wtr: (\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/gm)].at(-1);
      const counts = m ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) } : { passed: 0, failed: 0, skipped: 0 };
      return { ...r, ...counts, seconds: seconds() };
    })
  : null;

const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSuites = [];
const times = [];
for (const [name, pending] of [
  ['node', nodeRun],
  ['end-to-end', e2eRun],
  ['browser', browserRun],
]) {
  if (!pending) continue;
  const r = await pending;
  const streamed = name === 'node' || (name === 'end-to-end' && !nodeRun) || (name === 'browser' && !nodeRun && !e2eRun);
  if (!streamed) {
    console.log(`\n== ${name} suites ==`);
    process.stdout.write(r.out);
  }
  totals.passed += r.passed;
  totals.failed += r.failed;
  totals.skipped += r.skipped;
  times.push(`${name} ${r.seconds} s`);
  if (r.code !== 0) {
    failedSuites.push(name);
    if (r.failed === 0) totals.failed += 1; // a file that did not load still fails the run
  }
}
await closeBrowserServer();

if (failedSuites.length) console.log(`\nfailing suites: ${failedSuites.join(', ')}`);
console.log(`\ntime: ${times.join(', ')} (from the start of the run)`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSuites.length || totals.failed ? 1 : 0);
