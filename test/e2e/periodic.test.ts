/**
 * A periodic order from start to cancellation: the payer fills `<bank-periodic-form>` on the
 * shop's checkout page, authorises the order at the simulator's gateway and comes back to
 * /result; the merchant then finds the order active in the console, creates its cancellation
 * (the transaction id comes from the verified notification) and the payer authorises it, after
 * which the console shows the order cancelled.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { orderCheckout, kit, merchantCheckout, openPage, startStack, walkGateway, type Stack } from './lib.js';
import { opened } from '../support/opened.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await opened(stack)?.close();
});

/** A date some days ahead, as the form's date input takes it. */
const daysAhead = (n: number) => new Date(Date.now() + n * 24 * 3600_000).toISOString().slice(0, 10);

describe('periodic orders', () => {
  it('is authorised from the checkout page and cancelled from the console', async () => {
    const payer = await openPage(stack);
    const { page } = payer;
    const id = await orderCheckout(page, stack, 'periodic');
    const { reference } = await merchantCheckout(stack, id);

    const form = kit(page).locator('bank-periodic-form');
    await form.getByLabel('Bank', { exact: true }).selectOption({ label: 'Caja Levante' });
    await form.getByRole('radio', { name: 'Every month' }).check();
    await form.getByLabel('Your account (IBAN)').fill('ES79 2100 0813 6101 2345 6789');
    const start = daysAhead(3);
    await form.getByLabel('First payment on').fill(start);
    await form.getByRole('button', { name: 'Continue to your bank' }).click();

    await page.waitForURL(`${stack.urls.sandbox}/gateway/san/periodic/**`);
    await walkGateway(page, { code: '246810' });
    await page.getByRole('heading', { name: 'Periodic payment order authorised successfully' }).waitFor();
    await page.getByRole('button', { name: 'Return to the shop' }).click();
    await page.waitForURL(`${stack.urls.demo}/result?**`);
    // A mandate is never told as a payment: the shop says what was set up, and when it pays.
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Your periodic payment is set up');
    assert.match(
      (await page.locator('.result-page').textContent()) ?? '',
      // The date as people write it (Intl, the payment's language), never as YYYY-MM-DD.
      new RegExp(
        `Nothing was charged today[\\s\\S]*Monthly from ${new Intl.DateTimeFormat('en-IE', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${start}T00:00:00Z`))} until you cancel it`,
      ),
    );
    await kit(page).locator('bank-result [part=title]').getByText('Periodic payment set up').waitFor();
    assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');
    payer.assertClean();

    // The merchant's side: the order is active, with the schedule the payer chose.
    const desk = await openPage(stack);
    await desk.page.goto(`${stack.urls.demo}/console`);
    const row = desk.page.locator('table.orders tbody tr', { hasText: reference });
    const orderId = await row.getAttribute('data-order');
    assert.match((await row.textContent()) ?? '', new RegExp(`Monthly from ${start}[\\s\\S]*active`));
    const noteText = (await desk.page.locator('#notification-rows tr', { hasText: reference }).textContent()) ?? '';
    assert.match(noteText, /200 OK[\s\S]*Verified/);

    await row.getByRole('link', { name: /^Cancel periodic order/ }).click();
    const transactionId = await desk.page.getByLabel('Transaction id of the authorisation').inputValue();
    assert.ok(transactionId.length > 0, 'the transaction id is filled in from the notification');
    assert.ok(noteText.includes(transactionId), 'the one the authorisation was notified with');
    await desk.page.getByRole('button', { name: 'Create cancellation link' }).click();
    await desk.page.waitForURL(`${stack.urls.demo}/console`);
    assert.match((await desk.page.locator('#flash').textContent()) ?? '', /Cancellation link created/);
    const cancelUrl = (await desk.page.locator('#flash').getByRole('link').getAttribute('href')) ?? '';
    assert.match(cancelUrl, /\/gateway\/san\/cancel\//);

    // The payer authorises the cancellation at the bank where the order was authorised.
    await page.goto(cancelUrl);
    await walkGateway(page, { code: '246810' });
    await page.getByRole('heading', { name: 'Periodic payment order cancelled successfully' }).waitFor();

    await desk.page.goto(`${stack.urls.demo}/console`);
    const after = desk.page.locator(`tr[data-order="${orderId}"]`);
    assert.match((await after.textContent()) ?? '', /cancelled/);
    assert.equal(await after.getByRole('link', { name: /^Cancel periodic order/ }).count(), 0, 'nothing left to cancel');
    desk.assertClean();
    await desk.close();
    await payer.close();
  });
});
