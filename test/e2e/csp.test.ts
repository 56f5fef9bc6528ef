/**
 * The shop's page as payers meet it, under the Content-Security-Policy of docs/embedding.md: its
 * two policies (an isolated page, an inline page) read out of the doc and served verbatim, the
 * BFF's origin named where the doc says `https://pay.shop.example`.
 *
 * Isolated, on a slow phone: the CPU 4× slower (`Emulation.setCPUThrottlingRate`) and the
 * launch answered 1.5 s and 4 s late (the BFF's answer held that long on its way back, as a slow
 * network or a busy BFF would): the banks show, the payer pays, no error event, and nothing is
 * refused by the policy. The host makes no call of its own for the policy to refuse, and judges
 * the frame only by what the frame says. Inline, the kit in the page pays under its policy. And
 * under the isolated policy a frame that cannot be shown still fails loud, each with its code:
 * the BFF down (`frame_unreachable`), the page's origin not allowed (`frame_refused`, the BFF's
 * page says so), `api` not the BFF's address (`frame_unreachable`).
 */
import assert from 'node:assert/strict';
import { createServer as httpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { CheckoutView } from '@bank-checkout/contract';
import { docPolicy } from '../support/doc-csp.mjs';
import { act, kit, merchantCheckout, openPage, payNative, resultTitle, startStack, type Stack, type WatchedPage } from './lib.js';
import { opened } from '../support/opened.js';

/**
 * This file's shop pages, on a loopback server of their own (a page Playwright answered itself
 * would be no local page to the browser, which then keeps it from the BFF on loopback): each at
 * the path it was given, with its policy; the shop's assets (`/assets/…`) passed on from the
 * shop's server.
 */
const pages = new Map<string, { html: string; csp: string }>();
const server = httpServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const page = pages.get(path);
  if (page) {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': page.csp, 'Cache-Control': 'no-store' }).end(page.html);
    return;
  }
  // The full browser asks for the site's icon, which these pages have none of (a 204, as a shop without one might answer).
  if (path === '/favicon.ico') {
    res.writeHead(204).end();
    return;
  }
  if (!path.startsWith('/assets/')) {
    res.writeHead(404).end();
    return;
  }
  void fetch(`${stack.urls.demo}${path}`).then(
    async (r) => res.writeHead(r.status, { 'Content-Type': r.headers.get('Content-Type') ?? 'text/javascript' }).end(Buffer.from(await r.arrayBuffer())),
    () => res.writeHead(502).end(),
  );
});
let shop = '';
/** How late the BFF answers the frame's launch (0: at once), and how many answers it held. */
let launchLate = 0;
let launchesHeld = 0;

let stack: Stack;
before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  shop = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The BFF allows these pages' origin (and not the same server named `localhost`), and answers
  // the frame's launch as late as the test says.
  stack = await startStack({
    own: true,
    env: { ALLOWED_ORIGINS: shop },
    bffAnswers: (bff) => async (req, env) => {
      const answer = await bff(req, env);
      if (launchLate && new URL(req.url).pathname === '/v1/frame/launch') {
        // A slow network is the case under test: the kit's own timers run on the browser's real
        // clock, so the answer is held for real time, not until something happens.
        await new Promise((r) => setTimeout(r, launchLate));
        launchesHeld++;
      }
      return answer;
    },
  });
});
after(async () => {
  await opened(stack)?.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** The doc's policy with the BFF's origin named. */
const policy = (kind: 'isolated' | 'inline', bff: string) => docPolicy(kind, bff);

/** A new checkout, made as the shop's server makes one: its id and what its page gets (a launch token, or inline a client secret). */
async function newCheckout(isolation: 'isolated' | 'inline'): Promise<{ id: string; credential: string }> {
  const res = await fetch(`${stack.urls.bff}/v1/checkouts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${stack.merchantSecret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ amount: 1850, subject: 'Order', reference: `CSP-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, isolation }),
  });
  const body = (await res.json()) as { id: string; launchToken?: string; clientSecret?: string };
  assert.equal(res.status, 201, JSON.stringify(body));
  return { id: body.id, credential: (body.launchToken ?? body.clientSecret)! };
}

/** A payment page of the shop: its one script from its own origin (the shop's `/assets/`), nothing inline. */
const payPage = (script: string, element: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pay your order</title>
<script type="module" src="/assets/${script}"></script></head>
<body><main><h1>Your order</h1>${element}</main></body></html>
`;

/** Serves `html` at `url` (on this file's server) with `csp` as its Content-Security-Policy, and records the element's error events. */
async function serve(watched: WatchedPage, url: string, html: string, csp: string): Promise<void> {
  pages.set(new URL(url).pathname, { html, csp });
  await watched.addInitScript(`window.__errors = []; addEventListener('bank-checkout-error', (e) => window.__errors.push(e.detail), true);`);
}

/** The error events the page heard so far. */
const errorEvents = (page: Page) => page.evaluate(() => (window as unknown as { __errors: { code: string }[] }).__errors);

/** The CPU `rate` times slower (1: as it is), for the page and the frame in its process. */
async function throttle(page: Page, rate: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await cdp.detach();
}

describe("the shop's page under the docs' Content-Security-Policy", () => {
  it('isolated, on a slow phone (CPU 4×), the launch answered 1.5 s and 4 s late: the banks show, the payer pays, no error event, nothing refused (4 page loads of 4)', async () => {
    const csp = policy('isolated', stack.urls.bff);
    assert.match(csp, /frame-src http:\/\/127\.0\.0\.1:\d+;/);
    assert.doesNotMatch(csp, /connect-src/, 'no call of the page to the BFF');
    const loads: string[] = [];
    for (const late of [1_500, 4_000]) {
      for (const pays of [true, false]) {
        const watched = await openPage(stack, { own: true });
        const { page } = watched;
        try {
          page.setDefaultTimeout(30_000);
          const { id, credential } = await newCheckout('isolated');
          const url = `${shop}/pay/isolated/${id}`;
          await serve(
            watched,
            url,
            payPage('frame.js', `<bank-checkout isolate api="${stack.urls.bff}" launch-token="${credential}" locale="en"></bank-checkout>`),
            csp,
          );
          [launchLate, launchesHeld] = [late, 0];
          await throttle(page, 4);
          await page.goto(url);
          await kit(page).locator('bank-selector [role=option]#bank-aurora').waitFor();
          assert.equal(launchesHeld, 1, 'the launch was answered late');
          if (pays) {
            const view = await payNative(page, stack, 'aurora');
            assert.equal(view.state, 'succeeded');
            assert.equal(await resultTitle(page), 'Payment completed');
            assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');
          }
          assert.deepEqual(await errorEvents(page), [], 'no error event');
          assert.equal(await page.locator('bank-checkout').evaluate((el) => el.shadowRoot!.querySelector('[part=failure]')), null);
          watched.assertClean();
          loads.push(`${late} ms${pays ? ', paid' : ''}`);
        } finally {
          launchLate = 0;
          await throttle(page, 1).catch(() => {});
          await watched.close();
        }
      }
    }
    assert.equal(loads.length, 4);
  });

  it('inline, under the inline policy: the kit in the page pays, nothing refused', async () => {
    const watched = await openPage(stack, { own: true });
    const { page } = watched;
    try {
      const { id, credential } = await newCheckout('inline');
      const url = `${shop}/pay/inline/${id}`;
      await serve(
        watched,
        url,
        payPage('elements.js', `<bank-checkout api="${stack.urls.bff}" checkout-secret="${credential}" locale="en"></bank-checkout>`),
        policy('inline', stack.urls.bff),
      );
      await page.goto(url);
      const calls = (click: () => Promise<void>): Promise<CheckoutView> => act(page, stack, click);
      await page.locator('bank-selector [role=option]#bank-aurora').click();
      await page.locator('bank-login-form [part=fill-test]').click();
      await calls(() => page.locator('bank-login-form [part=submit]').click());
      await page.locator('bank-account-picker input[type=radio]').first().check();
      await calls(() => page.locator('bank-account-picker button[type=submit]').click());
      await page.locator('bank-challenge [part=fill-test]').click();
      const view = await calls(() => page.locator('bank-challenge [part=submit]').click());
      assert.equal(view.state, 'succeeded');
      assert.equal((await page.locator('bank-result [part=title]').textContent())?.trim(), 'Payment completed');
      assert.deepEqual(await errorEvents(page), []);
      watched.assertClean();
    } finally {
      await watched.close();
    }
  });

  describe('a frame that cannot be shown fails loud under the isolated policy, each with its code', () => {
    /** A loopback port nothing listens on: a BFF that is down. */
    const closedPort = () =>
      new Promise<number>((resolve) => {
        const s = createServer().listen(0, '127.0.0.1', () => {
          const { port } = s.address() as AddressInfo;
          s.close(() => resolve(port));
        });
      });

    /** The page at `url` with the element given `api`, under the isolated policy naming `bff`: the error it fires, and what the payer reads. */
    async function failing(watched: WatchedPage, url: string, api: string, bff: string): Promise<{ code: string; said: string }> {
      const { page } = watched;
      const { credential } = await newCheckout('isolated');
      await serve(
        watched,
        url,
        payPage('frame.js', `<bank-checkout isolate api="${api}" launch-token="${credential}" locale="en"></bank-checkout>`),
        policy('isolated', bff),
      );
      await page.goto(url);
      const failure = page.locator('bank-checkout [part=failure]');
      await failure.waitFor({ timeout: 20_000 });
      const events = await errorEvents(page);
      assert.equal(events.length, 1, JSON.stringify(events));
      return { code: events[0]!.code, said: (await failure.locator('p').textContent())?.trim() ?? '' };
    }

    it('the BFF down: frame_unreachable', async () => {
      const watched = await openPage(stack);
      try {
        const down = `http://127.0.0.1:${await closedPort()}`;
        assert.deepEqual(await failing(watched, `${shop}/pay/down`, down, down), {
          code: 'frame_unreachable',
          said: 'The payment service cannot be reached. Check your connection and try again.',
        });
        watched.assertClean([/ERR_CONNECTION_REFUSED/]);
      } finally {
        await watched.close();
      }
    });

    it("the page's origin not in the BFF's ALLOWED_ORIGINS: frame_refused, and the console names ALLOWED_ORIGINS", async () => {
      const watched = await openPage(stack);
      try {
        assert.deepEqual(await failing(watched, `${shop.replace('127.0.0.1', 'localhost')}/pay/elsewhere`, stack.urls.bff, stack.urls.bff), {
          code: 'frame_refused',
          said: 'The payment cannot be shown on this page.',
        });
        assert.ok(
          watched.problems.some((p) => p.includes('ALLOWED_ORIGINS') && p.includes(shop.replace('127.0.0.1', 'localhost'))),
          watched.problems.join('\n'),
        );
        watched.assertClean([/ALLOWED_ORIGINS/]);
      } finally {
        await watched.close();
      }
    });

    it("api not the BFF's address (the right origin, a wrong path): frame_unreachable", async () => {
      const watched = await openPage(stack);
      try {
        assert.deepEqual(await failing(watched, `${shop}/pay/wrong-api`, `${stack.urls.bff}/wrong`, stack.urls.bff), {
          code: 'frame_unreachable',
          said: 'The payment service cannot be reached. Check your connection and try again.',
        });
        // The BFF's answer at that address may be framed by nobody (its 404 says so): the browser says it refused to.
        watched.assertClean([/frame-ancestors 'none'/, /status of 404 .*chrome-error/]);
      } finally {
        await watched.close();
      }
    });
  });
});
