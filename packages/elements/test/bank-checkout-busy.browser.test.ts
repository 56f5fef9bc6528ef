/**
 * A busy line is not a failed payment: while the BFF's store cannot answer (503) or another
 * request still holds the checkout (409 `checkout_busy`), <bank-checkout> says "one moment",
 * waits, reads the checkout again and goes on from what it says. A payment being confirmed with
 * the bank (a transfer or a validation in flight, from this window or another, or answered 503)
 * says "Confirming with your bank…", keeps the step disabled, and reads until the call is done.
 * Once the BFF says until when such a call lasts at the latest (the view's `inFlightUntil`: the
 * instance holding it went quiet), the status line says that time instead.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../src/index.js';
import type { BankCheckout } from '../src/index.js';
import type { CheckoutView } from '@bank-checkout/contract';
import { AURORA, apiError, fakeBff, until, view, type FakeRoute } from './fixtures.js';

const SECRET = 'cs_live_0123456789abcdef';
const bankRef = { bankId: 'aurora', label: 'Banco Aurora' };
const accounts = view(
  { state: 'select-account', bank: bankRef, accounts: [{ accountId: 'AUR-0001', info: 'Cuenta Nómina', balance: 254310 }] },
  { sandbox: true },
);
const validating = view(
  { state: 'validate', bank: bankRef, round: 1, deadline: new Date(Date.now() + 90_000).toISOString(), validations: [] },
  { sandbox: true },
);

interface Controller {
  busyDelaysMs: readonly number[];
  run(action: (c: { transfer(b: { accountId: string }): Promise<CheckoutView> }) => Promise<CheckoutView>): Promise<CheckoutView | null>;
  view: CheckoutView | null;
  loadError: unknown;
}
const controllerOf = (el: BankCheckout) => (el as unknown as { checkout: Controller }).checkout;
const noticeText = (el: BankCheckout) => el.shadowRoot!.querySelector('[part=notice]')?.textContent.replace(/\s+/g, ' ').trim() ?? '';
/** The status line, and whether it shows to everyone (not for screen readers only). */
const status = (el: BankCheckout) => {
  const line = el.shadowRoot!.querySelector<HTMLElement>('[part=status]')!;
  return {
    text: line.textContent.trim(),
    role: line.getAttribute('role'),
    shown: !line.classList.contains('sr-only') && line.getBoundingClientRect().height > 0,
  };
};
/** The account picker's radios and its submit, as the payer can use them. */
const pickerEnabled = (el: BankCheckout) => {
  const picker = el.shadowRoot!.querySelector('bank-account-picker')?.shadowRoot;
  const controls = [...(picker?.querySelectorAll<HTMLInputElement | HTMLButtonElement>('input, button[type=submit]') ?? [])];
  return controls.length ? controls.some((c) => !c.disabled) : null;
};

async function mount(routes: Record<string, FakeRoute>, locale = 'en') {
  const bff = fakeBff(routes);
  const el = await fixture<BankCheckout>(
    html`<bank-checkout api="https://bff.test" checkout-secret=${SECRET} locale=${locale} .fetch=${bff.fetch} poll-interval="30"></bank-checkout>`,
  );
  const errors: unknown[] = [];
  el.addEventListener('bank-checkout-error', (e) => errors.push((e as CustomEvent).detail));
  return { el, bff, errors };
}

describe('<bank-checkout> while a payment is confirmed with the bank', () => {
  it('a transfer answered 503 (the store cannot take the bank’s answer yet): “Confirming with your bank…”, the step disabled, reads until the call is done, no error', async () => {
    /** Reads since the transfer (none before it: the first screen). */
    let reads: number | null = null;
    const { el, errors } = await mount({
      // The store is still down, then the bank's answer is held by the BFF (in flight), then recorded.
      'GET /v1/checkout': async () =>
        reads === null ? accounts : ++reads === 1 ? apiError(503, 'store_unavailable') : reads < 4 ? { ...accounts, inFlight: 'transfer' } : validating,
      'POST /v1/checkout/transfer': async () => ((reads = 0), apiError(503, 'store_unavailable')),
    });
    const c = controllerOf(el);
    await until(() => c.view?.state === 'select-account', 'first view');
    await customElements.whenDefined('bank-account-picker');
    await until(() => pickerEnabled(el), 'the accounts, to choose from');
    // Fewer waits than reads needed: confirming goes on at the last pace.
    c.busyDelaysMs = [40, 40];
    const ran = c.run((client) => client.transfer({ accountId: 'AUR-0001' }));
    await until(() => status(el).text === 'Confirming with your bank…', 'confirming');
    expect(status(el)).to.deep.equal({ text: 'Confirming with your bank…', role: 'status', shown: true });
    expect(noticeText(el), 'no error, no “one moment”').to.equal('');
    await until(() => pickerEnabled(el) === false, 'the step disabled');
    const result = await ran;
    expect(result?.state).to.equal('validate');
    expect(reads).to.equal(4);
    await el.updateComplete;
    expect(status(el).text).to.equal('');
    expect(errors, 'nothing told to the page as an error').to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('a checkout found with a call in flight (a reload during the transfer, another window’s) waits, disabled, saying so, until it is done', async () => {
    let reads = 0;
    const { el, bff, errors } = await mount({
      'GET /v1/checkout/start': async () => ({ status: 200, body: { view: { ...accounts, inFlight: 'transfer' }, banks: null } }),
      'GET /v1/checkout': async () => (++reads < 2 ? { ...accounts, inFlight: 'transfer' } : validating),
    });
    const c = controllerOf(el);
    c.busyDelaysMs = [40];
    await customElements.whenDefined('bank-account-picker');
    await until(() => status(el).text === 'Confirming with your bank…', 'confirming');
    expect(status(el).shown).to.equal(true);
    await until(() => pickerEnabled(el) === false, 'the accounts disabled');
    expect(await c.run((client) => client.transfer({ accountId: 'AUR-0001' })), 'no action meanwhile').to.equal(null);
    await until(() => c.view?.state === 'validate', 'the confirmation, once the transfer is done', 5000);
    await until(() => status(el).text === '', 'the status line clear');
    expect(bff.calls.filter((x) => x.method === 'POST')).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
  });
});

describe('<bank-checkout> while a call with the bank outlasts its instance', () => {
  /** Today at 10:42:15, the payer's time, as the BFF writes it. */
  const at104215 = () => {
    const d = new Date();
    d.setHours(10, 42, 15, 0);
    return d.toISOString();
  };
  /** The status line's text with every space one plain space (Intl puts a narrow one before AM). */
  const line = (el: BankCheckout) => status(el).text.replace(/\s+/g, ' ');

  it('a confirmation found in flight says "Confirming…", then, once a read gives its time, until when the page waits at the latest; clears when the call is done', async () => {
    const inFlightUntil = at104215();
    let reads = 0;
    const { el, errors } = await mount({
      'GET /v1/checkout/start': async () => ({ status: 200, body: { view: { ...validating, inFlight: 'validate' }, banks: null } }),
      // The first read finds its holder gone quiet (a time to wait until); the third, the call done.
      'GET /v1/checkout': async () => (++reads < 3 ? { ...validating, inFlight: 'validate', ...(reads === 1 ? {} : { inFlightUntil }) } : accounts),
    });
    const c = controllerOf(el);
    c.busyDelaysMs = [30];
    await until(() => status(el).text === 'Confirming with your bank…', 'confirming, no time yet');
    await until(() => line(el).startsWith('Your bank has not answered yet.'), 'the time to wait until', 5000);
    expect(line(el)).to.equal('Your bank has not answered yet. This page goes on by 10:42:15 AM at the latest.');
    expect(status(el), 'shown to everyone, in the polite live region').to.include({ role: 'status', shown: true });
    expect(noticeText(el), 'no error, no “one moment”').to.equal('');
    await expect(el).to.be.accessible();
    await until(() => c.view?.state === 'select-account', 'the step once the call is done', 5000);
    await until(() => status(el).text === '', 'the status line clear');
    expect(errors).to.deep.equal([]);
  });

  it('another call of the checkout in flight (a sign-in from another window), its time known on the first screen: the time in the payer’s language, not “one moment”', async () => {
    const inFlightUntil = at104215();
    let done = false;
    const login = view({ state: 'login', bank: AURORA });
    const { el, bff } = await mount(
      {
        'GET /v1/checkout/start': async () => ({ status: 200, body: { view: { ...login, inFlight: 'login', inFlightUntil }, banks: null } }),
        'GET /v1/checkout': async () => (done ? accounts : { ...login, inFlight: 'login', inFlightUntil }),
      },
      'es',
    );
    const c = controllerOf(el);
    c.busyDelaysMs = [30];
    await until(
      () => line(el) === 'Tu banco aún no ha respondido. Esta página sigue a las 10:42:15 como muy tarde.',
      () => `the time to wait until: ${line(el)}`,
    );
    expect(status(el).shown).to.equal(true);
    // Past the waits a busy line has ("one moment"), the page still says the time and reads on.
    await until(() => bff.calls.filter((x) => x.path === '/v1/checkout').length > 3, 'reads past the busy line’s waits');
    expect(noticeText(el), 'no “one moment” beside the time').to.equal('');
    expect(line(el)).to.contain('10:42:15');
    done = true;
    await until(() => c.view?.state === 'select-account', 'the step once the sign-in is done');
    await until(() => status(el).text === '', 'the status line clear');
  });
});

describe('<bank-checkout> on a busy line', () => {
  it('answers checkout_busy by waiting ("one moment") and reading the checkout again, not with an error', async () => {
    let current = accounts;
    const { el, errors } = await mount({
      'GET /v1/checkout': async () => current,
      // Another request (the payer's other tab) holds the checkout; its transfer goes through.
      'POST /v1/checkout/transfer': async () => {
        current = validating;
        return apiError(409, 'checkout_busy');
      },
    });
    const c = controllerOf(el);
    await until(() => c.view?.state === 'select-account', 'first view');
    c.busyDelaysMs = [200, 50, 50];
    const ran = c.run((client) => client.transfer({ accountId: 'AUR-0001' }));
    await until(() => noticeText(el) === 'One moment…', 'one moment');
    const result = await ran;
    expect(result?.state).to.equal('validate');
    await el.updateComplete;
    expect(noticeText(el)).to.equal('');
    expect(errors, 'no error told to the page').to.deep.equal([]);
  });

  it('waits out a store outage (503 store_unavailable) on the first screen and shows the checkout once it answers', async () => {
    // The first screen and one read find the store down; the element waits (its first pause is
    // a second) and reads again.
    let outage = 2;
    const unavailable = () => apiError(503, 'store_unavailable');
    const { el, bff, errors } = await mount({
      'GET /v1/checkout/start': async () => (outage-- > 0 ? unavailable() : { status: 200, body: { view: accounts, banks: null } }),
      'GET /v1/checkout': async () => (outage-- > 0 ? unavailable() : accounts),
    });
    const c = controllerOf(el);
    await until(() => c.view?.state === 'select-account', 'the checkout after the outage', 8000);
    expect(c.loadError).to.equal(null);
    expect(bff.calls.filter((x) => x.method === 'GET').length).to.equal(3);
    expect(errors).to.deep.equal([]);
  });
});
