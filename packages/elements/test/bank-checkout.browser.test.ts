import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia, setViewport } from '@web/test-runner-commands';
import '../src/index.js';
import { elementsDefined, systemClock, type BankCheckout } from '../src/index.js';
import type { CheckoutView } from '@bank-checkout/contract';
import { LAST_BANK_KEY } from '../src/logic/banks.js';
import {
  AURORA,
  CARD_IMAGE,
  GROUPS,
  allAttributeValues,
  apiError,
  deep,
  fakeBff,
  field,
  gate,
  inlineStyled,
  manualClock,
  type,
  until,
  untilPolled,
  validation,
  view,
  type FakeRoute,
  text,
  need,
  stepTag,
} from './fixtures.js';

const SECRET = 'cs_live_0123456789abcdef';
const CREDENTIALS = ['12345678Z', '135790', '999999', '4821', '2580', '613579'];
const bankRef = { bankId: 'aurora', label: AURORA.label };
const later = () => new Date(Date.now() + 90_000).toISOString();

/** A read of the checkout: the first screen (`/start`) or a later read. */
const isRead = (c: { method: string; path: string }) => c.method === 'GET' && /^\/v1\/checkout(\/start)?$/.test(c.path);

interface Recorded {
  type: string;
  detail: unknown;
}
function record(el: EventTarget): Recorded[] {
  const seen: Recorded[] = [];
  for (const t of ['bank-checkout-step', 'bank-checkout-complete', 'bank-checkout-error', 'bank-select'])
    el.addEventListener(t, (e) => seen.push({ type: t, detail: (e as CustomEvent).detail }));
  return seen;
}

/** A fake BFF walking one native checkout: login (retry once), second login, contract, account, two rounds. */
function nativeFlow() {
  let current: CheckoutView = view({ state: 'select-bank' }, { sandbox: true });
  const set = (v: CheckoutView) => (current = v);
  const at = (step: CheckoutView['step'], over: Partial<CheckoutView> = {}) => set(view(step, { sandbox: true, attemptsLeft: current.attemptsLeft, ...over }));
  const routes: Record<string, FakeRoute> = {
    'GET /v1/checkout': () => current,
    'GET /v1/banks': () => ({ status: 200, body: { groups: GROUPS } }),
    'POST /v1/checkout/login': (b) =>
      b.fields.userSecret === '135790'
        ? at({
            state: 'second-login',
            bank: bankRef,
            type: 2,
            value: 'B3',
            field: field({ fieldId: 'coordinate', label: 'Coordenada B3', min: 4, max: 4, valueType: 'numeric', password: true }),
          })
        : at({ state: 'login', bank: AURORA }, { error: { code: 'B100', message: 'error.B100' }, attemptsLeft: current.attemptsLeft - 1 }),
    'POST /v1/checkout/second-login': () =>
      at({
        state: 'select-contract',
        bank: bankRef,
        contracts: [
          { contractId: 'C1', info: 'Contrato 0001' },
          { contractId: 'C2', info: 'Contrato 0002' },
        ],
      }),
    'POST /v1/checkout/contract': () =>
      at({ state: 'select-account', bank: bankRef, accounts: [{ accountId: 'AUR-0001', info: 'Cuenta Nómina', balance: 254310 }] }),
    'POST /v1/checkout/transfer': () =>
      at({
        state: 'validate',
        bank: bankRef,
        round: 1,
        deadline: later(),
        validations: [validation(0, { fieldId: 'signature', password: true }), validation(5, { fieldId: 'card', value: CARD_IMAGE })],
      }),
    'POST /v1/checkout/validate': () =>
      current.step.state === 'validate' && current.step.round === 1
        ? at({ state: 'validate', bank: bankRef, round: 2, deadline: later(), validations: [validation(6, { fieldId: 'app' })] })
        : at({ state: 'succeeded' }),
    'POST /v1/checkout/cancel': () => at({ state: 'cancelled' }, { error: { code: 'cancelled', message: 'error.cancelled' } }),
  };
  return { bff: fakeBff(routes), routes, set };
}

async function mount(fetch: typeof globalThis.fetch, locale: string | null = 'es', extra: Partial<BankCheckout> = {}) {
  const el = await fixture<BankCheckout>(
    html`<bank-checkout
      api="https://bff.test"
      checkout-secret=${SECRET}
      locale=${locale ?? ''}
      .fetch=${fetch}
      .clock=${extra.clock ?? systemClock}
      poll-interval="30"
    ></bank-checkout>`,
  );
  Object.assign(el, extra);
  if (!locale) el.removeAttribute('locale');
  return el;
}

async function submitStep(el: BankCheckout, tag: string) {
  const host = await need(el, tag);
  const button = await until(() => host.shadowRoot!.querySelector<HTMLButtonElement>('button[type=submit]:not([disabled])'), `${tag} submit`);
  button.click();
}

describe('<bank-checkout>', () => {
  it('the kit entry defines every element of the kit once elementsDefined settles (the later ones from files of their own)', async () => {
    await elementsDefined;
    const tags = ['bank-checkout', 'bank-selector', 'bank-result', 'bank-login-form', 'bank-second-login', 'bank-contract-picker', 'bank-account-picker'];
    tags.push('bank-challenge', 'bank-periodic-form', 'bank-handoff', 'bank-rail-offer', 'bank-receipt');
    for (const tag of tags) expect(customElements.get(tag), tag).to.be.a('function');
  });

  it('drives a whole native flow against the BFF, accessible and private at every step', async () => {
    const { bff } = nativeFlow();
    const el = await mount(bff.fetch);
    const events = record(el);
    const axe = async () => {
      await el.updateComplete;
      await expect(el).to.be.accessible();
      expect(inlineStyled(el.shadowRoot!), 'no inline style').to.deep.equal([]);
    };

    // Summary and test mode, then the bank list.
    const selector = await need(el, 'bank-selector');
    await until(() => selector.shadowRoot!.querySelector('[role=option]'), 'banks');
    expect(text(el.shadowRoot!.querySelector('[part=amount]'))).to.equal('42,50 €');
    expect(text(el.shadowRoot!.querySelector('[part=summary]')))
      .to.contain('Tienda Demo')
      .and.contain('ES91 2100 0418 4502 0005 1332')
      .and.contain('Pedido 1042');
    expect(text(el.shadowRoot!.querySelector('[part=sandbox-banner]'))).to.equal('Modo de prueba: sin dinero real.');
    await axe();

    // Choose a bank, go back, choose again: the login form is local until the BFF answers.
    selector.shadowRoot!.querySelector<HTMLElement>('#bank-aurora')!.click();
    await until(() => stepTag(el) === 'bank-login-form');
    await axe();
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part=back]')!.click();
    await until(() => stepTag(el) === 'bank-selector');
    (await need(el, '#bank-aurora')).click();
    expect(localStorage.getItem(LAST_BANK_KEY), 'the device’s storage').to.equal('aurora');
    const login = await need(el, 'bank-login-form');

    // A wrong secret: the BFF answers `login` with B100 and the attempts left.
    const [dni, pin] = await until(() => {
      const i = login.shadowRoot!.querySelectorAll<HTMLInputElement>('input:not([type=radio])');
      return i.length ? [...i] : null;
    });
    type(dni!, '12345678Z');
    type(pin!, '999999');
    await submitStep(el, 'bank-login-form');
    const alert = await until(() => login.shadowRoot!.querySelector('[role=alert]'), 'B100');
    expect(text(alert)).to.contain('Tu banco no ha aceptado estas claves').and.contain('Intentos restantes: 2');
    expect(pin!.value, 'the password is cleared after submit').to.equal('');
    expect(dni!.value, 'the identity stays: only the password is typed again').to.equal('12345678Z');
    await axe();

    // Test values this time.
    login.shadowRoot!.querySelector<HTMLButtonElement>('[part=fill-test]')!.click();
    await submitStep(el, 'bank-login-form');

    const second = await need(el, 'bank-second-login');
    await until(() => stepTag(el) === 'bank-second-login');
    expect(text(second.shadowRoot!.querySelector('[part=position]'))).to.equal('B3');
    await axe();
    type(second.shadowRoot!.querySelector('input')!, '4821');
    await submitStep(el, 'bank-second-login');

    const contract = await need(el, 'bank-contract-picker');
    await until(() => stepTag(el) === 'bank-contract-picker');
    await axe();
    contract.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=radio]')[1]!.click();
    await submitStep(el, 'bank-contract-picker');

    const account = await need(el, 'bank-account-picker');
    await until(() => stepTag(el) === 'bank-account-picker');
    expect(text(account.shadowRoot!.querySelector('button[type=submit]'))).to.equal('Pagar 42,50 €');
    await axe();
    await submitStep(el, 'bank-account-picker');

    const challenge = await need(el, 'bank-challenge');
    await until(() => stepTag(el) === 'bank-challenge');
    // The validation's form is a file of its own (fetched while the accounts showed): it may come a moment later.
    await until(() => challenge.shadowRoot!.querySelector('form'), 'the validation form');
    await axe();
    const [sig, card] = [...challenge.shadowRoot!.querySelectorAll<HTMLInputElement>('input')];
    type(sig!, '2580');
    type(card!, '613579');
    expect(allAttributeValues(el.shadowRoot!).join('|')).not.to.contain('613579');
    await submitStep(el, 'bank-challenge');
    await until(() => challenge.shadowRoot!.querySelector('[part=device]'), 'round 2');
    await axe();
    await submitStep(el, 'bank-challenge');

    const result = await need(el, 'bank-result');
    expect(text(result.shadowRoot!.querySelector('h2'))).to.equal('Pago completado');
    expect(el.shadowRoot!.querySelector('[part=cancel]'), 'no cancel after the outcome').to.equal(null);
    await axe();

    // What went over the wire.
    expect(bff.calls.map((c) => `${c.method} ${c.path}`)).to.deep.equal([
      // The first screen in one call: the view and its bank list (an active bank chosen costs no call: its sign-in says it).
      'GET /v1/checkout/start',
      'POST /v1/checkout/login',
      'POST /v1/checkout/login',
      'POST /v1/checkout/second-login',
      'POST /v1/checkout/contract',
      'POST /v1/checkout/transfer',
      'POST /v1/checkout/validate',
      'POST /v1/checkout/validate',
    ]);
    expect(bff.calls[2]!.body).to.deep.equal({ bankId: 'aurora', loginId: 'dni', fields: { userId: '12345678Z', userSecret: '135790' } });
    expect(bff.calls[4]!.body).to.deep.equal({ contractId: 'C2' });
    expect(bff.calls[6]!.body).to.deep.equal({ values: { signature: '2580', card: '613579' } });
    expect(bff.calls[7]!.body).to.deep.equal({ values: { app: 'SIGNED' } });
    for (const c of bff.calls) {
      expect(c.headers['x-checkout-secret']).to.equal(SECRET);
      expect(c.credentials).to.equal('omit');
    }

    // Events: steps, the B100 error, exactly one completion; never a credential or the secret.
    const steps = events.filter((e) => e.type === 'bank-checkout-step').map((e) => (e.detail as { state: string }).state);
    expect(steps).to.deep.equal(['select-bank', 'login', 'second-login', 'select-contract', 'select-account', 'validate', 'validate', 'succeeded']);
    expect(events.filter((e) => e.type === 'bank-checkout-error').map((e) => e.detail)).to.deep.equal([
      { checkoutId: 'chk_test', code: 'B100', status: null, requestId: null },
    ]);
    expect(events.filter((e) => e.type === 'bank-checkout-complete').map((e) => e.detail)).to.deep.equal([
      { checkoutId: 'chk_test', outcome: 'succeeded', code: null },
    ]);
    const details = JSON.stringify(events);
    for (const secret of [...CREDENTIALS, SECRET]) expect(details).not.to.contain(secret);

    // Nothing of the payer's kept on the device: only the last bank's id.
    expect(Object.keys(localStorage).filter((k) => k !== LAST_BANK_KEY)).to.deep.equal([]);
    const stored = [...Object.values(localStorage), ...Object.values(sessionStorage)].join('|');
    for (const secret of CREDENTIALS) expect(stored).not.to.contain(secret);
    expect(document.cookie).to.equal('');
    const attributes = allAttributeValues(el).join('|');
    for (const secret of CREDENTIALS) expect(attributes).not.to.contain(secret);

    // Refreshing the final view does not complete twice.
    await (el as unknown as { refresh(): Promise<void> }).refresh();
    expect(events.filter((e) => e.type === 'bank-checkout-complete')).to.have.length(1);
  });

  it('switches language from the attribute, and falls back to the browser language', async () => {
    const { bff, set } = nativeFlow();
    set(view({ state: 'select-account', bank: bankRef, accounts: [{ accountId: 'A', info: 'Cuenta', balance: null }] }));
    const el = await mount(bff.fetch, 'es');
    const picker = await need(el, 'bank-account-picker');
    await until(() => text(picker.shadowRoot!.querySelector('h2')) === 'Elige la cuenta desde la que pagar');
    expect(text(el.shadowRoot!.querySelector('dt'))).to.equal('Importe');
    el.locale = 'en';
    await until(() => text(picker.shadowRoot!.querySelector('h2')) === 'Choose the account to pay from');
    expect(text(el.shadowRoot!.querySelector('[part=amount]'))).to.equal('€42.50');
    el.locale = 'ca';
    await until(() => text(picker.shadowRoot!.querySelector('h2')) === 'Tria el compte des del qual pagar');
    expect(el.shadowRoot!.querySelector('[part=base]')!.getAttribute('lang')).to.equal('ca');
    el.locale = 'eu';
    await until(() => text(picker.shadowRoot!.querySelector('h2')) === 'Aukeratu ordaintzeko kontua');
    el.locale = 'gl-ES';
    await until(() => text(picker.shadowRoot!.querySelector('h2')) === 'Escolle a conta desde a que pagar');
    expect(el.shadowRoot!.querySelector('[part=base]')!.getAttribute('lang')).to.equal('gl');
    el.removeAttribute('locale');
    await el.updateComplete;
    const language = navigator.language.toLowerCase().split('-')[0]!;
    const expected = ['es', 'ca', 'eu', 'gl'].includes(language) ? language : 'en';
    expect(el.shadowRoot!.querySelector('[part=base]')!.getAttribute('lang')).to.equal(expected);
  });

  it('starts from the first screen it is given (the isolated frame’s launch): no call for the view or the bank list; the list read at most once after', async () => {
    const accounts = view({ state: 'select-account', bank: bankRef, accounts: [{ accountId: 'AUR-0001', info: 'Cuenta Nómina', balance: 254310 }] });
    let current: CheckoutView = view({ state: 'select-bank' });
    const bff = fakeBff({
      'GET /v1/checkout': () => current,
      'GET /v1/banks': () => ({ status: 200, body: { groups: GROUPS } }),
      'POST /v1/checkout/back': () => (current = view({ state: 'select-bank' })),
    });
    const start = (first: { view: CheckoutView; banks: { groups: typeof GROUPS } | null }) =>
      fixture<BankCheckout>(
        html`<bank-checkout api="https://bff.test" checkout-secret=${SECRET} locale="en" .fetch=${bff.fetch} .initial=${first}></bank-checkout>`,
      );
    // At the bank list, with the list: drawn at once, nothing asked.
    const el = await start({ view: current, banks: { groups: GROUPS } });
    const selector = await need(el, 'bank-selector');
    await until(() => selector.shadowRoot!.querySelector('[role=option]'), 'the banks');
    expect(bff.calls, 'no call').to.deep.equal([]);
    expect(el.initial, 'read once').to.equal(undefined);
    await el.check();
    expect(bff.calls.map((c) => c.path)).to.deep.equal(['/v1/checkout']);

    // Resumed at the accounts (no list with it): the list is read once the payer goes back to it, and only once.
    current = accounts;
    bff.calls.length = 0;
    const resumed = await start({ view: accounts, banks: null });
    await until(() => stepTag(resumed) === 'bank-account-picker' || resumed.shadowRoot!.querySelector('.step p[role=status]'), 'the accounts');
    expect(bff.calls).to.deep.equal([]);
    await resumed.run((c) => c.back());
    await until(() => stepTag(resumed) === 'bank-selector', 'the bank list');
    await until(() => bff.calls.some((c) => c.path === '/v1/banks'), 'the list read');
    await resumed.run((c) => c.back());
    await resumed.check();
    expect(
      bff.calls.filter((c) => c.path === '/v1/banks'),
      'once',
    ).to.have.length(1);
  });

  it('shows a load failure with a retry that reads the checkout again', async () => {
    let fail = true;
    const { routes } = nativeFlow();
    const bff = fakeBff({ ...routes, 'GET /v1/checkout': (b, c) => (fail ? new Error('offline') : routes['GET /v1/checkout']!(b, c)) });
    const el = await mount(bff.fetch, 'en');
    const events = record(el);
    const result = await need(el, 'bank-result');
    await until(() => result.shadowRoot!.querySelector('[part=retry]'));
    expect(text(result.shadowRoot!.querySelector('[part=message]'))).to.equal('We could not reach the payment service. Check your connection and try again.');
    await expect(el).to.be.accessible();
    fail = false;
    events.length = 0;
    result.shadowRoot!.querySelector<HTMLButtonElement>('[part=retry]')!.click();
    await until(() => stepTag(el) === 'bank-selector');
    expect(events.map((e) => e.type)).to.deep.equal(['bank-checkout-step']);

    const denied = await mount(fakeBff({ 'GET /v1/checkout': () => apiError(401, 'unauthorized') }).fetch, 'en');
    const r = await need(denied, 'bank-result');
    await until(() => r.shadowRoot!.querySelector('[part=message]'));
    expect(text(r.shadowRoot!.querySelector('[part=message]'))).to.equal('This payment link is not valid.');
    expect(r.shadowRoot!.querySelector('[part=retry]')).to.equal(null);
  });

  it('after a failed action reads the view again; an unknown outcome is checked until known', async () => {
    const { routes, set } = nativeFlow();
    set(view({ state: 'select-account', bank: bankRef, accounts: [{ accountId: 'A', info: 'Cuenta', balance: null }] }));
    let current: CheckoutView = view({ state: 'unknown' }, { error: { code: 'unknown', message: 'error.unknown' } });
    let reads = 0;
    const bff = fakeBff({
      ...routes,
      'POST /v1/checkout/transfer': () => apiError(504, 'upstream_timeout'),
      'GET /v1/checkout': (b, c) => {
        reads++;
        if (reads === 1) return routes['GET /v1/checkout']!(b, c);
        if (reads >= 4) current = view({ state: 'succeeded' });
        return current;
      },
    });
    const clock = manualClock();
    const el = await mount(bff.fetch, 'en', { clock });
    const events = record(el);
    await need(el, 'bank-account-picker');
    await submitStep(el, 'bank-account-picker');
    const result = await need(el, 'bank-result');
    await until(() => text(result.shadowRoot!.querySelector('h2')) === 'We are confirming your payment');
    expect(el.shadowRoot!.querySelector('[part=notice]'), 'the result tells the story').to.equal(null);
    await expect(el).to.be.accessible();
    await untilPolled(clock, () => text(result.shadowRoot!.querySelector('h2')) === 'Payment completed', 'polling');
    expect(bff.calls.filter((c) => c.method === 'POST')).to.have.length(1);
    expect(events.filter((e) => e.type === 'bank-checkout-error').map((e) => (e.detail as { code: string }).code)).to.deep.equal(['upstream_timeout']);
    expect(events.filter((e) => e.type === 'bank-checkout-complete')).to.have.length(1);
    await until(bff.idle, 'every answer read');
    expect(clock.timers, 'polling stops once the outcome is known: no check is set').to.equal(0);
  });

  it('stops watching an unknown outcome after its window and tells the payer what happens next', async () => {
    let reads = 0;
    const bff = fakeBff({
      'GET /v1/checkout': () => {
        reads++;
        return view({ state: 'unknown' }, { error: { code: 'unknown', message: 'error.unknown' } });
      },
    });
    const clock = manualClock(Date.now());
    const el = await fixture<BankCheckout>(
      html`<bank-checkout api="https://bff.test" checkout-secret=${SECRET} locale="en" .fetch=${bff.fetch} .clock=${clock} poll-interval="20"></bank-checkout>`,
    );
    const result = await need(el, 'bank-result');
    await until(() => text(result.shadowRoot!.querySelector('h2')) === 'We are confirming your payment');
    await untilPolled(clock, () => reads >= 3, 'a few checks');
    expect(el.shadowRoot!.querySelector('[part=unknown-later]')).to.equal(null);
    clock.advance(15 * 60 + 1);
    await untilPolled(clock, () => el.shadowRoot!.querySelector('[part=unknown-later]'), 'the message once the window is over');
    expect(text(el.shadowRoot!.querySelector('[part=unknown-later]'))).to.contain('The shop will settle it with the bank');
    await until(bff.idle, 'every answer read');
    expect(clock.timers, 'no more checks: none is set').to.equal(0);
    await expect(el).to.be.accessible();
  });

  it('names the bank after login, and does not keep an account the bank refused chosen', async () => {
    const accounts = [
      { accountId: 'BLOCKED', info: 'Cuenta ES7921000813610123456789', balance: 1000 },
      { accountId: 'OK', info: 'Cuenta nómina', balance: 5000 },
    ];
    let current: CheckoutView = view({ state: 'select-account', bank: bankRef, accounts });
    const bff = fakeBff({
      'GET /v1/checkout': () => current,
      'POST /v1/checkout/transfer': () =>
        (current = view({ state: 'select-account', bank: bankRef, accounts }, { error: { code: 'B101', message: 'error.B101' } })),
    });
    const el = await mount(bff.fetch, 'en');
    const picker = await need(el, 'bank-account-picker');
    expect(text(el.shadowRoot!.querySelector('[part=bank]'))).to.equal(`Your bank: ${AURORA.label}`);
    // The IBAN in an account's text is grouped in fours.
    expect(text(picker.shadowRoot!.querySelector('form'))).to.contain('ES79 2100 0813 6101 2345 6789');
    const radios = () => [...picker.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=radio]')];
    radios()[0]!.click();
    await submitStep(el, 'bank-account-picker');
    await until(() => picker.shadowRoot!.querySelector('[part=error]'), 'the refusal');
    expect(radios().map((r) => r.checked)).to.deep.equal([false, false]);
    expect(picker.shadowRoot!.querySelector<HTMLButtonElement>('button[type=submit]')!.disabled, 'Pay waits for another choice').to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('shows a passing error as a notice with a retry, keeping the step', async () => {
    const { routes, set } = nativeFlow();
    set(view({ state: 'select-contract', bank: bankRef, contracts: [{ contractId: 'C1', info: 'Contrato' }] }));
    const bff = fakeBff({ ...routes, 'POST /v1/checkout/contract': () => apiError(429, 'rate_limited') });
    const el = await mount(bff.fetch, 'en');
    await need(el, 'bank-contract-picker');
    await submitStep(el, 'bank-contract-picker');
    const notice = await need(el, '[part=notice]');
    expect(text(notice)).to.contain('Too many requests. Wait a moment and try again.');
    expect(stepTag(el)).to.equal('bank-contract-picker');
    expect(bff.calls.filter(isRead)).to.have.length(1, 'no read after a rate limit');
    await expect(el).to.be.accessible();
  });

  it('cancels after a confirmation, completing once as cancelled', async () => {
    const { bff } = nativeFlow();
    const el = await mount(bff.fetch, 'en');
    const events = record(el);
    await need(el, 'bank-selector');
    const cancel = () => el.shadowRoot!.querySelector('[part=cancel]')!;
    cancel().querySelector('button')!.click();
    await el.updateComplete;
    expect(text(cancel())).to.contain('Cancel this payment?');
    await expect(el).to.be.accessible();
    cancel().querySelector<HTMLButtonElement>('button.primary')!.click();
    await el.updateComplete;
    expect(
      bff.calls.some((c) => c.path === '/v1/checkout/cancel'),
      'no means no',
    ).to.equal(false);
    cancel().querySelector('button')!.click();
    await el.updateComplete;
    cancel().querySelector<HTMLButtonElement>('button:not(.primary)')!.click();
    const result = await need(el, 'bank-result');
    await until(() => text(result.shadowRoot!.querySelector('h2')) === 'Payment cancelled');
    expect(events.filter((e) => e.type === 'bank-checkout-complete').map((e) => e.detail)).to.deep.equal([
      { checkoutId: 'chk_test', outcome: 'cancelled', code: 'cancelled' },
    ]);
  });

  it('moves focus into the cancel question, and back to "Cancel payment" when the payer keeps paying', async () => {
    const { bff } = nativeFlow();
    const el = await mount(bff.fetch, 'en');
    await need(el, 'bank-selector');
    const focused = () => el.shadowRoot!.activeElement;
    const cancel = () => el.shadowRoot!.querySelector('[part=cancel]')!;
    cancel().querySelector('button')!.click();
    await until(() => focused()?.textContent === 'No, continue', 'focus on the safe answer');
    expect(focused()!.getAttribute('aria-describedby')).to.equal('cancel-question');
    (focused() as HTMLButtonElement).click();
    await until(() => focused()?.textContent === 'Cancel payment', 'focus back on the cancel button');
  });

  it('keeps the identity typed through a second login, for a wrong code that sends the payer back', async () => {
    const { bff, routes, set } = nativeFlow();
    routes['POST /v1/checkout/second-login'] = () =>
      set(view({ state: 'login', bank: AURORA }, { sandbox: true, error: { code: 'B100', message: 'error.secondLoginCode' }, attemptsLeft: 2 }));
    const el = await mount(bff.fetch, 'en');
    const selector = await need(el, 'bank-selector');
    (await need(selector, '[role=option]#bank-aurora')).click();
    const form = await need(el, 'bank-login-form');
    const inputs = () => [...form.shadowRoot!.querySelectorAll<HTMLInputElement>('input:not([type=radio])')];
    await until(() => inputs().length === 2, 'the login fields');
    type(inputs()[0]!, '12345678Z');
    type(inputs()[1]!, '135790');
    await submitStep(el, 'bank-login-form');
    const second = await need(el, 'bank-second-login');
    expect(form.hidden, 'the login form waits, hidden').to.equal(true);
    expect(stepTag(el)).to.equal('bank-second-login');
    type(second.shadowRoot!.querySelector<HTMLInputElement>('input')!, '0000');
    await submitStep(el, 'bank-second-login');
    await until(() => !form.hidden && form.shadowRoot!.querySelector('[part=error]'), 'back at the login form');
    expect(deep(el.shadowRoot!, 'bank-login-form'), 'the same form').to.equal(form);
    expect(
      inputs().map((i) => i.value),
      'the identity kept, the password not',
    ).to.deep.equal(['12345678Z', '']);
    expect(text(form.shadowRoot!.querySelector('[part=error]'))).to.contain('The code was not correct');
    expect(el.shadowRoot!.querySelector('[part=bank]'), 'the login form names the bank itself').to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('says a call is on its way without moving anything', async () => {
    const { bff, routes } = nativeFlow();
    const release = gate();
    const contract = routes['POST /v1/checkout/contract']!;
    routes['POST /v1/checkout/contract'] = async (b, call) => {
      await release.promise;
      return contract(b, call);
    };
    routes['GET /v1/checkout'] = () =>
      view({ state: 'select-contract', bank: bankRef, contracts: [{ contractId: 'C1', info: 'Contrato 0001' }] }, { sandbox: true });
    const el = await mount(bff.fetch, 'en');
    await need(el, 'bank-contract-picker');
    const height = () => el.getBoundingClientRect().height;
    const before = height();
    await submitStep(el, 'bank-contract-picker');
    const status = el.shadowRoot!.querySelector('[part=status]')!;
    await until(() => status.textContent === 'Contacting your bank…', 'the status says it');
    expect(height(), 'no line added while busy').to.equal(before);
    expect(getComputedStyle(status).position, 'visually hidden').to.equal('absolute');
    release.open();
    await need(el, 'bank-account-picker');
  });

  it('in redirect mode sends the payer to the bank’s gateway, only to a web address', async () => {
    const visited: string[] = [];
    const bff = fakeBff({
      'GET /v1/checkout': () => view({ state: 'select-bank' }, { mode: 'redirect' }),
      'POST /v1/checkout/redirect': () => view({ state: 'redirect', url: 'https://gateway.example/pay/abc' }, { mode: 'redirect' }),
    });
    const el = await mount(bff.fetch, 'en', { navigate: (u: string) => visited.push(u) });
    const start = await need<HTMLButtonElement>(el, '[part=redirect-start]');
    expect(text(start)).to.equal('Pay at your bank’s website');
    expect(
      bff.calls.some((c) => c.path === '/v1/banks'),
      'no bank list in redirect mode',
    ).to.equal(false);
    await expect(el).to.be.accessible();
    start.click();
    await until(() => visited.length);
    expect(visited).to.deep.equal(['https://gateway.example/pay/abc']);
    expect((await need<HTMLAnchorElement>(el, '[part=redirect-link]')).href).to.equal('https://gateway.example/pay/abc');
    await expect(el).to.be.accessible();
    const bad: string[] = [];
    const other = await mount(fakeBff({ 'GET /v1/checkout': () => view({ state: 'redirect', url: 'javascript:alert(1)' }) }).fetch, 'en', {
      navigate: (u: string) => bad.push(u),
    });
    await until(() => other.shadowRoot!.querySelector('h2'));
    expect(bad).to.deep.equal([]);
    expect(other.shadowRoot!.querySelector('a')).to.equal(null);
  });

  it('drops an answer for an old checkout: after the secret changed, or while off the page', async () => {
    const hold = gate();
    let reads = 0;
    const bff = fakeBff({
      'GET /v1/checkout': async (_b, call) => {
        reads++;
        if (call.headers['x-checkout-secret'] === 'cs_old') await hold.promise;
        return view({ state: call.headers['x-checkout-secret'] === 'cs_old' ? 'failed' : 'select-bank' }, { id: call.headers['x-checkout-secret']! });
      },
      'GET /v1/banks': () => ({ status: 200, body: { groups: GROUPS } }),
    });
    const el = await fixture<BankCheckout>(
      html`<bank-checkout api="https://bff.test" checkout-secret="cs_old" locale="en" .fetch=${bff.fetch}></bank-checkout>`,
    );
    const steps: string[] = [];
    el.addEventListener('bank-checkout-step', (e) => steps.push(e.detail.checkoutId));
    await until(() => reads === 1);
    el.checkoutSecret = 'cs_new';
    await need(el, 'bank-selector');
    hold.open();
    await until(bff.idle, 'the late answer read');
    expect(steps, 'the old checkout’s late answer is dropped').to.deep.equal(['cs_new']);
    expect(el.shadowRoot!.querySelector('bank-result')).to.equal(null);

    // Off the page while a read is on its way: its answer is dropped, and the view is read again on return.
    const held = gate();
    const away = fakeBff({ 'GET /v1/checkout': async () => (await held.promise, view({ state: 'succeeded' })) });
    const other = await fixture<BankCheckout>(
      html`<bank-checkout api="https://bff.test" checkout-secret="cs_x" locale="en" .fetch=${away.fetch}></bank-checkout>`,
    );
    const done: unknown[] = [];
    other.addEventListener('bank-checkout-complete', (e) => done.push(e.detail));
    const parent = other.parentElement!;
    other.remove();
    held.open();
    await until(away.idle, 'the answer read off the page');
    expect(done, 'nothing happens off the page').to.deep.equal([]);
    parent.append(other);
    await need(other, 'bank-result');
    expect(away.calls.filter(isRead)).to.have.length(2);
    expect(done).to.have.length(1);
  });

  it('themes light and dark, and fits 320 px', async () => {
    const { bff } = nativeFlow();
    const el = await mount(bff.fetch, 'es');
    await need(el, '[role=option]');
    const base = el.shadowRoot!.querySelector('[part=base]')!;
    await emulateMedia({ colorScheme: 'light' });
    const light = getComputedStyle(base).backgroundColor;
    await emulateMedia({ colorScheme: 'dark' });
    const dark = getComputedStyle(base).backgroundColor;
    expect(light).to.equal('rgb(255, 255, 255)');
    expect(dark).to.not.equal(light);
    await expect(el).to.be.accessible();
    el.style.setProperty('--bank-color-background', 'rgb(1, 2, 3)');
    expect(getComputedStyle(base).backgroundColor).to.equal('rgb(1, 2, 3)');
    el.style.removeProperty('--bank-color-background');
    await emulateMedia({ colorScheme: 'light' });
    await setViewport({ width: 320, height: 640 });
    (await need(el, '#bank-aurora')).click();
    expect(localStorage.getItem(LAST_BANK_KEY), 'the device’s storage').to.equal('aurora');
    const login = await need(el, 'bank-login-form');
    await until(() => login.shadowRoot!.querySelector('input'));
    for (const host of [el, login]) {
      const frame = host.shadowRoot!.firstElementChild as HTMLElement;
      expect(frame.scrollWidth, `${host.localName} overflows at 320 px`).to.be.at.most(frame.clientWidth + 1);
    }
    expect(document.documentElement.scrollWidth).to.be.at.most(320);
    await setViewport({ width: 800, height: 600 });
  });
});
