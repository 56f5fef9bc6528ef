// Browser tests in the system Chromium (scripts/chromium.mjs says which). Files are
// `*.browser.test.ts`; `node scripts/test.mjs browser` passes them in.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher, defaultReporter } from '@web/test-runner';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { CHROME_PATH, CHROMIUM_ARGS } from './scripts/chromium.mjs';
import { cliArgs } from './test/support/cli.mjs';

/** Prints `wtr: N passed, N failed, N skipped` alone on a line; a file that fails to load counts as failed. */
function countingReporter() {
  return {
    onTestRunFinished({ sessions }) {
      let passed = 0;
      let failed = 0;
      let skipped = 0;
      const visit = (suite) => {
        for (const t of suite.tests ?? []) {
          if (t.skipped) skipped++;
          else if (t.passed) passed++;
          else failed++;
        }
        for (const s of suite.suites ?? []) visit(s);
      };
      for (const session of sessions) {
        if (session.testResults) visit(session.testResults);
        const loadFailed = !session.passed && (session.errors?.length ?? 0) > 0;
        if (loadFailed) failed++;
      }
      process.stdout.write(`\nwtr: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    },
  };
}

/**
 * The real simulator and BFF for journeys, started on first use (bench/lib/servers.ts in a child
 * process, loopback, free ports, a temporary SQLite file). A test asks the dev server for
 * `/__journey/checkout` and gets `{bffUrl, clientSecret}` of a fresh checkout, created the
 * way a merchant's server does it (the merchant secret stays in this process).
 */
function journeyServers() {
  let origin = '';
  let child = null;
  let started = null;
  const start = () =>
    (started ??= new Promise((resolve, reject) => {
      child = spawn(process.execPath, cliArgs('bench/lib/servers.ts'), {
        env: { ...process.env, ALLOWED_ORIGINS: origin, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const timer = setTimeout(() => reject(new Error('journey servers did not start in 120 s')), 120_000); // a safety net: a loaded machine starts slowly
      child.on('exit', (code) => reject(new Error(`journey servers exited with ${code}`)));
      createInterface({ input: child.stdout }).once('line', (line) => {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      });
    }));
  return {
    name: 'journey-servers',
    serverStart({ config }) {
      origin = `http://${config.hostname ?? 'localhost'}:${config.port}`;
    },
    async serve(context) {
      if (context.path !== '/__journey/checkout') return undefined;
      const servers = await start();
      const params = new URL(context.url, origin).searchParams;
      const res = await fetch(`${servers.bffUrl}/v1/checkouts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${servers.merchantSecret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          amount: Number(params.get('amount') ?? 4250),
          subject: 'Journey order',
          reference: `JRN-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
          isolation: 'inline',
        }),
      });
      const created = await res.json();
      if (res.status !== 201) throw new Error(`checkout not created: ${res.status} ${JSON.stringify(created)}`);
      return { body: JSON.stringify({ bffUrl: servers.bffUrl, clientSecret: created.clientSecret }), type: 'json' };
    },
    serverStop() {
      child?.kill('SIGTERM');
    },
  };
}

/**
 * `/__closed-port` answers a loopback port nothing listens on (one a server held a moment ago):
 * a BFF that is down, for the isolated mode's tests.
 */
function closedPort() {
  return {
    name: 'closed-port',
    async serve(context) {
      if (context.path !== '/__closed-port') return undefined;
      const port = await new Promise((resolve, reject) => {
        const server = createServer().listen(0, '127.0.0.1', () => {
          const { port } = server.address();
          server.close(() => resolve(port));
        });
        server.on('error', reject);
      });
      return { body: JSON.stringify({ port }), type: 'json' };
    },
  };
}

/**
 * The BFF's answers at the frame's address that the isolated mode's host tests meet: to a page
 * of another origin (its `Referer`), the page the BFF gives an origin it does not allow (one
 * script that tells its parent so: packages/bff/src/frame.ts); under `/__unanswered`, no answer
 * at all until the server stops (a frame that never loads).
 */
function frameAnswers() {
  const held = new Set();
  return {
    name: 'frame-answers',
    async serve(context) {
      if (context.path === '/__unanswered/v1/frame') {
        await new Promise((resolve) => held.add(resolve));
        return { body: '', type: 'html' };
      }
      const referer = context.get('Referer');
      if (!context.path.endsWith('/v1/frame') || !referer || new URL(referer).origin === context.origin) return undefined;
      context.set('Content-Security-Policy', "default-src 'none'; script-src 'unsafe-inline'; frame-ancestors *");
      return { body: `<!doctype html><script>parent.postMessage({v:1,type:'failed',code:'frame_refused'},'*')</script>`, type: 'html' };
    },
    serverStop() {
      for (const answer of held) answer();
    },
  };
}

/**
 * Each test page keeps its storage to itself: `localStorage` is the page's own `sessionStorage`
 * (a real Storage, which no other tab shares). Pages of a concurrent run share the origin's
 * `localStorage`, so a bank one page's journey remembered changed the list another page showed
 * (a business bank opens the list at Business, and a test looking for a personal bank there
 * timed out). The page's storage starts empty.
 */
const ownStorage = `sessionStorage.clear();
Object.defineProperty(window, 'localStorage', { configurable: true, get: () => sessionStorage });`;

export default {
  // The packages' TypeScript sources (their `bank-checkout-source` export condition).
  nodeResolve: { exportConditions: ['bank-checkout-source'] },
  files: ['packages/*/test/**/*.browser.test.ts', 'test/**/*.browser.test.ts'],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }), journeyServers(), closedPort(), frameAnswers()],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: CHROME_PATH,
        args: CHROMIUM_ARGS,
      },
      // Each page in a browser context of its own, so a window of its own: in the full Chromium
      // a tab behind another is hidden (no frames, no resize observations, timers throttled), and
      // the test runner's pages run side by side. Debian's headless shell shows every tab anyway.
      createPage: async ({ browser }) => (await browser.createBrowserContext()).newPage(),
    }),
  ],
  concurrency: 2,
  // Journeys against the real servers include their start on first use.
  testFramework: { config: { timeout: 30000 } },
  reporters: [defaultReporter(), countingReporter()],
  testRunnerHtml: (testFramework) =>
    `<!doctype html><html><head><script>${ownStorage}</script></head><body><script type="module" src="${testFramework}"></script></body></html>`,
};
