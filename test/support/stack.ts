/**
 * The one way tests, benchmarks and scripts start the product and a browser: the shop, the BFF
 * and the simulator (`startAll` of scripts/start.ts: the wiring of `npm start`) on free loopback
 * ports with a temporary store, and the system Chromium (playwright-core; scripts/chromium.mjs
 * says which).
 *
 * Under `npm test` the runner (scripts/test.mjs) starts one Chromium for every end-to-end file
 * and passes its address in E2E_BROWSER_WS: `testBrowser()` connects to it, so no file pays
 * for a browser of its own (and most end-to-end files share one process, and in it one stack:
 * test/e2e/lib.ts `startStack`). Run alone, a file launches its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startAll, type Started, type StartOptions } from '../../scripts/start.js';
import { CHROME_PATH, CHROMIUM_ARGS } from '../../scripts/chromium.mjs';

export { CHROME_PATH, CHROMIUM_ARGS };
export type { Started, StartOptions };

/** A Chromium of the caller's own (benchmarks measure in one nothing else uses). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROME_PATH, args: CHROMIUM_ARGS, headless: true });
}

/**
 * The test run's shared Chromium when there is one (E2E_BROWSER_WS), else one of the caller's
 * own. Either way `close()` on the answer ends what the caller opened in it.
 */
export function testBrowser(): Promise<Browser> {
  const ws = process.env.E2E_BROWSER_WS;
  return ws ? chromium.connect(ws) : launchChromium();
}

/**
 * The three servers (on free ports, storing in a new temporary folder named from `prefix`) and
 * a browser (`testBrowser()` unless `browser` says how), started together (`bffAnswers`: what
 * answers the BFF's requests, given the BFF); `close()` ends all of it and removes the folder. If either fails to start, the other is stopped before the
 * error is thrown, so a missing browser ends the caller with a message instead of leaving
 * servers running.
 */
export async function startServersAndBrowser(
  prefix: string,
  opts: Pick<StartOptions, 'now' | 'env' | 'bffAnswers'> & { browser?: () => Promise<Browser> } = {},
): Promise<{ started: Started; browser: Browser; close: () => Promise<void> }> {
  const { browser: openBrowser = testBrowser, env, ...startOpts } = opts;
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const removeData = () => rmSync(dataDir, { recursive: true, force: true });
  const [started, browser] = await Promise.allSettled([
    startAll({ ports: { demo: 0, bff: 0, sandbox: 0 }, dataDir, env: { LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000', ...env }, ...startOpts }),
    openBrowser(),
  ]);
  if (started.status === 'fulfilled' && browser.status === 'fulfilled') {
    const close = async () => {
      await browser.value.close();
      await started.value.stop();
      removeData();
    };
    return { started: started.value, browser: browser.value, close };
  }
  if (started.status === 'fulfilled') await started.value.stop();
  if (browser.status === 'fulfilled') await browser.value.close();
  removeData();
  throw started.status === 'rejected' ? started.reason : (browser as PromiseRejectedResult).reason;
}
