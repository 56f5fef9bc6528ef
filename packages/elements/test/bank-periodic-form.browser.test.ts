import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../src/bank-periodic-form/bank-periodic-form.js';
import { registerCatalogue } from '../src/i18n/index.js';
import { ca } from '../src/i18n/ca.js';
import type { BankPeriodicForm } from '../src/bank-periodic-form/bank-periodic-form.js';
import { createCheckoutClient } from '../src/client.js';
import { DEBTOR_IBAN, FIXED_NOW, PERIODIC_BANKS, allAttributeValues, apiError, fakeBff, inlineStyled, leave, type, until, view, text } from './fixtures.js';

registerCatalogue('ca', ca);

const clock = { now: () => FIXED_NOW };
const q = <T extends Element = HTMLElement>(el: Element, sel: string) => el.shadowRoot!.querySelector(sel) as T;
const options = (select: HTMLSelectElement) => [...select.options].map((o) => [text(o), o.disabled]);
const radios = (el: Element) => [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[name=frequency]')];
const radioLabels = (el: Element) => radios(el).map((r) => text(r.closest('label')));
const errors = (el: Element) => [...el.shadowRoot!.querySelectorAll('[part=field-error]')].map(text);

async function mount(locale = 'en', extra: Partial<BankPeriodicForm> = {}) {
  const el = await fixture<BankPeriodicForm>(html`<bank-periodic-form locale=${locale} .banks=${PERIODIC_BANKS} .clock=${clock}></bank-periodic-form>`);
  Object.assign(el, extra);
  await el.updateComplete;
  return el;
}

async function choose(el: BankPeriodicForm, selector: string, value: string) {
  const select = q<HTMLSelectElement>(el, selector);
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await el.updateComplete;
}

async function setDate(el: BankPeriodicForm, id: 'pf-start' | 'pf-end', value: string) {
  const input = q<HTMLInputElement>(el, `#${id}`);
  type(input, value);
  leave(input);
  await el.updateComplete;
  return input;
}

/** Fills a valid order: Grupo Aurora → Aurora Empresas, Monthly, the IBAN, 15 March → 15 March next year. */
async function fill(el: BankPeriodicForm, end = '2031-03-15') {
  await choose(el, '#pf-bank', 'group:10');
  await choose(el, '#pf-group-bank', 'es-aurora-empresas');
  radios(el)[1]!.click();
  await el.updateComplete;
  type(q<HTMLInputElement>(el, '#pf-iban'), 'es79 2100 0813 6101 2345 6789');
  await setDate(el, 'pf-start', '2030-03-15');
  if (end) await setDate(el, 'pf-end', end);
}

describe('<bank-periodic-form>', () => {
  it('lists banks by the grouping rule: groups once by name, banks not operational shown but not selectable', async () => {
    const el = await mount();
    const bank = q<HTMLSelectElement>(el, '#pf-bank');
    expect(text(q(el, `label[for=pf-bank]`))).to.equal('Bank');
    expect(options(bank)).to.deep.equal([
      ['Choose your bank', true],
      ['Banco del Norte (not available right now)', true],
      ['Caja del Sur', false],
      ['Caja Levante', false],
      ['Grupo Aurora', false],
      ['Grupo Cantábrico', false],
    ]);
    expect(el.shadowRoot!.querySelector('#pf-group-bank'), 'no second list before a group is chosen').to.equal(null);
    expect(radios(el), 'no frequencies before a bank').to.have.length(0);
    expect(errors(el), 'no error before any interaction').to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('opens a second list for a group’s banks, and goes straight to the bank of a group of one', async () => {
    const el = await mount();
    await choose(el, '#pf-bank', 'group:10');
    const second = q<HTMLSelectElement>(el, '#pf-group-bank');
    expect(text(q(el, 'label[for=pf-group-bank]'))).to.equal('Bank in Grupo Aurora');
    expect(options(second)).to.deep.equal([
      ['Choose your bank', true],
      ['Aurora Banca Privada (not available right now)', true],
      ['Aurora Empresas', false],
      ['Banco Aurora', false],
    ]);
    expect(radios(el), 'frequencies wait for the bank').to.have.length(0);
    await expect(el).to.be.accessible();
    await choose(el, '#pf-group-bank', 'es-aurora');
    expect(radioLabels(el)).to.deep.equal(['Every month', 'Every three months', 'Every year']);

    await choose(el, '#pf-bank', 'group:20');
    expect(el.shadowRoot!.querySelector('#pf-group-bank')).to.equal(null);
    expect(radioLabels(el)).to.deep.equal(['Every week', 'Every month', 'Every three months', 'Every year']);
  });

  it('offers the frequencies each bank accepts, keeping a choice the new bank also has', async () => {
    const el = await mount();
    await choose(el, '#pf-bank', 'bank:es-sur');
    expect(radioLabels(el)).to.deep.equal(['Every month', 'Every year']);
    expect(radios(el).some((r) => r.checked)).to.equal(false);
    radios(el)[1]!.click();
    await el.updateComplete;
    await choose(el, '#pf-bank', 'bank:es-levante');
    expect(radioLabels(el)).to.deep.equal(['Every month']);
    expect(radios(el)[0]!.checked, 'a single frequency is chosen for the payer').to.equal(true);
    await choose(el, '#pf-bank', 'group:20');
    expect(
      radios(el)
        .filter((r) => r.checked)
        .map((r) => text(r.closest('label'))),
    ).to.deep.equal(['Every month'], 'Monthly is kept');
    await expect(el).to.be.accessible();
  });

  it('groups the IBAN in fours as it is typed, with the caret in place, and checks it', async () => {
    const el = await mount();
    const iban = q<HTMLInputElement>(el, '#pf-iban');
    iban.focus();
    await sendKeys({ type: 'es912100' });
    expect(iban.value).to.equal('ES91 2100');
    expect(iban.selectionStart).to.equal(9);
    // Back to just after "ES91 " and type: the caret follows the typed character.
    iban.setSelectionRange(5, 5);
    await sendKeys({ type: '7' });
    expect(iban.value).to.equal('ES91 7210 0');
    expect(iban.selectionStart).to.equal(6);
    // Backspace right after a space deletes the character before it.
    iban.setSelectionRange(5, 5);
    await sendKeys({ press: 'Backspace' });
    expect(iban.value).to.equal('ES97 2100');
    expect(iban.selectionStart).to.equal(3);
    expect(errors(el), 'no error while typing').to.deep.equal([]);

    leave(iban);
    await el.updateComplete;
    expect(errors(el)).to.deep.equal(['An IBAN starting with ES has 24 characters.']);
    expect(iban.getAttribute('aria-invalid')).to.equal('true');
    expect(iban.getAttribute('aria-describedby')).to.equal('pf-iban-hint pf-iban-error');
    await expect(el).to.be.accessible();

    type(iban, 'ES91 2100 0418 4502 0005 1333');
    await el.updateComplete;
    expect(errors(el)).to.deep.equal(['This IBAN is not valid. Check that every character is right.']);
    type(iban, 'IBAN es91-2100-0418-4502-0005-1332');
    await el.updateComplete;
    expect(iban.value).to.equal('ES91 2100 0418 4502 0005 1332');
    expect(errors(el)).to.deep.equal([]);
    expect(allAttributeValues(el).join('|'), 'the IBAN stays out of attributes').not.to.contain('2100');

    // With the checkout's view, the payee's own account is refused.
    el.view = view({ state: 'periodic', banks: PERIODIC_BANKS });
    await el.updateComplete;
    expect(errors(el)).to.deep.equal(['This is the account that receives the payment. Enter the account you pay from.']);
    type(iban, DEBTOR_IBAN);
    await el.updateComplete;
    expect(errors(el)).to.deep.equal([]);
  });

  it('wants a start after today, says when a monthly payment runs, and an end after the start', async () => {
    const el = await mount();
    const start = q<HTMLInputElement>(el, '#pf-start');
    const end = q<HTMLInputElement>(el, '#pf-end');
    expect(start.type).to.equal('date');
    expect(start.min).to.equal('2030-03-11');
    await setDate(el, 'pf-start', '2030-03-10');
    expect(errors(el)).to.deep.equal(['Choose a date after today.']);

    await choose(el, '#pf-bank', 'bank:es-levante');
    await setDate(el, 'pf-start', '2030-03-15');
    expect(errors(el)).to.deep.equal([]);
    expect(text(q(el, '[part=schedule]'))).to.equal('It will be paid on day 15 of each month.');
    expect(start.getAttribute('aria-describedby')).to.equal('pf-start-schedule');
    expect(end.min).to.equal('2030-03-16');

    await setDate(el, 'pf-end', '2030-03-15');
    expect(errors(el)).to.deep.equal(['The end date must be after the first payment.']);
    await expect(el).to.be.accessible();
    await setDate(el, 'pf-end', '2030-09-15');
    expect(errors(el)).to.deep.equal([]);

    await choose(el, '#pf-bank', 'bank:es-sur');
    radios(el)[1]!.click();
    await el.updateComplete;
    expect(text(q(el, '[part=schedule]'))).to.equal('It will be paid every year on March 15.');
  });

  it('shows every error on an empty submit and focuses the first field', async () => {
    const el = await mount();
    let fired = 0;
    el.addEventListener('bank-periodic-submit', () => fired++);
    q<HTMLButtonElement>(el, '[part=submit]').click();
    await until(() => el.shadowRoot!.activeElement?.id === 'pf-bank', 'focus on the bank');
    expect(errors(el)).to.deep.equal(['Choose your bank.', 'Enter the IBAN of your account.', 'Choose the date of the first payment.']);
    expect(fired).to.equal(0);
    await expect(el).to.be.accessible();
    await choose(el, '#pf-bank', 'group:10');
    q<HTMLButtonElement>(el, '[part=submit]').click();
    await until(() => el.shadowRoot!.activeElement?.id === 'pf-group-bank', 'focus on the second list');
    expect(errors(el)[0]).to.equal('Choose your bank.');
    await choose(el, '#pf-group-bank', 'es-aurora-empresas');
    q<HTMLButtonElement>(el, '[part=submit]').click();
    await until(() => el.shadowRoot!.activeElement?.getAttribute('name') === 'frequency', 'focus on the frequencies');
    expect(errors(el)[0]).to.equal('Choose how often to pay.');
    await expect(el).to.be.accessible();
  });

  it('fires bank-periodic-submit, sends the exact body, then goes to the signed page', async () => {
    const signed = 'https://gateway.example/periodic/abc';
    const bff = fakeBff({ 'POST /v1/checkout/periodic': () => view({ state: 'redirect', url: signed }, { mode: 'periodic' }) });
    const visited: string[] = [];
    const client = createCheckoutClient({ api: 'https://bff.test', secret: 's', fetch: bff.fetch });
    const el = await mount('en', { client, navigate: (u: string) => visited.push(u) });
    await fill(el);
    const fired = oneEvent(el, 'bank-periodic-submit');
    q<HTMLButtonElement>(el, '[part=submit]').click();
    const detail = { bankId: 'es-aurora-empresas', frequency: 'Monthly', debtorAccount: DEBTOR_IBAN, startDate: '2030-03-15', endDate: '2031-03-15' };
    expect((await fired).detail).to.deep.equal(detail);
    await until(() => visited.length, 'navigation');
    expect(bff.calls.map((c) => [c.method, c.path, c.body])).to.deep.equal([['POST', '/v1/checkout/periodic', detail]]);
    expect(visited).to.deep.equal([signed]);
  });

  it('leaves out an empty end date, and shows a failed call', async () => {
    const bff = fakeBff({ 'POST /v1/checkout/periodic': () => apiError(502, 'upstream') });
    const client = createCheckoutClient({ api: 'https://bff.test', secret: 's', fetch: bff.fetch });
    const el = await mount('en', { client, navigate: () => expect.fail('no navigation after a failure') });
    await fill(el, '');
    q<HTMLButtonElement>(el, '[part=submit]').click();
    await until(() => el.shadowRoot!.querySelector('[part=error]'), 'the error');
    expect(bff.calls[0]!.body).to.deep.equal({ bankId: 'es-aurora-empresas', frequency: 'Monthly', debtorAccount: DEBTOR_IBAN, startDate: '2030-03-15' });
    expect(text(q(el, '[part=error]'))).to.equal('Your bank’s service answered with an error. Try again in a moment.');
    await expect(el).to.be.accessible();
  });

  it('fires the event alone, without a client, and calls nothing', async () => {
    const el = await mount('en');
    await fill(el);
    const fired = oneEvent(el, 'bank-periodic-submit');
    q<HTMLButtonElement>(el, '[part=submit]').click();
    expect((await fired).detail.debtorAccount).to.equal(DEBTOR_IBAN);
  });

  it('speaks Spanish and Catalan, and switches language', async () => {
    const el = await mount('es');
    await choose(el, '#pf-bank', 'bank:es-levante');
    await setDate(el, 'pf-start', '2030-03-15');
    expect(text(q(el, 'h2'))).to.equal('Pago periódico');
    expect(radioLabels(el)).to.deep.equal(['Cada mes']);
    expect(text(q(el, '[part=schedule]'))).to.equal('Se pagará el día 15 de cada mes.');
    expect(text(q(el, '[part=submit]'))).to.equal('Continuar en tu banco');
    el.locale = 'ca';
    await el.updateComplete;
    expect(text(q(el, 'label[for=pf-iban]'))).to.equal('El teu compte (IBAN)');
    expect(text(q(el, '[part=schedule]'))).to.equal('Es pagarà el dia 15 de cada mes.');
    expect(options(q<HTMLSelectElement>(el, '#pf-bank'))[1]).to.deep.equal(['Banco del Norte (no disponible ara)', true]);
    await expect(el).to.be.accessible();
  });

  it('says when no bank offers periodic payments, and fits 320 px without inline styles', async () => {
    const empty = await fixture<BankPeriodicForm>(html`<bank-periodic-form locale="en" .banks=${[]}></bank-periodic-form>`);
    expect(text(q(empty, '[part=empty]'))).to.equal('No bank offers periodic payments right now.');
    expect(empty.shadowRoot!.querySelector('form')).to.equal(null);
    await expect(empty).to.be.accessible();

    await setViewport({ width: 320, height: 640 });
    const el = await mount();
    await fill(el);
    const form = q(el, 'form');
    expect(form.scrollWidth, 'overflows at 320 px').to.be.at.most(form.clientWidth + 1);
    expect(inlineStyled(el.shadowRoot!)).to.deep.equal([]);
    await setViewport({ width: 800, height: 600 });
  });
});
