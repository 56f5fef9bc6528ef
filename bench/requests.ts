/**
 * `npm run bench:requests`: the requests one paid payment takes, counted on a real one. The
 * shop, the BFF and the simulator as `npm start` wires them; for each of the six flows of the
 * relay bench (bench/lib/load.ts `LOAD_BANKS`), a payer in a fresh browser orders at the shop
 * and pays in the isolated checkout with the page's own buttons (test/e2e/lib.ts `payNative`).
 * Counted per payment: the calls the checkout's frame makes to the BFF (its page and modules
 * apart), the shop's server's calls to the BFF's merchant API, and the BFF's calls to the
 * provider (its upstream's own count, by endpoint). `BENCH_TRACE=1` prints the frame's calls
 * in their order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request } from 'playwright-core';
import { startAll } from '../scripts/start.js';
import { launchChromium } from '../test/support/stack.js';
import { orderCheckout, payNative, type Stack } from '../test/e2e/lib.js';
import { LOAD_BANKS } from './lib/load.js';

const bump = (m: Map<string, number>, key: string, by = 1) => m.set(key, (m.get(key) ?? 0) + by);
let bffOrigin = '';
/** The merchant API's calls, as the BFF sees them (the shop's server is in this process: its fetches are counted here). */
const merchant = new Map<string, number>();
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (bffOrigin && url.origin === bffOrigin)
    bump(merchant, `${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${url.pathname.replace(/chk_[\w-]+/, ':id')}`);
  return realFetch(input, init);
};

const dataDir = mkdtempSync(join(tmpdir(), 'bench-requests-'));
const started = await startAll({ ports: { demo: 0, bff: 0, sandbox: 0 }, dataDir, env: { LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000' } });
bffOrigin = started.urls.bff;
const browser = await launchChromium();
const stack = { ...started, browser } as unknown as Stack;
const upstream = started.bff.parts.upstream.calls;
const count = (m: Map<string, number>) => new Map(m);

const frameCalls = new Map<string, number>();
const totals = { frame: 0, merchant: 0, upstream: 0 };
try {
  for (const bank of LOAD_BANKS) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const calls = new Map<string, number>();
    page.on('request', (r: Request) => {
      const url = new URL(r.url());
      if (url.origin === started.urls.bff && url.pathname.startsWith('/v1/') && !/^\/v1\/frame(\/assets\/.*)?$/.test(url.pathname)) {
        bump(calls, `${r.method()} ${url.pathname}`);
        if (process.env.BENCH_TRACE === '1') console.log(`  ${r.method()} ${url.pathname}`);
      }
    });
    const beforeUpstream = count(upstream);
    const beforeMerchant = count(merchant);
    await orderCheckout(page, stack);
    const view = await payNative(page, stack, bank, { legal: bank.endsWith('-empresas') });
    if (view.state !== 'succeeded') throw new Error(`${bank}: the payment ended ${view.state}`);
    // The result as the payer sees it, then the shop's page the payer goes to.
    await page.frameLocator('bank-checkout iframe').locator('bank-result').waitFor();
    await context.close();
    const diff = (now: Map<string, number>, before: Map<string, number>) =>
      [...now].flatMap(([k, v]) => (v - (before.get(k) ?? 0) > 0 ? [[k, v - (before.get(k) ?? 0)] as const] : []));
    const up = diff(upstream, beforeUpstream);
    const mer = diff(merchant, beforeMerchant);
    const sum = (xs: readonly (readonly [string, number])[]) => xs.reduce((a, [, v]) => a + v, 0);
    totals.frame += sum([...calls]);
    totals.merchant += sum(mer);
    totals.upstream += sum(up);
    for (const [k, v] of calls) bump(frameCalls, k, v);
    console.log(
      `${bank.padEnd(20)} frame → BFF ${sum([...calls])} (${[...calls].map(([k, v]) => `${k} ×${v}`).join(', ')}); shop → BFF ${sum(mer)}; BFF → provider ${sum(up)} (${up.map(([k, v]) => `${k} ×${v}`).join(', ')})`,
    );
  }
  const n = LOAD_BANKS.length;
  console.log(
    `per paid payment, mean of ${n}: frame → BFF ${(totals.frame / n).toFixed(2)}, shop → BFF ${(totals.merchant / n).toFixed(2)}, BFF → provider ${(totals.upstream / n).toFixed(2)}`,
  );
  console.log(`frame → BFF by call, over the ${n}: ${[...frameCalls].map(([k, v]) => `${k} ×${v}`).join(', ')}`);
} finally {
  globalThis.fetch = realFetch;
  await browser.close();
  await started.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
