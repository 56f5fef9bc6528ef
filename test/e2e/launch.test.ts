/**
 * The launch, watched, in a browser: the launch belongs to the browser that redeemed it. Try
 * again after the frame redeemed its token (its kit did not load) takes the checkout up again in
 * the same browser, with the same token: the bank list, never "opened somewhere else", nothing
 * counted. When another browser took the launch first (the shop's page loaded there while the
 * payer's frame was still on its way), the payer's frame, its token replaced, is refused: it says
 * the checkout is open elsewhere, and the merchant's view counts the refusal (its webhook,
 * `checkout.launch_refused`: test/security/launch.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page, Response, Route } from 'playwright-core';
import { kit, openPage, orderCheckout, startStack, type Stack } from './lib.js';
import { opened } from '../support/opened.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await opened(stack)?.close();
});

/** The frame's redemptions of launch tokens, as the BFF answered them. */
const isLaunch = (r: Response) => r.url() === `${stack.urls.bff}/v1/frame/launch` && r.request().method() === 'POST';

/** The merchant's view of the checkout's launches. */
async function launches(id: string): Promise<{ refusals: number; redeemedAt: string | null }> {
  const res = await fetch(`${stack.urls.bff}/v1/checkouts/${id}`, { headers: { Authorization: `Bearer ${stack.merchantSecret}` } });
  return ((await res.json()) as { launch: { refusals: number; redeemedAt: string | null } }).launch;
}

/** The checkout's id the shop's checkout page names. */
const checkoutOf = (page: Page) => new URL(page.url()).searchParams.get('order')!;

describe('the launch', () => {
  it('Try again after the frame redeemed its token (its kit did not load) opens the checkout again in the same browser, with the same token; nothing refused', async () => {
    const { page, assertClean, close } = await openPage(stack);
    // The frame's redemption is answered, then its kit does not come (the connection dropped
    // while it loaded).
    const redeemed = page.waitForResponse(isLaunch);
    const dropKit = async (route: Route) => {
      await redeemed;
      await route.abort('connectionreset');
    };
    await page.route('**/v1/frame/assets/kit-*.js', dropKit);
    const id = await orderCheckout(page, stack, 'native');
    assert.equal((await redeemed).status(), 200);
    const failure = page.locator('bank-checkout [part=failure]');
    await failure.waitFor();
    assert.equal(
      (await failure.locator('p').textContent())?.trim(),
      'The payment service cannot be reached. Check your connection and try again.',
      'the frame said it could not load its checkout',
    );
    assert.ok((await launches(id)).redeemedAt, 'the token was redeemed');

    // The connection is back; the payer presses Try again: the same token, the same browser.
    await page.unroute('**/v1/frame/assets/kit-*.js', dropKit);
    const [again] = await Promise.all([page.waitForResponse(isLaunch), failure.getByRole('button', { name: 'Try again' }).click()]);
    assert.equal(again.status(), 200, await again.text());
    assert.equal(((await again.json()) as { resumed: boolean }).resumed, true, 'this browser takes its checkout up again');
    await kit(page).locator('bank-selector [role=option]').first().waitFor();
    assert.equal(await kit(page).locator('.launch-failed').count(), 0, 'never "opened somewhere else"');
    assert.equal((await launches(id)).refusals, 0, 'nothing refused, nothing told to the merchant');
    assert.equal(checkoutOf(page), id);
    assertClean([/ERR_CONNECTION_RESET/, /Failed to fetch dynamically imported module/]);
    await close();
  });

  it('taken by another browser first: the payer’s frame, its token replaced, says the checkout is open elsewhere; the merchant’s view counts the refusal', async () => {
    const { page, assertClean, close } = await openPage(stack);
    // The payer's frame is slow to redeem its token: its request waits until the other browser has the launch.
    let hold!: (route: Route) => void;
    const held = new Promise<Route>((resolve) => (hold = resolve));
    await page.route(`${stack.urls.bff}/v1/frame/launch`, (route) => hold(route));
    await orderCheckout(page, stack, 'native');
    const id = checkoutOf(page);
    const payers = await held;

    // The shop's page loads in another browser (the same shop session): its token replaces the
    // payer's, and its frame redeems it first.
    const other = await stack.browser.newContext({ viewport: { width: 800, height: 600 } });
    try {
      await other.addCookies(await page.context().cookies(stack.urls.demo));
      const elsewhere = await other.newPage();
      const [taken] = await Promise.all([elsewhere.waitForResponse(isLaunch), elsewhere.goto(page.url())]);
      assert.equal(taken.status(), 200);
      await kit(elsewhere).locator('bank-selector [role=option]').first().waitFor();
    } finally {
      await other.close();
    }

    // The payer's redemption arrives: refused, and the payer is told where the payment is.
    const [refused] = await Promise.all([page.waitForResponse(isLaunch), payers.continue()]);
    assert.equal(refused.status(), 409);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'launch_used');
    const notice = kit(page).locator('.launch-failed');
    await notice.waitFor();
    assert.match((await notice.textContent()) ?? '', /already opened somewhere else/);
    assert.equal(await kit(page).locator('bank-selector').count(), 0, 'nothing of the checkout');
    assert.equal((await launches(id)).refusals, 1, 'the merchant’s view counts it');
    assertClean([/status of 409/]);
    await close();
  });
});
