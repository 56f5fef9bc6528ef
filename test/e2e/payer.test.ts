/**
 * The payer in the demo shop, at a phone's width and in the payer's own language: the first
 * bank on a 375×812 and a 320×640 first screen in each language with one level-one heading, the
 * page kept still while the checkout loads (cumulative layout shift, measured), every card step answerable
 * at 320 px with the kit's names for its fields (their accessibility trees recorded), a receipt
 * in the payer's language, and the phone's hand-off link surviving a HEAD and a first look.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { CheckoutView } from '@bank-checkout/contract';
import {
  act,
  chooseFirstAccount,
  kit,
  merchantCheckout,
  openPage,
  orderCheckout,
  payNative,
  fillChallengeTestValues,
  readyChallenge,
  startStack,
  walkGateway,
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

/** The checkout's language, as the shop's language switch remembers it (a cookie the checkout page reads). */
async function speak(page: Page, locale: string): Promise<void> {
  await page.context().addCookies([{ name: 'checkout-language', value: locale, url: stack.urls.demo }]);
}

/** Records the page's layout shifts from its first paint (a script run before the page's own). */
const WATCH_SHIFTS = `window.__shifts = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push(e.value); }).observe({ type: 'layout-shift', buffered: true });`;

describe('the first screen', () => {
  it('at 375×812 and 320×640, in each language: the first bank shows without scrolling, the page has one h1, and nothing moves while the checkout loads (CLS ≤ 0.02)', async (t) => {
    const { page, assertClean, close, addInitScript } = await openPage(stack);
    await addInitScript(WATCH_SHIFTS);
    const figures: string[] = [];
    for (const [width, height, locales] of [
      [375, 812, ['en', 'es', 'ca', 'eu', 'gl']],
      [320, 640, ['en', 'es', 'ca', 'eu', 'gl']],
      [1100, 900, ['en']],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const locale of locales) {
        await speak(page, locale);
        await orderCheckout(page, stack, 'native');
        const first = kit(page).locator('bank-selector [role=option]').first();
        await first.waitFor();
        // Until what comes after the first screen is in (the later steps and extras, fetched once it shows).
        await kit(page)
          .locator('html')
          .evaluate(() => new Promise<void>((resolve) => void customElements.whenDefined('bank-receipt').then(() => resolve())));
        // The page's shifts, and the frame's own (its document reports its shifts to itself).
        const sum = () => (window as unknown as { __shifts: number[] }).__shifts.reduce((a, b) => a + b, 0);
        const cls = await page.evaluate(sum);
        const inFrame = await kit(page).locator('html').evaluate(sum);
        figures.push(`${width}×${height} ${locale}: CLS ${cls.toFixed(4)} (in the frame ${inFrame.toFixed(4)})`);
        assert.ok(cls <= 0.02, `${width}×${height} ${locale}: cumulative layout shift ${cls}`);
        assert.ok(inFrame <= 0.02, `${width}×${height} ${locale}: cumulative layout shift in the frame ${inFrame}`);
        if (width < 400) {
          const box = (await first.boundingBox())!;
          assert.ok(
            box.y >= 0 && box.y + box.height <= height,
            `${width}×${height} ${locale}: the first bank (${Math.round(box.y)}–${Math.round(box.y + box.height)} px) within the first ${height} px`,
          );
        }
        if (width === 375) {
          assert.equal(await page.evaluate(() => document.documentElement.scrollTop), 0, 'nothing scrolled');
          assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1, 'one h1, the page’s');
          assert.equal(await kit(page).getByRole('heading', { level: 1 }).count(), 0, 'none in the frame');
          // The frame the shop's page wrote (prerender): loaded once, with the page, never made again.
          const frames = await page.evaluate(() =>
            performance
              .getEntriesByType('resource')
              .filter((e) => new URL(e.name).pathname === '/v1/frame')
              .map((e) => (e as PerformanceResourceTiming).initiatorType),
          );
          assert.deepEqual(frames, ['iframe'], `${locale}: the frame's page loaded once`);
        }
        if (width === 320) {
          // The kit's frame and padding take at most 16 px a side.
          const inset = await kit(page)
            .locator('bank-checkout')
            .evaluate((el) => {
              const base = el.shadowRoot!.querySelector('[part=base]')!;
              const s = getComputedStyle(base);
              return parseFloat(s.paddingLeft) + parseFloat(s.borderLeftWidth);
            });
          assert.ok(inset <= 16, `the kit's frame and padding: ${inset} px a side`);
        }
      }
    }
    t.diagnostic(figures.join('; '));
    assertClean();
    await close();
  });
});

/** Signs in at `bankId` with its test values; answers the BFF's view. */
async function signIn(page: Page, bankId: string, legal = false): Promise<CheckoutView> {
  if (legal) await kit(page).locator('bank-selector [part=person-type] input[type=radio]').nth(1).check();
  await kit(page).locator(`bank-selector [role=option]#bank-${bankId}`).click();
  const form = kit(page).locator('bank-login-form');
  await form.locator('[part=fill-test]').click();
  return act(page, stack, () => form.locator('[part=submit]').click());
}

/**
 * What a payer at this width sees of a card step: the field's accessible name, whether the
 * input is whole on the screen, whether the asked cell (a card shown) is in view, and the
 * step's accessibility tree.
 */
async function cardStep(page: Page, host: string) {
  const step = kit(page).locator(host);
  const input = step.locator('input').first();
  await input.waitFor();
  await input.scrollIntoViewIfNeeded();
  const name = await input.evaluate((i: HTMLInputElement) => i.labels![0]!.textContent.trim());
  const box = (await input.boundingBox())!;
  const width = page.viewportSize()!.width;
  const asked = step.locator('[part=card-asked]');
  let askedInView: boolean | null = null;
  if (await asked.count()) {
    await page.waitForFunction(() => true);
    askedInView = await asked.evaluate((cell) => {
      const c = cell.getBoundingClientRect();
      const s = cell.closest('[part=card-scroll]')!.getBoundingClientRect();
      return c.left >= s.left - 0.5 && c.right <= s.right + 0.5 && c.right <= document.documentElement.clientWidth;
    });
  }
  return { name, whole: box.x >= 0 && box.x + box.width <= width, askedInView, tree: await step.ariaSnapshot() };
}

describe('a reload at the receipt', () => {
  // Five reloads: whether the receipt's file comes in before or after the checkout's own
  // redraw asks for it varies from one load to the next (a size taken between them moved the
  // page twice in about one load of three).
  it('draws the receipt before the frame takes its height: the page moves once (CLS ≤ 0.02), reload after reload', async () => {
    const { page, assertClean, close, addInitScript } = await openPage(stack);
    await addInitScript(WATCH_SHIFTS);
    await page.setViewportSize({ width: 375, height: 812 });
    await orderCheckout(page, stack, 'native');
    assert.equal((await payNative(page, stack, 'aurora')).state, 'succeeded');
    for (let reload = 1; reload <= 5; reload++) {
      // From the top of the page (where what follows the checkout would show if it moved).
      await page.evaluate(() => scrollTo(0, 0));
      await page.reload();
      await kit(page).locator('bank-receipt [part=receipt]').waitFor();
      const shifts = await page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts);
      const cls = shifts.reduce((a, b) => a + b, 0);
      assert.ok(cls <= 0.02, `cumulative layout shift after reload ${reload}: ${cls} (${shifts.map((x) => x.toFixed(3)).join(', ')})`);
    }
    assertClean();
    await close();
  });
});

describe('card steps at 320 px, in the payer’s language', () => {
  const CASES = [
    {
      locale: 'eu',
      bankId: 'cantabrico',
      legal: false,
      covers: 'a card shown (type 5), then an SMS code',
      name: /^Erakutsitako txartelaren [A-E][1-5] posizioko balioa$/,
      receipt: ['Ordainagiria', 'Ordaindutako zenbatekoa', 'Ordaindu duen bankua', 'Ordainketa-kontua', 'Bankuaren erreferentzia', 'Data'],
    },
    {
      locale: 'gl',
      bankId: 'levante-empresas',
      legal: true,
      covers: 'a second login by card, then a position sent by SMS (type 3)',
      name: /^Valor da posición [A-E][1-5] da túa tarxeta de coordenadas$/,
      receipt: ['Xustificante', 'Importe pagado', 'Banco pagador', 'Pagado desde', 'Referencia do banco', 'Data'],
    },
    {
      locale: 'ca',
      bankId: 'levante',
      legal: false,
      covers: 'a card position (type 2)',
      name: /^Valor de la posició [A-E][1-5] de la teva targeta de coordenades$/,
      receipt: ['Justificant', 'Import pagat', 'Banc pagador', 'Pagat des de', 'Referència del banc', 'Data'],
    },
  ];
  for (const c of CASES) {
    it(`${c.bankId} in ${c.locale}: ${c.covers}: the asked position in each field's name, the input whole, never the bank's Spanish; a receipt in ${c.locale}`, async (t) => {
      const { page, assertClean, close } = await openPage(stack);
      await page.setViewportSize({ width: 320, height: 640 });
      await speak(page, c.locale);
      await orderCheckout(page, stack, 'native');
      await kit(page).locator('bank-selector [role=option]').first().waitFor();
      let view = await signIn(page, c.bankId, c.legal);
      const trees: string[] = [];
      for (let steps = 0; steps < 8 && !['succeeded', 'failed'].includes(view.state); steps++) {
        const s = view.step;
        if (s.state === 'second-login' || s.state === 'validate') {
          const host = s.state === 'second-login' ? 'bank-second-login' : 'bank-challenge';
          const labels = s.state === 'second-login' ? [s.field.label] : s.validations.map((v) => v.label);
          const seen = await cardStep(page, host);
          assert.ok(seen.whole, `${host}: the whole input on the screen`);
          assert.ok(!labels.includes(seen.name), `${host}: "${seen.name}" is not the bank's Spanish`);
          const card = s.state === 'second-login' ? s.type === 2 : s.validations.some((v) => [2, 3, 5].includes(v.type));
          if (card) {
            assert.match(seen.name, c.name, `${host}: the asked position in the field's name`);
            if (seen.askedInView !== null) assert.equal(seen.askedInView, true, 'the asked cell in view');
            assert.match(seen.tree, new RegExp(`textbox "${seen.name}"`), 'the accessibility tree names the field so');
            trees.push(`${host} (${c.locale}, 320 px):\n${seen.tree}`);
          }
          const form = kit(page).locator(host);
          if (host === 'bank-challenge') {
            await fillChallengeTestValues(page);
            const confirm = await readyChallenge(page);
            view = await act(page, stack, () => confirm.click());
          } else {
            await form.locator('[part=fill-test]').click();
            view = await act(page, stack, () => form.locator('[part=submit]').click());
          }
        } else if (s.state === 'select-contract' || s.state === 'select-account') {
          const host = s.state === 'select-contract' ? 'bank-contract-picker' : 'bank-account-picker';
          const form = kit(page).locator(host);
          assert.equal(await form.getByRole('heading', { level: 2 }).count(), 1, `${host}: a heading for the step`);
          if (host === 'bank-account-picker') {
            const pay = await chooseFirstAccount(page);
            view = await act(page, stack, () => pay.click());
          } else {
            await form.locator('input[type=radio]').first().check();
            view = await act(page, stack, () => form.locator('[part=submit]').click());
          }
        } else break;
      }
      assert.equal(view.state, 'succeeded', view.error?.code);
      assert.ok(trees.length > 0, 'a card step was seen');
      t.diagnostic(trees.join('\n\n'));
      // The receipt, in the payer's language, with nothing that opens the checkout.
      const receipt = kit(page).locator('bank-receipt [part=receipt]');
      await receipt.waitFor();
      const text = (await receipt.textContent()) ?? '';
      for (const label of c.receipt) assert.ok(text.includes(label), `the receipt says “${label}”`);
      assert.doesNotMatch(text, /Amount paid|Paid to|Bank reference|Date/, 'no English on it');
      assert.doesNotMatch(text, /chk_/, 'no checkout id on it');
      assertClean();
      await close();
    });
  }
});

describe('the phone’s hand-off', () => {
  it('survives a HEAD and a first look (a preview): its page’s button goes to the bank; used, it says so there and on the desktop', async () => {
    const { page, assertClean, close } = await openPage(stack);
    await speak(page, 'es');
    const id = await orderCheckout(page, stack, 'redirect');
    await kit(page).locator('bank-handoff [part=offer]').click();
    const link = await kit(page).locator('bank-handoff [part=link]').inputValue();
    // A HEAD and a first look (what a messaging app's preview does) spend nothing.
    assert.equal((await page.request.head(link)).status(), 200);
    const look = await page.request.get(link, { headers: { 'User-Agent': 'WhatsApp/2.23 link preview' } });
    assert.equal(look.status(), 200);
    assert.match(await look.text(), /<h1>Continúa en tu banco<\/h1>/);

    // The phone opens it: the page in the checkout's language, one button.
    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: 375, height: 700 });
    await phone.goto(link);
    assert.equal(await phone.locator('html').getAttribute('lang'), 'es');
    await phone.getByRole('button', { name: 'Continuar en mi banco' }).click();
    await phone.waitForURL(`${stack.urls.sandbox}/gateway/**`);
    // The desktop learns at once that the code was used: it goes, and a new one is offered.
    await kit(page).locator('bank-handoff [part=handoff-status]', { hasText: 'El código se ha abierto en el móvil' }).waitFor();
    assert.equal(await kit(page).locator('bank-handoff [part=qr]').count(), 0);
    // Opened again: what to do, in Spanish.
    const again = await page.request.get(link);
    assert.equal(again.status(), 410);
    assert.match(await again.text(), /<h1>Este enlace ya se ha usado<\/h1>/);

    await walkGateway(phone, { bank: 'Caja Levante', code: '482913' });
    await phone.getByRole('heading', { name: 'Payment completed successfully' }).waitFor();
    await kit(page).locator('bank-result [part=title]', { hasText: 'Pago completado' }).waitFor();
    assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');
    // The desktop's receipt names the bank it was paid from, learnt from the provider.
    await page.reload();
    await kit(page).locator('bank-receipt [part=receipt]', { hasText: 'Caja Levante' }).waitFor();
    await phone.close();
    assertClean();
    await close();
  });
});
