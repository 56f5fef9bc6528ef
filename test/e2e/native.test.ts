/**
 * Native payments through the shop's checkout page, against the real BFF and simulator: a bank
 * (see BANKS) from the cart to the shop's order page, under the shop's strict CSP
 * with Trusted Types and without a console error.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkoutFromCart, merchantCheckout, openPage, payNative, resultTitle, startStack, type Stack } from './lib.js';
import { opened } from '../support/opened.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await opened(stack)?.close();
});

/**
 * A business bank end to end, with a second login by coordinates and contracts. A retail bank
 * (Aurora: one login, a code by SMS) is paid through the shop in the other journeys: with the
 * keyboard alone (isolation.test.ts), after each way back (way-forward.test.ts), beside a
 * hostile script (hostile.test.ts). Every active bank, with every validation type between them,
 * is paid at the HTTP level (packages/bff/test/checkout.test.ts), each step's widgets are
 * checked in the components' suites, and more banks, the approval in the bank's app among them,
 * are paid through `<bank-checkout>` against the real BFF
 * (test/browser/native-journey.browser.test.ts). A payment that fails (three wrong codes) is
 * walked to its order page and paid again from the cart in way-forward.test.ts.
 */
const BANKS: { bankId: string; legal?: boolean; loginType?: string; covers: string }[] = [
  { bankId: 'levante-empresas', legal: true, covers: 'second login 2 (coordinates), contracts, validation 3' },
];

describe('native payments on the checkout page', () => {
  for (const bank of BANKS) {
    it(`pays at ${bank.bankId}: ${bank.covers}`, async () => {
      const { page, assertClean, close } = await openPage(stack);
      const id = await checkoutFromCart(page, stack, 'native');
      const view = await payNative(page, stack, bank.bankId, { legal: bank.legal ?? false, ...(bank.loginType ? { loginType: bank.loginType } : {}) });
      assert.equal(view.state, 'succeeded', `ended ${view.state} ${view.error?.code ?? ''}`);
      assert.equal(await resultTitle(page), 'Payment completed');
      assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');
      // The page's own cart badge follows: the cart it paid is empty.
      await page.locator('header .nav-cart .badge').waitFor({ state: 'detached' });

      // The cart is emptied as the payment succeeds, before the order's page is opened (another tab shows it).
      const tab = await page.context().newPage();
      await tab.goto(`${stack.urls.demo}/cart`);
      assert.match((await tab.locator('main').textContent()) ?? '', /Your cart is empty/);
      await tab.close();
      // The shop's page for the order: read from the BFF on the server.
      await page.getByRole('link', { name: 'Continue: see your order' }).click();
      await page.waitForURL(/\/result\?/);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Thank you: your payment is complete');
      await page.goto(`${stack.urls.demo}/cart`);
      assert.match((await page.locator('main').textContent()) ?? '', /Your cart is empty/);
      assertClean();
      await close();
    });
  }
});

describe('the shop on a phone', () => {
  it('at 320 and 375 px: the cart fits the screen and “Continue to payment” takes its own taps', async () => {
    const context = await stack.browser.newContext({ viewport: { width: 320, height: 700 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    try {
      await page.goto(`${stack.urls.demo}/`);
      for (const name of ['Stoneware mug', 'Single-origin coffee, 1 kg', 'Dot-grid notebook']) {
        await page.getByRole('button', { name: `Add to cart: ${name}` }).click();
        await page.waitForURL('**/cart');
        await page.goto(`${stack.urls.demo}/`);
      }
      for (const width of [320, 375]) {
        await page.setViewportSize({ width, height: 700 });
        await page.goto(`${stack.urls.demo}/cart`);
        const wide = await page.evaluate(() => {
          const edge = document.documentElement.clientWidth;
          return [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > edge + 0.5).map((e) => e.localName);
        });
        assert.deepEqual(wide, [], `at ${width} px nothing of the cart reaches past the screen’s edge`);
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, `no sideways scroll at ${width} px`);
        assert.match((await page.locator('table.cart tbody tr').first().textContent()) ?? '', /€18\.50 each/, 'the unit price stays, under the name');

        const button = page.getByRole('button', { name: 'Continue to payment' });
        await button.scrollIntoViewIfNeeded();
        const taps = await button.evaluate((b) => {
          const r = b.getBoundingClientRect();
          // Its edges, inside its rounded corners, and its middle.
          const points = [
            [r.left + 10, r.top + 2],
            [r.right - 10, r.top + 2],
            [r.left + r.width / 2, r.top + r.height / 2],
            [r.left + 10, r.bottom - 2],
            [r.right - 10, r.bottom - 2],
          ];
          const overlapping = [...document.querySelectorAll('.pay-form .choice, .pay-form fieldset')].filter((c) => c.getBoundingClientRect().bottom > r.top);
          return { hits: points.map(([x, y]) => b.contains(document.elementFromPoint(x!, y!))), overlapping: overlapping.length };
        });
        assert.deepEqual(taps, { hits: [true, true, true, true, true], overlapping: 0 }, `at ${width} px`);
      }
      await page.getByRole('radio', { name: "At my bank's page" }).tap();
      await page.getByRole('button', { name: 'Continue to payment' }).tap();
      await page.waitForURL(/\/checkout\?order=.*mode=redirect/);
    } finally {
      await context.close();
    }
  });
});
