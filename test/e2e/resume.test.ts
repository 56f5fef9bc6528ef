/**
 * The bank session belongs to the payer's browser: in the same browser a reload, Back, or a
 * second tab returns to the step the checkout is at (the accounts, the confirmation with the
 * server's countdown) without signing in again, focus on its heading, and its tabs stay in step (one says it is
 * confirming with the bank while the other's transfer is with the bank); a bank chosen in the
 * list comes back after a reload, nothing typed with it; another browser
 * with the page's next launch token starts at the bank list, and the first browser's frame is
 * told the payment goes on elsewhere. The first screen is drawn from the redemption's answer,
 * with no other call.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator, Page, Response } from 'playwright-core';
import type { CheckoutView, FrameLaunchAnswer } from '@bank-checkout/contract';
import {
  kit,
  merchantCheckout,
  openPage,
  orderCheckout,
  signIn,
  startStack,
  transferFromFirstAccount,
  act,
  chooseFirstAccount,
  fillChallengeTestValues,
  readyChallenge,
  type Stack,
} from './lib.js';
import { opened } from '../support/opened.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await opened(stack)?.close();
});

/** The frame's redemption of its page's launch token, as the BFF answered it. */
const launched = (page: Page, stack: Stack): Promise<Response> =>
  page.waitForResponse((r) => r.url() === `${stack.urls.bff}/v1/frame/launch` && r.request().method() === 'POST');

/** Runs `load` (a reload, a navigation) and answers the frame's redemption that follows it. */
async function relaunch(page: Page, load: () => Promise<unknown>): Promise<FrameLaunchAnswer> {
  const [res] = await Promise.all([launched(page, stack), load()]);
  assert.equal(res.status(), 200, await res.text());
  return (await res.json()) as FrameLaunchAnswer;
}

/**
 * Waits until focus is, inside the checkout's frame, on an element (through its shadow roots)
 * whose text is `text`; answers its tag name, and the page's own focused element (the checkout
 * holding the frame).
 */
async function focusOn(page: Page, text: string): Promise<{ inFrame: string; page: string | undefined }> {
  const frame = await (await page.locator('bank-checkout iframe').elementHandle()).contentFrame();
  const found = await frame!.waitForFunction((text) => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el?.textContent.replace(/\s+/g, ' ').trim() === text && el.localName;
  }, text);
  return { inFrame: String(await found.jsonValue()), page: await page.evaluate(() => document.activeElement?.localName) };
}

/** The account names the account picker shows. */
const accountsShown = async (ui: FrameLocator) =>
  (await ui.locator('bank-account-picker label[part=option]').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());

describe('the same browser resumes where the checkout is', () => {
  it('after a reload and Back at the accounts, and a reload at the confirmation, with the server’s countdown; a second tab shows the same step and both stay in step', async () => {
    const { page, assertClean, close } = await openPage(stack);
    const id = await orderCheckout(page, stack, 'native');
    const signedIn = await signIn(page, stack, 'aurora');
    assert.equal(signedIn.state, 'select-account');
    const ui = kit(page);
    await ui.locator('bank-account-picker input[type=radio]').first().waitFor();
    const accounts = await accountsShown(ui);
    assert.ok(accounts.length > 0);

    // A reload: the page's next launch token, redeemed by the same browser's key pair, resumes.
    const reloaded = await relaunch(page, () => page.reload());
    assert.equal(reloaded.resumed, true);
    assert.equal(reloaded.start.view.state, 'select-account');
    await ui.locator('bank-account-picker input[type=radio]').first().waitFor();
    assert.deepEqual(await accountsShown(ui), accounts, 'the same accounts, without signing in again');
    assert.equal(await ui.locator('bank-login-form:visible').count(), 0);
    // Focus on the step's heading, as after an action: a screen reader says where the payer is.
    assert.deepEqual(await focusOn(page, 'Choose the account to pay from'), { inFrame: 'h2', page: 'bank-checkout' });

    // Away to the cart and Back (the checkout page is never cached: a load of its own, and a token of its own).
    await page.goto(`${stack.urls.demo}/cart`);
    const back = await relaunch(page, () => page.goBack());
    assert.equal(back.resumed, true);
    await ui.locator('bank-account-picker input[type=radio]').first().waitFor();

    // A second tab of the same browser: the same step.
    const second = await page.context().newPage();
    const opened = await relaunch(second, () => second.goto(page.url()));
    assert.equal(opened.resumed, true);
    const ui2 = kit(second);
    await ui2.locator('bank-account-picker input[type=radio]').first().waitFor();
    assert.deepEqual(await accountsShown(ui2), accounts);
    assert.equal((await focusOn(second, 'Choose the account to pay from')).inFrame, 'h2');

    // The second tab starts the transfer, which the bank takes its time over: meanwhile the first
    // says it is confirming with the bank, its accounts disabled; then it follows to the
    // confirmation by itself.
    const slow = await fetch(`${stack.urls.sandbox}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/test/transfer/init', kind: 'latency', ms: 1500, times: 1 }),
    });
    assert.ok(slow.ok);
    // (The tab that acts is in front: a browser does not show a tab behind, nor lets it confirm.)
    await second.bringToFront();
    const transferred = transferFromFirstAccount(second, stack);
    await ui.locator('bank-checkout [part=status]').getByText('Confirming with your bank…').waitFor();
    assert.equal(await ui.locator('bank-account-picker button[type=submit]').isDisabled(), true, 'nothing to act on meanwhile');
    const confirming = await transferred;
    assert.equal(confirming.state, 'validate');
    const deadline = confirming.step.state === 'validate' ? confirming.step.deadline : '';
    await ui.locator('bank-challenge [role=timer]').waitFor();
    assert.equal(await ui.locator('bank-checkout [part=status]').textContent(), '', 'no longer confirming');

    // A reload at the confirmation: the same round and its deadline, the server's. The first tab
    // comes to the front to act (in a full browser a tab behind another is hidden, and the frame
    // rightly refuses a confirmation it cannot be seen to show).
    await page.bringToFront();
    const atConfirmation = await relaunch(page, () => page.reload());
    assert.equal(atConfirmation.start.view.state, 'validate');
    assert.equal(
      atConfirmation.start.view.step.state === 'validate' && atConfirmation.start.view.step.deadline,
      deadline,
      'the server’s countdown, not a new one',
    );
    await ui.locator('bank-challenge [role=timer]').waitFor();

    // Confirmed in the first tab; the second shows the result too.
    await page.bringToFront();
    await fillChallengeTestValues(page);
    const confirm = await readyChallenge(page);
    const paid: CheckoutView = await act(page, stack, () => confirm.click());
    assert.equal(paid.state, 'succeeded');
    await ui2.locator('bank-result [part=title]').getByText('Payment completed').waitFor();
    assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');
    await second.close();
    assertClean();
    await close();
  });
});

describe('a bank chosen in the list, not yet signed in to', () => {
  it('is chosen again after a reload (its sign-in form, focus on it, nothing typed kept); back at the list, a reload stays there', async () => {
    const { page, assertClean, close } = await openPage(stack);
    const id = await orderCheckout(page, stack, 'native');
    const ui = kit(page);
    await ui.locator('bank-selector [role=option]#bank-levante').click();
    const form = ui.locator('bank-login-form');
    const typed = 'X1234567L';
    await form.locator('input').first().fill(typed);

    await page.reload();
    await form.getByRole('heading', { name: 'Sign in to Caja Levante' }).waitFor();
    assert.equal(await form.locator('input').first().inputValue(), '', 'nothing typed is kept');
    assert.equal(await ui.locator('bank-selector').count(), 0, 'the sign-in form is the first screen, not the list');
    assert.deepEqual(await focusOn(page, 'Sign in to Caja Levante'), { inFrame: 'h2', page: 'bank-checkout' });
    // What the frame keeps, in its own origin's storage: this checkout's bank, and nothing typed.
    const kept = await ui
      .locator('html')
      .evaluate(() => JSON.stringify({ ...Object.fromEntries(Object.entries(sessionStorage)), ...Object.fromEntries(Object.entries(localStorage)) }));
    assert.ok(kept.includes(`"bank-checkout:chosen-bank:${id}":"levante"`), kept);
    assert.ok(!kept.includes(typed), kept);
    assert.equal((await merchantCheckout(stack, id)).state, 'select-bank', 'nothing was sent to the BFF');

    // Back to the list: a reload shows the list, and takes no focus (the checkout is at its start).
    await ui.getByRole('button', { name: 'Choose another bank' }).click();
    await ui.locator('bank-selector [role=option]').first().waitFor();
    await page.reload();
    await ui.locator('bank-selector [role=option]').first().waitFor();
    assert.equal(await ui.locator('bank-login-form').count(), 0);
    assert.equal(await page.evaluate(() => document.activeElement?.localName), 'body');
    assertClean();
    await close();
  });
});

describe('a payer’s device whose clock is wrong', () => {
  it('still opens the checkout and signs in: its proofs are dated by the BFF’s clock once one is refused for its time', async () => {
    const { page, assertClean, close } = await openPage(stack, { own: true });
    // Five minutes slow: a proof dated by it is refused as too old.
    await page.context().clock.install({ time: stack.now() - 5 * 60_000 });
    const answers: string[] = [];
    page.on('response', (r) => {
      if (r.url().startsWith(`${stack.urls.bff}/v1/`) && !r.url().includes('/v1/frame/assets/') && new URL(r.url()).pathname !== '/v1/frame')
        answers.push(`${new URL(r.url()).pathname} ${r.status()}`);
    });
    await orderCheckout(page, stack, 'native');
    await kit(page).locator('bank-selector [role=option]').first().waitFor();
    assert.deepEqual(answers, ['/v1/frame/launch 401', '/v1/frame/launch 200'], 'one refusal, then the BFF’s time');
    assert.equal((await signIn(page, stack, 'aurora')).state, 'select-account');
    const later = answers.slice(2);
    assert.ok(later.includes('/v1/checkout/login 200'));
    assert.deepEqual(
      later.filter((a) => !a.endsWith(' 200')),
      [],
      'every later call dated right',
    );
    assertClean([/status of 401/]);
    await close();
  });
});

describe('another browser', () => {
  it('with the page’s next launch token starts at the bank list; the first browser is told the payment goes on there', async () => {
    const { page, assertClean, close } = await openPage(stack);
    await orderCheckout(page, stack, 'native');
    await signIn(page, stack, 'aurora');
    await kit(page).locator('bank-account-picker input[type=radio]').first().waitFor();

    // The same shop session (its cookie) in another browser: the shop hands it the next launch token.
    const other = await stack.browser.newContext({ viewport: { width: 800, height: 600 } });
    try {
      await other.addCookies(await page.context().cookies(stack.urls.demo));
      const elsewhere = await other.newPage();
      const calls: string[] = [];
      elsewhere.on('request', (r) => {
        if (r.url().startsWith(`${stack.urls.bff}/v1/`) && !r.url().includes('/v1/frame')) calls.push(`${r.method()} ${new URL(r.url()).pathname}`);
      });
      const answer = await relaunch(elsewhere, () => elsewhere.goto(page.url()));
      assert.equal(answer.resumed, false);
      assert.equal(answer.start.view.state, 'select-bank', 'no bank session is handed over');
      assert.ok(answer.start.banks, 'the bank list with it');
      await kit(elsewhere).locator('bank-selector [role=option]').first().waitFor();
      assert.equal(await kit(elsewhere).locator('bank-account-picker').count(), 0);
      assert.deepEqual(calls, [], 'the first screen drawn from the redemption alone: no read of the checkout or the bank list');
    } finally {
      await other.close();
    }

    // The first browser's frame, still at its accounts, acts: it is told the payment goes on elsewhere.
    await page.bringToFront();
    const pay = await chooseFirstAccount(page);
    await pay.click();
    await kit(page).locator('bank-result').getByText('it continues there').waitFor();
    await kit(page).locator('bank-result').getByRole('heading', { name: 'This payment continues elsewhere' }).waitFor();
    assertClean([/status of 409/]);
    await close();
  });
});
