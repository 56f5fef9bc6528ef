/**
 * The kit under a strict Content-Security-Policy. The policy is added to this page before any
 * element renders (this file runs in its own page), and every violation is collected.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../src/index.js';
import type { BankCheckout } from '../src/index.js';
import { CARD_IMAGE, GROUPS, PERIODIC_BANKS, fakeBff, field, type, until, validation, view } from './fixtures.js';

const violations: string[] = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`));
const meta = document.createElement('meta');
meta.httpEquiv = 'Content-Security-Policy';
meta.content = "script-src 'self'; style-src 'self'; img-src 'self' data:";
document.head.append(meta);

describe("under script-src 'self'; style-src 'self'", () => {
  it('the policy is in force: an inline style attribute is reported', async () => {
    const probe = document.createElement('div');
    probe.setAttribute('style', 'color: red');
    document.body.append(probe);
    await until(() => violations.length > 0, 'a violation report');
    expect(violations[0]).to.contain('style-src');
    probe.remove();
    violations.length = 0;
  });

  it('renders and styles every step without a violation', async () => {
    const steps = [
      view({ state: 'select-bank' }, { sandbox: true, modes: ['native', 'redirect', 'periodic'] }),
      view({ state: 'second-login', bank: { bankId: 'a', label: 'A' }, type: 2, value: 'B3', field: field({ fieldId: 'c', label: 'C', password: true }) }),
      view({ state: 'select-account', bank: { bankId: 'a', label: 'A' }, accounts: [{ accountId: 'x', info: 'Cuenta', balance: 100 }] }),
      view({
        state: 'validate',
        bank: { bankId: 'a', label: 'A' },
        round: 1,
        deadline: new Date(Date.now() + 60_000).toISOString(),
        validations: [validation(5, { value: CARD_IMAGE }), validation(6)],
      }),
      view({ state: 'periodic', banks: PERIODIC_BANKS }, { mode: 'periodic', modes: ['native', 'periodic'] }),
      view({ state: 'redirect', url: 'https://gateway.example/pay' }, { mode: 'redirect' }),
      view({ state: 'succeeded' }),
    ];
    let current = steps[0]!;
    const bff = fakeBff({ 'GET /v1/checkout': () => current, 'GET /v1/banks': () => ({ status: 200, body: { groups: GROUPS } }) });
    const el = await fixture<BankCheckout>(html`<bank-checkout api="https://bff.test" checkout-secret="s" .fetch=${bff.fetch}></bank-checkout>`);
    const selector = await until(() => el.shadowRoot!.querySelector('bank-selector'));
    await until(() => selector.shadowRoot!.querySelector('[role=option]'));
    selector.shadowRoot!.querySelector<HTMLElement>('#bank-aurora')!.click();
    const login = await until(() => el.shadowRoot!.querySelector('bank-login-form'));
    const input = await until(() => login.shadowRoot!.querySelector<HTMLInputElement>('input:not([type=radio])'));
    type(input, '1');
    login.shadowRoot!.querySelector<HTMLButtonElement>('[part=reveal]')!.click();
    for (const next of steps.slice(1)) {
      current = next;
      await (el as unknown as { refresh(): Promise<void> }).refresh();
      await el.updateComplete;
      // A later step's file may still be on its way (they load in the background): until it is
      // in, the step says it is loading.
      const step = await until(() => {
        const last = el.shadowRoot!.querySelector('.step')!.lastElementChild as (HTMLElement & { updateComplete: Promise<unknown> }) | null;
        return last && !last.matches('p[role=status]') ? last : null;
      }, `the ${next.state} step`);
      await step.updateComplete;
      // Styles applied: the constructable style sheets are in force.
      expect(el.shadowRoot!.adoptedStyleSheets.length).to.be.greaterThan(0);
      expect(getComputedStyle(el.shadowRoot!.querySelector('[part=base]')!).display).to.equal('grid');
      if (next.state === 'periodic') {
        const form = step.shadowRoot!;
        form.querySelector<HTMLSelectElement>('#pf-bank')!.value = 'group:10';
        form.querySelector<HTMLSelectElement>('#pf-bank')!.dispatchEvent(new Event('change'));
        type(form.querySelector<HTMLInputElement>('#pf-iban')!, 'ES91 2100');
        await step.updateComplete;
        expect(getComputedStyle(form.querySelector('select')!).minHeight).to.equal('44px');
      }
      if (next.state === 'validate') {
        const card = step.shadowRoot!.querySelector<HTMLImageElement>('img[part=card]')!;
        await until(() => card.complete && card.naturalWidth === 1, 'the card image');
      }
    }
    expect(violations).to.deep.equal([]);
  });
});
