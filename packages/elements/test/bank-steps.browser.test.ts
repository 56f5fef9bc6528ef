import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../src/bank-second-login/bank-second-login.js';
import '../src/bank-contract-picker/bank-contract-picker.js';
import '../src/bank-account-picker/bank-account-picker.js';
import type { BankSecondLogin } from '../src/bank-second-login/bank-second-login.js';
import type { BankContractPicker } from '../src/bank-contract-picker/bank-contract-picker.js';
import type { BankAccountPicker } from '../src/bank-account-picker/bank-account-picker.js';
import { createCheckoutClient } from '../src/client.js';
import { apiError, fakeBff, field, type, until, view } from './fixtures.js';

const q = <T extends Element = HTMLElement>(el: Element, sel: string) => el.shadowRoot!.querySelector(sel) as T;
const bank = { bankId: 'levante', label: 'Caja Levante' };
const smsField = field({ fieldId: 'smsCode', label: 'Código de acceso recibido por SMS', min: 4, max: 8, valueType: 'numeric' });
const coordField = field({ fieldId: 'coordinate', label: 'Coordenada B3', min: 4, max: 4, valueType: 'numeric', password: true });

function clientFor(routes: Parameters<typeof fakeBff>[0]) {
  const bff = fakeBff(routes);
  return { bff, client: createCheckoutClient({ api: 'https://bff.test', secret: 's', fetch: bff.fetch }) };
}

describe('<bank-second-login>', () => {
  it('asks for an SMS code as a one-time code, with the field’s rules, and sends it', async () => {
    const { bff, client } = clientFor({ 'POST /v1/checkout/second-login': () => view({ state: 'select-account', bank, accounts: [] }) });
    const v = view({ state: 'second-login', bank, type: 1, value: '+34 6** *** 218', field: smsField });
    const el = await fixture<BankSecondLogin>(html`<bank-second-login locale="en" .view=${v} .client=${client}></bank-second-login>`);
    const input = q<HTMLInputElement>(el, 'input');
    expect([input.autocomplete, input.getAttribute('inputmode'), input.maxLength, input.type]).to.deep.equal(['one-time-code', 'numeric', 8, 'text']);
    expect(q(el, `label[for=${input.id}]`).textContent, 'the kit’s name, in the form’s language').to.equal('Access code received by SMS');
    expect(q(el, '[part=bank-text] q').textContent, 'the bank’s own words, as a description').to.equal('Código de acceso recibido por SMS');
    expect(q(el, '[part=bank-text] q').lang, 'marked as Spanish').to.equal('es');
    expect(input.getAttribute('aria-describedby')).to.contain(q(el, '[part=bank-text]').id);
    expect(q(el, '[part=hint]').textContent).to.equal('Enter the access code your bank sent by SMS to +34 6** *** 218.');
    await expect(el).to.be.accessible();
    type(input, '73a1');
    q<HTMLButtonElement>(el, 'button[type=submit]').click();
    await el.updateComplete;
    expect(q(el, '[part=field-error]').textContent).to.equal('Use at least 4 characters.');
    expect(bff.calls).to.have.length(0);
    type(input, '731904');
    const step = oneEvent(el, 'bank-checkout-step');
    q<HTMLButtonElement>(el, 'button[type=submit]').click();
    await el.updateComplete;
    expect(input.value).to.equal('');
    expect(bff.calls[0]!.body).to.deep.equal({ value: '731904' });
    expect(JSON.stringify((await step).detail)).not.to.contain('731904');
  });

  it('shows the coordinates position and the token instructions', async () => {
    const el = await fixture<BankSecondLogin>(html`<bank-second-login locale="es" .type=${2} value="B3" .field=${coordField}></bank-second-login>`);
    expect(q(el, '[part=position]').textContent).to.equal('B3');
    expect(q(el, '[part=hint]').textContent).to.equal('Escribe el valor de la posición B3 de tu tarjeta de coordenadas.');
    expect(q<HTMLInputElement>(el, 'input').type).to.equal('password');
    expect(q<HTMLInputElement>(el, 'input').autocomplete).to.equal('off');
    await expect(el).to.be.accessible();
    el.type = 3;
    el.value = null;
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part=position]')).to.equal(null);
    expect(q(el, '[part=hint]').textContent).to.equal('Escribe el código que muestra la app de tu banco.');
  });
});

describe('<bank-contract-picker>', () => {
  const contracts = [
    { contractId: 'AUE-C01', info: 'Contrato 0001 · Tesorería' },
    { contractId: 'AUE-C02', info: 'Contrato 0002 · Nóminas' },
  ];

  it('lists the contracts, chooses one by keyboard and sends it', async () => {
    const { bff, client } = clientFor({ 'POST /v1/checkout/contract': () => view({ state: 'select-account', bank, accounts: [] }) });
    const v = view({ state: 'select-contract', bank, contracts });
    const el = await fixture<BankContractPicker>(html`<bank-contract-picker locale="en" .view=${v} .client=${client}></bank-contract-picker>`);
    expect(q(el, 'h2').textContent, 'a heading names the step').to.equal('Choose a contract');
    expect(
      [...el.shadowRoot!.querySelectorAll('.choice-title [lang]')].map((s) => s.getAttribute('lang')),
      'the bank’s names of its contracts are marked as its language',
    ).to.deep.equal(contracts.map(() => 'es'));
    expect(q(el, 'fieldset').getAttribute('aria-labelledby'), 'and names the list').to.equal(q(el, 'h2').id);
    expect(el.shadowRoot!.querySelector('legend'), 'not twice').to.equal(null);
    const submit = q<HTMLButtonElement>(el, 'button[type=submit]');
    expect(submit.disabled, 'nothing chosen yet').to.equal(true);
    await expect(el).to.be.accessible();
    q<HTMLInputElement>(el, 'input[type=radio]').focus();
    await sendKeys({ press: 'ArrowDown' });
    await el.updateComplete;
    const radios = [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=radio]')];
    expect(radios.map((r) => r.checked)).to.deep.equal([false, true]);
    expect(submit.disabled).to.equal(false);
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot!.activeElement).to.equal(submit);
    await sendKeys({ press: 'Enter' });
    await until(() => bff.calls.length, 'call');
    expect(bff.calls[0]!.body).to.deep.equal({ contractId: 'AUE-C02' });
  });
});

describe('<bank-account-picker>', () => {
  const accounts = [
    { accountId: 'AUR-0001', info: 'Cuenta Nómina · ES21…', balance: 254310 },
    { accountId: 'AUR-0002', info: 'Cuenta Ahorro · ES33…', balance: null },
  ];

  it('shows accounts with their balance in the locale, names the amount, and starts the transfer', async () => {
    const { bff, client } = clientFor({
      'POST /v1/checkout/transfer': () => view({ state: 'select-account', bank, accounts }, { error: { code: 'B107', message: 'error.B107' } }),
    });
    const v = view({ state: 'select-account', bank, accounts });
    const el = await fixture<BankAccountPicker>(html`<bank-account-picker locale="es" .view=${v} .client=${client}></bank-account-picker>`);
    const details = [...el.shadowRoot!.querySelectorAll('[part=detail]')].map((d) => d.textContent.replace(/\s/g, ' '));
    expect(details).to.deep.equal(['Saldo: 2543,10 €']);
    const submit = q<HTMLButtonElement>(el, 'button[type=submit]');
    expect(submit.textContent.replace(/\s/g, ' ').trim()).to.equal('Pagar 42,50 €');
    el.locale = 'en';
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part=detail]')!.textContent).to.equal('Balance: €2,543.10');
    // The bank's names of its accounts stay Spanish in an English page: marked so, for a screen reader's voice.
    expect([...el.shadowRoot!.querySelectorAll('.choice-title [lang=es]')].map((s) => s.textContent)).to.deep.equal([
      'Cuenta Nómina · ES21…',
      'Cuenta Ahorro · ES33…',
    ]);
    expect(submit.textContent.trim()).to.equal('Pay €42.50');
    await expect(el).to.be.accessible();
    el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=radio]')[1]!.click();
    await el.updateComplete;
    submit.click();
    await until(() => bff.calls.length, 'call');
    expect(bff.calls[0]!.body).to.deep.equal({ accountId: 'AUR-0002' });
  });

  it('after the confirmation’s deadline, the account the payer chose stays chosen, with Pay ready', async () => {
    const v = view({ state: 'select-account', bank, accounts, chosen: 'AUR-0002' }, { error: { code: 'deadline', message: 'error.deadline' } });
    const el = await fixture<BankAccountPicker>(html`<bank-account-picker locale="en" .view=${v}></bank-account-picker>`);
    expect([...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=radio]')].map((r) => r.checked)).to.deep.equal([false, true]);
    expect(q<HTMLButtonElement>(el, 'button[type=submit]').disabled).to.equal(false);
    await expect(el).to.be.accessible();
  });

  it('preselects a single account and shows the account error of the view', async () => {
    const v = view({ state: 'select-account', bank, accounts: accounts.slice(0, 1) }, { error: { code: 'B107', message: 'error.B107' } });
    const el = await fixture<BankAccountPicker>(html`<bank-account-picker locale="en" .view=${v}></bank-account-picker>`);
    expect(q<HTMLInputElement>(el, 'input[type=radio]').checked).to.equal(true);
    expect(q(el, '[role=alert]').textContent).to.contain('Transfers are not allowed from this account');
    await expect(el).to.be.accessible();
  });

  it('used alone, shows a failed call and fires bank-checkout-error without secrets', async () => {
    const { client } = clientFor({ 'POST /v1/checkout/transfer': () => apiError(429, 'rate_limited') });
    const el = await fixture<BankAccountPicker>(
      html`<bank-account-picker locale="en" .accounts=${accounts} .amount=${100} .client=${client}></bank-account-picker>`,
    );
    el.shadowRoot!.querySelector<HTMLInputElement>('input[type=radio]')!.click();
    await el.updateComplete;
    const failed = oneEvent(el, 'bank-checkout-error');
    q<HTMLButtonElement>(el, 'button[type=submit]').click();
    const e = await failed;
    expect(e.detail).to.deep.equal({ checkoutId: null, code: 'rate_limited', status: 429, requestId: 'req-1' });
    await el.updateComplete;
    expect(q(el, '[role=alert]').textContent).to.contain('Too many requests');
  });

  it('says when there is nothing to choose', async () => {
    const el = await fixture<BankAccountPicker>(html`<bank-account-picker locale="en" .accounts=${[]}></bank-account-picker>`);
    expect(q(el, '[part=empty]').textContent).to.equal('There are no accounts to pay from.');
    expect(el.shadowRoot!.querySelector('button')).to.equal(null);
  });
});
