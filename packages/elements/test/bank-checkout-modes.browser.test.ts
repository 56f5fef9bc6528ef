import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../src/index.js';
import type { BankCheckout } from '../src/index.js';
import type { CheckoutMode, CheckoutView } from '@bank-checkout/contract';
import { systemClock } from '../src/bank-challenge/bank-challenge.js';
import {
  DEBTOR_IBAN,
  FIXED_NOW,
  GROUPS,
  PERIODIC_BANKS,
  apiError,
  deep,
  fakeBff,
  gate,
  inlineStyled,
  leave,
  manualClock,
  type,
  until,
  untilPolled,
  view,
  type FakeRoute,
  type ManualClock,
  text,
  paths,
  need,
  stepTag,
} from './fixtures.js';

const GATEWAY = 'https://gateway.example/pay/abc';
const SIGNED = 'https://gateway.example/periodic/xyz';
const ALL: CheckoutMode[] = ['native', 'redirect', 'periodic'];

interface Recorded {
  type: string;
  detail: unknown;
}
function record(el: EventTarget): Recorded[] {
  const seen: Recorded[] = [];
  for (const t of ['bank-checkout-step', 'bank-checkout-complete', 'bank-checkout-error', 'bank-periodic-submit'])
    el.addEventListener(t, (e) => seen.push({ type: t, detail: (e as CustomEvent).detail }));
  return seen;
}
const states = (events: Recorded[]) => events.filter((e) => e.type === 'bank-checkout-step').map((e) => (e.detail as { state: string }).state);
const completions = (events: Recorded[]) => events.filter((e) => e.type === 'bank-checkout-complete').map((e) => e.detail);

/** A fake BFF that switches modes as the real one does (redirect and periodic create a signed URL). */
function modesBff(start: CheckoutView, extra: Record<string, FakeRoute> = {}) {
  let current = start;
  const modes = start.modes;
  const set = (v: CheckoutView) => (current = v);
  const routes: Record<string, FakeRoute> = {
    'GET /v1/checkout': () => current,
    'GET /v1/banks': () => ({ status: 200, body: { groups: GROUPS } }),
    'POST /v1/checkout/mode': (b: { mode: CheckoutMode }) =>
      set(
        b.mode === 'periodic'
          ? view({ state: 'periodic', banks: PERIODIC_BANKS }, { mode: 'periodic', modes })
          : view({ state: 'select-bank' }, { mode: b.mode, modes }),
      ),
    'POST /v1/checkout/redirect': () => set(view({ state: 'redirect', url: GATEWAY }, { mode: 'redirect', modes })),
    'POST /v1/checkout/periodic': () => set(view({ state: 'redirect', url: SIGNED }, { mode: 'periodic', modes })),
    ...extra,
  };
  return { bff: fakeBff(routes), set, routes };
}

async function mount(fetch: typeof globalThis.fetch, opts: { locale?: string; mode?: CheckoutMode; visited?: string[]; clock?: ManualClock } = {}) {
  const visited = opts.visited ?? [];
  const el = await fixture<BankCheckout>(
    html`<bank-checkout
      api="https://bff.test"
      checkout-secret="cs_test"
      locale=${opts.locale ?? 'en'}
      mode=${opts.mode ?? ''}
      poll-interval="30"
      .fetch=${fetch}
      .navigate=${(u: string) => visited.push(u)}
      .clock=${opts.clock ?? { ...systemClock, now: () => FIXED_NOW }}
    ></bank-checkout>`,
  );
  return el;
}

const modeRadios = (el: BankCheckout) => [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('[part=modes] input[type=radio]')];
const checkedMode = (el: BankCheckout) => modeRadios(el).findIndex((r) => r.checked);

describe('<bank-checkout> modes', () => {
  it('offers the modes the merchant allowed, chosen by keyboard, with focus kept on the choice', async () => {
    const { bff } = modesBff(view({ state: 'select-bank' }, { modes: ALL }));
    const el = await mount(bff.fetch);
    const events = record(el);
    await need(el, 'bank-selector');
    await until(() => modeRadios(el).length === 3);
    expect(text(el.shadowRoot!.querySelector('[part=modes] legend'))).to.equal('How do you want to pay?');
    expect([...el.shadowRoot!.querySelectorAll('[part=modes] .choice-title')].map(text)).to.deep.equal([
      'Pay now from your bank',
      'Pay on your bank’s page',
      'Set up a periodic payment',
    ]);
    expect(checkedMode(el)).to.equal(0);
    await expect(el).to.be.accessible();

    modeRadios(el)[0]!.focus();
    await sendKeys({ press: 'ArrowDown' });
    const start = await need<HTMLButtonElement>(el, '[part=redirect-start]');
    expect(text(start)).to.equal('Pay at your bank’s website');
    expect(checkedMode(el)).to.equal(1);
    expect(
      bff.calls.filter((c) => c.method === 'POST'),
      'choosing redirect calls nothing yet',
    ).to.deep.equal([]);
    await expect(el).to.be.accessible();

    await sendKeys({ press: 'ArrowDown' });
    await until(() => stepTag(el) === 'bank-periodic-form', 'the periodic form');
    expect(bff.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).to.deep.equal([['/v1/checkout/mode', { mode: 'periodic' }]]);
    expect(el.shadowRoot!.activeElement, 'focus stays on the choice').to.equal(modeRadios(el)[2]);
    await expect(el).to.be.accessible();

    await sendKeys({ press: 'ArrowDown' });
    await until(() => stepTag(el) === 'bank-selector', 'back to native');
    expect(bff.calls.at(-1)!.body).to.deep.equal({ mode: 'native' });
    expect(checkedMode(el)).to.equal(0);
    expect(el.shadowRoot!.activeElement).to.equal(modeRadios(el)[0]);
    expect(states(events)).to.deep.equal(['select-bank', 'periodic', 'select-bank']);
  });

  it('fits the choice and the periodic form in 320 px, without inline styles', async () => {
    const { bff } = modesBff(view({ state: 'periodic', banks: PERIODIC_BANKS }, { mode: 'periodic', modes: ALL }));
    await setViewport({ width: 320, height: 640 });
    try {
      const el = await mount(bff.fetch, { locale: 'es' });
      const form = await need(el, 'bank-periodic-form');
      await until(() => form.shadowRoot!.querySelector('#pf-bank'));
      for (const host of [el, form]) {
        const frame = host.shadowRoot!.firstElementChild as HTMLElement;
        expect(frame.scrollWidth, `${host.localName} overflows at 320 px`).to.be.at.most(frame.clientWidth + 1);
      }
      expect(document.documentElement.scrollWidth).to.be.at.most(320);
      expect(inlineStyled(el.shadowRoot!)).to.deep.equal([]);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('says the periodic bank list could not be read, and reads it again on request', async () => {
    const { bff, set } = modesBff(view({ state: 'periodic', banks: [], banksError: 'upstream_timeout' }, { mode: 'periodic', modes: ALL }));
    const el = await mount(bff.fetch);
    const form = await need(el, 'bank-periodic-form');
    const alert = await until(() => form.shadowRoot!.querySelector('[part=error][role=alert]'), 'the alert');
    expect(text(alert.querySelector('p'))).to.equal('Your bank’s service did not answer in time. Try again in a moment.');
    expect(form.shadowRoot!.querySelector('[part=empty]')).to.equal(null);
    await expect(form).to.be.accessible();

    set(view({ state: 'periodic', banks: PERIODIC_BANKS }, { mode: 'periodic', modes: ALL }));
    const reads = bff.calls.filter((c) => c.method === 'GET' && c.path === '/v1/checkout').length;
    alert.querySelector('button')!.click();
    await until(() => form.shadowRoot!.querySelector('#pf-bank'), 'the bank list');
    expect(bff.calls.filter((c) => c.method === 'GET' && c.path === '/v1/checkout').length).to.equal(reads + 1);
    expect(form.shadowRoot!.querySelector('[part=error]')).to.equal(null);
  });

  it('follows a quick change of mind with one call at a time, the latest choice winning', async () => {
    const hold = gate();
    const { routes } = modesBff(view({ state: 'select-bank' }, { modes: ALL }));
    const slow = fakeBff({
      ...routes,
      'POST /v1/checkout/mode': async (b, c) => {
        await hold.promise;
        return routes['POST /v1/checkout/mode']!(b, c);
      },
    });
    const el = await mount(slow.fetch);
    await until(() => modeRadios(el).length === 3);
    modeRadios(el)[0]!.focus();
    await sendKeys({ press: 'ArrowUp' }); // → periodic: a call, held
    await until(() => slow.calls.some((c) => c.method === 'POST'));
    await sendKeys({ press: 'ArrowUp' }); // → redirect while the call is in flight
    expect(checkedMode(el)).to.equal(1);
    hold.open();
    await need(el, '[part=redirect-start]');
    expect(slow.calls.filter((c) => c.method === 'POST').map((c) => c.body)).to.deep.equal([{ mode: 'periodic' }]);
    await sendKeys({ press: 'ArrowUp' }); // → native: the BFF is in periodic, so it switches back
    await until(() => stepTag(el) === 'bank-selector');
    expect(slow.calls.filter((c) => c.method === 'POST').map((c) => c.body)).to.deep.equal([{ mode: 'periodic' }, { mode: 'native' }]);
  });

  it('switches to the preferred mode on load when the checkout allows it', async () => {
    const periodic = modesBff(view({ state: 'select-bank' }, { modes: ALL }));
    const a = await mount(periodic.bff.fetch, { mode: 'periodic' });
    await until(() => stepTag(a) === 'bank-periodic-form');
    expect(paths(periodic.bff.calls)).to.deep.equal(['GET /v1/checkout/start', 'POST /v1/checkout/mode'], 'no separate bank list call');
    expect(periodic.bff.calls[1]!.body).to.deep.equal({ mode: 'periodic' });
    // The shop's choice shows on one line; "Change" opens the choice on it.
    a.shadowRoot!.querySelector<HTMLButtonElement>('[part=modes-change]')!.click();
    await a.updateComplete;
    expect(checkedMode(a)).to.equal(2);

    const native = modesBff(view({ state: 'periodic', banks: PERIODIC_BANKS }, { mode: 'periodic', modes: ALL }));
    const b = await mount(native.bff.fetch, { mode: 'native' });
    await until(() => stepTag(b) === 'bank-selector');
    expect(native.bff.calls.filter((c) => c.method === 'POST').map((c) => c.body)).to.deep.equal([{ mode: 'native' }]);

    const redirect = modesBff(view({ state: 'select-bank' }, { modes: ALL }));
    const c = await mount(redirect.bff.fetch, { mode: 'redirect' });
    await need(c, '[part=redirect-start]');
    c.shadowRoot!.querySelector<HTMLButtonElement>('[part=modes-change]')!.click();
    await c.updateComplete;
    expect(checkedMode(c)).to.equal(1);
    expect(
      redirect.bff.calls.filter((x) => x.method === 'POST'),
      'the signed URL waits for the payer',
    ).to.deep.equal([]);

    const notAllowed = modesBff(view({ state: 'select-bank' }, { modes: ['native', 'redirect'] }));
    const d = await mount(notAllowed.bff.fetch, { mode: 'periodic' });
    await need(d, 'bank-selector');
    expect(notAllowed.bff.calls.filter((x) => x.method === 'POST')).to.deep.equal([]);
    expect(modeRadios(d)).to.have.length(2);

    const single = modesBff(view({ state: 'select-bank' }, { modes: ['native'] }));
    const e = await mount(single.bff.fetch, { mode: 'periodic' });
    await need(e, 'bank-selector');
    expect(e.shadowRoot!.querySelector('[part=modes]'), 'no choice with one mode').to.equal(null);
  });

  it('shows a failed switch and keeps the mode the checkout is in', async () => {
    const { bff } = modesBff(view({ state: 'select-bank' }, { modes: ALL }), { 'POST /v1/checkout/mode': () => apiError(409, 'mode_not_allowed') });
    const el = await mount(bff.fetch);
    await until(() => modeRadios(el).length === 3);
    modeRadios(el)[2]!.click();
    const notice = await need(el, '[part=notice]');
    expect(text(notice)).to.contain('This way of paying is not available for this payment.');
    await until(() => checkedMode(el) === 0);
    expect(stepTag(el)).to.equal('bank-selector');
    await until(bff.idle, 'every answer read');
    expect(
      paths(bff.calls).filter((p) => p.startsWith('POST')),
      'a failed switch is not repeated',
    ).to.deep.equal(['POST /v1/checkout/mode']);
    await expect(el).to.be.accessible();
  });

  it('sends the payer to the bank’s page with the URL the redirect call created', async () => {
    const visited: string[] = [];
    const { bff } = modesBff(view({ state: 'select-bank' }, { modes: ALL }));
    const clock = manualClock(FIXED_NOW);
    const el = await mount(bff.fetch, { mode: 'redirect', visited, clock });
    const events = record(el);
    (await need<HTMLButtonElement>(el, '[part=redirect-start]')).click();
    await until(() => visited.length, 'navigation');
    expect(visited).to.deep.equal([GATEWAY]);
    expect(paths(bff.calls)).to.deep.equal(['GET /v1/checkout/start', 'POST /v1/checkout/redirect']);
    expect(text(el.shadowRoot!.querySelector('h2'))).to.equal('Taking you to your bank…');
    expect((await need<HTMLAnchorElement>(el, '[part=redirect-link]')).href).to.equal(GATEWAY);
    expect(el.shadowRoot!.querySelector('[part=modes]'), 'no choice once on the way').to.equal(null);
    expect(states(events)).to.deep.equal(['select-bank', 'redirect']);
    await expect(el).to.be.accessible();
    await until(bff.idle, 'every answer read');
    expect(clock.timers, 'no checks while the page is leaving: none is set').to.equal(0);
  });

  it('back from the bank before the result: waits, checks with backoff, shows the result, completes once', async () => {
    let reads = 0;
    const visited: string[] = [];
    const waiting = view({ state: 'redirect', url: GATEWAY }, { mode: 'redirect', modes: ALL });
    const bff = fakeBff({ 'GET /v1/checkout': () => (++reads >= 4 ? view({ state: 'succeeded' }, { mode: 'redirect', modes: ALL }) : waiting) });
    const clock = manualClock(FIXED_NOW);
    const el = await mount(bff.fetch, { visited, clock });
    const events = record(el);
    const heading = await need(el, 'h2');
    expect(text(heading)).to.equal('Waiting for your bank');
    expect(text(el.shadowRoot!.querySelector('[part=step] p'))).to.contain('Do not pay again.');
    expect(el.shadowRoot!.querySelector<HTMLAnchorElement>('[part=redirect-link]')!.href).to.equal(GATEWAY);
    expect(text(el.shadowRoot!.querySelector('[part=redirect-check]'))).to.equal('Check again');
    expect(el.shadowRoot!.querySelector('[part=cancel] button'), 'the BFF allows cancel while waiting').to.not.equal(null);
    expect(el.shadowRoot!.querySelector('[part=modes]')).to.equal(null);
    await expect(el).to.be.accessible();

    const result = await untilPolled(clock, () => deep(el.shadowRoot!, 'bank-result'), 'bank-result');
    await until(() => text(result.shadowRoot!.querySelector('h2')) === 'Payment completed', 'the result');
    expect(visited, 'never sent to the bank again').to.deep.equal([]);
    expect(states(events)).to.deep.equal(['redirect', 'succeeded']);
    expect(completions(events)).to.deep.equal([{ checkoutId: 'chk_test', outcome: 'succeeded', code: null }]);
    await expect(el).to.be.accessible();
    await until(bff.idle, 'every answer read');
    expect(clock.timers, 'checks stop at the final state: none is set').to.equal(0);
    await (el as unknown as { refresh(): Promise<void> }).refresh();
    expect(completions(events), 'a later read does not complete again').to.have.length(1);
  });

  it('checks on demand, keeps checking through a failed check, and stops while off the page', async () => {
    let reads = 0;
    let offline = false;
    const bff = fakeBff({
      'GET /v1/checkout': () => {
        reads++;
        return offline ? new Error('offline') : view({ state: 'redirect', url: GATEWAY }, { mode: 'redirect', modes: ALL });
      },
    });
    const clock = manualClock(FIXED_NOW);
    const el = await mount(bff.fetch, { clock });
    await need(el, '[part=redirect-check]');
    offline = true;
    const failedFrom = reads;
    await untilPolled(clock, () => reads >= failedFrom + 2, 'checks go on after a failure');
    expect(el.shadowRoot!.querySelector('[part=notice]'), 'a background check fails quietly').to.equal(null);
    offline = false;

    const parent = el.parentElement!;
    el.remove();
    await until(bff.idle, 'every answer read');
    const stopped = reads;
    expect(clock.timers, 'no checks off the page: none is set').to.equal(0);
    parent.append(el);
    await untilPolled(clock, () => reads > stopped, 'checks resume on the page');

    const before = reads;
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part=redirect-check]')!.click();
    await until(() => reads > before);
  });

  it('sets up a periodic payment inside the checkout and goes to the signed page', async () => {
    const visited: string[] = [];
    const { bff } = modesBff(view({ state: 'periodic', banks: PERIODIC_BANKS }, { mode: 'periodic', modes: ['periodic'] }));
    const el = await mount(bff.fetch, { visited });
    const events = record(el);
    const form = await need(el, 'bank-periodic-form');
    const root = form.shadowRoot!;
    await until(() => root.querySelector('#pf-bank'));
    expect(el.shadowRoot!.querySelector('[part=modes]'), 'a single mode needs no choice').to.equal(null);
    await expect(el).to.be.accessible();

    const select = root.querySelector<HTMLSelectElement>('#pf-bank')!;
    select.value = 'group:20'; // Grupo Cantábrico: a group of one bank
    select.dispatchEvent(new Event('change'));
    await until(() => root.querySelectorAll('input[name=frequency]').length === 4);
    root.querySelectorAll<HTMLInputElement>('input[name=frequency]')[0]!.click();
    type(root.querySelector<HTMLInputElement>('#pf-iban')!, DEBTOR_IBAN.toLowerCase());
    const start = root.querySelector<HTMLInputElement>('#pf-start')!;
    expect(start.min).to.equal('2030-03-11', 'the checkout’s clock decides today');
    type(start, '2030-03-18');
    leave(start);
    await until(() => text(root.querySelector('[part=schedule]')) === 'It will be paid every Monday.');
    await expect(el).to.be.accessible();
    root.querySelector<HTMLButtonElement>('[part=submit]')!.click();

    await until(() => visited.length, 'navigation');
    expect(visited).to.deep.equal([SIGNED]);
    const body = { bankId: 'es-cantabrico', frequency: 'Weekly', debtorAccount: DEBTOR_IBAN, startDate: '2030-03-18' };
    expect(bff.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).to.deep.equal([['/v1/checkout/periodic', body]]);
    expect(events.filter((e) => e.type === 'bank-periodic-submit').map((e) => e.detail)).to.deep.equal([body]);
    expect(states(events)).to.deep.equal(['periodic', 'redirect']);
    expect(completions(events)).to.deep.equal([]);
  });

  it('speaks the payer’s language in the choice and the waiting state', async () => {
    const { bff, set } = modesBff(view({ state: 'select-bank' }, { modes: ALL }));
    const el = await mount(bff.fetch, { locale: 'es' });
    await until(() => modeRadios(el).length === 3);
    const titles = () => [...el.shadowRoot!.querySelectorAll('[part=modes] .choice-title')].map(text);
    expect(text(el.shadowRoot!.querySelector('[part=modes] legend'))).to.equal('¿Cómo quieres pagar?');
    expect(titles()).to.deep.equal(['Pagar ahora desde tu banco', 'Pagar en la página de tu banco', 'Configurar un pago periódico']);
    el.locale = 'ca';
    // Catalan loads on demand: the Spanish texts stay until it is in.
    await until(() => titles()[0] !== 'Pagar ahora desde tu banco');
    expect(titles()).to.deep.equal(['Paga ara des del teu banc', 'Paga a la pàgina del teu banc', 'Configura un pagament periòdic']);
    set(view({ state: 'redirect', url: GATEWAY }, { mode: 'redirect', modes: ALL }));
    await (el as unknown as { refresh(): Promise<void> }).refresh();
    await el.updateComplete;
    expect(text(el.shadowRoot!.querySelector('h2'))).to.equal('Esperant el teu banc');
    expect(text(el.shadowRoot!.querySelector('[part=redirect-link]'))).to.equal('Torna a la pàgina del teu banc');
    await expect(el).to.be.accessible();
  });
});
