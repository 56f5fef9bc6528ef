/**
 * The built kit. The elements are built with the library's own vite config into a temporary
 * folder; no provider key, token or merchant secret (the documented defaults, the test
 * suites' values or this suite's canaries) is in any file or source map of that build or of
 * packages/elements/dist. Then a merchant page served with a strict CSP and Trusted Types
 * loads the built `<bank-checkout>` in Chromium and pays a native checkout against the real
 * BFF and simulator: no CSP violation, no console error, and no request to any origin but the
 * page's and the BFF's.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { build } from 'vite';
import type { Browser } from 'playwright-core';
import { testBrowser } from '../support/stack.js';
import { elementsLibrary } from '../../vite.config.js';
import { createSandbox, SANDBOX_DEFAULTS } from '@bank-checkout/sandbox';
import { createBff, loadConfig, type BffApp, type CheckoutView } from '@bank-checkout/bff';
import { MERCHANT_SECRET as HARNESS_MERCHANT_SECRET } from '../../packages/bff/test/harness.js';
import { describeLeaks, findLeaks, SECRETS, type Sample } from './lib/canary.js';
import { opened } from '../support/opened.js';

const root = new URL('../..', import.meta.url).pathname;
const kitDir = mkdtempSync(join(tmpdir(), 'security-kit-'));

/** Every secret value the repository knows of: none may be compiled into the kit. */
const KNOWN_SECRETS = [
  ...Object.values(SECRETS),
  SANDBOX_DEFAULTS.apiKey,
  SANDBOX_DEFAULTS.apiToken,
  SANDBOX_DEFAULTS.commerceApiKey,
  SANDBOX_DEFAULTS.commerceApiToken,
  SANDBOX_DEFAULTS.businessApiKey,
  SANDBOX_DEFAULTS.businessApiToken,
  loadConfig({}).merchantSecret,
  HARNESS_MERCHANT_SECRET,
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

before(async () => {
  await build({ ...elementsLibrary({ outDir: kitDir }), configFile: false });
});
after(() => rmSync(kitDir, { recursive: true, force: true }));

describe('the built kit', () => {
  it('holds no provider key, token or merchant secret, in code or source maps', () => {
    const dirs = [kitDir, join(root, 'packages/elements/dist')].filter((d) => existsSync(d));
    const files = dirs.flatMap(filesUnder).filter((f) => /\.(js|mjs|map|css|html|json)$/.test(f));
    assert.ok(files.some((f) => f.endsWith('bank-checkout.js')) && files.some((f) => f.endsWith('.map')), 'the build has code and source maps');
    const samples: Sample[] = files.map((f) => ({ where: f, text: readFileSync(f, 'utf8') }));
    const leaks = findLeaks(samples, KNOWN_SECRETS);
    assert.equal(leaks.length, 0, describeLeaks(leaks));
    for (const s of samples) {
      assert.doesNotMatch(s.text, /x-api-key/i, `${s.where} names the provider's key header`);
      assert.doesNotMatch(s.text, /\/transfer\/init|\/url\/signer/, `${s.where} names a provider endpoint`);
    }
  });
});

/* ---------- the merchant page under a strict CSP ---------- */

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.map': 'application/json', '.html': 'text/html; charset=utf-8' };

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

function serveApp(fetchFn: (req: Request) => Response | Promise<Response>): Promise<{ url: string; server: ServerType }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: fetchFn, port: 0, hostname: '127.0.0.1' }, (info) => resolve({ url: `http://127.0.0.1:${info.port}`, server }));
  });
}

const close = (server: { close(cb?: (err?: Error) => void): unknown }) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('<bank-checkout> on a page with a strict CSP and Trusted Types', () => {
  let shop: Server;
  let shopUrl = '';
  let bffServer: ServerType;
  let sandboxServer: ServerType;
  let bffUrl = '';
  let bff: BffApp;
  let browser: Browser;
  /** The page of the checkout being paid: its client secret, set per test. */
  const page = { secret: '' };
  const csp = () =>
    `default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self' ${bffUrl}; require-trusted-types-for 'script'; trusted-types lit-html`;

  before(async () => {
    shop = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/favicon.ico') {
        res.writeHead(204);
        res.end();
        return;
      }
      if (path === '/') {
        res.writeHead(200, { 'Content-Type': TYPES['.html']!, 'Content-Security-Policy': csp() });
        res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script type="module" src="/kit/bank-checkout.js"></script></head>
<body><main><h1>Checkout</h1><bank-checkout api="${bffUrl}" checkout-secret="${page.secret}" locale="en"></bank-checkout></main></body></html>`);
        return;
      }
      const file = normalize(join(kitDir, path.replace(/^\/kit\//, '')));
      if (path.startsWith('/kit/') && file.startsWith(kitDir) && existsSync(file)) {
        res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Security-Policy': csp() });
        res.end(readFileSync(file));
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    });
    shopUrl = await listen(shop);

    const sandboxHolder: { app?: ReturnType<typeof createSandbox>['app'] } = {};
    const s = await serveApp((req) => sandboxHolder.app!.fetch(req));
    sandboxServer = s.server;
    sandboxHolder.app = createSandbox({ publicUrl: s.url, allowLocalNotif: true, apiKey: SECRETS.apiKey, apiToken: SECRETS.apiToken }).app;

    const bffHolder: { app?: BffApp } = {};
    const b = await serveApp((req) => bffHolder.app!.fetch(req));
    bffServer = b.server;
    bffUrl = b.url;
    bff = createBff(
      loadConfig({
        PROVIDER_LINKS_URL: s.url,
        PROVIDER_NATIVE_URL: s.url,
        PROVIDER_API_KEY: SECRETS.apiKey,
        PROVIDER_API_TOKEN: SECRETS.apiToken,
        BFF_MERCHANT_SECRET: SECRETS.merchantSecret,
        BFF_PUBLIC_URL: b.url,
        ALLOWED_ORIGINS: shopUrl,
        DATABASE_URL: ':memory:',
        LOG_LEVEL: 'silent',
      }),
    );
    bffHolder.app = bff;
    await bff.ready;

    browser = await testBrowser();
  });

  after(async () => {
    await opened(browser)?.close();
    await Promise.all([close(shop), close(bffServer), close(sandboxServer)]);
    await opened(bff)?.close();
  });

  async function createCheckout(): Promise<{ id: string; clientSecret: string }> {
    const res = await fetch(`${bffUrl}/v1/checkouts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SECRETS.merchantSecret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 4250, subject: 'CSP order', reference: `CSP-${Date.now()}`, isolation: 'inline' }),
    });
    assert.equal(res.status, 201);
    return (await res.json()) as { id: string; clientSecret: string };
  }

  const view = async (secret: string) => (await (await fetch(`${bffUrl}/v1/checkout`, { headers: { 'X-Checkout-Secret': secret } })).json()) as CheckoutView;

  it('pays a native checkout with zero CSP violations and talks only to the page and the BFF', { timeout: 60_000 }, async () => {
    const checkout = await createCheckout();
    page.secret = checkout.clientSecret;
    const context = await browser.newContext();
    const tab = await context.newPage();
    const requests: string[] = [];
    const consoleErrors: string[] = [];
    tab.on('request', (r) => requests.push(r.url()));
    tab.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy|Trusted Type/i.test(m.text())) consoleErrors.push(`${m.type()}: ${m.text()}`);
    });
    tab.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    await tab.addInitScript(() => {
      const w = window as unknown as { __violations: string[] };
      w.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective}: ${e.blockedURI} ${e.sample}`));
    });

    try {
      const main = await tab.goto(shopUrl);
      assert.equal(main?.headers()['content-security-policy'], csp());
      await tab.locator('bank-selector #bank-aurora').click();
      await tab.locator('bank-login-form [part=fill-test]').click();
      await tab.locator('bank-login-form button[type=submit]:not([disabled])').click();
      await tab.locator('bank-account-picker input[type=radio]').first().check();
      await tab.locator('bank-account-picker button[type=submit]:not([disabled])').click();
      await tab.locator('bank-challenge input').first().waitFor();
      const v = await view(checkout.clientSecret);
      assert.equal(v.step.state, 'validate');
      const inputs = tab.locator('bank-challenge input');
      assert.equal(await inputs.count(), v.step.validations.length);
      for (let i = 0; i < v.step.validations.length; i++) await inputs.nth(i).fill(v.step.validations[i]!.testValue!);
      await tab.locator('bank-challenge button[type=submit]:not([disabled])').click();
      await tab.locator('bank-result h2').filter({ hasText: 'Payment completed' }).waitFor();
      assert.equal((await view(checkout.clientSecret)).state, 'succeeded');

      const violations = await tab.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
      assert.deepEqual(violations, [], 'no CSP or Trusted Types violation');
      assert.deepEqual(consoleErrors, [], 'no error on the console');
      const origins = new Set(requests.map((u) => new URL(u).origin));
      assert.deepEqual([...origins].sort(), [bffUrl, shopUrl].sort(), `requests went only to the page and the BFF: ${[...origins].join(', ')}`);
      assert.ok(
        requests.some((u) => u === `${bffUrl}/v1/checkout/validate`),
        'the kit called the BFF',
      );
      const storage = await tab.evaluate(() => ({
        local: Object.fromEntries(Object.entries(localStorage)),
        session: Object.keys(sessionStorage),
        cookie: document.cookie,
      }));
      assert.deepEqual(storage, { local: { 'bank-checkout:last-bank': 'aurora' }, session: [], cookie: '' }, 'only the last bank chosen is stored');
    } finally {
      await context.close();
    }
  });

  it('the page itself enforces the policy: an inline script and an unlisted origin are refused', { timeout: 30_000 }, async () => {
    const checkout = await createCheckout();
    page.secret = checkout.clientSecret;
    const context = await browser.newContext();
    const tab = await context.newPage();
    try {
      await tab.addInitScript(() => {
        const w = window as unknown as { __violations: string[] };
        w.__violations = [];
        document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(e.violatedDirective));
      });
      await tab.goto(shopUrl);
      await tab.locator('bank-selector #bank-aurora').waitFor();
      // A string, so that the test's compiler adds no helper to the code run in the page.
      const refused = await tab.evaluate<{ html: string; connect: string; violations: string[] }>(`(async () => {
        const w = window;
        const reported = new Promise((resolve) => {
          document.addEventListener('securitypolicyviolation', () => setTimeout(() => w.__violations.length >= 3 && resolve()));
        });
        const style = document.createElement('style');
        style.textContent = 'body{color:red}';
        document.head.append(style);
        let html = 'allowed';
        try {
          document.body.insertAdjacentHTML('beforeend', '<p>x</p>');
        } catch {
          html = 'refused';
        }
        let connect = 'allowed';
        try {
          await fetch('https://example.invalid/');
        } catch {
          connect = 'refused';
        }
        await reported;
        return { html, connect, violations: w.__violations };
      })()`);
      assert.equal(refused.html, 'refused', 'Trusted Types refuse a string as HTML');
      assert.equal(refused.connect, 'refused');
      assert.ok(
        refused.violations.some((v) => v.startsWith('style-src')),
        `an inline style is reported (${refused.violations.join(', ')})`,
      );
      assert.ok(
        refused.violations.some((v) => v.startsWith('require-trusted-types-for')),
        'the Trusted Types refusal is reported',
      );
      assert.ok(
        refused.violations.some((v) => v.startsWith('connect-src')),
        'the unlisted origin is reported',
      );
    } finally {
      await context.close();
    }
  });
});
