import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../src/bank-selector/bank-selector.js';
import type { BankSelector } from '../src/bank-selector/bank-selector.js';
import { createCheckoutClient } from '../src/client.js';
import { LAST_BANK_KEY } from '../src/logic/banks.js';
import { GROUPS, fakeBff, memoryStorage, type, until } from './fixtures.js';

const q = (el: BankSelector, sel: string) => el.shadowRoot!.querySelector(sel) as HTMLElement;
const options = (el: BankSelector) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[role=option]')];
const labels = (el: BankSelector) => options(el).map((o) => o.querySelector('span')!.textContent.trim());
const search = (el: BankSelector) => q(el, 'input[role=combobox]') as HTMLInputElement;

async function render(extra = {}, storage = memoryStorage()) {
  const el = await fixture<BankSelector>(html`<bank-selector locale="en" .storage=${storage} .groups=${GROUPS}></bank-selector>`);
  Object.assign(el, extra);
  await el.updateComplete;
  return el;
}

describe('<bank-selector>', () => {
  it('lists groups and banks, asks the person type, and is accessible', async () => {
    const el = await render();
    expect(q(el, 'h2').textContent).to.equal('Choose your bank');
    // A group of one bank bearing the group's name is listed without a heading repeating it.
    expect([...el.shadowRoot!.querySelectorAll('.group-name')].map((g) => g.textContent)).to.deep.equal(['Grupo Aurora']);
    expect(options(el).map((o) => o.parentElement!.getAttribute('role'))).to.deep.equal(['group', 'listbox', 'listbox']);
    expect(labels(el)).to.deep.equal(['Banco Aurora · Particulares', 'Caixa Galícia', 'Banco Norte']);
    const radios = el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=radio]');
    expect(radios.length).to.equal(2);
    radios[1]!.click();
    await el.updateComplete;
    // A legal person sees the banks for companies only: groups of natural-person banks are not listed twice.
    expect(labels(el)).to.deep.equal(['Banco Aurora · Empresas']);
    await expect(el).to.be.accessible();
  });

  it('hides the person type when no group has both kinds', async () => {
    const el = await render({ groups: GROUPS.slice(1) });
    expect(el.shadowRoot!.querySelector('input[type=radio]')).to.equal(null);
  });

  it('searches ignoring accents and case, and says when nothing matches', async () => {
    const el = await render();
    type(search(el), 'GALICIA');
    await el.updateComplete;
    expect(labels(el)).to.deep.equal(['Caixa Galícia']);
    expect(q(el, '[role=status]').textContent).to.equal('Banks found: 1');
    type(search(el), 'grupo áurora');
    await el.updateComplete;
    // A search finds a bank under either person type.
    expect(labels(el)).to.deep.equal(['Banco Aurora · Particulares', 'Banco Aurora · Empresas']);
    type(search(el), 'xyz');
    await el.updateComplete;
    expect(options(el)).to.have.length(0);
    expect(q(el, '[part=empty]').textContent).to.contain('xyz');
    await expect(el).to.be.accessible();
  });

  it('shows banks in maintenance as such; choosing one says it is not active (the page offers another way), and it is not remembered', async () => {
    const el = await render();
    const norte = options(el)[2]!;
    expect(norte.textContent).to.contain('in maintenance');
    expect(norte.hasAttribute('aria-disabled'), 'it can be chosen: the page then says what can be done').to.equal(false);
    const chosen: { bankId: string; active: boolean }[] = [];
    el.addEventListener('bank-select', (e) => chosen.push({ bankId: e.detail.bankId, active: e.detail.active }));
    norte.click();
    await el.updateComplete;
    options(el)[1]!.click();
    expect(chosen).to.deep.equal([
      { bankId: 'norte', active: false },
      { bankId: options(el)[1]!.id.replace(/^bank-/, ''), active: true },
    ]);
    expect(localStorage.getItem('bank-checkout:last-bank'), 'the bank in maintenance is not the one remembered').not.to.equal('norte');
  });

  it('works from the keyboard: arrows move, Enter chooses, Escape clears', async () => {
    const el = await render();
    search(el).focus();
    await sendKeys({ press: 'ArrowDown' });
    await el.updateComplete;
    expect(search(el).getAttribute('aria-activedescendant')).to.equal('bank-aurora');
    expect(options(el)[0]!.getAttribute('aria-selected')).to.equal('true');
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'ArrowDown' });
    await el.updateComplete;
    expect(search(el).getAttribute('aria-activedescendant')).to.equal('bank-norte');
    const inMaintenance: boolean[] = [];
    el.addEventListener('bank-select', (e) => inMaintenance.push(e.detail.active));
    await sendKeys({ press: 'Enter' });
    expect(inMaintenance, 'a bank in maintenance is chosen as such').to.deep.equal([false]);
    await sendKeys({ press: 'ArrowUp' });
    const chosen = oneEvent(el, 'bank-select');
    await sendKeys({ press: 'Enter' });
    const e = await chosen;
    expect(e.detail.bankId).to.equal('galicia');
    expect(e.bubbles && e.composed).to.equal(true);
    await sendKeys({ type: 'zz' });
    await el.updateComplete;
    expect(search(el).value).to.equal('zz');
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    expect(search(el).value).to.equal('');
    expect(options(el)).to.have.length(3);
  });

  it('remembers only the chosen bank id on this device and lists it first next time', async () => {
    const device = memoryStorage();
    const first = await render({}, device);
    first.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=radio]')[1]!.click();
    await first.updateComplete;
    options(first)[0]!.click();
    expect([...device.data.entries()]).to.deep.equal([[LAST_BANK_KEY, 'aurora-empresas']]);

    const again = await render({}, device);
    const radios = again.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=radio]');
    expect(radios[1]!.checked, 'the remembered bank’s person type').to.equal(true);
    expect(q(again, '.group-name').textContent).to.equal('Last used');
    expect(labels(again)).to.deep.equal(['Banco Aurora · Empresas']);
    await expect(again).to.be.accessible();

    const untouched = memoryStorage();
    const forgetful = await fixture<BankSelector>(html`<bank-selector locale="en" no-remember .storage=${untouched} .groups=${GROUPS}></bank-selector>`);
    options(forgetful)[1]!.click();
    expect(untouched.data.size).to.equal(0);
  });

  it('uses the device’s localStorage by default', async () => {
    const el = await fixture<BankSelector>(html`<bank-selector locale="en" .groups=${GROUPS}></bank-selector>`);
    options(el)[1]!.click();
    expect(localStorage.getItem(LAST_BANK_KEY)).to.equal('galicia');
  });

  it('opens the device’s storage only when it remembers there', async () => {
    // Opening localStorage costs a page its first access (a call to the browser): an element
    // told not to remember, or given a store of its own, never touches it.
    const own = Object.getOwnPropertyDescriptor(window, 'localStorage');
    const real = own ?? Object.getOwnPropertyDescriptor(Window.prototype, 'localStorage')!;
    let opened = 0;
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        opened++;
        return real.get!.call(window);
      },
    });
    try {
      const forgetful = await fixture<BankSelector>(html`<bank-selector locale="en" no-remember .groups=${GROUPS}></bank-selector>`);
      options(forgetful)[1]!.click();
      const withStore = await fixture<BankSelector>(html`<bank-selector locale="en" .storage=${memoryStorage()} .groups=${GROUPS}></bank-selector>`);
      options(withStore)[1]!.click();
      expect(opened, 'no-remember, or a store of its own').to.equal(0);
      await fixture<BankSelector>(html`<bank-selector locale="en" .groups=${GROUPS}></bank-selector>`);
      expect(opened, 'by default, the device’s').to.be.above(0);
    } finally {
      if (own) Object.defineProperty(window, 'localStorage', own);
      else delete (window as { localStorage?: Storage }).localStorage;
    }
  });

  it('loads the banks with its own client when used alone, and switches language', async () => {
    const bff = fakeBff({ 'GET /v1/banks': () => ({ status: 200, body: { groups: GROUPS } }) });
    const client = createCheckoutClient({ api: 'https://bff.test', secret: 's', fetch: bff.fetch });
    const el = await fixture<BankSelector>(html`<bank-selector locale="es" .client=${client}></bank-selector>`);
    await until(() => options(el).length === 3, 'banks');
    expect(q(el, 'h2').textContent).to.equal('Elige tu banco');
    expect(options(el)[2]!.textContent).to.contain('en mantenimiento');
    el.locale = 'en';
    await el.updateComplete;
    expect(q(el, 'h2').textContent).to.equal('Choose your bank');
    expect(bff.calls).to.have.length(1);
  });

  it('keeps its heading, and focus on it, from the loading to the list', async () => {
    const el = await fixture<BankSelector>(html`<bank-selector locale="en" .storage=${memoryStorage()} .groups=${null}></bank-selector>`);
    expect(q(el, '[role=status]').textContent).to.equal('Loading…');
    await el.focusStart();
    const heading = q(el, 'h2');
    expect(el.shadowRoot!.activeElement).to.equal(heading);
    el.groups = GROUPS;
    await el.updateComplete;
    expect(options(el)).to.have.length(3);
    expect(q(el, 'h2')).to.equal(heading, 'the same element');
    expect(el.shadowRoot!.activeElement).to.equal(heading);
  });
});
