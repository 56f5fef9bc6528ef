/**
 * `<bank-checkout isolate>` of the full kit: it loads the thin host on demand and only hosts the
 * frame; it never reads the checkout itself (no call from the merchant's page).
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../src/index.js';
import type { BankCheckout } from '../src/index.js';
import { FRAME_PROTOCOL } from '../src/frame/messages.js';
import { until } from './fixtures.js';
import { urlOf } from '../../../test/support/fake-fetch.js';

describe('<bank-checkout isolate> (full kit)', () => {
  it('shows the frame instead of the steps, makes no call itself, and re-fires the frame’s events', async () => {
    const calls: string[] = [];
    const spy = (async (input: RequestInfo | URL) => {
      calls.push(urlOf(input));
      return new Response('{}', { status: 500 });
    }) as typeof fetch;
    const warn = console.warn;
    console.warn = () => {};
    try {
      const el = await fixture<BankCheckout>(
        html`<bank-checkout isolate api=${location.origin} launch-token="lt_chk_full.0123456789abcdef0123456789abcdef0123456789a" locale="en" .fetch=${spy}></bank-checkout>`,
      );
      const frame = await until(() => el.shadowRoot!.querySelector('iframe'), 'the frame');
      expect(frame.getAttribute('part')).to.equal('frame');
      expect(frame.src).to.equal(`${location.origin}/v1/frame`);
      expect(el.shadowRoot!.querySelector('.checkout, bank-selector'), 'no step rendered in the page').to.equal(null);
      const placeholder = el.shadowRoot!.querySelector('[part="placeholder"][role="status"]');
      await until(() => placeholder?.textContent === 'Loading the payment…', 'the placeholder in the kit’s own words while the frame loads');
      expect(frame.title).to.equal('Pay by bank');
      await new Promise((r) => frame.addEventListener('load', r, { once: true }));
      const sent: { message: { token?: string }; transfer: Transferable[] }[] = [];
      frame.contentWindow!.postMessage = ((message: { token?: string }, _origin: string, transfer: Transferable[] = []) =>
        void sent.push({ message, transfer })) as unknown as typeof postMessage;
      window.dispatchEvent(new MessageEvent('message', { data: { v: FRAME_PROTOCOL, type: 'ready' }, origin: location.origin, source: frame.contentWindow }));
      expect(sent[0]?.message.token).to.equal('lt_chk_full.0123456789abcdef0123456789abcdef0123456789a');
      const port = sent[0]!.transfer[0] as MessagePort;
      const steps: CustomEvent[] = [];
      el.addEventListener('bank-checkout-step', (e) => steps.push(e));
      port.postMessage({ v: 1, type: 'event', name: 'bank-checkout-step', detail: { checkoutId: 'chk_1', state: 'select-bank', previous: null } });
      await until(() => steps.length === 1, 'the step event');
      port.postMessage({ v: 1, type: 'size', height: 900 });
      await until(() => !el.shadowRoot!.querySelector('[part="placeholder"]'), 'the frame in the placeholder’s place');
      expect(frame.getBoundingClientRect().height).to.equal(900);
      expect(steps[0]!.detail.state).to.equal('select-bank');
      expect(calls, 'the page itself calls nothing').to.deep.equal([]);
    } finally {
      console.warn = warn;
    }
  });

  it('given a client secret, runs nothing: no frame, no call, secret_refused to the page and the reason in the console', async () => {
    const calls: string[] = [];
    const spy = (async (input: RequestInfo | URL) => {
      calls.push(urlOf(input));
      return new Response('{}', { status: 500 });
    }) as typeof fetch;
    const logged: unknown[][] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      const errors: CustomEvent[] = [];
      document.addEventListener('bank-checkout-error', (e) => errors.push(e), { once: true });
      const el = await fixture<BankCheckout>(
        html`<bank-checkout isolate api=${location.origin} checkout-secret="cs_full" locale="es" .fetch=${spy}></bank-checkout>`,
      );
      await until(() => errors.length, 'bank-checkout-error');
      expect(errors[0]!.target).to.equal(el);
      expect(errors[0]!.detail).to.deep.equal({ checkoutId: null, code: 'secret_refused', status: null, requestId: null });
      const failure = await until(() => el.shadowRoot!.querySelector('[part="failure"][role="alert"] p')?.textContent, 'the payer told why');
      expect(failure).to.equal('El pago no se puede mostrar en esta página.');
      expect(el.shadowRoot!.querySelector('iframe, .checkout, bank-selector')).to.equal(null);
      expect(logged.filter((l) => String(l[0]).includes('launch token only')).length).to.equal(1);
      expect(calls).to.deep.equal([]);
    } finally {
      console.error = error;
    }
  });
});
