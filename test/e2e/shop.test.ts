/**
 * The shop's own guarantees in Chromium: every kind of page is served with the strict policy
 * (no inline script or style, Trusted Types limited to Lit's policy) and really enforces it;
 * the session cookie is HttpOnly and SameSite=Lax; requests from other origins cannot change
 * anything; and both embedding examples (plain HTML and React) take a payment and report the
 * element's events.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { orderCheckout, openPage, pageStatus, payNative, startStack, type Stack } from './lib.js';
import { opened } from '../support/opened.js';

/** axe-core, evaluated in the page by the browser's debugging protocol (the page's CSP stays on). */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await opened(stack)?.close();
});

describe('the shop under its content security policy', () => {
  it('serves every page with the strict policy and no inline script or style', async () => {
    const { page, assertClean, close } = await openPage(stack);
    const checkoutId = await orderCheckout(page, stack, 'native');
    // Read in the page's own session (its cart and checkout), without drawing each page: the
    // accessibility pass below draws every one of them and fails on any violation reported.
    const paths = [
      '/',
      '/products/mug',
      '/cart',
      '/console',
      '/console/links/new',
      '/console/periodic/new',
      '/console/periodic/cancel',
      '/examples',
      '/examples/plain',
      '/examples/react',
      `/result?checkout=${checkoutId}`,
    ];
    for (const path of paths) {
      const res = await page.request.get(`${stack.urls.demo}${path}`, { maxRedirects: 0 });
      assert.equal(res.status(), 200, path);
      const csp = res.headers()['content-security-policy'] ?? '';
      assert.match(csp, /script-src 'self';/, path);
      assert.match(csp, /style-src 'self';/, path);
      assert.match(csp, /require-trusted-types-for 'script'; trusted-types lit-html/, path);
      assert.doesNotMatch(csp, /unsafe/, path);
      const html = await res.text();
      assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, `${path}: inline script`);
      assert.doesNotMatch(html, /\sstyle=|<style/, `${path}: inline style`);
      assert.equal(res.headers()['cache-control'], 'no-store', path);
    }
    assertClean();
    await close();
  });

  it('enforces Trusted Types: a raw HTML sink throws and is reported', async () => {
    const watched = await openPage(stack);
    await watched.page.goto(`${stack.urls.demo}/`);
    const reported = watched.page.waitForEvent('console', (m) => /^CSP violation: require-trusted-types-for/.test(m.text()));
    const outcome = await watched.page.evaluate(() => {
      try {
        document.body.insertAdjacentHTML('beforeend', '<b>raw</b>');
        return 'inserted';
      } catch (err) {
        return (err as Error).name;
      }
    });
    assert.equal(outcome, 'TypeError');
    await reported;
    assert.ok(
      watched.problems.some((p) => /require-trusted-types-for/.test(p)),
      'the page watcher records the violation',
    );
    watched.problems.length = 0;
    await watched.close();
  });

  it('keeps the session cookie from scripts and refuses changes from other origins', async () => {
    const { page, close } = await openPage(stack);
    await page.goto(`${stack.urls.demo}/`);
    const [cookie] = await page.context().cookies();
    assert.equal(cookie?.name, 'shop_sid');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.equal(await page.evaluate(() => document.cookie), '');

    const forged = await fetch(`${stack.urls.demo}/cart/add`, {
      method: 'POST',
      headers: { Origin: 'https://attacker.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'productId=mug&quantity=1',
    });
    assert.equal(forged.status, 403);
    const webhook = await fetch(`${stack.urls.demo}/webhooks/bank-checkout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Bank-Checkout-Signature': `t=${Date.now()},v1=${'0'.repeat(64)}` },
      body: JSON.stringify({ type: 'checkout.updated', data: { checkoutId: 'chk_forged', state: 'succeeded' } }),
    });
    assert.equal(webhook.status, 401);
    await close();
  });
});

describe('accessibility', () => {
  // The checkout page, with the checkout's frame, is checked at each step of the keyboard journey (isolation.test.ts).
  it('every kind of page passes axe (WCAG 2.1 A and AA, best practices)', async () => {
    const { page, assertClean, close, addInitScript } = await openPage(stack);
    const checkoutId = await orderCheckout(page, stack, 'native');
    // axe-core in every document the page loads from here on: Chromium compiles a script it
    // injects at each load from its cache (about a third less CPU a page than an evaluation).
    await addInitScript(AXE);
    const paths = [
      '/',
      '/products/mug',
      '/cart',
      '/console',
      '/console?pageSize=0',
      '/console/links/new',
      '/console/periodic/new',
      '/console/periodic/cancel',
      '/examples',
      '/examples/plain',
      '/examples/react',
      `/result?checkout=${checkoutId}`,
    ];
    const found: string[] = [];
    for (const path of paths) {
      await page.goto(`${stack.urls.demo}${path}`);
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }
        ).axe;
        // Only the violations' nodes are wanted: axe lists every other result's nodes unless told (about half its time).
        const result = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'], resultTypes: ['violations'] });
        return result.violations.map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      });
      found.push(...violations.map((v) => `${path}: ${v}`));
    }
    assert.deepEqual(found, []);
    assertClean([pageStatus(422, '/console?pageSize=0')]);
    await close();
  });
});

describe('embedding examples', () => {
  it('plain HTML: creates a checkout through the shop server, pays, and logs the events', async () => {
    const { page, assertClean, close } = await openPage(stack);
    await page.goto(`${stack.urls.demo}/examples/plain`);
    await page.getByRole('button', { name: /^Pay .* by bank$/ }).click();
    const view = await payNative(page, stack, 'aurora');
    assert.equal(view.state, 'succeeded');
    const events = page.locator('#events');
    await events.getByText(/^bank-checkout-complete: .*"outcome":"succeeded"/).waitFor();
    assert.match((await events.textContent()) ?? '', /bank-checkout-step: .*"state":"select-bank"/);
    assert.doesNotMatch((await events.textContent()) ?? '', /cs_/, 'no event carries the client secret');
    assertClean();
    await close();
  });

  it('React: renders <bank-checkout>, and the component hears it complete', async () => {
    const { page, assertClean, close } = await openPage(stack);
    await page.goto(`${stack.urls.demo}/examples/react`);
    await page.getByRole('button', { name: /^Pay .* by bank$/ }).click();
    const view = await payNative(page, stack, 'levante');
    assert.equal(view.state, 'succeeded');
    await page.getByText('React saw the payment end: succeeded.').waitFor();
    assert.match((await page.locator('#events').textContent()) ?? '', /bank-checkout-complete/);
    assertClean();
    await close();
  });
});
