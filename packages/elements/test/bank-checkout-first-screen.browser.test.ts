/**
 * `<bank-checkout>`'s first screen: what it waits for and what it does not. In this order: the
 * page must not have Catalan's texts, nor any number format, before the first test.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../src/bank-checkout/bank-checkout.js';
import type { BankCheckout } from '../src/bank-checkout/bank-checkout.js';
import { isLocaleReady } from '../src/i18n/index.js';
import { GROUPS, fakeBff, until, view } from './fixtures.js';

const listed = (el: BankCheckout) => el.shadowRoot!.querySelector('bank-selector')?.shadowRoot?.querySelector('[role=option]');
const amount = (el: BankCheckout) => el.shadowRoot!.querySelector('[part=amount]')?.textContent ?? null;

/** Counts the number formats made, by locale, while `fn` runs. */
async function countingNumberFormats<T>(fn: (made: string[]) => Promise<T>): Promise<T> {
  const NumberFormat = Intl.NumberFormat;
  const made: string[] = [];
  Intl.NumberFormat = new Proxy(NumberFormat, {
    construct(target, args: ConstructorParameters<typeof Intl.NumberFormat>) {
      made.push(String(args[0]));
      return Reflect.construct(target, args);
    },
  });
  try {
    return await fn(made);
  } finally {
    Intl.NumberFormat = NumberFormat;
  }
}

describe('<bank-checkout> first screen', () => {
  it('reads the checkout while the texts of its language come, and Intl’s number data while the call is on its way', async () => {
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
    await countingNumberFormats(async (made) => {
      const el = await fixture<BankCheckout>(html`<bank-checkout api="https://bff.test" checkout-secret="s" locale="ca" .fetch=${bff.fetch}></bank-checkout>`);
      await until(() => textsInWhenCalled !== null, 'the first call');
      expect(textsInWhenCalled, 'called before Catalan’s texts were in').to.equal(false);
      await until(() => made.includes('ca'), 'a number format for Catalan, before the answer');
      release();
      await until(() => listed(el), 'the bank list');
      expect(amount(el)?.replace(/\s/g, ' ')).to.equal('42,50 €');
      expect(el.shadowRoot!.querySelector('bank-selector')!.shadowRoot!.querySelector('h2')!.textContent).to.equal('Tria el teu banc');
    });
  });

  it('writes the amount in English and Spanish without Intl (whose first number format reads every language’s data)', async () => {
    const bff = fakeBff({ 'GET /v1/checkout': () => view({ state: 'select-bank' }), 'GET /v1/banks': () => ({ status: 200, body: { groups: GROUPS } }) });
    await countingNumberFormats(async (made) => {
      for (const [locale, text] of [
        ['es', '42,50\u00a0€'],
        ['en', '€42.50'],
      ] as const) {
        const el = await fixture<BankCheckout>(
          html`<bank-checkout api="https://bff.test" checkout-secret="s" locale=${locale} .fetch=${bff.fetch}></bank-checkout>`,
        );
        await until(() => listed(el), 'the bank list');
        expect(amount(el)).to.equal(text);
      }
      expect(made).to.deep.equal([]);
    });
  });
});
