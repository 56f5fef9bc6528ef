/**
 * Redirect payments: from the shop's checkout page through the simulator's hosted gateway and
 * back to the shop's /result page (the BFF verifies the posted result and answers 303). The
 * merchant console, open meanwhile, shows the verified notification and the checkout update
 * (the BFF's signed webhook to the shop, pushed over Server-Sent Events) without reloading.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { act, orderCheckout, kit, merchantCheckout, openPage, startStack, walkGateway, type Stack } from './lib.js';
import { opened } from '../support/opened.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await opened(stack)?.close();
});

describe('redirect payments through the gateway', () => {
  it('pays at the bank, comes back to /result, and the console shows the verified notification live', async () => {
    const desk = await openPage(stack);
    await desk.page.goto(`${stack.urls.demo}/console`);
    await desk.page.locator('#feed-state', { hasText: 'live' }).waitFor();
    let navigations = 0;
    desk.page.on('framenavigated', (f) => {
      if (f === desk.page.mainFrame()) navigations++;
    });

    const payer = await openPage(stack);
    const id = await orderCheckout(payer.page, stack, 'redirect');
    const { reference } = await merchantCheckout(stack, id);
    await kit(payer.page).locator('bank-checkout [part=redirect-start]').click();
    await payer.page.waitForURL(`${stack.urls.sandbox}/gateway/**`);
    await walkGateway(payer.page, { bank: 'Caja Levante', code: '482913' });
    await payer.page.getByRole('heading', { name: 'Payment completed successfully' }).waitFor();
    await payer.page.getByRole('button', { name: /return to the shop/i }).click();

    await payer.page.waitForURL(`${stack.urls.demo}/result?**`);
    const url = new URL(payer.page.url());
    assert.equal(url.searchParams.get('checkout'), id);
    assert.equal(url.searchParams.get('result'), 'succeeded');
    assert.equal(await payer.page.getByRole('heading', { level: 1 }).textContent(), 'Thank you: your payment is complete');
    await kit(payer.page).locator('bank-result [part=title]', { hasText: 'Payment completed' }).waitFor();
    assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');

    // The console, never reloaded: the notification (verified by the BFF) and the webhook's update.
    // The row shows "being applied" until the webhook's update reaches the console: wait for the end.
    const note = desk.page.locator('#notification-rows tr', { hasText: reference });
    await note.filter({ hasText: `applied to checkout ${id}` }).waitFor();
    assert.match((await note.textContent()) ?? '', new RegExp(`200 OK[\\s\\S]*Verified[\\s\\S]*applied to checkout ${id}`));
    const update = desk.page.locator('#checkout-rows tr', { hasText: reference });
    await update.waitFor();
    assert.match((await update.textContent()) ?? '', /succeeded[\s\S]*Verified[\s\S]*redirect → succeeded/);
    assert.equal(navigations, 0, 'the console was not reloaded');
    assert.match((await desk.page.locator('#live-status').textContent()) ?? '', new RegExp(reference));

    payer.assertClean();
    desk.assertClean();
    await payer.close();
    await desk.close();
  });

  it('fails with 0000 at the gateway: /result says so in the language the payer chose, follows a payment started again there, and the cart leads back to the same checkout', async () => {
    const payer = await openPage(stack);
    const { page } = payer;
    const id = await orderCheckout(page, stack, 'redirect');
    await page.getByLabel('Language of the payment').selectOption('es');
    await kit(page).locator('bank-checkout [part=redirect-start]').click();
    await page.waitForURL(`${stack.urls.sandbox}/gateway/**`);
    await walkGateway(page, { bank: 'Caja Levante', code: '0000' });
    await page.getByRole('button', { name: 'Leave and return to the shop' }).click();
    await page.getByRole('button', { name: 'Return to the shop' }).click();
    await page.waitForURL(`${stack.urls.demo}/result?**`);
    assert.equal(new URL(page.url()).searchParams.get('result'), 'failed');
    const checkout = await merchantCheckout(stack, id);
    assert.equal(checkout.state, 'failed');
    assert.equal(checkout.error?.code, 'B103');
    // The shop's page speaks the payment's language too, and offers the step the checkout offers.
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'El pago no se ha realizado');
    assert.equal(await page.locator('#result-body').textContent(), 'No se ha cobrado nada. Puedes volver a intentarlo aquí abajo.');
    assert.equal(await page.getByLabel('Language of the payment').inputValue(), 'es');
    await kit(page).locator('bank-result [part=title]').getByText('El pago no se ha completado').waitFor();
    const again = await act(page, stack, () => kit(page).locator('bank-result').getByRole('button', { name: 'Reintentar' }).click());
    assert.equal(again.state, 'select-bank');
    await page.getByRole('heading', { level: 1, name: 'Paga tu pedido' }).waitFor();
    await kit(page).locator('bank-checkout [part=redirect-start]').waitFor();
    // The page's words follow the language switch with the checkout.
    await page.getByLabel('Language of the payment').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Pay for your order' }).waitFor();
    assert.equal(await page.locator('.result-page').getAttribute('lang'), 'en');
    assert.equal(await page.locator('[data-word=backToCart]').textContent(), 'Back to your cart');
    // The cart is kept for another try: paying at the bank again leads to the same checkout.
    await page.goto(`${stack.urls.demo}/cart`);
    await page.getByRole('radio', { name: "At my bank's page" }).check();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(/\/checkout\?order=/);
    assert.equal(new URL(page.url()).searchParams.get('order'), id);
    await kit(page).locator('bank-checkout [part=redirect-start]').waitFor();
    payer.assertClean();
    await payer.close();
  });
});
