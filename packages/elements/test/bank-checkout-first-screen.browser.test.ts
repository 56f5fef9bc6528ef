/**
 * `<bank-checkout>`'s first screen: what it waits for and what it does not. In this order: the
 * page must not have Catalan's texts before the first test.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../src/bank-checkout/bank-checkout.js';
import type { BankCheckout } from '../src/bank-checkout/bank-checkout.js';
import { isLocaleReady } from '../src/i18n/index.js';
import { GROUPS, fakeBff, until, view } from './fixtures.js';

const listed = (el: BankCheckout) => el.shadowRoot!.querySelector('bank-selector')?.shadowRoot?.querySelector('[role=option]');
const amount = (el: BankCheckout) => el.shadowRoot!.querySelector('[part=amount]')?.textContent ?? null;

describe('<bank-checkout> first screen', () => {
  it('reads the checkout while the texts of its language come', async () => {
    expect(isLocaleReady('ca'), 'Catalan not loaded yet').to.equal(false);
    let release!: () => void;
    const answered = new Promise<void>((r) => (release = r));
    let textsInWhenCalled: boolean | null = null;
    const bff = fakeBff({
      'GET /v1/checkout': async () => {
        textsInWhenCalled ??= isLocaleReady('ca');
        await answered;
        return view({ state: 'select-bank' });
      },
      'GET /v1/banks': () => ({ status: 200, body: { groups: GROUPS } }),
    });
    const el = await fixture<BankCheckout>(html`<bank-checkout api="https://bff.test" checkout-secret="s" locale="ca" .fetch=${bff.fetch}></bank-checkout>`);
    await until(() => textsInWhenCalled !== null, 'the first call');
    expect(textsInWhenCalled, 'called before Catalan’s texts were in').to.equal(false);
    release();
    await until(() => listed(el), 'the bank list');
    expect(amount(el)?.replace(/\s/g, ' ')).to.equal('42,50 €');
    expect(el.shadowRoot!.querySelector('bank-selector')!.shadowRoot!.querySelector('h2')!.textContent).to.equal('Tria el teu banc');
  });
});
