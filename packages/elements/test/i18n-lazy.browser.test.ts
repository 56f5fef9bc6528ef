import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../src/bank-result/bank-result.js';
import type { BankResult } from '../src/bank-result/bank-result.js';
import { availableLocales, isLocaleReady, loadLocale } from '../src/i18n/index.js';
import { view } from './fixtures.js';
import { formatCents } from '../src/logic/format.js';

const heading = (el: BankResult) => el.shadowRoot!.querySelector('h2')?.textContent ?? null;

describe('languages loaded on demand', () => {
  it('offers Catalan, Basque and Galician before any is loaded, and loads them only when asked', () => {
    expect(availableLocales()).to.include.members(['en', 'es', 'ca', 'eu', 'gl']);
    expect(isLocaleReady('es')).to.equal(true);
    expect(isLocaleReady('gl')).to.equal(false);
  });

  it('shows no English text while Galician loads, then the Galician texts', async () => {
    const seen: (string | null)[] = [];
    const el = document.createElement('bank-result');
    el.locale = 'gl';
    el.view = view({ state: 'succeeded' });
    // A plain container (fixture() of a non-Lit element waits for an animation frame, which a
    // page in a background tab of the test runner may never get).
    const parent = document.createElement('div');
    document.body.append(parent);
    parent.append(el);
    seen.push(heading(el));
    await el.updateComplete;
    seen.push(heading(el));
    await loadLocale('gl');
    await el.updateComplete;
    expect(heading(el)).to.equal('Pagamento completado');
    expect(seen.filter((h) => h !== null && h !== 'Pagamento completado')).to.deep.equal([]);
    expect(el.shadowRoot!.querySelector('[part=message]')!.textContent).to.equal('O teu banco aceptou o pagamento.');
    parent.remove();
  });

  it('follows a locale changed at runtime to a language not loaded yet', async () => {
    const el = await fixture<BankResult>(html`<bank-result locale="en" .view=${view({ state: 'succeeded' })}></bank-result>`);
    expect(heading(el)).to.equal('Payment completed');
    el.locale = 'eu';
    await el.updateComplete;
    // Until Basque is in, the English texts stay: nothing shows half in one language.
    expect(heading(el)).to.equal('Payment completed');
    await waitUntil(() => heading(el) !== 'Payment completed', 'the Basque texts never showed');
    expect(isLocaleReady('eu')).to.equal(true);
  });

  it('writes amounts the way Spain does in Basque and Galician, even where the browser lacks their data', () => {
    for (const locale of ['eu', 'gl', 'es', 'ca']) expect(formatCents(123456789, 'EUR', locale).replace(/\s/g, ' ')).to.equal('1.234.567,89 €', locale);
    expect(formatCents(123456789, 'EUR', 'en')).to.equal('€1,234,567.89');
  });
});
