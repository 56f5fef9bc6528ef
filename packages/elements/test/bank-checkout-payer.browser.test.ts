/**
 * The payer's side of `<bank-checkout>` where it is easy to get lost: a checkout moved on in
 * another window, Back that ends the bank session, a phone's first screen, the coordinates card
 * read without sight, and fields the bank refused.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { LitElement } from 'lit';
import '../src/index.js';
import type { BankCheckout } from '../src/index.js';
import type { BankChallenge } from '../src/bank-challenge/bank-challenge.js';
import type { CheckoutView } from '@bank-checkout/contract';
import { AURORA, GROUPS, deep, fakeBff, type, until, validation, view, manualClock, text } from './fixtures.js';
import { registerTexts } from '../src/i18n/index.js';
import { enFrame } from '../src/i18n/en-frame.js';

const bankRef = { bankId: 'aurora', label: AURORA.label };
const later = (s = 90) => new Date(Date.now() + s * 1000).toISOString();
// The later steps' file comes on demand: a loaded machine may take a while.
const need = <T extends Element = HTMLElement>(el: Element, selector: string) => until(() => deep<T>(el.shadowRoot!, selector), selector, 15_000);
/** `selector` inside the shadow root of the step element `tag`, once both are there. */
const inStep = <T extends Element = HTMLElement>(el: Element, tag: string, selector: string) =>
  until(() => deep(el.shadowRoot!, tag)?.shadowRoot?.querySelector<T>(selector), `${selector} in ${tag}`, 15_000);
/** The element focus is in, through the shadow roots. */
function focused(): Element | null {
  let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

const accounts = (over: Partial<CheckoutView> = {}, back: 'login' | 'select-contract' = 'login') =>
  view(
    {
      state: 'select-account',
      bank: bankRef,
      back,
      accounts: [
        { accountId: 'AUR-0001', info: 'Cuenta Nómina', balance: 254310 },
        { accountId: 'AUR-0003', info: 'Cuenta Conjunta', balance: 88000 },
      ],
    },
    over,
  );
const challenge = () => view({ state: 'validate', bank: bankRef, round: 1, deadline: later(), validations: [validation(1, { fieldId: 'smsCode' })] });

/**
 * The payer comes back to this window. The runner's page may be a background tab of its browser
 * (hidden): it is shown as visible, as a window the payer returns to is.
 */
function comeBack(): void {
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  window.dispatchEvent(new FocusEvent('blur'));
  window.dispatchEvent(new FocusEvent('focus'));
}

/** At the account list: the first account, and Pay. */
async function payFromFirstAccount(el: BankCheckout): Promise<void> {
  const picker = await need<LitElement>(el, 'bank-account-picker');
  const first = await until(() => picker.shadowRoot!.querySelector<HTMLInputElement>('input[type=radio]'), 'an account');
  first.click();
  await picker.updateComplete;
  picker.shadowRoot!.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
}

async function mount(fetch: typeof globalThis.fetch, attrs: { mode?: string } = {}) {
  return fixture<BankCheckout>(
    html`<bank-checkout api="https://bff.test" checkout-secret="cs_test_0123456789abcdef" locale="en" mode=${attrs.mode ?? ''} .fetch=${fetch}></bank-checkout>`,
  );
}

describe('<bank-checkout> for a payer with several windows, a phone, or no sight', () => {
  afterEach(async () => {
    // Back to the document's own visibility (comeBack() shadows it).
    delete (document as { visibilityState?: DocumentVisibilityState }).visibilityState;
    await setViewport({ width: 800, height: 600 });
  });

  it('shows where the checkout is when an action was for a step another window has left, and says so', async () => {
    const bff = fakeBff({
      'GET /v1/checkout': () => accounts(),
      'POST /v1/checkout/transfer': () => ({ status: 409, body: { error: { code: 'stale_step', message: 'moved on', requestId: 'r1' }, view: challenge() } }),
    });
    const el = await mount(bff.fetch);
    await payFromFirstAccount(el);
    const form = await inStep(el, 'bank-challenge', 'form');
    expect(text(el.shadowRoot!.querySelector('[part=notice]'))).to.equal('This payment moved on in another window: this page now shows where it is.');
    expect(
      bff.calls.filter((c) => c.method === 'GET' && c.path === '/v1/checkout'),
      'the answer carried the view: no read needed',
    ).to.have.length(0);
    await until(() => focused()?.localName === 'h2', 'focus on the step heading');
    expect(form.getRootNode()).to.equal(focused()!.getRootNode());
    await expect(el).to.be.accessible();
  });

  it('says the payment goes on in another browser when this page was replaced there, at an action or when the payer comes back', async () => {
    // Only an isolated checkout's frame meets it: its page brings the words.
    registerTexts({ en: enFrame });
    const elsewhere = { status: 409, body: { error: { code: 'opened_elsewhere', message: 'opened again', requestId: 'r2' } } };
    let replaced = false;
    const bff = fakeBff({
      'GET /v1/checkout': () => (replaced ? elsewhere : accounts()),
      'POST /v1/checkout/transfer': () => elsewhere,
    });
    const el = await mount(bff.fetch);
    await payFromFirstAccount(el);
    const result = await need<LitElement>(el, 'bank-result');
    const message = 'This payment was opened in another browser or on another device, and it continues there. To continue here instead, reload this page.';
    await until(() => text(result.shadowRoot!.querySelector('[part=message]')) === message, 'the message');
    expect(deep(el.shadowRoot!, 'bank-account-picker'), 'no step left to act on').to.equal(null);
    await expect(el).to.be.accessible();

    // Another page, still showing its step, learns it when the payer comes back to it.
    replaced = false;
    const other = await mount(bff.fetch);
    await need(other, 'bank-account-picker');
    replaced = true;
    comeBack();
    const told = await need<LitElement>(other, 'bank-result');
    await until(() => text(told.shadowRoot!.querySelector('[part=message]')) === message, 'the message after a read');
  });

  it('reads nothing when its window first gets the focus (the payer’s first click into the checkout’s frame), and reads at a return', async () => {
    const bff = fakeBff({ 'GET /v1/checkout': () => accounts() });
    const el = await mount(bff.fetch);
    await inStep(el, 'bank-account-picker', 'input');
    const reads = () => bff.calls.filter((c) => c.method === 'GET' && c.path === '/v1/checkout').length;
    const before = reads();
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    window.dispatchEvent(new FocusEvent('focus'));
    window.dispatchEvent(new FocusEvent('focus'));
    // A read the focus started would have been sent before the return's (both start in the same task).
    comeBack();
    await until(() => reads() > before, 'a read when the payer comes back');
    expect(reads(), 'that one only: none at the first focus').to.equal(before + 1);
  });

  it('follows another window when the payer comes back to this one, focus on the new step', async () => {
    let current = accounts();
    const bff = fakeBff({ 'GET /v1/checkout': () => current });
    const el = await mount(bff.fetch);
    await inStep(el, 'bank-account-picker', 'input');
    current = challenge();
    comeBack();
    await inStep(el, 'bank-challenge', 'form');
    expect(text(el.shadowRoot!.querySelector('[part=notice]'))).to.contain('moved on in another window');
    await until(() => focused()?.localName === 'h2', 'focus on the step heading');
  });

  it('asks before a Back that ends the bank session, and lands on the same bank’s sign-in with the user kept', async () => {
    let current: CheckoutView = view({ state: 'login', bank: AURORA });
    const bff = fakeBff({
      'GET /v1/checkout': () => current,
      'POST /v1/checkout/login': () => (current = accounts()),
      'POST /v1/checkout/back': () => (current = view({ state: 'login', bank: AURORA })),
    });
    const el = await mount(bff.fetch);
    const form = await need<LitElement>(el, 'bank-login-form');
    const [user, secret] = await until(() => {
      const inputs = form.shadowRoot!.querySelectorAll<HTMLInputElement>('input:not([type=radio])');
      return inputs.length >= 2 && [...inputs];
    }, 'the login fields');
    type(user!, '12345678Z');
    type(secret!, '135790');
    form.shadowRoot!.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await inStep(el, 'bank-account-picker', 'input');

    const back = await until(() => el.shadowRoot!.querySelector<HTMLButtonElement>('[part=back] button'), 'Back');
    back.click();
    await el.updateComplete;
    expect(text(el.shadowRoot!.querySelector('#back-question'))).to.equal(
      `Going back signs you out of ${AURORA.label}: you will sign in again, with the user you typed.`,
    );
    expect(
      bff.calls.some((c) => c.path === '/v1/checkout/back'),
      'nothing sent before the payer answers',
    ).to.equal(false);
    expect(focused()?.textContent.trim()).to.equal('No, stay here');
    await expect(el).to.be.accessible();
    const yes = [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part=back] button')].find((b) => b.textContent.trim() === 'Yes, go back')!;
    yes.click();
    await until(() => current.state === 'login' && !el.shadowRoot!.querySelector('bank-account-picker'), 'back at the sign-in');
    const again = await need<LitElement>(el, 'bank-login-form');
    expect(again).to.equal(form, 'the same form, still holding the identity');
    await until(() => !again.hidden, 'the form shows');
    await again.updateComplete;
    const fields = [...again.shadowRoot!.querySelectorAll<HTMLInputElement>('input:not([type=radio])')];
    expect(fields.map((f) => f.value)).to.deep.equal(['12345678Z', '']);
    expect(text(again.shadowRoot!.querySelector('h2'))).to.equal(`Sign in to ${AURORA.label}`);
  });

  it('goes back to the contracts without asking while the bank session goes on', async () => {
    const bff = fakeBff({
      'GET /v1/checkout': () => accounts({}, 'select-contract'),
      'POST /v1/checkout/back': () =>
        view({
          state: 'select-contract',
          bank: bankRef,
          contracts: [
            { contractId: 'C1', info: 'Contrato 1' },
            { contractId: 'C2', info: 'Contrato 2' },
          ],
        }),
    });
    const el = await mount(bff.fetch);
    (await until(() => el.shadowRoot!.querySelector<HTMLButtonElement>('[part=back] button'), 'Back')).click();
    await inStep(el, 'bank-contract-picker', 'input');
    expect(el.shadowRoot!.querySelector('#back-question')).to.equal(null);
  });

  it('marks the accounts the bank refused, in words', async () => {
    const v = accounts({ error: { code: 'B106', message: 'error.B106' } });
    if (v.step.state === 'select-account') v.step.accounts[1]!.refused = true;
    const el = await mount(fakeBff({ 'GET /v1/checkout': () => v }).fetch);
    const picker = await need<LitElement>(el, 'bank-account-picker');
    await until(() => picker.shadowRoot!.querySelectorAll('[part=option]').length === 2, 'the accounts');
    const options = [...picker.shadowRoot!.querySelectorAll('[part=option]')].map(text);
    expect(options[0]).not.to.contain('Refused');
    expect(options[1]).to.contain('Refused by your bank');
    // Seen: set apart from the balance, in the error colour, the option edged in it.
    const [plain, refused] = [...picker.shadowRoot!.querySelectorAll<HTMLElement>('[part=option]')];
    const flag = refused!.querySelector<HTMLElement>('[part=flag]')!;
    expect(text(flag)).to.equal('Refused by your bank');
    expect(plain!.querySelector('[part=flag]')).to.equal(null);
    const detail = refused!.querySelector<HTMLElement>('[part=detail]')!;
    expect(text(detail)).not.to.contain('Refused');
    expect(getComputedStyle(flag).color).not.to.equal(getComputedStyle(detail).color);
    expect(getComputedStyle(refused!).borderLeftColor).to.equal(getComputedStyle(flag).color);
    expect(getComputedStyle(plain!).borderLeftColor).not.to.equal(getComputedStyle(flag).color);
    // Heard: the words are part of the radio's name (its label wraps them).
    expect(refused!.querySelector('input')!.labels![0]!.textContent).to.contain('Refused by your bank');
    await expect(el).to.be.accessible();
  });

  it('on a 375 px phone: the way to pay on one line, the summary folded, the first field within 560 px (a bank of three login types)', async () => {
    await setViewport({ width: 375, height: 700 });
    const over = { sandbox: true, modes: ['native', 'redirect', 'periodic'] as CheckoutView['modes'] };
    const bff = fakeBff({ 'GET /v1/checkout': () => view({ state: 'select-bank' }, over), 'GET /v1/banks': () => ({ status: 200, body: { groups: GROUPS } }) });
    const el = await mount(bff.fetch, { mode: 'native' });
    // As wide as the demo shop's page gives it on a 375 px phone (its margins).
    el.style.width = '357px';
    const modes = await need(el, '[part=modes]');
    await until(() => modes.querySelector('[part=modes-change]'), 'the chosen way, on one line');
    expect(modes.querySelectorAll('input[type=radio]')).to.have.length(0);
    const details = el.shadowRoot!.querySelector<HTMLDetailsElement>('[part=summary-details]')!;
    expect(details.open).to.equal(false);
    expect(text(el.shadowRoot!.querySelector('[part=amount]'))).to.equal('€42.50');
    const option = await inStep(el, 'bank-selector', '[role=option]');
    option.click();
    const input = await inStep<HTMLInputElement>(el, 'bank-login-form', 'input:not([type=radio])');
    const offset = input.getBoundingClientRect().top - el.getBoundingClientRect().top;
    expect(offset, `the first field starts ${Math.round(offset)} px down the checkout`).to.be.below(560);
    await expect(el).to.be.accessible();

    // "Change" opens the choice again, focus on the chosen way.
    modes.querySelector<HTMLButtonElement>('[part=modes-change]')!.click();
    await until(() => el.shadowRoot!.querySelectorAll('[part=modes] input[type=radio]').length === 3, 'the choices');
    expect(focused()).to.equal(el.shadowRoot!.querySelector('[part=modes] input:checked'));
  });
});

/** The simulator's kind of card: an SVG drawing of a 3 × 3 grid. */
function svgCard(): string {
  const cols = ['A', 'B', 'C'];
  const parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="200" height="130"><text x="100" y="14">Tarjeta de coordenadas</text>'];
  cols.forEach((c, i) => parts.push(`<text x="${50 + 50 * i}" y="36">${c}</text>`));
  for (const r of [1, 2, 3]) {
    parts.push(`<text x="12" y="${40 + 28 * r}">${r}</text>`);
    cols.forEach((c, i) => parts.push(`<text x="${50 + 50 * i}" y="${40 + 28 * r}">${i + 1}${r}${i + 1}${r}</text>`));
  }
  return `data:image/svg+xml;base64,${btoa(`${parts.join('')}</svg>`)}`;
}

describe('<bank-challenge> read without sight', () => {
  const render = async (v: CheckoutView, clock = manualClock()) => {
    const el = await fixture<BankChallenge>(html`<bank-challenge locale="en" .clock=${clock} .view=${v}></bank-challenge>`);
    await until(() => el.shadowRoot!.querySelector('form'), 'the form');
    return el;
  };
  const at = (
    clock: ReturnType<typeof manualClock>,
    seconds: number,
    over: Partial<CheckoutView> = {},
    validations = [validation(5, { fieldId: 'card', value: svgCard(), label: 'Valor de la coordenada B2 de la tarjeta mostrada' })],
  ) => view({ state: 'validate', bank: bankRef, round: 1, deadline: new Date(clock.now() + seconds * 1000).toISOString(), validations }, over);

  it('shows the coordinates card as a table of rows and columns, the cell asked for marked in words and tied to the field', async () => {
    const clock = manualClock();
    const el = await render(at(clock, 90), clock);
    const table = el.shadowRoot!.querySelector('table[part=card]')!;
    expect([...table.querySelectorAll('th[scope=col]')].map(text)).to.deep.equal(['A', 'B', 'C']);
    expect([...table.querySelectorAll('th[scope=row]')].map(text)).to.deep.equal(['1', '2', '3']);
    const asked = table.querySelector<HTMLElement>('[part=card-asked]')!;
    expect(text(asked)).to.equal('2222 (asked for: B2)');
    expect(el.shadowRoot!.querySelector('img'), 'the data, not a picture of it').to.equal(null);
    const input = el.shadowRoot!.querySelector<HTMLInputElement>('input')!;
    expect(input.getAttribute('aria-describedby')!.split(' ')).to.include(asked.id);
    await expect(el).to.be.accessible();
  });

  it('marks a code the bank refused as invalid, tied to the bank’s message', async () => {
    const clock = manualClock();
    const el = await render(at(clock, 90, { error: { code: 'B103', message: 'error.B103' } }, [validation(1, { fieldId: 'smsCode' })]), clock);
    const input = el.shadowRoot!.querySelector<HTMLInputElement>('input')!;
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    const alert = el.shadowRoot!.querySelector('[role=alert]')!;
    expect(input.getAttribute('aria-describedby')!.split(' ')).to.include(alert.id);
    await expect(el).to.be.accessible();
  });

  it('announces the time really left when it opens late (after a reload), and brings focus to the alert when time is up', async () => {
    const clock = manualClock();
    const el = await render(at(clock, 63, {}, [validation(1, { fieldId: 'smsCode' })]), clock);
    expect(text(el.shadowRoot!.querySelector('[role=timer]'))).to.equal('1:03');
    expect(text(el.shadowRoot!.querySelector('[role=status]'))).to.equal('63 seconds left to confirm the payment.');
    el.shadowRoot!.querySelector<HTMLInputElement>('input')!.focus();
    clock.advance(63);
    await until(() => focused()?.getAttribute('role') === 'alert', 'focus on the alert');
    expect(text(focused())).to.equal('Time is up: your bank cancelled the operation.');
  });
});
