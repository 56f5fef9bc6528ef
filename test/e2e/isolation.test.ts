/**
 * The isolated checkout in the shop: a keyboard-only payment across the frame's boundary, axe
 * inside the frame at every step, and the theme, the language and the events passing between
 * the page and the frame. (What a hostile script in the page gets: hostile.test.ts; a reload, a
 * second tab and another browser: resume.test.ts.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { until } from '../../packages/bff/test/until.js';
import {
  act,
  chooseFirstAccount,
  hiddenNow,
  orderCheckout,
  kit,
  merchantCheckout,
  openPage,
  readyChallenge,
  settle,
  signIn,
  startStack,
  stillFor,
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

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core in `target`'s document, unless it is there already: the checkout's steps change the
 * page and the frame without loading new documents, and each evaluation of axe's 550 KB costs
 * Chromium about a quarter of a CPU-second.
 */
async function loadAxe(target: Page | Frame): Promise<void> {
  if (!(await target.evaluate(() => 'axe' in window))) await target.evaluate(AXE);
}

/** Where focus is: the page's active element, or inside the frame, the deepest one. */
async function focused(page: Page, frame: Frame): Promise<string> {
  const describe = () => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body) return 'body';
    const label = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent;
    return `${el.localName}${el.getAttribute('type') ? `[type=${el.getAttribute('type')}]` : ''} ${label.trim().replace(/\s+/g, ' ').slice(0, 60)}`;
  };
  const top = await page.evaluate(describe);
  return top.startsWith('iframe') ? `frame: ${await frame.evaluate(describe)}` : top;
}

/** Presses Tab until focus matches (it may already). */
async function tabUntil(page: Page, frame: Frame, match: RegExp, max = 25): Promise<string> {
  const here = await focused(page, frame);
  if (match.test(here)) return here;
  const seen: string[] = [here];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page, frame);
    seen.push(now);
    if (match.test(now)) return now;
  }
  throw new Error(`Tab never reached ${match}; went through:\n${seen.join('\n')}`);
}

const checkoutFrame = async (page: Page): Promise<Frame> => {
  const handle = await page.locator('bank-checkout iframe').elementHandle();
  const frame = await handle.contentFrame();
  assert.ok(frame, 'the checkout has its frame');
  return frame;
};

/**
 * axe over the page and the checkout's frame together (axe runs in both and joins them), so the
 * frame's content is judged as part of the page it is in. Answers the violations, and how many
 * of the nodes axe checked were inside the frame (to be sure it looked there).
 */
async function axeWithFrame(page: Page, frame: Frame): Promise<{ violations: string[]; inFrame: number }> {
  // axe talks to frames of its own origin only unless told otherwise; the frame is the BFF's.
  const allowFrames = () => (window as unknown as { axe: { configure: (c: object) => void } }).axe.configure({ allowedOrigins: ['<unsafe_all_origins>'] });
  for (const target of [frame, page]) {
    await loadAxe(target);
    await target.evaluate(allowFrames);
  }
  return page.evaluate(async () => {
    type Result = { id: string; nodes: { target: (string | string[])[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Result[]; passes: Result[] }> } }).axe;
    const result = await axe.run(document, { iframes: true, runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
    return {
      violations: result.violations.map((v) => `${v.id} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`),
      inFrame: result.passes.flatMap((p) => p.nodes).filter((n) => n.target.length > 1).length,
    };
  });
}

/**
 * axe inside the frame's own document, as assistive technology may present it (a page of its
 * own): the page-level rules too (a main landmark, content in landmarks), but for the level-one
 * heading, which is the shop page's (the frame's steps' headings follow it at level two; axe with
 * the page around it checks the page has one).
 */
async function axeInFrame(frame: Frame): Promise<string[]> {
  await loadAxe(frame);
  return frame.evaluate(async () => {
    type Result = { id: string; nodes: { target: unknown[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Result[] }> } }).axe;
    // Only the violations' nodes are wanted: axe lists every other result's nodes unless told (about half its time).
    const result = await axe.run(document, {
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      rules: { 'page-has-heading-one': { enabled: false } },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => `${v.id} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  });
}

describe('the isolated checkout', () => {
  it('is paid with the keyboard alone, from the page into the frame and back, axe clean inside at every step', async () => {
    const { page, assertClean, close } = await openPage(stack);
    const id = await orderCheckout(page, stack, 'native');
    const ui = kit(page);
    await ui.locator('bank-selector [role=option]').first().waitFor();
    const frame = await checkoutFrame(page);
    assert.equal(await page.locator('bank-checkout iframe').getAttribute('title'), 'Pay by bank');
    // One level-one heading, the shop's page's; the frame's steps follow it at level two, and the
    // frame's main landmark is named "Pay by bank".
    assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1);
    assert.equal(await ui.getByRole('heading', { level: 1 }).count(), 0);
    assert.equal(await ui.getByRole('main', { name: 'Pay by bank' }).count(), 1);
    assert.equal(await ui.getByRole('heading', { level: 2, name: 'Choose your bank' }).count(), 1);
    const violations: string[] = [];
    /**
     * axe in the frame's document at every step; with the page around it too (axe joining the
     * two) at the first and the last, as the steps between change the frame alone.
     */
    const check = async (step: string, withPage = false) => {
      if (withPage) {
        const { violations: found, inFrame } = await axeWithFrame(page, frame);
        assert.ok(inFrame > 10, `${step}: axe checked the frame's content (${inFrame} nodes)`);
        violations.push(...found.map((v) => `${step}: ${v}`));
      }
      violations.push(...(await axeInFrame(frame)).map((v) => `${step}, the frame alone: ${v}`));
    };
    await check('bank list', true);

    await page.locator('#checkout-language').focus();
    await tabUntil(page, frame, /^frame: input.* Search your bank/);
    await page.keyboard.type('Aurora');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await ui.locator('bank-login-form').waitFor();
    await check('login');
    await tabUntil(page, frame, /^frame: input\[type=text\]/);
    await page.keyboard.type('12345678Z');
    await page.keyboard.press('Tab');
    await page.keyboard.type('135790');
    await act(page, stack, () => page.keyboard.press('Enter'));
    await ui.locator('bank-account-picker').waitFor();
    await check('accounts');
    await tabUntil(page, frame, /^frame: input\[type=radio\]/);
    await page.keyboard.press('Space');
    await tabUntil(page, frame, /^frame: button\[type=submit\]/);
    await settle(page, ui.locator('bank-account-picker button[type=submit]'));
    await act(page, stack, () => page.keyboard.press('Enter'));
    await ui.locator('bank-challenge input').waitFor();
    await check('validation');
    await tabUntil(page, frame, /^frame: input/);
    await page.keyboard.type('482913');
    await settle(page, ui.locator('bank-checkout [part=summary]'), ui.locator('bank-challenge [part=submit]'));
    const last = await act(page, stack, () => page.keyboard.press('Enter'));
    assert.equal(last.state, 'succeeded');
    await ui.locator('bank-result [part=title]').waitFor();
    await check('result', true);
    assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');

    // After the result, the next Tab leaves the frame for the shop's own link to the order.
    await page.locator('#after').waitFor();
    await tabUntil(page, frame, /^a .*your order/i);
    assert.deepEqual(violations, []);
    assertClean();
    await close();
  });
});

/**
 * A page at the accounts of a checkout signed in at a bank, whose own script restyles it
 * (`style`: a constructed style sheet, as a script of the page can make; its policy allows no
 * inline style): the confirmations that reach the BFF (`sent`) and the codes of the errors the
 * page heard (`errors`).
 */
async function atTheAccounts() {
  const opened = await openPage(stack);
  const { page } = opened;
  await opened.addInitScript(`window.__errors = []; document.addEventListener('bank-checkout-error', (e) => window.__errors.push(e.detail.code));`);
  const id = await orderCheckout(page, stack, 'native');
  await signIn(page, stack, 'aurora');
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/v1\/checkout\/(transfer|validate)$/.test(r.url())) sent.push(new URL(r.url()).pathname);
  });
  const style = (css: string) =>
    page.evaluate((text) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      document.adoptedStyleSheets = [sheet];
    }, css);
  const errors = () => page.evaluate(() => (window as unknown as { __errors: string[] }).__errors);
  return { ...opened, id, ui: kit(page), sent, style, errors };
}

describe('nobody pays blind', () => {
  it('refuses the confirmation while the shop page fades the frame, says why in the payer’s language, keeps the code typed, and confirms at full opacity', async () => {
    const { page, assertClean, close, id, ui, sent, style: fade, errors } = await atTheAccounts();
    const notice = ui.locator('bank-checkout [part=notice]');

    const picker = ui.locator('bank-account-picker');
    await picker.locator('input[type=radio]').first().waitFor();
    await settle(page, picker.locator('input[type=radio]').first(), picker.locator('button[type=submit]'));
    await fade('bank-checkout::part(frame) { opacity: .04 }');
    await picker.locator('input[type=radio]').first().check();
    await picker.locator('button[type=submit]').click();
    await notice.getByText('The payment is not fully visible on your screen, so it was not confirmed.').waitFor();
    assert.deepEqual(sent, [], 'the transfer was not sent');
    assert.deepEqual(await errors(), ['frame_hidden'], 'the page hears why');

    await fade('');
    await settle(page, picker.locator('button[type=submit]'));
    const validating = await act(page, stack, () => picker.locator('button[type=submit]').click());
    assert.equal(validating.state, 'validate');

    // At the confirmation, in Spanish: refused while faded, the code typed kept for the next try.
    await page.getByLabel('Language of the payment').selectOption('es');
    const challenge = ui.locator('bank-challenge');
    const fill = challenge.getByRole('button', { name: 'Rellenar valores de prueba' });
    await fill.waitFor();
    await settle(page, fill);
    await fill.click();
    const code = await challenge.locator('input').first().inputValue();
    assert.ok(code);
    const confirm = await readyChallenge(page);
    await fade('bank-checkout::part(frame) { opacity: .04 }');
    await confirm.click();
    await notice.getByText('El pago no se ve entero en tu pantalla, así que no se ha confirmado.').waitFor();
    assert.deepEqual(sent, ['/v1/checkout/transfer'], 'the validation was not sent');
    assert.equal(await challenge.locator('input').first().inputValue(), code, 'the code typed stays');

    await fade('');
    await readyChallenge(page);
    const paid = await act(page, stack, () => confirm.click());
    assert.equal(paid.state, 'succeeded');
    assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');
    assertClean();
    await close();
  });
});

describe('nobody pays blind: the red team’s motions', () => {
  it('refuses a frame moved under the cursor from off the screen, cropped to its button, scaled up, or uncovered just before the press, and a code typed off the screen; a still frame pays', async (t) => {
    const { page, assertClean, close, id, ui, sent, style, errors } = await atTheAccounts();
    const frame = (await (await page.locator('bank-checkout iframe').elementHandle()).contentFrame())!;
    // Which presses reach the frame: Chromium itself drops a click on a frame that moved within 500 ms.
    await frame.evaluate(() => {
      const w = window as unknown as { __clicks: number };
      w.__clicks = 0;
      document.addEventListener('click', () => w.__clicks++, true);
    });
    const clicks = () => frame.evaluate(() => (window as unknown as { __clicks: number }).__clicks);
    const refusals = async () => (await errors()).length;
    const notice = ui.locator('bank-checkout [part=notice]');
    const HIDDEN = 'The payment is not fully visible on your screen, so it was not confirmed.';
    const UNSETTLED = 'The payment moved or changed on your screen just before you confirmed, so it was not confirmed.';
    /**
     * A press that reached the frame is refused with frame_hidden and these words; one the browser
     * dropped (it drops input to a frame that moved, or was uncovered, just before) sends nothing
     * either. Which presses reached it is counted, the refusals the frame itself made below.
     */
    const reached: string[] = [];
    const refused = async (press: () => Promise<void>, words: string, what: string) => {
      const [before, told] = [await clicks(), await refusals()];
      await press();
      if ((await clicks()) > before) {
        reached.push(what);
        // Refused (an error the page hears), or sent (which the assertion below names).
        await Promise.race([
          page.waitForFunction((n) => (window as unknown as { __errors: string[] }).__errors.length > n, told),
          page.waitForRequest((r) => r.method() === 'POST' && /\/v1\/checkout\/(transfer|validate)$/.test(r.url())),
        ]);
        assert.deepEqual(sent, [], `${what}: nothing sent`);
        assert.equal((await notice.textContent())?.includes(words), true, `${what}: ${await notice.textContent()}`);
      }
      assert.deepEqual(sent, [], `${what}: nothing sent`);
      await style('');
      await stillFor(page);
    };
    /** Where the Pay button is, brought into view as a payer would have it. */
    const center = async () => {
      await settle(page, pay);
      const b = (await pay.boundingBox())!;
      return [b.x + b.width / 2, b.y + b.height / 2] as const;
    };

    const pay = await chooseFirstAccount(page);
    // 1. Kept off the screen, and put back under the cursor just before the click (milliseconds).
    let [x, y] = await center();
    await page.mouse.move(x, y);
    await refused(
      async () => {
        await style('bank-checkout { position: relative; left: -4000px }');
        await stillFor(page, { visible: false });
        await style('');
        await page.mouse.click(x, y);
      },
      UNSETTLED,
      'off the screen, then under the cursor',
    );
    // The same with the keyboard (never dropped by the browser): the frame says why.
    await center();
    await pay.focus();
    await refused(
      async () => {
        await style('bank-checkout { position: relative; left: -4000px }');
        await stillFor(page, { visible: false });
        await style('');
        await page.keyboard.press('Enter');
      },
      UNSETTLED,
      'off the screen, then back for Enter',
    );

    // 2. Cropped down to its button (clipped by the element around it), for as long as you like.
    [x, y] = await center();
    const host = (await page.locator('bank-checkout').boundingBox())!;
    const button = (await pay.boundingBox())!;
    await refused(
      async () => {
        const [top, left] = [button.y - host.y - 6, button.x - host.x - 6];
        await style(
          `bank-checkout { clip-path: inset(${top}px ${host.width - left - button.width - 12}px ${host.height - top - button.height - 12}px ${left}px) }`,
        );
        // (Still where it is; whether the browser counts a clipped frame visible is its own affair.)
        await stillFor(page, { visible: false });
        await page.mouse.click(x, y);
      },
      HIDDEN,
      'cropped to its button',
    );

    // 3. Scaled up around its button, which stays under the cursor: the amount and payee off the screen.
    [x, y] = await center();
    const around = (await page.locator('bank-checkout').boundingBox())!;
    await refused(
      async () => {
        await style(`bank-checkout { display: block; transform: scale(3); transform-origin: ${x - around.x}px ${y - around.y}px }`);
        await stillFor(page, { visible: false });
        await page.mouse.click(x, y);
      },
      HIDDEN,
      'scaled up',
    );

    // 4. Covered, and the cover taken away 50 ms or less before the click.
    [x, y] = await center();
    await refused(
      async () => {
        await style(`#cover { position: fixed; left: ${x - 100}px; top: ${y - 40}px; width: 200px; height: 80px; background: #fff }`);
        await page.evaluate(() => document.body.append(Object.assign(document.createElement('div'), { id: 'cover' })));
        await hiddenNow(page);
        await page.evaluate(() => document.getElementById('cover')!.remove());
        await page.mouse.click(x, y);
      },
      UNSETTLED,
      'uncovered just before the click',
    );

    assert.ok(reached.includes('off the screen, then back for Enter'), 'a keyboard press always reaches the frame');
    t.diagnostic(`presses that reached the frame (the others Chromium dropped): ${reached.join('; ')}`);

    // Still and in full view, the same press pays.
    await settle(page, pay);
    const validating = await act(page, stack, () => pay.click());
    assert.equal(validating.state, 'validate');

    // A code typed into the confirmation while the frame is off the screen does not go in; it stays typed.
    const code = ui.locator('bank-challenge input').first();
    const confirm = await readyChallenge(page);
    await code.focus();
    await style('bank-checkout { position: relative; left: -4000px }');
    await stillFor(page, { visible: false });
    const told = await refusals();
    await page.keyboard.type('482913');
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => (window as unknown as { __errors: string[] }).__errors.length > n, told);
    assert.deepEqual(sent, ['/v1/checkout/transfer'], 'the code was not sent');
    assert.equal(await code.inputValue(), '482913', 'the code typed stays');
    await style('');
    await readyChallenge(page);
    const paid = await act(page, stack, () => confirm.click());
    assert.equal(paid.state, 'succeeded');
    assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');
    assert.deepEqual([...new Set(await errors())], ['frame_hidden'], 'every refusal the page heard was frame_hidden');
    assertClean();
    await close();
  });
});

describe('across the frame boundary', () => {
  it('passes the theme and the language in at runtime, and the events out as the inline element fires them', async () => {
    const { page, assertClean, addInitScript, close } = await openPage(stack);
    await addInitScript(
      `window.__events = []; for (const t of ['bank-checkout-step', 'bank-checkout-complete', 'bank-checkout-error']) document.addEventListener(t, (e) => window.__events.push([t, e.target.localName, e.composed, e.bubbles, e.detail]));`,
    );
    await orderCheckout(page, stack, 'native');
    const ui = kit(page);
    await ui.locator('bank-selector [role=option]').first().waitFor();
    const primary = () => ui.locator('bank-checkout').evaluate((el) => getComputedStyle(el).getPropertyValue('--bank-color-primary').trim());
    assert.equal(await primary(), '#1f4f8f', "the shop's own primary colour, read on the host");

    await page.locator('bank-checkout').evaluate((el) => el.style.setProperty('--bank-color-primary', 'rgb(120, 20, 60)'));
    await until(async () => (await primary()) === 'rgb(120, 20, 60)', 'the new primary colour in the frame', 10_000, 50);
    // A theme that would hide the amount and the payee is refused by the frame, with a warning on the host.
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await page.locator('bank-checkout').evaluate((el) => {
      el.style.setProperty('--bank-color-text', 'transparent');
      el.style.setProperty('--bank-font-size', '0px');
    });
    await until(
      () => warnings.some((w) => w.includes('--bank-font-size')) && warnings.some((w) => w.includes('--bank-color-text')),
      'a warning naming each refused property',
      10_000,
    );
    const applied = await ui.locator('html').evaluate((el) => [el.style.getPropertyValue('--bank-color-text'), el.style.getPropertyValue('--bank-font-size')]);
    assert.deepEqual(applied, ['', ''], 'never applied in the frame');
    const amount = ui.locator('bank-checkout [part=amount]');
    assert.notEqual(await amount.evaluate((el) => getComputedStyle(el).color), 'rgba(0, 0, 0, 0)');
    assert.ok((await amount.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))) >= 12, 'the amount stays readable');
    assert.equal(await primary(), 'rgb(120, 20, 60)', 'what passes the floor still applies');
    await page.locator('bank-checkout').evaluate((el) => {
      el.style.removeProperty('--bank-color-text');
      el.style.removeProperty('--bank-font-size');
    });
    // Only the kit's own properties cross; anything else set on the host stays outside.
    await page.locator('bank-checkout').evaluate((el) => el.style.setProperty('--other', 'url(https://evil.example/x)'));
    assert.equal(await ui.locator('html').evaluate((el) => el.style.getPropertyValue('--other')), '');

    // The host's focus() moves focus into the frame, to the current step.
    await page.locator('bank-checkout').evaluate((el) => el.focus());
    assert.match(await focused(page, await checkoutFrame(page)), /^frame: h2 Choose your bank/);

    await page.getByLabel('Language of the payment').selectOption('es');
    await ui.getByRole('heading', { name: 'Elige tu banco' }).waitFor();
    await page.getByLabel('Language of the payment').selectOption('gl');
    await ui.locator('bank-checkout [part=base][lang=gl]').waitFor();
    // The frame's document speaks it too: its language and its (unseen) title, which names its main landmark.
    await ui.locator('html[lang=gl]').waitFor({ state: 'attached' });
    assert.equal(await ui.locator('#frame-title').textContent(), 'Pagar co teu banco');
    assert.equal(await ui.locator('html').evaluate(() => document.title), 'Pagar co teu banco');
    assert.equal(await ui.getByRole('main', { name: 'Pagar co teu banco' }).count(), 1);
    // Said once, as the landmark's name: not read again as its first line.
    assert.equal(await ui.getByRole('paragraph').filter({ hasText: 'Pagar co teu banco' }).count(), 0);

    await ui.locator('bank-checkout [part=cancel]').getByRole('button').click();
    await act(page, stack, () => ui.locator('bank-checkout [part=cancel]').getByRole('button').first().click());
    await ui.locator('bank-result [part=title]').waitFor();
    const events = await page.evaluate(() => (window as unknown as { __events: [string, string, boolean, boolean, Record<string, unknown>][] }).__events);
    const [first] = events;
    assert.deepEqual(first?.slice(0, 4), ['bank-checkout-step', 'bank-checkout', true, true]);
    assert.equal(first[4].state, 'select-bank');
    const complete = events.find((e) => e[0] === 'bank-checkout-complete');
    assert.deepEqual(complete?.[4], { checkoutId: first[4].checkoutId, outcome: 'cancelled', code: 'cancelled' });
    assert.ok(!JSON.stringify(events).includes('cs_'), 'no event carries the client secret');
    assertClean();
    await close();
  });
});
