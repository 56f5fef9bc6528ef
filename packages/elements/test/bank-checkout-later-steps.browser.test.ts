/**
 * `<bank-checkout>` imported alone (as the one-file build and the isolated frame load it): the
 * first screen needs only the checkout, the bank list and the result; the native steps after
 * the list come in the background once the checkout shows, and are ready when the payer is.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../src/bank-checkout/bank-checkout.js';
import type { BankCheckout } from '../src/bank-checkout/bank-checkout.js';
import { extrasReady, stepFilesSettled } from '../src/bank-checkout/loaders.js';
import { GROUPS, fakeBff, until, view } from './fixtures.js';

const LATER = ['bank-login-form', 'bank-account-picker', 'bank-challenge', 'bank-second-login', 'bank-contract-picker', 'bank-maintenance'];

describe('<bank-checkout> alone', () => {
  // In this order: the registry is the page's, and the first test must find nothing loaded yet.
  it('loads no native step for a checkout that only pays at the bank’s page', async () => {
    // A hidden page loads what it loads at once (no frame comes then): nothing is left for later.
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    try {
      const bff = fakeBff({ 'GET /v1/checkout': () => view({ state: 'select-bank' }, { mode: 'redirect', modes: ['redirect'] }) });
      const el = await fixture<BankCheckout>(html`<bank-checkout api="https://bff.test" checkout-secret="s" locale="en" .fetch=${bff.fetch}></bank-checkout>`);
      expect(
        LATER.filter((t) => customElements.get(t)),
        'no later step defined at import',
      ).to.deep.equal([]);
      await until(() => el.shadowRoot!.querySelector('[part=redirect-start]'), 'the redirect start');
      await until(extrasReady, 'what comes after the first screen');
      await stepFilesSettled();
    } finally {
      delete (document as { visibilityState?: unknown }).visibilityState;
    }
    expect(
      LATER.filter((t) => customElements.get(t)),
      'no native step for a redirect-only checkout',
    ).to.deep.equal([]);
  });

  it('shows the bank list before any later step is loaded, then loads them in the background', async () => {
    expect(!!customElements.get('bank-selector') && !!customElements.get('bank-result'), 'the first screen is in').to.equal(true);
    const bff = fakeBff({
      'GET /v1/checkout': () => view({ state: 'select-bank' }),
      'GET /v1/banks': () => ({ status: 200, body: { groups: GROUPS } }),
    });
    // The page's frames, run by the test (a page of the test runner may be in the background).
    const frames: FrameRequestCallback[] = [];
    const requestFrame = window.requestAnimationFrame;
    window.requestAnimationFrame = (cb) => frames.push(cb);
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    let el: BankCheckout;
    try {
      el = await fixture<BankCheckout>(html`<bank-checkout api="https://bff.test" checkout-secret="s" locale="en" .fetch=${bff.fetch}></bank-checkout>`);
      await until(() => el.shadowRoot!.querySelector('bank-selector')?.shadowRoot?.querySelector('[role=option]'), 'the bank list');
      // A load asked for too early would be under way: let it finish before looking.
      await stepFilesSettled();
      const laterFile = () => performance.getEntriesByType('resource').some((r) => r.name.includes('/bank-checkout/later-steps.'));
      expect(
        LATER.filter((t) => customElements.get(t)).concat(laterFile() ? ['later-steps'] : []),
        'nothing of the later steps before the frame that shows the list',
      ).to.deep.equal([]);
      for (const frame of frames.splice(0)) frame(performance.now());
    } finally {
      window.requestAnimationFrame = requestFrame;
      delete (document as { visibilityState?: unknown }).visibilityState;
    }
    await until(() => LATER.every((t) => customElements.get(t)), 'the later steps, once the list is on screen');
    el.shadowRoot!.querySelector('bank-selector')!.shadowRoot!.querySelector<HTMLElement>('[role=option]')!.click();
    const form = await until(() => el.shadowRoot!.querySelector('bank-login-form'), 'the login form');
    await until(() => form.shadowRoot?.activeElement, 'focus in the login form');
    expect(el.shadowRoot!.querySelector('.step p[role=status]'), 'no loading notice once loaded').to.equal(null);
    await expect(el).to.be.accessible();
  });
});
