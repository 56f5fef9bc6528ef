import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../src/bank-login-form/bank-login-form.js';
import type { BankLoginForm } from '../src/bank-login-form/bank-login-form.js';
import { createCheckoutClient } from '../src/client.js';
import { AURORA, AURORA_EMPRESAS, GALICIA, allAttributeValues, fakeBff, leave, type, until, view } from './fixtures.js';

const q = <T extends Element = HTMLElement>(el: BankLoginForm, sel: string) => el.shadowRoot!.querySelector(sel) as T;
const inputs = (el: BankLoginForm) => [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input:not([type=radio])')];
const errors = (el: BankLoginForm) => [...el.shadowRoot!.querySelectorAll('[part=field-error]')].map((e) => e.textContent.trim());
const submit = async (el: BankLoginForm) => {
  q<HTMLButtonElement>(el, 'button[type=submit]').click();
  await el.updateComplete;
};

describe('<bank-login-form>', () => {
  it('builds the form from the bank’s login types and field descriptors', async () => {
    const el = await fixture<BankLoginForm>(html`<bank-login-form locale="en" .bank=${AURORA}></bank-login-form>`);
    expect(q(el, 'h2').textContent).to.equal('Sign in to Banco Aurora · Particulares');
    const types = q<HTMLSelectElement>(el, 'select#login-type');
    expect(q(el, 'label[for=login-type]').textContent).to.equal('How do you want to sign in?');
    expect([...types.options].map((o) => o.textContent.replace(/\s+/g, ' ').trim())).to.deep.equal([
      'ID number (DNI / NIE) and password',
      'Username and password',
      'Card number (not available right now)',
    ]);
    expect([...types.options].map((o) => [o.selected, o.disabled])).to.deep.equal([
      [true, false],
      [false, false],
      [false, true],
    ]);
    const [dni, pin] = inputs(el);
    expect(q(el, `label[for=${dni!.id}]`).textContent).to.equal('ID number (DNI / NIE)');
    expect([dni!.type, dni!.getAttribute('inputmode'), dni!.maxLength, dni!.minLength, dni!.autocomplete]).to.deep.equal(['text', 'text', 9, 9, 'off']);
    expect([pin!.type, pin!.getAttribute('inputmode'), pin!.maxLength, pin!.autocomplete]).to.deep.equal(['password', 'numeric', 8, 'off']);
    expect(el.shadowRoot!.querySelector('[part=sandbox-banner]')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('names the bank’s fields in the checkout’s language: the bank’s own words in Spanish; elsewhere the kit’s, the bank’s words beside them as a Spanish description', async () => {
    const labels = (el: BankLoginForm) =>
      [...el.shadowRoot!.querySelectorAll('label[part=label]')].map((l) => [l.textContent, l.getAttribute('lang')] as [string, string | null]);
    const described = (el: BankLoginForm) =>
      [...el.shadowRoot!.querySelectorAll('input')].map((i) => {
        const bank = el.shadowRoot!.getElementById(`${i.id}-bank`);
        return bank
          ? [bank.querySelector('q')!.textContent, bank.querySelector('q')!.lang, (i.getAttribute('aria-describedby') ?? '').includes(bank.id)]
          : null;
      });
    const odd = {
      ...AURORA_EMPRESAS,
      logins: [
        {
          ...AURORA_EMPRESAS.logins[0]!,
          fields: [...AURORA_EMPRESAS.logins[0]!.fields, { ...AURORA_EMPRESAS.logins[0]!.fields[2]!, fieldId: 'other', label: 'Firma de operaciones' }],
        },
      ],
    };
    const en = await fixture<BankLoginForm>(html`<bank-login-form locale="en" .bank=${odd}></bank-login-form>`);
    expect(labels(en), 'every name in English, one the kit does not know by the words included').to.deep.equal([
      ['Company tax number (CIF)', null],
      ['Password', null],
      ['User code', null],
      ['Additional code', null],
    ]);
    expect(described(en), 'the bank’s own words, as a Spanish description of the field').to.deep.equal([
      ['CIF', 'es', true],
      ['Contraseña', 'es', true],
      ['Código de usuario', 'es', true],
      ['Firma de operaciones', 'es', true],
    ]);
    await expect(en).to.be.accessible();
    const es = await fixture<BankLoginForm>(html`<bank-login-form locale="es" .bank=${AURORA}></bank-login-form>`);
    expect(labels(es)).to.deep.equal([
      ['DNI / NIE', null],
      ['Clave', null],
    ]);
    expect(described(es), 'in Spanish the bank’s words are the names').to.deep.equal([null, null]);
    expect(es.shadowRoot!.querySelector('select#login-type option')!.textContent.trim()).to.equal('DNI y clave');
    const ca = await fixture<BankLoginForm>(html`<bank-login-form locale="ca" .bank=${GALICIA}></bank-login-form>`);
    await until(() => labels(ca)[0]?.[0] === 'Usuari', 'the Catalan names');
    expect(labels(ca)).to.deep.equal([
      ['Usuari', null],
      ['Contrasenya', null],
    ]);
  });

  it('takes digits only in numeric fields and normalises identity documents', async () => {
    const el = await fixture<BankLoginForm>(html`<bank-login-form locale="en" .bank=${AURORA}></bank-login-form>`);
    const [dni, pin] = inputs(el);
    type(pin!, '12ab-34');
    await el.updateComplete;
    expect(pin!.value).to.equal('1234');
    type(dni!, '12.345.678-z');
    await el.updateComplete;
    expect(dni!.value).to.equal('12345678Z');
  });

  it('shows errors only after interaction or submit, and focuses the first invalid field', async () => {
    const el = await fixture<BankLoginForm>(html`<bank-login-form locale="en" .bank=${AURORA}></bank-login-form>`);
    const [dni, pin] = inputs(el);
    leave(dni!);
    await el.updateComplete;
    expect(errors(el), 'leaving an untouched field says nothing').to.deep.equal([]);
    type(dni!, '1234');
    await el.updateComplete;
    expect(errors(el), 'no error while typing').to.deep.equal([]);
    leave(dni!);
    await el.updateComplete;
    expect(errors(el)).to.deep.equal(['Use exactly 9 characters.']);
    expect(dni!.getAttribute('aria-invalid')).to.equal('true');
    expect(dni!.getAttribute('aria-describedby')).to.contain(`${dni!.id}-error`);
    type(dni!, '12345678A');
    await el.updateComplete;
    expect(errors(el)).to.deep.equal(['Enter a valid DNI or NIE, for example 12345678Z.']);
    type(dni!, '12345678Z');
    await submit(el);
    expect(errors(el)).to.deep.equal(['This field is required.']);
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement).to.equal(pin);
    type(pin!, '12');
    await el.updateComplete;
    expect(errors(el)).to.deep.equal(['Use at least 4 characters.']);
    await expect(el).to.be.accessible();
  });

  it('masks passwords with a reveal toggle', async () => {
    const el = await fixture<BankLoginForm>(html`<bank-login-form locale="en" .bank=${AURORA}></bank-login-form>`);
    const toggle = q<HTMLButtonElement>(el, '[part=reveal]');
    const pin = inputs(el)[1]!;
    expect(toggle.getAttribute('aria-pressed')).to.equal('false');
    expect(toggle.getAttribute('aria-controls')).to.equal(pin.id);
    expect(toggle.textContent.replace(/\s+/g, ' ').trim()).to.equal('Show password');
    toggle.click();
    await el.updateComplete;
    expect(pin.type).to.equal('text');
    expect(toggle.getAttribute('aria-pressed')).to.equal('true');
    toggle.click();
    await el.updateComplete;
    expect(pin.type).to.equal('password');
  });

  it('where a list would cut a login type’s name (a 320 px phone’s checkout), offers them as radio buttons, each name whole; a list again when wide enough', async () => {
    const el = await fixture<BankLoginForm>(html`<bank-login-form locale="en" .bank=${AURORA}></bank-login-form>`);
    expect(q(el, 'select#login-type'), 'wide: a list').not.to.equal(null);
    el.style.width = '278px';
    const group = await until(() => q(el, 'fieldset[part=login-types]'), 'radio buttons');
    expect(el.shadowRoot!.querySelector('select')).to.equal(null);
    expect(group.querySelector('legend')!.textContent).to.equal('How do you want to sign in?');
    const radios = [...group.querySelectorAll<HTMLInputElement>('input[type=radio]')];
    expect(radios.map((r) => [r.labels![0]!.textContent.trim(), r.checked, r.disabled])).to.deep.equal([
      ['ID number (DNI / NIE) and password', true, false],
      ['Username and password', false, false],
      ['Card number (not available right now)', false, true],
    ]);
    for (const r of radios) expect(r.labels![0]!.scrollWidth, 'the name whole').to.be.at.most(r.labels![0]!.clientWidth + 1);
    await expect(el).to.be.accessible();
    // Another type: its fields, empty.
    type(inputs(el)[0]!, '12345678Z');
    radios[1]!.click();
    await el.updateComplete;
    expect(q(el, `label[for=${inputs(el)[0]!.id}]`).textContent).to.equal('Username');
    expect(inputs(el)[0]!.value).to.equal('');
    el.style.width = '';
    const list = await until(() => q<HTMLSelectElement>(el, 'select#login-type'), 'a list again');
    expect(list.value).to.equal('user');
  });

  it('switches login type with the fields of that type, starting empty', async () => {
    const el = await fixture<BankLoginForm>(html`<bank-login-form locale="en" .bank=${AURORA}></bank-login-form>`);
    type(inputs(el)[0]!, '12345678Z');
    const types = q<HTMLSelectElement>(el, 'select#login-type');
    types.value = 'user';
    types.dispatchEvent(new Event('change'));
    await el.updateComplete;
    const [user, pass] = inputs(el);
    expect(q(el, `label[for=${user!.id}]`).textContent).to.equal('Username');
    expect(user!.value).to.equal('');
    expect([pass!.type, pass!.getAttribute('inputmode'), pass!.maxLength]).to.deep.equal(['password', 'text', 20]);
  });

  it('in test mode shows a banner, fills test values, sends them and clears the inputs', async () => {
    const bff = fakeBff({ 'POST /v1/checkout/login': () => view({ state: 'select-account', bank: { bankId: 'aurora-empresas', label: 'x' }, accounts: [] }) });
    const client = createCheckoutClient({ api: 'https://bff.test', secret: 's', fetch: bff.fetch });
    const el = await fixture<BankLoginForm>(html`<bank-login-form locale="en" sandbox .bank=${AURORA_EMPRESAS} .client=${client}></bank-login-form>`);
    expect(q(el, '[part=sandbox-banner]').textContent).to.equal('Test mode: no real money moves.');
    q<HTMLButtonElement>(el, '[part=fill-test]').click();
    await el.updateComplete;
    expect(inputs(el).map((i) => i.value)).to.deep.equal(['B12345674', 'Empresa2024', '7788']);
    for (const v of ['B12345674', 'Empresa2024']) expect(allAttributeValues(el.shadowRoot!).join('|')).not.to.contain(v);
    await expect(el).to.be.accessible();
    const step = oneEvent(el, 'bank-checkout-step');
    await submit(el);
    // The password goes at once; the identity stays (a wrong password means typing only it again).
    expect(inputs(el)[1]!.value, 'the password is cleared after submit').to.equal('');
    expect(inputs(el)[0]!.value, 'the identity stays').to.equal('B12345674');
    const e = await step;
    expect(e.detail).to.deep.equal({ checkoutId: 'chk_test', state: 'select-account', previous: 'login', funnel: 'signed-in', bankId: 'aurora-empresas' });
    expect(JSON.stringify(e.detail)).not.to.contain('Empresa2024');
    expect(bff.calls[0]!.body).to.deep.equal({
      bankId: 'aurora-empresas',
      loginId: 'cif',
      fields: { userId: 'B12345674', userSecret: 'Empresa2024', userExtraField: '7788' },
    });
    const stored = [...Object.values(localStorage), ...Object.values(sessionStorage)].join('|');
    for (const v of ['B12345674', 'Empresa2024', '7788']) expect(stored).not.to.contain(v);
    expect(document.cookie).to.equal('');
  });

  it("in test mode shows each field's test value as text, tied to its input; never outside test mode", async () => {
    const el = await fixture<BankLoginForm>(html`<bank-login-form locale="en" sandbox .bank=${AURORA_EMPRESAS}></bank-login-form>`);
    const shown = [...el.shadowRoot!.querySelectorAll('[part=test-value]')].map((p) => p.textContent);
    expect(shown).to.deep.equal(['Test value: B12345674', 'Test value: Empresa2024', 'Test value: 7788']);
    for (const input of inputs(el)) expect(el.shadowRoot!.getElementById(`${input.id}-test`), input.id).to.not.equal(null);
    expect(inputs(el)[0]!.getAttribute('aria-describedby')).to.contain(`${inputs(el)[0]!.id}-test`);
    await expect(el).to.be.accessible();
    const live = await fixture<BankLoginForm>(html`<bank-login-form locale="en" .bank=${AURORA_EMPRESAS}></bank-login-form>`);
    expect(live.shadowRoot!.querySelectorAll('[part=test-value]').length).to.equal(0);
  });

  it('says before the payer types that one attempt is left', async () => {
    const last = await fixture<BankLoginForm>(
      html`<bank-login-form locale="en" .view=${view({ state: 'login', bank: AURORA }, { attemptsLeft: 1 })}></bank-login-form>`,
    );
    expect(q(last, '[part=last-attempt]').textContent).to.equal('Last attempt: if the details are wrong again, the payment stops.');
    await expect(last).to.be.accessible();
    const more = await fixture<BankLoginForm>(
      html`<bank-login-form locale="en" .view=${view({ state: 'login', bank: AURORA }, { attemptsLeft: 2 })}></bank-login-form>`,
    );
    expect(more.shadowRoot!.querySelector('[part=last-attempt]')).to.equal(null);
  });

  it('says before the first try how many attempts there are, to sign in and to confirm together; not beside an error that says what is left', async () => {
    const first = await fixture<BankLoginForm>(
      html`<bank-login-form locale="en" .view=${view({ state: 'login', bank: AURORA }, { attemptsLeft: 3 })}></bank-login-form>`,
    );
    const said = q(first, '[part=attempts]');
    expect(said.textContent).to.equal('You have 3 tries in all to sign in and confirm the payment: each wrong password or code uses one.');
    expect(q(first, 'button[type=submit]').getAttribute('aria-describedby')!.split(' ')).to.include(said.id);
    await expect(first).to.be.accessible();
    const eu = await fixture<BankLoginForm>(
      html`<bank-login-form locale="eu" .view=${view({ state: 'login', bank: AURORA }, { attemptsLeft: 3 })}></bank-login-form>`,
    );
    await until(() => eu.shadowRoot!.querySelector('[part=attempts]'), 'the Basque form');
    expect(q(eu, '[part=attempts]').textContent).to.equal(
      '3 saiakera dituzu guztira saioa hasteko eta ordainketa berresteko: pasahitz edo kode oker bakoitzak bat kentzen du.',
    );
    const wrong = await fixture<BankLoginForm>(
      html`<bank-login-form locale="en" .view=${view({ state: 'login', bank: AURORA }, { attemptsLeft: 2, error: { code: 'B100', message: 'error.B100' } })}></bank-login-form>`,
    );
    expect(wrong.shadowRoot!.querySelector('[part=attempts]')).to.equal(null);
  });

  it('retries a failed login from the view: the error, attempts left, and the bank of the step', async () => {
    const v = view({ state: 'login', bank: AURORA }, { error: { code: 'B100', message: 'error.B100' }, attemptsLeft: 2 });
    const el = await fixture<BankLoginForm>(html`<bank-login-form locale="es" .view=${v}></bank-login-form>`);
    expect(q(el, 'h2').textContent).to.equal('Accede a Banco Aurora · Particulares');
    const alert = q(el, '[role=alert]');
    expect(alert.textContent).to.contain('Tu banco no ha aceptado estas claves');
    expect(alert.textContent).to.contain('Intentos restantes: 2');
    await expect(el).to.be.accessible();
    el.bank = AURORA_EMPRESAS;
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[role=alert]'), 'the error was about another bank').to.equal(null);
  });

  it('says when no login type can be used', async () => {
    const bank = { ...AURORA, logins: AURORA.logins.map((l) => ({ ...l, active: false })) };
    const el = await fixture<BankLoginForm>(html`<bank-login-form locale="en" .bank=${bank}></bank-login-form>`);
    expect(q(el, '.alert').textContent).to.equal('This bank cannot be used right now. Please choose another bank.');
    expect(q<HTMLButtonElement>(el, 'button[type=submit]').disabled).to.equal(true);
    await until(() => el.shadowRoot!.querySelector('.alert'));
    await expect(el).to.be.accessible();
  });
});
