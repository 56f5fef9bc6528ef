/**
 * The payer's frame holds still and fits, at every step of every bank, on a 375, a 320 and a
 * 280 px phone: every active bank of the simulator paid through the shop's checkout page at each
 * width, the frame's cumulative layout shift measured step by step (from the action that led to
 * the step until it is drawn, the frame's height reported), and nothing scrolling sideways at any
 * step, in the page or in the frame. At 320×640 the first bank shows on the first screen; at
 * 280 px the login types' names and the coordinates card show whole. One browser context for
 * all of it (docs/performance.md has the figures and what the test costs).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { CheckoutView } from '@bank-checkout/contract';
import { act, kit, openPage, orderCheckout, startStack, takeStep, type Stack } from './lib.js';
import { opened } from '../support/opened.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await opened(stack)?.close();
});

/** The widest the frame may move at one step (cumulative layout shift). */
const MOST = 0.05;

const WIDTHS = [
  [375, 812],
  [320, 640],
  [280, 653],
] as const;

/** Every active bank of the simulator (Banco del Norte is in maintenance), with what it brings to the journey. */
const BANKS: { bankId: string; legal?: boolean }[] = [
  { bankId: 'aurora' }, // three login types, one in maintenance; an SMS code
  { bankId: 'aurora-empresas', legal: true }, // contracts; a signature and a token in one round
  { bankId: 'levante' }, // a second login by SMS; a card position
  { bankId: 'levante-empresas', legal: true }, // a second login by card; contracts; a position sent by SMS
  { bankId: 'cantabrico' }, // a second login in the app; a card shown, then an SMS code (two rounds)
  { bankId: 'cantabrico-empresas', legal: true }, // a token, then a signature (two rounds)
  { bankId: 'meridiano' }, // an approval in the bank's app
];

/** The frame's layout shifts, recorded from its first paint (a script run before the page's own, in every frame). */
const WATCH_SHIFTS = `window.__shifts = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__shifts.push(e.value); }).observe({ type: 'layout-shift', buffered: true });`;

/** The frame's shifts since the last call, summed (every shift: a click in the frame does not mark them as the payer's own here). */
const shiftsSinceLast = (page: Page): Promise<number> =>
  kit(page)
    .locator('html')
    .evaluate(() => {
      const w = window as unknown as { __shifts: number[] };
      return w.__shifts.splice(0).reduce((a, b) => a + b, 0);
    });

/**
 * What scrolls sideways: the page, the frame's document, and any box inside the frame (through
 * its shadow roots) whose content is wider than it; in px, 0 when nothing does.
 */
async function sideways(page: Page): Promise<{ page: number; frame: number; inFrame: string[] }> {
  const inPage = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const inFrame = await kit(page)
    .locator('html')
    .evaluate(() => {
      const wide: string[] = [];
      // (A loop, not a named function: the page gets the function's text as it is.)
      for (const roots: (Document | ShadowRoot)[] = [document]; roots.length;) {
        for (const el of roots.pop()!.querySelectorAll('*')) {
          const x = getComputedStyle(el).overflowX;
          if ((x === 'auto' || x === 'scroll') && el.scrollWidth > el.clientWidth + 1)
            wide.push(`${el.localName}.${el.className || el.getAttribute('part') || ''}`);
          if (el.shadowRoot) roots.push(el.shadowRoot);
        }
      }
      return { doc: document.documentElement.scrollWidth - document.documentElement.clientWidth, wide };
    });
  return { page: inPage, frame: inFrame.doc, inFrame: inFrame.wide };
}

/** Waits until the frame has drawn what it shows now and reported its height (a few of its frames). */
const drawn = (page: Page): Promise<void> =>
  kit(page)
    .locator('html')
    .evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve())))));

/** What shows each state's step, once it is drawn. */
const SHOWN: Record<string, string> = {
  'second-login': 'bank-second-login input',
  'select-contract': 'bank-contract-picker input[type=radio]',
  'select-account': 'bank-account-picker input[type=radio]',
  validate: 'bank-challenge [part=submit]',
  succeeded: 'bank-receipt [part=receipt]',
};

describe('every step of every bank, at 375, 320 and 280 px', () => {
  it(`moves the frame by at most ${MOST} (CLS) at each step, and scrolls nothing sideways; the first bank on a 320×640 screen`, async (t) => {
    const worst: string[][] = WIDTHS.map(() => []);
    const problems: string[] = [];
    let steps = 0;
    // The three widths at once, a page each: most of a journey is the frame's wait for stillness
    // before each confirmation, which the other journeys' work fills.
    const pages = await Promise.all(WIDTHS.map(() => openPage(stack)));
    await Promise.all(
      WIDTHS.map(async ([width, height], w) => {
        const { page, addInitScript } = pages[w]!;
        await addInitScript(WATCH_SHIFTS);
        await page.setViewportSize({ width, height });
        for (const bank of BANKS) {
          const where = `${bank.bankId} at ${width} px`;
          const seen: [string, number][] = [];
          /** The step now on screen: drawn, its shifts since the last step, nothing sideways. */
          const step = async (name: string) => {
            await drawn(page);
            const cls = await shiftsSinceLast(page);
            seen.push([name, cls]);
            steps++;
            if (cls > MOST) problems.push(`${where}, ${name}: CLS ${cls.toFixed(3)}`);
            const wide = await sideways(page);
            if (wide.page > 0 || wide.frame > 0 || wide.inFrame.length)
              problems.push(`${where}, ${name}: sideways (page ${wide.page} px, frame ${wide.frame} px, ${wide.inFrame.join(' ') || 'no box'})`);
          };

          await orderCheckout(page, stack, 'native');
          const first = kit(page).locator('bank-selector [role=option]').first();
          await first.waitFor();
          await step('bank list');
          if (width === 320 && bank.bankId === 'aurora') {
            const box = (await first.boundingBox())!;
            assert.ok(
              box.y + box.height <= height,
              `the first bank (${Math.round(box.y)}–${Math.round(box.y + box.height)} px) on the ${width}×${height} screen`,
            );
          }
          await kit(page)
            .locator('bank-selector [part=person-type] input[type=radio]')
            .nth(bank.legal ? 1 : 0)
            .check();
          await kit(page).locator(`bank-selector [role=option]#bank-${bank.bankId}`).click();
          const form = kit(page).locator('bank-login-form');
          await form.locator('[part=test-value]').first().waitFor();
          await step('sign-in');
          if (width === 280 && bank.bankId === 'aurora') {
            // Three login types: each name whole (radio buttons, where a list would cut it).
            const names = await form
              .locator('[part=login-types] label')
              .evaluateAll((ls) => ls.map((l) => [l.textContent.trim(), l.scrollWidth <= l.clientWidth + 1]));
            assert.equal(names.length, 3, JSON.stringify(names));
            assert.deepEqual(
              names.map(([, whole]) => whole),
              [true, true, true],
              JSON.stringify(names),
            );
          }
          await form.locator('[part=fill-test]').click();
          let view: CheckoutView = await act(page, stack, () => form.locator('[part=submit]').click());
          for (let round = 0; round < 10 && view.state !== 'succeeded'; round++) {
            const s = view.step;
            const shown = SHOWN[s.state];
            assert.ok(shown, `${where}: ended at ${view.state} ${view.error?.code ?? ''}`);
            const label = s.state === 'validate' ? `validate ${s.round}` : s.state;
            if (s.state === 'validate' && s.round > 1) await kit(page).locator('bank-challenge h2').getByText(`Confirmation ${s.round}`).waitFor();
            await kit(page).locator(shown).first().waitFor();
            await step(label);
            const next = await takeStep(page, stack, view);
            assert.ok(next, `${where}: no action at ${view.state}`);
            view = next;
          }
          assert.equal(view.state, 'succeeded', `${where}: ${view.error?.code ?? ''}`);
          await kit(page).locator(SHOWN.succeeded!).waitFor();
          await step('receipt');
          const [name, cls] = seen.reduce((a, b) => (b[1] > a[1] ? b : a));
          worst[w]!.push(`${where}: ${seen.length} steps, most ${cls.toFixed(3)} (${name})`);
        }
      }),
    );
    t.diagnostic(`${steps} steps; ${worst.flat().join('; ')}`);
    assert.deepEqual(problems, []);
    for (const { assertClean, close } of pages) {
      assertClean();
      await close();
    }
  });
});
