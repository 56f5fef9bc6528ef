/**
 * Doubt only where money may have moved, as the payer meets it in the shop: a sign-in the bank
 * does not answer leaves the payer at that bank's sign-in, told it may have counted as an
 * attempt; a transfer's start it does not answer leaves them at the accounts, told no payment
 * was made. Neither is `unknown`; the payer pays on the next try with only what the page shows.
 * The servers' provider timeout is short here (1.5 s) so that a call the simulator holds times
 * out quickly.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  chooseFirstAccount,
  confirmWithTestValues,
  kit,
  merchantCheckout,
  openPage,
  orderCheckout,
  startStack,
  transferFromFirstAccount,
  type Stack,
} from './lib.js';
import { opened } from '../support/opened.js';

let stack: Stack;
before(async () => {
  stack = await startStack({ own: true, env: { PROVIDER_TIMEOUT_MS: '1500' } });
});
after(async () => {
  await opened(stack)?.close();
});

/** The simulator holds the next call to `path` until the BFF gives up on it. */
async function hangNext(path: string): Promise<void> {
  const res = await fetch(`${stack.urls.sandbox}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ method: 'POST', path, kind: 'hang', times: 1 }),
  });
  assert.ok(res.ok, await res.text());
}

describe('a call the bank does not answer, before any money can move', () => {
  it('a sign-in, then a transfer’s start: each leaves the payer a way on, never in doubt, and the payer pays', async () => {
    const { page, assertClean, close } = await openPage(stack);
    const id = await orderCheckout(page, stack, 'native');
    const ui = kit(page);
    const answered = (path: string) => page.waitForResponse((r) => r.url() === `${stack.urls.bff}/v1/checkout/${path}` && r.request().method() === 'POST');

    // The sign-in the bank does not answer.
    await ui.locator('bank-selector [role=option]#bank-aurora').click();
    const form = ui.locator('bank-login-form');
    await form.getByRole('button', { name: 'Fill test values' }).click();
    await hangNext('/test/login');
    const [login] = await Promise.all([answered('login'), form.getByRole('button', { name: 'Sign in' }).click()]);
    assert.equal(login.status(), 504);
    await ui.getByText('Your bank did not answer the sign-in. It may have counted as one of your attempts.').first().waitFor();
    assert.equal((await merchantCheckout(stack, id)).state, 'login', 'at the same bank’s sign-in, not in doubt');
    await form.getByRole('button', { name: 'Sign in' }).waitFor();

    // The next sign-in works.
    await form.getByRole('button', { name: 'Fill test values' }).click();
    const [again] = await Promise.all([answered('login'), form.getByRole('button', { name: 'Sign in' }).click()]);
    assert.equal(again.status(), 200);
    await ui.locator('bank-account-picker input[type=radio]').first().waitFor();

    // The transfer's start the bank does not answer.
    await hangNext('/test/transfer/init');
    const pay = await chooseFirstAccount(page);
    const [transfer] = await Promise.all([answered('transfer'), pay.click()]);
    assert.equal(transfer.status(), 504);
    await ui.getByText('Your bank did not answer, so no payment was made. Choose the account again to try once more.').first().waitFor();
    assert.equal((await merchantCheckout(stack, id)).state, 'select-account', 'at the accounts, not in doubt');

    // The next transfer works, and the payer pays.
    assert.equal((await transferFromFirstAccount(page, stack)).state, 'validate');
    assert.equal((await confirmWithTestValues(page, stack)).state, 'succeeded');
    assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');
    assertClean([/status of 504/]);
    await close();
  });
});
