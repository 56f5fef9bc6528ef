/**
 * Whole native journeys of `<bank-checkout>` in Chromium against the real BFF and simulator
 * (started by the test runner's `journey-servers` plugin on first use): bank choice to success,
 * and to a failure when the payer answers a challenge with `0000`.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '@bank-checkout/elements';
import type { BankCheckout } from '@bank-checkout/elements';
import type { CheckoutView } from '@bank-checkout/contract';
import { type, until } from '../../packages/elements/test/fixtures.js';
import { until as untilAnswered } from '../../packages/bff/test/until.js';

interface Journey {
  bffUrl: string;
  clientSecret: string;
}

async function newCheckout(): Promise<Journey> {
  const res = await fetch('/__journey/checkout');
  expect(res.status, 'journey checkout created').to.equal(200);
  return (await res.json()) as Journey;
}

/** Waits for `check` to hold; real servers answer in milliseconds, 10 s is the ceiling. */
const waitFor = <T>(check: () => T | null | undefined | false, what: string) => until(check, what, 10_000);
/** Waits for what the BFF says to hold, asking it every 30 ms (10 s at most). */
const poll = <T>(check: () => Promise<T | null | undefined | false>, what: string) => untilAnswered(check, what, 10_000, 30);

const stepTag = (el: BankCheckout) => el.shadowRoot!.querySelector('.step')?.lastElementChild?.localName;
const stepEl = (el: BankCheckout, tag: string) => (stepTag(el) === tag ? el.shadowRoot!.querySelector<HTMLElement>(`.step > ${tag}`) : null);
const text = (el: Element | null | undefined) => el?.textContent.replace(/\s+/g, ' ').trim() ?? '';

async function submit(host: HTMLElement) {
  const button = await waitFor(() => host.shadowRoot!.querySelector<HTMLButtonElement>('button[type=submit]:not([disabled])'), `${host.localName} submit`);
  button.click();
}

/** What the BFF shows the element now (read with the checkout's own secret, as the element does). */
async function current(j: Journey): Promise<CheckoutView> {
  const res = await fetch(`${j.bffUrl}/v1/checkout`, { headers: { 'X-Checkout-Secret': j.clientSecret } });
  return (await res.json()) as CheckoutView;
}

/** From the bank list to the transfer's first challenge, with the bank's test values. */
async function toChallenge(j: Journey, bankId: string) {
  const el = await fixture<BankCheckout>(html`<bank-checkout api=${j.bffUrl} checkout-secret=${j.clientSecret} locale="en"></bank-checkout>`);
  const completions: unknown[] = [];
  el.addEventListener('bank-checkout-complete', (e) => completions.push((e as CustomEvent).detail));

  const selector = await waitFor(() => stepEl(el, 'bank-selector'), 'bank selector');
  const option = await waitFor(() => selector.shadowRoot!.querySelector<HTMLElement>(`#bank-${bankId}`), `bank ${bankId}`);
  expect(text(el.shadowRoot!.querySelector('[part=amount]'))).to.equal('€42.50');
  option.click();

  const login = await waitFor(() => stepEl(el, 'bank-login-form'), 'login form');
  await waitFor(() => login.shadowRoot!.querySelector('[part=fill-test]'), 'fill test values').then((b) => (b as HTMLButtonElement).click());
  await submit(login);

  const account = await waitFor(() => stepEl(el, 'bank-account-picker'), 'account picker');
  (await waitFor(() => account.shadowRoot!.querySelector<HTMLInputElement>('input[type=radio]'), 'first account')).click();
  await submit(account);

  const challenge = await waitFor(() => stepEl(el, 'bank-challenge'), 'challenge');
  const view = await current(j);
  expect(view.state).to.equal('validate');
  return { el, challenge, view, completions };
}

describe('<bank-checkout> against the real BFF and simulator', () => {
  // Each journey is a payer new to this device (no bank remembered from the one before).
  beforeEach(() => localStorage.clear());

  it('pays from bank choice to success', async () => {
    const j = await newCheckout();
    const { el, challenge, view, completions } = await toChallenge(j, 'aurora');
    if (view.step.state !== 'validate') throw new Error('not validating');
    const inputs = [...challenge.shadowRoot!.querySelectorAll<HTMLInputElement>('input')];
    expect(inputs.length).to.equal(view.step.validations.length);
    view.step.validations.forEach((v, i) => type(inputs[i]!, v.testValue!));
    await submit(challenge);

    const result = await waitFor(() => stepEl(el, 'bank-result'), 'result');
    expect(text(result.shadowRoot!.querySelector('h2'))).to.equal('Payment completed');
    expect((await current(j)).state).to.equal('succeeded');
    expect(completions).to.deep.equal([{ checkoutId: view.id, outcome: 'succeeded', code: null }]);
    await expect(el).to.be.accessible();
  });

  it('gives a fresh challenge after a wrong code (0000) while attempts are left, says so, then stops and says why', async () => {
    const j = await newCheckout();
    const { el, challenge, view, completions } = await toChallenge(j, 'aurora');
    let ch = challenge;
    for (let round = 1; round <= 3; round++) {
      for (const input of ch.shadowRoot!.querySelectorAll<HTMLInputElement>('input')) type(input, '0000');
      await submit(ch);
      if (round === 3) break;
      await poll(async () => (await current(j)).attemptsLeft === 3 - round, 'the attempt spent');
      ch = await waitFor(() => stepEl(el, 'bank-challenge'), 'the challenge again');
      await until(() => /Attempts left: /.test(text(ch.shadowRoot!.querySelector('[part=error]'))), 'the message and the attempts left');
      expect(text(ch.shadowRoot!.querySelector('[part=error]'))).to.contain(`Attempts left: ${3 - round}`);
      expect(text(ch.shadowRoot!.querySelector('[part=error]'))).to.contain('The confirmation code was not correct.');
      expect(ch.shadowRoot!.querySelector('.notice'), 'a fresh challenge is not "not approved yet"').to.equal(null);
      await expect(el).to.be.accessible();
    }
    const result = await waitFor(() => stepEl(el, 'bank-result'), 'result');
    const after = await current(j);
    expect(after.state).to.equal('failed');
    expect(after.error?.code).to.equal('attempts');
    expect(text(result.shadowRoot!.querySelector('h2'))).to.not.equal('Payment completed');
    expect(completions).to.deep.equal([{ checkoutId: view.id, outcome: 'failed', code: 'attempts' }]);
    await expect(el).to.be.accessible();
  });

  it('pays with the right code after a wrong one, at the fresh challenge', async () => {
    const j = await newCheckout();
    const { el, challenge, view, completions } = await toChallenge(j, 'aurora');
    for (const input of challenge.shadowRoot!.querySelectorAll<HTMLInputElement>('input')) type(input, '0000');
    await submit(challenge);
    const again = await waitFor(() => {
      const ch = stepEl(el, 'bank-challenge');
      return ch && /Attempts left: 2/.test(text(ch.shadowRoot!.querySelector('[part=error]'))) ? ch : null;
    }, 'a fresh challenge with two attempts left');
    const fresh = await current(j);
    if (fresh.step.state !== 'validate') throw new Error('not validating');
    const inputs = [...again.shadowRoot!.querySelectorAll<HTMLInputElement>('input')];
    fresh.step.validations.forEach((v, i) => type(inputs[i]!, v.testValue!));
    await submit(again);
    const result = await waitFor(() => stepEl(el, 'bank-result'), 'result');
    expect(text(result.shadowRoot!.querySelector('h2'))).to.equal('Payment completed');
    expect(completions).to.deep.equal([{ checkoutId: view.id, outcome: 'succeeded', code: null }]);
  });

  it("goes back from the account list to the same bank's sign-in after asking, and starts again after a cancellation", async () => {
    const j = await newCheckout();
    const el = await fixture<BankCheckout>(html`<bank-checkout api=${j.bffUrl} checkout-secret=${j.clientSecret} locale="en"></bank-checkout>`);
    const selector = await waitFor(() => stepEl(el, 'bank-selector'), 'bank selector');
    (await waitFor(() => selector.shadowRoot!.querySelector<HTMLElement>('#bank-aurora'), 'bank aurora')).click();
    const login = await waitFor(() => stepEl(el, 'bank-login-form'), 'login form');
    await waitFor(() => login.shadowRoot!.querySelector('[part=fill-test]'), 'fill test values').then((b) => (b as HTMLButtonElement).click());
    await submit(login);
    await waitFor(() => stepEl(el, 'bank-account-picker'), 'account picker');

    const back = await waitFor(() => el.shadowRoot!.querySelector<HTMLButtonElement>('[part=back] button:not([disabled])'), 'the back button');
    expect(text(back)).to.equal('Back');
    await expect(el).to.be.accessible();
    back.click();
    // Going back ends the bank session: asked first, focus on the answer that keeps it.
    const question = await waitFor(() => el.shadowRoot!.querySelector('#back-question'), 'the question');
    expect(text(question)).to.contain('Aurora');
    await waitFor(() => el.shadowRoot!.activeElement?.textContent.trim() === 'No, stay here', 'focus on "No, stay here"');
    await expect(el).to.be.accessible();
    // "No" keeps the accounts and the bank session.
    (el.shadowRoot!.activeElement as HTMLButtonElement).click();
    await waitFor(() => !el.shadowRoot!.querySelector('#back-question'), 'the question gone');
    const accounts = await waitFor(() => stepEl(el, 'bank-account-picker'), 'the accounts still there');
    expect(accounts.hidden).to.equal(false);
    expect((await current(j)).state).to.equal('select-account');
    (await waitFor(() => el.shadowRoot!.querySelector<HTMLButtonElement>('[part=back] button:not([disabled])'), 'the back button again')).click();
    await waitFor(() => el.shadowRoot!.querySelector('#back-question'), 'the question again');
    const yes = [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part=back] button')].find((b) => text(b) === 'Yes, go back')!;
    yes.click();
    // The same bank's sign-in (the form that was hidden behind the accounts shows again).
    await waitFor(() => {
      const form = stepEl(el, 'bank-login-form');
      return form && !form.hidden && !el.shadowRoot!.querySelector('#back-question');
    }, 'the sign-in shown');
    const signIn = await current(j);
    expect(signIn.state).to.equal('login');
    expect(signIn.step.state === 'login' && signIn.step.bank.bankId).to.equal('aurora');
    // The identity the payer typed is still there.
    const identity = stepEl(el, 'bank-login-form')!.shadowRoot!.querySelector<HTMLInputElement>('input:not([type=radio])');
    expect(identity?.value).to.not.equal('');

    // Cancel (confirmed), then "Try again" on the result.
    (await waitFor(() => el.shadowRoot!.querySelector<HTMLButtonElement>('[part=cancel] button'), 'cancel')).click();
    const buttons = await waitFor(() => {
      const all = [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part=cancel] button')];
      return all.length === 2 ? all : null;
    }, 'the confirmation');
    buttons[0]!.click();
    const result = await waitFor(() => stepEl(el, 'bank-result'), 'the result');
    // Focus follows to the result's heading, never dropped on the page.
    await waitFor(() => result.shadowRoot!.activeElement?.localName === 'h2', 'focus on the result');
    const retry = await waitFor(() => result.shadowRoot!.querySelector<HTMLButtonElement>('[part=retry]:not([disabled])'), 'try again');
    expect(text(retry)).to.equal('Try again');
    await expect(el).to.be.accessible();
    retry.click();
    await waitFor(() => stepEl(el, 'bank-selector'), 'the bank list after starting again');
    expect((await current(j)).state).to.equal('select-bank');
  });

  for (const bankId of ['levante', 'cantabrico', 'aurora-empresas']) {
    it(`pays at ${bankId} with only what the page shows: "Fill test values" at every step`, async () => {
      const j = await newCheckout();
      const el = await fixture<BankCheckout>(html`<bank-checkout api=${j.bffUrl} checkout-secret=${j.clientSecret} locale="en"></bank-checkout>`);
      const selector = await waitFor(() => stepEl(el, 'bank-selector'), 'bank selector');
      // A legal-person bank sits under its person type.
      if (bankId.endsWith('-empresas'))
        (await waitFor(() => selector.shadowRoot!.querySelectorAll<HTMLInputElement>('[part=person-type] input')[1], 'legal person')).click();
      (await waitFor(() => selector.shadowRoot!.querySelector<HTMLElement>(`#bank-${bankId}`), bankId)).click();
      for (let steps = 0; steps < 12; steps++) {
        const tag = await waitFor(() => stepTag(el) !== 'bank-selector' && !el.shadowRoot!.querySelector('[aria-busy=true]') && stepTag(el), 'a step');
        const host = el.shadowRoot!.querySelector<HTMLElement>(`.step > ${tag}`)!;
        if (tag === 'bank-result') break;
        if (tag === 'bank-contract-picker' || tag === 'bank-account-picker') {
          (await waitFor(() => host.shadowRoot!.querySelector<HTMLInputElement>('input[type=radio]'), 'first choice')).click();
        } else {
          const fill = await waitFor(() => host.shadowRoot!.querySelector<HTMLButtonElement>('[part=fill-test]:not([disabled])'), `fill test values in ${tag}`);
          fill.click();
          await (host as unknown as { updateComplete: Promise<unknown> }).updateComplete;
        }
        const before = JSON.stringify(await current(j));
        await submit(host);
        await poll(async () => JSON.stringify(await current(j)) !== before, `the BFF's answer to ${tag}`);
      }
      const result = await waitFor(() => stepEl(el, 'bank-result'), 'result');
      expect(text(result.shadowRoot!.querySelector('h2'))).to.equal('Payment completed');
    });
  }

  it('approving in the bank\'s app (type 6): the bank\'s words shown, "not yet" handled, then approved', async () => {
    const j = await newCheckout();
    const el = await fixture<BankCheckout>(html`<bank-checkout api=${j.bffUrl} checkout-secret=${j.clientSecret} locale="en"></bank-checkout>`);
    const selector = await waitFor(() => stepEl(el, 'bank-selector'), 'bank selector');
    (await waitFor(() => selector.shadowRoot!.querySelector<HTMLElement>('#bank-meridiano'), 'meridiano')).click();
    const login = await waitFor(() => stepEl(el, 'bank-login-form'), 'login form');
    (await waitFor(() => login.shadowRoot!.querySelector<HTMLButtonElement>('[part=fill-test]'), 'fill')).click();
    await submit(login);
    const account = await waitFor(() => stepEl(el, 'bank-account-picker'), 'account picker');
    (await waitFor(() => account.shadowRoot!.querySelector<HTMLInputElement>('input[type=radio]'), 'first account')).click();
    await submit(account);
    const challenge = await waitFor(() => stepEl(el, 'bank-challenge'), 'challenge');
    expect(text(challenge.shadowRoot!.querySelector('[part=device-label]'))).to.contain('app Meridiano');
    expect(text(challenge.shadowRoot!.querySelector('[part=device-instructions]'))).to.contain('confirme el pago');
    await expect(el).to.be.accessible();
    (await waitFor(() => challenge.shadowRoot!.querySelector<HTMLButtonElement>('[part=test-not-yet]:not([disabled])'), 'not yet')).click();
    await waitFor(() => /has not received the confirmation yet/.test(text(challenge.shadowRoot!.querySelector('.notice'))), 'the "not yet" message');
    expect((await current(j)).state).to.equal('validate');
    await expect(el).to.be.accessible();
    await submit(challenge);
    const result = await waitFor(() => stepEl(el, 'bank-result'), 'result');
    expect(text(result.shadowRoot!.querySelector('h2'))).to.equal('Payment completed');
  });
});
