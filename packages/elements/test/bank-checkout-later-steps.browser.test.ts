/**
 * `<bank-checkout>` imported alone (as the one-file build and the isolated frame load it): the
 * first screen needs only the checkout, the bank list and the result; the native steps after
 * the list come in the background once the checkout shows, and are ready when the payer is.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../src/bank-checkout/bank-checkout.js';
import type { BankCheckout } from '../src/bank-checkout/bank-checkout.js';
import { GROUPS, fakeBff, until, view } from './fixtures.js';

const LATER = ['bank-login-form', 'bank-account-picker', 'bank-challenge', 'bank-second-login', 'bank-contract-picker'];

describe('<bank-checkout> alone', () => {
  // In this order: the registry is the page's, and the first test must find nothing loaded yet.
  it('loads no native step for a checkout that only pays at the bank’s page', async () => {
    const bff = fakeBff({ 'GET /v1/checkout': () => view({ state: 'select-bank' }, { mode: 'redirect', modes: ['redirect'] }) });
    const el = await fixture<BankCheckout>(html`<bank-checkout api="https://bff.test" checkout-secret="s" locale="en" .fetch=${bff.fetch}></bank-checkout>`);
    expect(LATER.filter((t) => customElements.get(t)), 'no later step defined at import').to.deep.equal([]);
    await until(() => el.shadowRoot!.querySelector('[part=redirect-start]'), 'the redirect start');
    await new Promise((r) => setTimeout(r, 200));
    expect(LATER.filter((t) => customElements.get(t)), 'no native step for a redirect-only checkout').to.deep.equal([]);
  });

  it('shows the bank list before any later step is loaded, then loads them in the background', async () => {
    expect(!!customElements.get('bank-selector') && !!customElements.get('bank-result'), 'the first screen is in').to.equal(true);
    const bff = fakeBff({
      'GET /v1/checkout': () => view({ state: 'select-bank' }),
      'GET /v1/banks': () => ({ status: 200, body: { groups: GROUPS } }),
    });
    const el = await fixture<BankCheckout>(html`<bank-checkout api="https://bff.test" checkout-secret="s" locale="en" .fetch=${bff.fetch}></bank-checkout>`);
    await until(() => el.shadowRoot!.querySelector('bank-selector')?.shadowRoot?.querySelector('[role=option]'), 'the bank list');
    await until(() => LATER.every((t) => customElements.get(t)), 'the later steps, in the background');
    el.shadowRoot!.querySelector('bank-selector')!.shadowRoot!.querySelector<HTMLElement>('[role=option]')!.click();
    const form = await until(() => el.shadowRoot!.querySelector('bank-login-form'), 'the login form');
    await until(() => form.shadowRoot?.activeElement, 'focus in the login form');
    expect(el.shadowRoot!.querySelector('.step p[role=status]'), 'no loading notice once loaded').to.equal(null);
    await expect(el).to.be.accessible();
  });
});
