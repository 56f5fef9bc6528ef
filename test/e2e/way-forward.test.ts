/**
 * The payer always has a way forward, in the shop's checkout page against the real BFF and
 * simulator, using only what the page shows: one step back from a second login and from the
 * contracts, a new transfer after the validation deadline and a new sign-in after the bank
 * session ended (the servers' clock and the page's moved together), and starting again from the
 * cart after a failure (three wrong codes, told on the order page). The element's own ways
 * forward (a fresh challenge after a wrong code, back from the accounts after asking, a
 * cancellation and "Try again", the approval in the bank's app both ways) are walked against the same servers in
 * test/browser/native-journey.browser.test.ts, and each rule at the HTTP level in
 * packages/bff/test/way-forward.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  act,
  chooseFirstAccount,
  orderCheckout,
  confirmWithTestValues,
  kit,
  merchantCheckout,
  openPage,
  payNative,
  resultTitle,
  signIn,
  startStack,
  transferFromFirstAccount,
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

describe('a way forward in the shop', () => {
  it('goes back from the second login and from the contracts to the sign-in, and says when a second-login code was wrong', async () => {
    const { page, assertClean, close } = await openPage(stack);
    await orderCheckout(page, stack, 'native');
    const backPart = kit(page).locator('bank-checkout [part=back]');
    const back = async () => {
      await backPart.getByRole('button', { name: 'Back' }).click();
      return act(page, stack, () => backPart.getByRole('button', { name: 'Yes, go back' }).click());
    };
    const anotherBank = () => backPart.getByText('Choose another bank').click();
    assert.equal((await signIn(page, stack, 'levante')).state, 'second-login');
    assert.equal((await back()).state, 'login');
    await anotherBank();
    assert.equal((await signIn(page, stack, 'aurora-empresas', { legal: true })).state, 'select-contract');
    assert.equal((await back()).state, 'login');
    await anotherBank();
    // A wrong second-login code: the message says it was the code, not the credentials.
    await kit(page).locator('bank-selector').getByRole('radio', { name: 'Personal' }).check();
    assert.equal((await signIn(page, stack, 'levante')).state, 'second-login');
    await kit(page).locator('bank-second-login input').fill('000001');
    const wrong = await act(page, stack, () => kit(page).locator('bank-second-login [part=submit]').click());
    assert.equal(wrong.state, 'login');
    await kit(page).locator('bank-login-form [part=error]').getByText('The code was not correct').waitFor();
    // Only the code was wrong: the identity stays typed, the password is to be typed again.
    const fields = kit(page).locator('bank-login-form input:not([type=radio])');
    assert.deepEqual([await fields.nth(0).inputValue(), await fields.nth(1).inputValue()], ['X1234567L', '']);
    assertClean();
    await close();
  });

  it('letting the 90-second deadline pass offers a new transfer from the account list, which pays', async () => {
    const { page, assertClean, close } = await openPage(stack, { own: true });
    // The page's clock (the frame's included) is the servers', and moved with them.
    await page.context().clock.install({ time: stack.now() });
    await orderCheckout(page, stack, 'native');
    await signIn(page, stack, 'aurora');
    const challenge = await transferFromFirstAccount(page, stack);
    assert.equal(challenge.state, 'validate');
    await kit(page).locator('bank-challenge input').first().waitFor();

    stack.moveClock(91_000);
    await page.clock.fastForward(91_000);
    const picker = kit(page).locator('bank-account-picker');
    await picker.getByText('The confirmation was not completed in time, so your bank cancelled it.').waitFor();
    const pay = await chooseFirstAccount(page);
    const again = await act(page, stack, () => pay.click());
    assert.equal(again.state, 'validate', 'a new transfer in the same bank session');
    const paid = await confirmWithTestValues(page, stack);
    assert.equal(paid.state, 'succeeded');
    assertClean();
    await close();
  });

  it('a bank session that ended while the payer chose an account: log in again at the same bank, and pay', async () => {
    const { page, assertClean, close } = await openPage(stack, { own: true });
    await page.context().clock.install({ time: stack.now() });
    await orderCheckout(page, stack, 'native');
    await signIn(page, stack, 'aurora');
    const pay = await chooseFirstAccount(page);

    // The bank ends a session after 15 quiet minutes.
    stack.moveClock(16 * 60_000);
    await page.clock.fastForward(16 * 60_000);
    const ended = await act(page, stack, () => pay.click());
    assert.equal(ended.state, 'login');
    const form = kit(page).locator('bank-login-form');
    await form.locator('[part=error]').getByText('Your session with the bank has ended. Log in again to continue.').waitFor();
    await form.getByRole('button', { name: 'Fill test values' }).click();
    await act(page, stack, () => form.getByRole('button', { name: 'Sign in' }).click());
    await transferFromFirstAccount(page, stack);
    const paid = await confirmWithTestValues(page, stack);
    assert.equal(paid.state, 'succeeded');
    assertClean();
    await close();
  });

  it('stops after three wrong codes (0000) and says so on the order page; then the cart leads to a checkout that can be paid', async () => {
    const { page, assertClean, close } = await openPage(stack);
    const id = await orderCheckout(page, stack, 'native');
    const failed = await payNative(page, stack, 'aurora', { validationValue: '0000' });
    assert.equal(failed.state, 'failed');
    assert.equal(failed.error?.code, 'attempts');
    assert.notEqual(await resultTitle(page), 'Payment completed');
    assert.equal((await merchantCheckout(stack, id)).state, 'failed');
    await page.getByRole('link', { name: 'See what happened to your order' }).click();
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'The payment did not go through');
    await page.goto(`${stack.urls.demo}/cart`);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(/\/checkout\?order=/);
    const next = new URL(page.url()).searchParams.get('order');
    // The same checkout (the cart did not change), which offers a fresh start until it expires.
    assert.equal(next, id);
    const seeWhatHappened = page.getByRole('link', { name: 'See what happened to your order' });
    await seeWhatHappened.waitFor();
    const again = await act(page, stack, () => kit(page).locator('bank-result').getByRole('button', { name: 'Try again' }).click());
    assert.equal(again.state, 'select-bank');
    // The link to how the payment before ended goes with it: this one has only started.
    await seeWhatHappened.waitFor({ state: 'hidden' });
    const paid = await payNative(page, stack, 'aurora');
    assert.equal(paid.state, 'succeeded');
    assert.equal((await merchantCheckout(stack, next)).state, 'succeeded');
    assertClean();
    await close();
  });
});

describe('the language of the payment', () => {
  it('switches the checkout to another language in the page, Galician included', async () => {
    const { page, assertClean, close } = await openPage(stack);
    await orderCheckout(page, stack, 'native');
    await kit(page).locator('bank-selector [role=option]').first().waitFor();
    await page.getByLabel('Language of the payment').selectOption('gl');
    await kit(page).locator('bank-selector h2').getByText('Escolle o teu banco').waitFor();
    await page.getByLabel('Language of the payment').selectOption('es');
    await kit(page).locator('bank-selector h2').getByText('Elige tu banco').waitFor();
    assertClean();
    await close();
  });
});
