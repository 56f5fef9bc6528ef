import type { ViewErrorCode } from '@bank-checkout/contract';
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../src/bank-result/bank-result.js';
import type { BankResult, ResultStatus } from '../src/bank-result/bank-result.js';
import { en } from '../src/i18n/en.js';
import { es } from '../src/i18n/es.js';
import { view } from './fixtures.js';
import { registerTexts } from '../src/i18n/index.js';
import { enFrame } from '../src/i18n/en-frame.js';
import { esFrame } from '../src/i18n/es-frame.js';

const q = (el: BankResult, sel: string) => el.shadowRoot!.querySelector<HTMLElement>(sel);

const CODES = [
  'B100',
  'B101',
  'B102',
  'B103',
  'B104',
  'B105',
  'B106',
  'B107',
  'B108',
  'E300',
  'E301',
  'E302',
  'expired',
  'cancelled',
  'unknown',
  'deadline',
  'attempts',
  'upstream',
  'upstream_timeout',
  'invalid_state',
] as const;

describe('<bank-result>', () => {
  it('shows success from the view, without a retry', async () => {
    const el = await fixture<BankResult>(html`<bank-result locale="en" .view=${view({ state: 'succeeded' })}></bank-result>`);
    expect(q(el, 'h2')!.textContent).to.equal('Payment completed');
    expect(q(el, '[part=message]')!.textContent).to.equal('Your bank has accepted the payment.');
    expect(q(el, '.succeeded')).to.not.equal(null);
    expect(q(el, '[part=retry]')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('tells a periodic order set up as a mandate, never as a payment', async () => {
    const el = await fixture<BankResult>(html`<bank-result locale="en" .view=${view({ state: 'succeeded' }, { mode: 'periodic' })}></bank-result>`);
    expect(q(el, 'h2')!.textContent).to.equal('Periodic payment set up');
    expect(q(el, '[part=message]')!.textContent).to.equal(en['result.mandateBody']);
    expect(q(el, '[part=message]')!.textContent).to.contain('Nothing was charged today');
    await expect(el).to.be.accessible();
  });

  it('has a human message for every provider and BFF code, in Spanish and English', async () => {
    const el = await fixture<BankResult>(html`<bank-result status="failed"></bank-result>`);
    for (const [locale, cat] of [
      ['en', en],
      ['es', es],
    ] as const) {
      el.locale = locale;
      for (const code of CODES) {
        el.code = code;
        await el.updateComplete;
        expect(q(el, '[part=message]')!.textContent, `${locale} ${code}`).to.equal(cat[`error.${code}`]);
      }
    }
    expect(q(el, 'h2')!.textContent).to.equal('El pago no se ha completado');
  });

  it('reads the view’s error: failed with a bank code, expired, cancelled; offers to start again when the view allows it', async () => {
    const cases: [ResultStatus, ViewErrorCode, string, boolean][] = [
      ['failed', 'B102', 'Your bank did not authorise this payment.', true],
      ['expired', 'expired', en['error.expired'], false],
      ['cancelled', 'cancelled', en['error.cancelled'], true],
    ];
    for (const [state, code, text, restart] of cases) {
      const v = view({ state } as never, { error: { code, message: `error.${code}` as const } });
      expect(v.actions.includes('restart')).to.equal(restart);
      const el = await fixture<BankResult>(html`<bank-result locale="en" .view=${v}></bank-result>`);
      expect(q(el, 'h2')!.textContent).to.equal(en[`result.${state}` as keyof typeof en]);
      expect(q(el, '[part=message]')!.textContent).to.equal(text);
      expect(q(el, '[part=retry]')?.textContent.trim() ?? null, state).to.equal(restart ? 'Try again' : null);
      await expect(el).to.be.accessible();
    }
    // Without the restart action (the checkout's time is over), nothing to retry.
    const over = await fixture<BankResult>(
      html`<bank-result locale="en" .view=${view({ state: 'failed' } as never, { actions: [], error: { code: 'B102', message: 'error.B102' } })}></bank-result>`,
    );
    expect(q(over, '[part=retry]') === null).to.equal(true);
  });

  it('offers to check again while the outcome is unknown, and to retry a passing load error', async () => {
    const el = await fixture<BankResult>(
      html`<bank-result locale="en" .view=${view({ state: 'unknown' }, { error: { code: 'unknown', message: 'error.unknown' } })}></bank-result>`,
    );
    expect(q(el, '[part=retry]')!.textContent.trim()).to.equal('Check again');
    await expect(el).to.be.accessible();
    const retried = oneEvent(el, 'bank-retry');
    q(el, '[part=retry]')!.click();
    expect((await retried).composed).to.equal(true);

    const load = await fixture<BankResult>(html`<bank-result locale="es" status="error" code="network"></bank-result>`);
    expect(q(load, 'h2')!.textContent).to.equal('Algo ha fallado');
    expect(q(load, '[part=retry]')!.textContent.trim()).to.equal('Reintentar');
    load.code = 'unauthorized';
    await load.updateComplete;
    expect(q(load, '[part=message]')!.textContent).to.equal(es['error.unauthorized']);
    expect(q(load, '[part=retry]'), 'a wrong secret does not pass by itself').to.equal(null);
  });

  it('says a payment that went on in another browser goes on there, not that something went wrong', async () => {
    registerTexts({ en: enFrame, es: esFrame });
    for (const [locale, title, message] of [
      ['en', 'This payment continues elsewhere', enFrame['error.opened_elsewhere']],
      ['es', 'Este pago continúa en otro sitio', esFrame['error.opened_elsewhere']],
    ] as const) {
      const el = await fixture<BankResult>(html`<bank-result locale=${locale} status="error" code="opened_elsewhere"></bank-result>`);
      expect(q(el, 'h2')!.textContent).to.equal(title);
      expect(q(el, '[part=message]')!.textContent).to.equal(message);
      expect(q(el, '[part=retry]'), 'only a reload there takes it back').to.equal(null);
      await expect(el).to.be.accessible();
    }
  });

  it('renders nothing for a state that is not an outcome', async () => {
    const el = await fixture<BankResult>(html`<bank-result .view=${view({ state: 'select-bank' })}></bank-result>`);
    expect(el.shadowRoot!.children.length).to.equal(0);
  });
});
