/**
 * The merchant console in Chromium: a payment link created through the form (after the BFF's
 * error is shown next to the field it names), orders paged, an order disabled (its link is then
 * refused by the gateway) and enabled again, and a periodic link.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { walkGateway } from '@bank-checkout/sandbox/testing';
import { openPage, pageStatus, startStack, type Stack, type WatchedPage } from './lib.js';
import { opened } from '../support/opened.js';

let stack: Stack;
let desk: WatchedPage;
before(async () => {
  // Its own servers: the console counts every order the simulator holds.
  stack = await startStack({ own: true });
  desk = await openPage(stack);
});
after(async () => {
  await opened(desk)?.close();
  await opened(stack)?.close();
});

/** Creates a payment link server to server, as another part of the merchant's system would. */
async function linkViaApi(n: number): Promise<string> {
  const res = await fetch(`${stack.urls.bff}/v1/links`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${stack.merchantSecret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ subject: `Invoice ${n}`, amount: 1000 + n, reference: `INV-${n}` }),
  });
  assert.equal(res.status, 201);
  return ((await res.json()) as { idDebt: string }).idDebt;
}

const rowsOnPage = async () => desk.page.locator('table.orders tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order')));

describe('merchant console', () => {
  let created = '';
  let signedUrl = '';

  it('creates a payment link, showing the BFF error next to its field first', async () => {
    const { page } = desk;
    await page.goto(`${stack.urls.demo}/console/links/new`);
    await page.getByLabel('Subject').fill('Workshop seat');
    await page.getByLabel('Amount (€)').fill('45.90');
    await page.getByLabel('Text for the payer').fill('Demo Shop;Workshop on Saturday');
    await page.getByText('More options').click();
    // A well-formed IBAN whose check digits are wrong: only the BFF's schema can tell.
    await page.getByLabel('Beneficiary IBAN').fill('ES0021000418450200051332');
    await page.getByRole('button', { name: 'Create payment link' }).click();

    const field = page.getByLabel('Beneficiary IBAN');
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    const error = page.locator('#link-accountDestiny-error');
    assert.match((await error.textContent()) ?? '', /IBAN/i);
    assert.match((await field.getAttribute('aria-describedby')) ?? '', /link-accountDestiny-error/);
    assert.equal(await page.getByLabel('Subject').inputValue(), 'Workshop seat', 'values are kept');
    await page.getByRole('alert').filter({ hasText: 'needs fixing' }).waitFor();

    await field.fill('');
    await page.getByRole('button', { name: 'Create payment link' }).click();
    await page.waitForURL(`${stack.urls.demo}/console`);
    const flash = page.locator('#flash');
    assert.match((await flash.textContent()) ?? '', /Payment link created/);
    created = ((await flash.locator('dd').first().textContent()) ?? '').trim();
    signedUrl = (await flash.getByRole('link').getAttribute('href')) ?? '';
    assert.match(signedUrl, new RegExp(`/gateway/san/pay/${created}\\?sig=`));
    assert.equal((await rowsOnPage())[0], created, 'the newest order comes first');
    desk.assertClean([pageStatus(422, '/console/links')]);
  });

  it('pages through the orders, and shows the BFF error next to a bad page size', async () => {
    const { page } = desk;
    for (let n = 1; n <= 6; n++) await linkViaApi(n);
    await page.goto(`${stack.urls.demo}/console?pageSize=3`);
    const pager = page.getByRole('navigation', { name: 'Pages of orders' });
    assert.match((await pager.textContent()) ?? '', /Page 1 of 3 · 7 orders/);
    const first = await rowsOnPage();
    assert.equal(first.length, 3);
    assert.equal(await pager.getByText('← Previous').getAttribute('aria-disabled'), 'true');

    await pager.getByRole('link', { name: 'Next →' }).click();
    assert.match((await page.getByRole('navigation', { name: 'Pages of orders' }).textContent()) ?? '', /Page 2 of 3/);
    const second = await rowsOnPage();
    assert.equal(second.length, 3);
    await page.getByRole('navigation', { name: 'Pages of orders' }).getByRole('link', { name: 'Next →' }).click();
    const third = await rowsOnPage();
    assert.deepEqual(third, [created], 'the oldest order is alone on the last page');
    assert.equal(new Set([...first, ...second, ...third]).size, 7, 'every order once');

    await page.getByLabel('Order', { exact: true }).selectOption('asc');
    await page.getByRole('button', { name: 'Show' }).click();
    assert.equal((await rowsOnPage())[0], created, 'oldest first');

    const res = await page.goto(`${stack.urls.demo}/console?pageSize=301`);
    assert.equal(res?.status(), 422);
    assert.equal(await page.getByLabel('Orders per page').getAttribute('aria-invalid'), 'true');
    assert.match((await page.locator('#orders-pageSize-error').textContent()) ?? '', /300/);
    desk.assertClean([pageStatus(422, '/console?pageSize=301')]);
  });

  it('disables an order (the gateway refuses its link) and enables it again', async () => {
    const { page } = desk;
    await page.goto(`${stack.urls.demo}/console?pageSize=3&order=asc`);
    const row = page.locator(`tr[data-order="${created}"]`);
    await row.getByRole('button', { name: `Disable ${created}` }).click();
    await page.waitForURL(/\/console\?pageSize=3&order=asc$/);
    assert.match((await page.locator('#flash').textContent()) ?? '', /disabled/);
    assert.match((await row.textContent()) ?? '', /Disabled/);
    assert.equal((await fetch(signedUrl)).status, 403, 'the gateway refuses a disabled order');

    await row.getByRole('button', { name: `Enable ${created}` }).click();
    assert.match((await page.locator('#flash').textContent()) ?? '', /enabled/);
    assert.doesNotMatch((await row.textContent()) ?? '', /Disabled/);
    assert.equal((await fetch(signedUrl)).status, 200, 'the link works again');
    desk.assertClean();
  });

  it('creates a periodic link for a bank that offers the frequency', async () => {
    const { page } = desk;
    await page.goto(`${stack.urls.demo}/console/periodic/new`);
    await page.getByLabel('Subject').fill('Coffee club');
    await page.getByLabel('Amount of each payment (€)').fill('29.90');
    await page.getByLabel("Payer's bank").selectOption('es-levante');
    await page.getByLabel('Frequency').selectOption('Monthly');
    await page.getByLabel("Payer's IBAN (debtor)").fill('ES00 0049 1500 0512 3456 7892');
    await page.getByRole('button', { name: 'Create periodic link' }).click();
    assert.match((await page.locator('#periodic-debtorAccount-error').textContent()) ?? '', /IBAN/i);

    await page.getByLabel("Payer's IBAN (debtor)").fill('ES79 2100 0813 6101 2345 6789');
    await page.getByRole('button', { name: 'Create periodic link' }).click();
    await page.waitForURL(`${stack.urls.demo}/console`);
    assert.match((await page.locator('#flash').textContent()) ?? '', /Periodic payment link created/);
    assert.match((await page.locator('#flash').getByRole('link').getAttribute('href')) ?? '', /\/gateway\/san\/periodic\//);
    desk.assertClean([pageStatus(422, '/console/periodic')]);
  });

  it('falls back to polling when the live stream is refused, and still shows new notifications', async () => {
    const watched = await openPage(stack);
    await watched.page.route('**/console/events', (route) => route.fulfill({ status: 503, body: 'unavailable' }));
    await watched.page.goto(`${stack.urls.demo}/console`);
    await watched.page.locator('#feed-state', { hasText: 'checking every 5 s' }).waitFor();

    // A payer pays a link at the gateway meanwhile; the provider notifies the BFF.
    const res = await fetch(`${stack.urls.bff}/v1/links`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${stack.merchantSecret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ subject: 'Polled', amount: 777, reference: 'POLL-1' }),
    });
    await walkGateway(fetch, ((await res.json()) as { url: string }).url, { code: 'OK1234' });

    const row = watched.page.locator('#notification-rows tr', { hasText: 'POLL-1' });
    await row.waitFor({ timeout: 12_000 });
    assert.match((await row.textContent()) ?? '', /200 OK[\s\S]*Verified[\s\S]*payment link/);
    watched.assertClean([pageStatus(503, '/console/events')]);
    await watched.close();
  });
});
