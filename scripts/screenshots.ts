/**
 * `npm run screenshots`: starts the shop, the BFF and the simulator on free ports with a
 * temporary store (the same wiring as `npm start`), puts a few orders, payments and
 * notifications in place, drives Chromium (playwright-core with the system browser:
 * scripts/chromium.mjs) and saves the pictures the README shows:
 *
 *   docs/img/checkout.png  the shop's checkout mid-flow: a bank's login form
 *   docs/img/console.png   the merchant console: orders and live notifications
 *   docs/img/retry-code.png   a wrong code: a fresh challenge and the attempts left
 *   docs/img/try-again.png    after a cancellation: "Try again"
 *   docs/img/approve-app.png  approving in the bank's app after "not yet"
 *   docs/img/test-values.png  test mode: a second login by coordinates card, its position and test value shown
 *   docs/img/console-funnel.png  the console's funnel: how far payers got per bank, and where they left
 *   docs/img/phone-sign-in.png   a 375 px phone: the summary folded, the way to pay on one line, the sign-in
 *   docs/img/card-table.png      the coordinates card as a table, the asked cell marked
 *   docs/img/phone-qr.png        the bank's-page method finished on the phone: the QR code and its link
 *   docs/img/rail-offer.png      a bank whose sign-in fails: its own page offered in one tap
 *   docs/img/receipt.png         after a payment: the receipt
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { walkGateway, formFor, submit } from '../packages/sandbox/src/gateway/drive.js';
import type { Started } from './start.js';
import { launchChromium, startServersAndBrowser } from '../test/support/stack.js';

// Where these lived before test/support/stack.ts gathered them.
export { CHROME_PATH, CHROMIUM_ARGS, launchChromium, startServersAndBrowser } from '../test/support/stack.js';

/** Orders, payments and notifications for the console to show, made as the merchant's systems would. */
async function populate(s: Started): Promise<void> {
  const merchant = (path: string, body: unknown) =>
    fetch(`${s.urls.bff}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${s.merchantSecret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => {
      if (!r.ok) throw new Error(`${path}: HTTP ${r.status} ${await r.text()}`);
      return r.json() as Promise<Record<string, unknown>>;
    });

  const subjects = ['Annual membership', 'Workshop seat', 'Invoice 2024-118', 'Gift card', 'Repair service'];
  const links = [];
  for (const [i, subject] of subjects.entries()) {
    links.push(await merchant('/v1/links', { subject, amount: [12000, 4590, 21780, 5000, 8900][i], reference: `INV-${1040 + i}` }));
  }
  // Two payers pay their links at the gateway (one fails with 0000); the provider notifies the BFF.
  await walkGateway(fetch, String(links[1]!.url), { code: 'OK1234' });
  const failed = await walkGateway(fetch, String(links[3]!.url), { code: '0000' });
  await submit(fetch, formFor(failed, 'leave'));
  await merchant(`/v1/orders/${String(links[4]!.idDebt)}/disable`, {});

  // A shop checkout paid at the bank's page: the BFF tells the shop through its webhook.
  const checkout = await merchant('/v1/checkouts', {
    amount: 3685,
    subject: 'Demo shop order',
    reference: 'ORD-7F3A2C91',
    modes: ['redirect'],
    isolation: 'inline',
  });
  const started = await fetch(`${s.urls.bff}/v1/checkout/redirect`, {
    method: 'POST',
    headers: { 'X-Checkout-Secret': String(checkout.clientSecret) },
  }).then((r) => r.json() as Promise<{ step: { url: string } }>);
  const paid = await walkGateway(fetch, started.step.url, { code: 'OK1234' });
  const back = paid.forms.find((f) => f.fields.dataReturn);
  if (back)
    await fetch(back.action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(back.fields),
      redirect: 'manual',
    });
}

export async function takeScreenshots(outDir: string): Promise<string[]> {
  const { started, browser, close } = await startServersAndBrowser('bank-checkout-shots-', { browser: launchChromium });
  try {
    await populate(started);
    mkdirSync(outDir, { recursive: true });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    // The shop runs the checkout isolated: its steps are inside the element's frame.
    const ui = page.frameLocator('bank-checkout iframe');

    // The checkout mid-flow: two products in the cart, a bank chosen, its login form with test values.
    await page.goto(`${started.urls.demo}/`);
    await page.getByRole('button', { name: 'Add to cart: Single-origin coffee, 1 kg' }).click();
    await page.goto(`${started.urls.demo}/`);
    await page.getByRole('button', { name: 'Add to cart: Stoneware mug' }).click();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await ui.locator('bank-selector').getByRole('radio', { name: 'Personal' }).check();
    await ui.locator('bank-selector [role=option]#bank-aurora').click();
    await ui.locator('bank-login-form').getByRole('button', { name: 'Fill test values' }).click();
    const checkoutPng = join(outDir, 'checkout.png');
    await page.screenshot({ path: checkoutPng, fullPage: true });

    // The console: orders with their states, notifications and the webhook's checkout updates.
    await page.goto(`${started.urls.demo}/console`);
    await page.locator('#feed-state', { hasText: 'live' }).waitFor();
    const consolePng = join(outDir, 'console.png');
    await page.screenshot({ path: consolePng, fullPage: true });

    // The payer's way forward: a wrong code, a cancellation, an approval in the bank's app.
    const shot = async (name: string) => {
      const file = join(outDir, name);
      await page.locator('bank-checkout').screenshot({ path: file });
      return file;
    };
    /** A new order, and the sign-in at `bankId` with its test values. */
    const signInAt = async (bankId: string, person: 'Personal' | 'Business' = 'Personal') => {
      await page.goto(`${started.urls.demo}/`);
      await page.getByRole('button', { name: 'Add to cart: Stoneware mug' }).click();
      await page.getByRole('button', { name: 'Continue to payment' }).click();
      await ui.locator('bank-selector').getByRole('radio', { name: person }).check();
      await ui.locator(`bank-selector [role=option]#bank-${bankId}`).click();
      await ui.locator('bank-login-form').getByRole('button', { name: 'Fill test values' }).click();
      await ui.locator('bank-login-form').getByRole('button', { name: 'Sign in' }).click();
    };
    const toAccounts = async (bankId: string) => {
      await signInAt(bankId);
      await ui.locator('bank-account-picker input[type=radio]').first().check();
      await ui.locator('bank-account-picker button[type=submit]').click();
    };
    await toAccounts('aurora');
    await ui.locator('bank-challenge input').first().fill('0000');
    await ui.locator('bank-challenge [part=submit]').click();
    await ui.locator('bank-challenge [part=error]').getByText('Attempts left').waitFor();
    const retryPng = await shot('retry-code.png');
    await ui.locator('bank-checkout [part=cancel]').getByRole('button', { name: 'Cancel payment' }).click();
    await ui.locator('bank-checkout [part=cancel]').getByRole('button').first().click();
    await ui.locator('bank-result').getByRole('button', { name: 'Try again' }).waitFor();
    const againPng = await shot('try-again.png');
    await toAccounts('meridiano');
    await ui.locator('bank-challenge [part=test-not-yet]').click();
    await ui.locator('bank-challenge').getByText('has not received the confirmation yet').waitFor();
    const approvePng = await shot('approve-app.png');
    await signInAt('levante-empresas', 'Business');
    await ui.locator('bank-second-login [part=test-value]').waitFor();
    const testValuesPng = await shot('test-values.png');
    // The payers' funnel of the checkouts above, per bank.
    await page.goto(`${started.urls.demo}/console/funnel?days=1`);
    await page.locator('table.funnel').waitFor();
    const funnelPng = join(outDir, 'console-funnel.png');
    await page.screenshot({ path: funnelPng, fullPage: true });
    // After a payment: the result and its receipt.
    await toAccounts('aurora');
    await ui.locator('bank-challenge').getByRole('button', { name: 'Fill test values' }).click();
    await ui.locator('bank-challenge [part=submit]').click();
    await ui.locator('bank-receipt [part=receipt]').waitFor();
    const receiptPng = await shot('receipt.png');
    // The coordinates card (Banco Cantábrico's first round), read as a table.
    await signInAt('cantabrico');
    await ui.locator('bank-second-login').getByRole('button', { name: 'Fill test values' }).click();
    await ui.locator('bank-second-login [part=submit]').click();
    await ui.locator('bank-account-picker input[type=radio]').first().check();
    await ui.locator('bank-account-picker button[type=submit]').click();
    await ui.locator('bank-challenge table').waitFor();
    const cardPng = await shot('card-table.png');
    // A bank whose sign-in fails upstream: its own page in one tap (a fault rule of the simulator).
    const rule = { method: 'POST', path: '/test/login', kind: 'status', status: 500 };
    await fetch(`${started.urls.sandbox}/__sandbox/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(rule) });
    await signInAt('aurora');
    await ui.locator('bank-rail-offer [part=rail-start]').waitFor();
    const railPng = await shot('rail-offer.png');
    await fetch(`${started.urls.sandbox}/__sandbox/faults`, { method: 'DELETE' });
    // The bank's-page method, finished on the phone: the QR code of a single-use link.
    await page.goto(`${started.urls.demo}/`);
    await page.getByRole('button', { name: 'Add to cart: Stoneware mug' }).click();
    await page.getByRole('radio', { name: "At my bank's page" }).check();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await ui.locator('bank-handoff [part=offer]').click();
    await ui.locator('bank-handoff [part=qr]').waitFor();
    const qrPng = await shot('phone-qr.png');
    await context.close();

    // A 375 px phone: the sign-in starts high in the checkout.
    const phone = await browser.newContext({
      viewport: { width: 375, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      colorScheme: 'light',
    });
    const small = await phone.newPage();
    small.setDefaultTimeout(15_000);
    await small.goto(`${started.urls.demo}/`);
    await small.getByRole('button', { name: 'Add to cart: Stoneware mug' }).click();
    await small.getByRole('button', { name: 'Continue to payment' }).click();
    const phoneUi = small.frameLocator('bank-checkout iframe');
    await phoneUi.locator('bank-selector [role=option]#bank-aurora').click();
    await phoneUi.locator('bank-login-form input:not([type=radio])').first().waitFor();
    const phonePng = join(outDir, 'phone-sign-in.png');
    await small.locator('bank-checkout').screenshot({ path: phonePng });
    await phone.close();
    return [checkoutPng, consolePng, retryPng, againPng, approvePng, testValuesPng, funnelPng, receiptPng, cardPng, railPng, qrPng, phonePng];
  } finally {
    await close();
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const files = await takeScreenshots(resolve('docs/img'));
  for (const f of files) console.log(`saved ${f}`);
}
