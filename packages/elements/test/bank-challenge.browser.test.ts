import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../src/bank-challenge/bank-challenge.js';
import type { BankChallenge } from '../src/bank-challenge/bank-challenge.js';
import { createCheckoutClient, INDIRECT_SIGNED_VALUE } from '../src/client.js';
import type { ValidationView } from '@bank-checkout/contract';
import { CARD_IMAGE, allAttributeValues, fakeBff, type, until, validation, view, manualClock } from './fixtures.js';

const START = Date.UTC(2030, 0, 1);
const bank = { bankId: 'aurora', label: 'Banco Aurora' };

const q = <T extends Element = HTMLElement>(el: Element, sel: string) => el.shadowRoot!.querySelector(sel) as T;
const hints = (el: BankChallenge) => [...el.shadowRoot!.querySelectorAll('[part=hint]')].map((h) => h.textContent);
const deadline = (seconds: number) => new Date(START + seconds * 1000).toISOString();

async function render(validations: ValidationView[], opts: { seconds?: number; locale?: string; client?: ReturnType<typeof createCheckoutClient> } = {}) {
  const clock = manualClock();
  const v = view({ state: 'validate', bank, round: 1, deadline: deadline(opts.seconds ?? 90), validations });
  const el = await fixture<BankChallenge>(
    html`<bank-challenge locale=${opts.locale ?? 'en'} .clock=${clock} .view=${v} .client=${opts.client}></bank-challenge>`,
  );
  return { el, clock, v };
}

describe('<bank-challenge>', () => {
  it("in test mode shows each validation's test value as text beside its fill button", async () => {
    const clock = manualClock();
    const v = view(
      {
        state: 'validate',
        bank,
        round: 1,
        deadline: deadline(90),
        validations: [
          validation(1, { testValue: '482913' }),
          validation(4, { fieldId: 'token', testValue: '613579' }),
          validation(6, { fieldId: 'app', testValue: 'SIGNED' }),
        ],
      },
      { sandbox: true },
    );
    const el = await fixture<BankChallenge>(html`<bank-challenge locale="en" .clock=${clock} .view=${v}></bank-challenge>`);
    await until(() => el.shadowRoot!.querySelectorAll('[part=test-value]').length === 2);
    expect([...el.shadowRoot!.querySelectorAll('[part=test-value]')].map((p) => p.textContent)).to.deep.equal(['Test value: 482913', 'Test value: 613579']);
    q<HTMLButtonElement>(el, '[part=fill-test]').click();
    await el.updateComplete;
    expect([...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input')].map((i) => i.value)).to.deep.equal(['482913', '613579']);
    await expect(el).to.be.accessible();
  });

  it('renders one widget per validation type 0–5 with its instructions', async () => {
    const { el } = await render([
      validation(0, { password: true }),
      validation(1, { value: '+34 6** *** 412' }),
      validation(2, { value: 'B3', password: true }),
      validation(3, { value: null }),
      validation(4),
      validation(5, { value: CARD_IMAGE, label: 'Coordenada C4' }),
    ]);
    expect(hints(el)).to.deep.equal([
      'Enter your signature code (operations key).',
      'Enter the code your bank sent by SMS to +34 6** *** 412.',
      'Enter the value at position B3 of your coordinates card.',
      'Your bank sent you a position by SMS: find it on your coordinates card and enter its value.',
      'Enter the code from your token or your bank’s app.',
      'Find the position asked for on the coordinates card shown, and enter its value.',
    ]);
    const inputs = [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input')];
    expect(inputs.map((i) => i.type)).to.deep.equal(['password', 'text', 'password', 'text', 'text', 'text']);
    expect(inputs.map((i) => i.autocomplete)).to.deep.equal(['off', 'one-time-code', 'off', 'off', 'off', 'off']);
    expect(inputs.every((i) => i.getAttribute('inputmode') === 'numeric')).to.equal(true);
    expect(q(el, '[part=position]').textContent).to.equal('B3');
    const img = q<HTMLImageElement>(el, 'img[part=card]');
    expect(img.getAttribute('src')).to.equal(CARD_IMAGE);
    expect(img.alt, 'the position asked for, as text').to.equal('Your coordinates card. Enter the value at: C4');
    expect(q(el, `label[for=${inputs[5]!.id}]`).textContent).to.equal('Value at C4 on the card shown');
    // The button names the amount it confirms (the isolated frame lets a press count with it on the screen, the summary scrolled away).
    expect(q(el, 'button[type=submit]').textContent.trim()).to.equal('Confirm payment of €42.50');
    await expect(el).to.be.accessible();
  });

  it('shows a type-3 position when the bank gives it, and never loads a card from an address', async () => {
    const { el } = await render([validation(3, { value: 'D2' }), validation(5, { value: 'https://tracker.example/card.png' })], { locale: 'es' });
    expect(hints(el)[0]).to.equal('Escribe el valor de la posición D2 de tu tarjeta de coordenadas, enviada por SMS.');
    expect(el.shadowRoot!.querySelector('img')).to.equal(null);
  });

  it('answers several validations of a round together, keyed by field id, then clears them', async () => {
    const bff = fakeBff({ 'POST /v1/checkout/validate': () => view({ state: 'succeeded' }) });
    const client = createCheckoutClient({ api: 'https://bff.test', secret: 's', fetch: bff.fetch });
    const { el } = await render([validation(0, { fieldId: 'signature', password: true }), validation(4, { fieldId: 'token' })], { client });
    const [sig, token] = [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input')];
    type(sig!, '2580');
    q<HTMLButtonElement>(el, 'button[type=submit]').click();
    await el.updateComplete;
    expect(bff.calls, 'the token is missing').to.have.length(0);
    expect(el.shadowRoot!.activeElement).to.equal(token);
    type(token!, '613579');
    expect(allAttributeValues(el.shadowRoot!).join('|')).not.to.contain('613579');
    const step = oneEvent(el, 'bank-checkout-step');
    q<HTMLButtonElement>(el, 'button[type=submit]').click();
    await el.updateComplete;
    expect([sig!.value, token!.value]).to.deep.equal(['', '']);
    const e = await step;
    expect(e.detail.state).to.equal('succeeded');
    expect(bff.calls[0]!.body).to.deep.equal({ values: { signature: '2580', token: '613579' } });
  });

  it('type 6: instructions, a waiting state, "done" sends SIGNED, and says when the bank has not seen it yet', async () => {
    const v6 = validation(6, { fieldId: 'appConfirmation', min: null, max: null });
    const bff = fakeBff({ 'POST /v1/checkout/validate': () => view({ state: 'validate', bank, round: 1, deadline: deadline(90), validations: [v6] }) });
    const client = createCheckoutClient({ api: 'https://bff.test', secret: 's', fetch: bff.fetch });
    const { el } = await render([v6], { client });
    expect(q(el, '[part=device]').textContent).to.contain(
      'Open your bank’s app on your other device and approve the payment. Then press “I have approved it”.',
    );
    expect(q(el, '.waiting').textContent).to.equal('Waiting for your approval in the app…');
    expect(el.shadowRoot!.querySelector('input')).to.equal(null);
    const done = q<HTMLButtonElement>(el, 'button[type=submit]');
    expect(done.textContent.trim()).to.equal('I have approved it');
    await expect(el).to.be.accessible();
    done.click();
    await until(() => el.shadowRoot!.querySelector('.notice'), 'not yet');
    expect(bff.calls[0]!.body).to.deep.equal({ values: { appConfirmation: INDIRECT_SIGNED_VALUE } });
    expect(q(el, '.notice').textContent).to.equal('Your bank has not received the confirmation yet. Try again.');
    // Pressed again, still not seen: the alert is a new one (said again), on either button.
    const v6Sandbox = view({ state: 'validate', bank, round: 1, deadline: deadline(90), validations: [v6] }, { sandbox: true });
    el.view = v6Sandbox;
    await el.updateComplete;
    for (const press of [() => done.click(), () => q<HTMLButtonElement>(el, '[part=test-not-yet]').click()]) {
      const before = q(el, '.notice');
      const calls = bff.calls.length;
      press();
      await until(
        () => bff.calls.length > calls && el.shadowRoot!.querySelector('.notice') && el.shadowRoot!.querySelector('.notice') !== before,
        'a new alert',
      );
      expect(q(el, '.notice').getAttribute('role')).to.equal('alert');
    }
  });

  it('counts down visibly, announces at the start and at 60, 30 and 10 seconds only, and closes at the deadline', async () => {
    const { el, clock } = await render([validation(1)], { seconds: 65 });
    const timer = q(el, '[role=timer]');
    const live = q(el, '[role=status]');
    expect(timer.textContent).to.equal('1:05');
    expect(live.textContent).to.equal('65 seconds left to confirm the payment.');
    const heard: string[] = [];
    const observer = new MutationObserver(() => heard.push(live.textContent));
    observer.observe(live, { childList: true, subtree: true, characterData: true });
    clock.advance(4);
    await el.updateComplete;
    expect(timer.textContent).to.equal('1:01');
    expect(live.textContent, 'no time that has passed is left to be read: the status empties a second after it spoke').to.equal('');
    clock.advance(1);
    await el.updateComplete;
    expect(live.textContent).to.equal('60 seconds left to confirm the payment.');
    // A language switch while it speaks: it speaks the new language.
    el.locale = 'es';
    await el.updateComplete;
    expect(live.textContent).to.equal('Quedan 60 segundos para confirmar el pago.');
    el.locale = 'en';
    await el.updateComplete;
    type(q<HTMLInputElement>(el, 'input'), '4829');
    clock.advance(30);
    await el.updateComplete;
    clock.advance(20);
    await el.updateComplete;
    expect(timer.textContent).to.equal('0:10');
    expect(q(el, '.countdown').classList.contains('low')).to.equal(true);
    const expired = oneEvent(el, 'bank-challenge-expire');
    for (let i = 0; i < 10; i++) {
      clock.advance(1);
      await el.updateComplete;
    }
    expect((await expired).detail.deadline).to.equal(deadline(65));
    observer.disconnect();
    expect(heard.filter((t, i) => t && t !== heard[i - 1])).to.deep.equal([
      '60 seconds left to confirm the payment.',
      'Quedan 60 segundos para confirmar el pago.',
      '60 seconds left to confirm the payment.',
      '30 seconds left to confirm the payment.',
      '10 seconds left to confirm the payment.',
      'Time is up: your bank cancelled the operation.',
    ]);
    expect(timer.textContent).to.equal('0:00');
    expect(el.shadowRoot!.querySelector('input'), 'the form is closed').to.equal(null);
    expect(q(el, '[role=alert]').textContent).to.equal('Time is up: your bank cancelled the operation.');
    await expect(el).to.be.accessible();
    el.remove();
    expect(clock.timers, 'no timer left running').to.equal(0);
  });

  it('starts a further round with empty fields and says so', async () => {
    const { el } = await render([validation(5, { value: CARD_IMAGE, label: 'Coordenada A1' })], { locale: 'es' });
    type(q<HTMLInputElement>(el, 'input'), '1234');
    el.view = view({ state: 'validate', bank, round: 2, deadline: deadline(90), validations: [validation(1, { fieldId: 'smsCode' })] });
    await el.updateComplete;
    // Headed by its number, in place of the first round's heading (no longer, so nothing under it moves).
    expect(q(el, 'h2').textContent.replace(/\s+/g, ' ').trim()).to.equal('Confirmación 2');
    expect(q<HTMLInputElement>(el, 'input').value).to.equal('');
    expect(q(el, '[role=status]').textContent).to.equal('Tu banco pide una confirmación más. Quedan 90 segundos para confirmar el pago.');
    await expect(el).to.be.accessible();
  });

  it('treats a deadline already past as expired at once', async () => {
    const { el } = await render([validation(1)], { seconds: -5 });
    expect(q(el, '[role=timer]').textContent).to.equal('0:00');
    expect(el.shadowRoot!.querySelector('input')).to.equal(null);
  });
});
