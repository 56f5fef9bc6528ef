/**
 * The payer's first screen from public facts, in a browser, through the demonstration shop (its
 * checkout page written with `isolatedCheckoutHtml`): the frame's page comes with the BFF's bank
 * list drawn in and shows it before the checkout is redeemed, with nothing of the checkout in it;
 * the launch token reaches the frame in its `name`, cleared at once; when the redemption answers,
 * the checkout's own screen takes the written one's place with every box where it was (no layout
 * shift, in the page or in the frame); a bank chosen before then waits for it; a redemption
 * refused leaves nothing of the written screen and no checkout data drawn; a checkout under way
 * gets no written list.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page, Route } from 'playwright-core';
import { kit, merchantCheckout, openPage, orderCheckout, signIn, startStack, type Stack } from './lib.js';
import { opened } from '../support/opened.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await opened(stack)?.close();
});

/** Records every layout shift of each document from its first paint (a script run before the page's own). */
const WATCH_SHIFTS = `window.__shifts = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push(e.value); }).observe({ type: 'layout-shift', buffered: true });`;

/** Holds the frame's redemption until `release` (the written first screen shows meanwhile). */
async function holdLaunch(page: Page, answer?: (route: Route) => Promise<void>): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${stack.urls.bff}/v1/frame/launch`, async (route) => {
    await held;
    await (answer ? answer(route) : route.continue());
  });
  return release;
}

/** The frame's document. */
const frameOf = (page: Page) => {
  const frame = page.frames().find((f) => f.url().startsWith(`${stack.urls.bff}/v1/frame`));
  assert.ok(frame, 'the checkout frame');
  return frame;
};

/** Every text of the frame's document, its shadow roots included. */
const frameText = (page: Page) =>
  frameOf(page).evaluate<string>(`(() => {
    const texts = [];
    const walk = (root) => { for (const el of root.querySelectorAll('*')) { if (!el.shadowRoot && !el.children.length) texts.push(el.textContent); if (el.shadowRoot) walk(el.shadowRoot); } texts.push(...[...root.querySelectorAll('input')].map((i) => i.value)); };
    walk(document);
    return texts.join(' ');
  })()`);

/** The boxes of a first screen (the written one's host, or the kit's `<bank-checkout>`): each element's place and size (not those of a closed disclosure), and the page's height. */
const boxesOf = (page: Page, host: string) =>
  frameOf(page).evaluate<{ boxes: string[]; height: number }>(`(() => {
    const boxes = [];
    const walk = (root) => { for (const el of root.querySelectorAll('section, h2, fieldset, legend, label, input, p, dl, dt, dd, summary, [role=listbox], [role=group], [role=option], .group-name, .modes, button')) { if (el.tagName !== 'SUMMARY' && el.closest('details:not([open])')) continue; const r = el.getBoundingClientRect(); if (r.width) boxes.push(el.tagName + (el.getAttribute('role') ? '[' + el.getAttribute('role') + ']' : '') + ' ' + [r.x, r.y, r.width, r.height].map(Math.round).join(',')); } for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot); };
    walk(document.querySelector('${host}').shadowRoot);
    return { boxes, height: document.documentElement.getBoundingClientRect().height };
  })()`);

/** The host shows the frame (no longer hidden as the page wrote it, nor inert under its placeholder). */
const frameShown = (page: Page) =>
  page.waitForFunction(() => {
    const f = document.querySelector('bank-checkout')?.shadowRoot?.querySelector('iframe');
    return f && !f.hidden && !f.inert;
  });

const shifts = (page: Page) => page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts);

describe('the first screen from public facts', () => {
  it('shows the written bank list before the redemption, nothing of the checkout in it, the token out of the frame’s name; the checkout’s screen then takes its place with every box where it was (no layout shift)', async () => {
    const { page, assertClean, close, addInitScript } = await openPage(stack);
    await addInitScript(WATCH_SHIFTS);
    await page.setViewportSize({ width: 375, height: 812 });
    const release = await holdLaunch(page);
    const id = await orderCheckout(page, stack, 'native');
    await frameShown(page);
    const written = kit(page).locator('.first-screen [role=option]').first();
    await written.waitFor();
    const frame = frameOf(page);
    assert.equal(
      new URL(frame.url()).search,
      '?state=select-bank&lang=en&mode=native',
      'the address says the state, the language and the way to pay, nothing else',
    );
    assert.equal(await frame.evaluate(() => window.name), '', 'the frame’s name cleared');
    assert.equal(await frame.evaluate(() => document.querySelector('bank-checkout')?.hidden), true, 'the kit’s checkout not shown yet');
    const before = await frameText(page);
    const boxes = await boxesOf(page, '.first-screen');

    release();
    const amount = kit(page).locator('bank-checkout [part=amount]');
    await amount.waitFor();
    await kit(page).locator('.first-screen').waitFor({ state: 'detached' });
    const { reference } = await merchantCheckout(stack, id);
    const shown = await kit(page).locator('bank-checkout [part=summary]').innerText();
    // What the redemption brought: the amount, the payee; none of it (nor the reference) was drawn before.
    const facts = [
      (await amount.innerText()).trim(),
      shown
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .at(-2)!,
      reference,
    ];
    assert.match(facts[0]!, /€\s?\d/);
    for (const fact of facts) assert.ok(fact && !before.includes(fact), `“${fact}” was not in the frame before the redemption`);
    const kitBoxes = await boxesOf(page, 'bank-checkout');
    assert.deepEqual(kitBoxes, boxes, 'the checkout’s first screen has the written one’s boxes');
    assert.deepEqual(await shifts(page), [], 'no layout shift in the page');
    assert.deepEqual(await frame.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts), [], 'no layout shift in the frame');
    assertClean();
    await close();
  });

  it('opens the sign-in form of a bank chosen in the written list before the redemption, once it answers', async () => {
    const { page, assertClean, close } = await openPage(stack);
    await page.setViewportSize({ width: 375, height: 812 });
    const release = await holdLaunch(page);
    await orderCheckout(page, stack, 'native');
    await frameShown(page);
    const option = kit(page).locator('.first-screen [role=option]').first();
    const label = (await option.innerText()).trim();
    await option.click();
    assert.equal(await option.getAttribute('aria-selected'), 'true', 'shown as chosen while it waits');
    release();
    const form = kit(page).locator('bank-checkout bank-login-form');
    await form.locator('[part=submit]').waitFor();
    assert.ok((await form.locator('h2').innerText()).includes(label), `the sign-in form of ${label}`);
    assert.equal(await kit(page).locator('.first-screen').count(), 0);
    assertClean();
    await close();
  });

  it('a redemption refused: the written list goes, and nothing of the checkout is drawn', async () => {
    const { page, assertClean, close } = await openPage(stack);
    await page.setViewportSize({ width: 375, height: 812 });
    const release = await holdLaunch(page, (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ error: { code: 'launch_invalid', message: 'No such launch.' } }) }),
    );
    const id = await orderCheckout(page, stack, 'native');
    await frameShown(page);
    await kit(page).locator('.first-screen [role=option]').first().waitFor();
    release();
    await kit(page).locator('.launch-failed[role=alert]').waitFor();
    assert.equal(await kit(page).locator('.first-screen').count(), 0, 'the written list is gone');
    const { reference } = await merchantCheckout(stack, id);
    const text = await frameText(page);
    assert.ok(!text.includes(reference) && !/€\s?\d/.test(text), `nothing of the checkout: ${text}`);
    assertClean([/status of 401/]);
    await close();
  });

  it('a reload under way (at the accounts) gets the page that waits for the redemption: its step, never a bank list that gives way to it', async () => {
    const { page, assertClean, close } = await openPage(stack);
    await orderCheckout(page, stack, 'native');
    assert.equal((await signIn(page, stack, 'aurora')).state, 'select-account');
    await page.reload();
    await kit(page).locator('bank-account-picker input[type=radio]').first().waitFor();
    assert.equal(new URL(frameOf(page).url()).search, '', 'no state in the address: the shop’s server knew the checkout was under way');
    assert.equal(await kit(page).locator('.first-screen').count(), 0);
    assertClean();
    await close();
  });
});
