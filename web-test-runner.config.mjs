// Browser tests in the system Chromium (CHROME_PATH, else /usr/bin/chromium). Files are
// `*.browser.test.ts`; `node scripts/test.mjs browser` passes them in.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher, defaultReporter } from '@web/test-runner';

const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';

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

export default {
  nodeResolve: true,
  files: ['packages/*/test/**/*.browser.test.ts', 'test/**/*.browser.test.ts'],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' })],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath,
        args: [
          '--no-sandbox',
          '--headless=new',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      },
    }),
  ],
  concurrency: 2,
  testFramework: { config: { timeout: 10000 } },
  reporters: [defaultReporter(), countingReporter()],
};
