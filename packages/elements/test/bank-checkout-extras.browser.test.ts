/**
 * Beyond the steps: finishing on the phone (a QR code of a single-use link, the desktop
 * following the result), the bank's own page in one tap when the in-page flow stops at a bank,
 * the printable receipt, and the funnel step in the kit's events.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../src/index.js';
import '../src/bank-result/receipt.js';
import type { BankCheckout } from '../src/index.js';
import type { BankReceipt } from '../src/bank-result/receipt.js';
import type { CheckoutMode, CheckoutView } from '@bank-checkout/contract';
import { systemClock } from '../src/bank-challenge/bank-challenge.js';
import { AURORA, FIXED_NOW, GROUPS, deep, fakeBff, until, view, type FakeRoute, text, paths } from './fixtures.js';

const GATEWAY = 'https://gateway.example/pay/abc';
const HANDOFF = 'https://bff.test/v1/handoff/chk_test.AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const ALL: CheckoutMode[] = ['native', 'redirect', 'periodic'];

function bffOf(start: CheckoutView, extra: Record<string, FakeRoute> = {}) {
  let current = start;
  const set = (v: CheckoutView) => (current = v);
  const routes: Record<string, FakeRoute> = {
    'GET /v1/checkout': () => current,
    'GET /v1/banks': () => ({ status: 200, body: { groups: GROUPS } }),
    'POST /v1/checkout/redirect': () => set(view({ state: 'redirect', url: GATEWAY }, { mode: 'redirect', modes: start.modes })),
    'POST /v1/checkout/restart': () => set(view({ state: 'select-bank' }, { modes: start.modes })),
    'POST /v1/checkout/bank': () => current,
    'POST /v1/checkout/handoff': () => ({ status: 200, body: { url: HANDOFF, expiresAt: new Date(FIXED_NOW + 600_000).toISOString() } }),
    ...extra,
  };
  return { bff: fakeBff(routes), set, routes };
}

async function mount(fetch: typeof globalThis.fetch, opts: { mode?: CheckoutMode; visited?: string[]; locale?: string; pollInterval?: number } = {}) {
  const visited = opts.visited ?? [];
  return fixture<BankCheckout>(
    html`<bank-checkout
      api="https://bff.test"
      checkout-secret="cs_test_secret"
      locale=${opts.locale ?? 'en'}
      mode=${opts.mode ?? ''}
      poll-interval=${opts.pollInterval ?? 30}
      .fetch=${fetch}
      .navigate=${(u: string) => visited.push(u)}
      .clock=${{ ...systemClock, now: () => FIXED_NOW }}
    ></bank-checkout>`,
  );
}

/** `host inner`: an element inside the shadow root of a kit element inside the checkout. */
const need = <T extends Element = HTMLElement>(el: Element, selector: string, timeoutMs?: number) =>
  until(
    () => {
      const [host, ...rest] = selector.split(' ');
      const h = deep(el.shadowRoot!, host!);
      return rest.length ? (h?.shadowRoot?.querySelector<T>(rest.join(' ')) ?? null) : (h as T | null);
    },
    selector,
    timeoutMs,
  );

describe('<bank-checkout> beyond the steps', () => {
  it('finishes on the phone: a QR code of a single-use link, no navigation here, and the result when the bank confirms', async () => {
    const visited: string[] = [];
    const { bff, set } = bffOf(view({ state: 'select-bank' }, { modes: ALL }));
    const el = await mount(bff.fetch, { mode: 'redirect', visited });
    const offer = await need<HTMLButtonElement>(el, 'bank-handoff [part=offer]');
    expect(text(offer)).to.equal('Continue on your phone');
    offer.click();
    const qr = await need<SVGElement>(el, 'bank-handoff [part=qr]');
    expect(visited, 'this page stays').to.deep.equal([]);
    expect(
      paths(bff.calls).filter((p) => p.startsWith('POST')),
      paths(bff.calls).join(),
    ).to.deep.equal(['POST /v1/checkout/redirect', 'POST /v1/checkout/handoff']);
    expect(qr.getAttribute('role')).to.equal('img');
    expect(qr.getAttribute('aria-label')).to.equal("QR code that opens your bank's page on your phone");
    expect(qr.querySelector('path')!.getAttribute('d')).to.match(/^M\d+ \d+h1v1h-1z/);
    expect(qr.hasAttribute('style')).to.equal(false);
    const link = await need<HTMLInputElement>(el, 'bank-handoff [part=link]');
    expect(link.value).to.equal(HANDOFF);
    const handoff = deep(el.shadowRoot!, 'bank-handoff')!;
    expect(handoff.shadowRoot!.innerHTML, 'the client secret is not in the code or the link').not.to.contain('cs_test_secret');
    expect(handoff.shadowRoot!.activeElement?.localName, 'focus on the code’s heading').to.equal('h2');
    // This page says what it does: it waits for the phone (not for a bank the payer has not been to).
    expect(text(handoff.shadowRoot!.querySelector('h2'))).to.equal('Waiting for your phone');
    expect(text(el.shadowRoot!.querySelector('[part=step]'))).to.equal('');
    expect(text(el.shadowRoot!.querySelector('[part=base]'))).not.to.contain('Waiting for your bank');
    await expect(el).to.be.accessible();

    // The phone pays; this page reads the checkout and shows the result with the receipt.
    set(view({ state: 'succeeded', bankReference: '7KQ2-M9XD-4HTA', paidAt: new Date(FIXED_NOW).toISOString() }, { mode: 'redirect', modes: ALL }));
    // (The checks come from the element's own polling; a page in the background runs its timers once a second.)
    const receipt = await need(el, 'bank-receipt [part=receipt]', 15_000);
    expect(text(receipt)).to.contain('7KQ2-M9XD-4HTA');
    expect(visited).to.deep.equal([]);
  });

  it('learns within seconds, by itself, that the phone used the code or that it expired: the dead code goes, a new one is offered', async () => {
    const expiresAt = new Date(Date.now() + 600_000).toISOString();
    const atBank = (handoff?: { state: 'open' | 'used' | 'expired'; expiresAt: string }) =>
      view({ state: 'redirect', url: GATEWAY, ...(handoff ? { handoff } : {}) }, { mode: 'redirect', modes: ALL });
    const { bff, set, routes } = bffOf(view({ state: 'select-bank' }, { modes: ALL }), {
      'POST /v1/checkout/handoff': () => ({ status: 200, body: { url: HANDOFF, expiresAt } }),
    });
    // The checkout's own checks a minute apart: whatever reads the checkout sooner is the code's watch.
    const el = await mount(bff.fetch, { mode: 'redirect', locale: 'gl', pollInterval: 60_000 });
    (await need<HTMLButtonElement>(el, 'bank-handoff [part=offer]')).click();
    await need(el, 'bank-handoff [part=qr]');
    const asked = bff.calls.find((c) => c.path === '/v1/checkout/handoff');
    expect(asked?.body, 'the phone’s page speaks the checkout’s language').to.deep.equal({ locale: 'gl' });
    set(atBank({ state: 'used', expiresAt }));
    const reads = bff.calls.length;
    const status = await need(el, 'bank-handoff [part=handoff-status]');
    await until(() => text(status) !== '', 'the code’s fate, told', 5_000);
    expect(bff.calls.slice(reads).map((c) => `${c.method} ${c.path}`)).to.include('GET /v1/checkout');
    expect(text(status)).to.equal('O código abriuse no móbil: continúa alí. Esta páxina amosa o resultado en canto o teu banco o confirme.');
    const handoff = deep(el.shadowRoot!, 'bank-handoff')!.shadowRoot!;
    expect(handoff.querySelector('[part=qr]'), 'the used code is not shown to be scanned again').to.equal(null);
    expect(handoff.querySelector('[part=link]')).to.equal(null);
    expect(text(handoff.querySelector('[part=renew]'))).to.equal('Amosar un código novo');
    await expect(el).to.be.accessible();

    // A new code; then time passes it by: expired, told without waiting for the checkout.
    const soon = new Date(Date.now() + 300).toISOString();
    routes['POST /v1/checkout/handoff'] = () => ({ status: 200, body: { url: `${HANDOFF}x`, expiresAt: soon } });
    set(atBank({ state: 'open', expiresAt: soon }));
    handoff.querySelector<HTMLButtonElement>('[part=renew]')!.click();
    await until(() => handoff.querySelector('[part=qr]'), 'the new code');
    await until(() => text(handoff.querySelector('[part=handoff-status]')) === 'Este código caducou: amosa un novo para continuar no móbil.', 'expired', 5_000);
    expect(handoff.querySelector('[part=qr]')).to.equal(null);
  });

  it('offers the phone for a periodic order as a toggle the payer can take back', async () => {
    const { bff } = bffOf(view({ state: 'periodic', banks: [] }, { mode: 'periodic', modes: ['periodic', 'redirect'] }));
    const el = await mount(bff.fetch);
    const toggle = await need<HTMLButtonElement>(el, 'bank-handoff [part=offer]');
    expect(toggle.getAttribute('aria-pressed')).to.equal('false');
    toggle.click();
    await until(() => toggle.getAttribute('aria-pressed') === 'true', 'pressed');
    toggle.click();
    await until(() => toggle.getAttribute('aria-pressed') === 'false', 'released');
  });

  it('offers the same bank at its own page when its sign-in fails upstream, in one tap, focus on the offer first', async () => {
    const visited: string[] = [];
    const failed = view({ state: 'login', bank: AURORA }, { modes: ['native', 'redirect'], error: { code: 'upstream', message: 'error.upstream' } });
    const { bff } = bffOf(failed);
    const el = await mount(bff.fetch, { visited });
    const start = await need<HTMLButtonElement>(el, 'bank-rail-offer [part=rail-start]');
    expect(text(start)).to.equal(`Pay at the page of ${AURORA.label}`);
    await el.focusStep();
    const offer = deep(el.shadowRoot!, 'bank-rail-offer')!;
    expect(offer.shadowRoot!.activeElement?.id, 'focus on the offer, above the step: reading on meets it first').to.equal('rail-title');
    expect(text(offer.shadowRoot!.activeElement)).to.equal('Pay at your bank’s own page');
    await expect(el).to.be.accessible();
    start.click();
    await until(() => visited.length === 1, 'navigated');
    expect(visited).to.deep.equal([GATEWAY]);
    expect(paths(bff.calls).filter((p) => p.startsWith('POST'))).to.deep.equal(['POST /v1/checkout/redirect']);
  });

  it('after a technical refusal that ended the payment (B108), starts again at the bank’s page in one tap; none when redirect is not allowed', async () => {
    const visited: string[] = [];
    const { bff } = bffOf(view({ state: 'failed' }, { modes: ['native', 'redirect'], error: { code: 'B108', message: 'error.B108' } }));
    const el = await mount(bff.fetch, { visited, locale: 'es' });
    const start = await need<HTMLButtonElement>(el, 'bank-rail-offer [part=rail-start]');
    expect(text(start)).to.equal('Pagar en la página de tu banco');
    start.click();
    await until(() => visited.length === 1, 'navigated');
    expect(paths(bff.calls).filter((p) => p.startsWith('POST'))).to.deep.equal(['POST /v1/checkout/restart', 'POST /v1/checkout/redirect']);

    const nativeOnly = bffOf(view({ state: 'select-bank' }, { modes: ['native'], error: { code: 'B104', message: 'error.B104' } }));
    const other = await mount(nativeOnly.bff.fetch);
    await need(other, 'bank-selector');
    await until(() => customElements.get('bank-rail-offer'), 'extras loaded');
    await other.updateComplete;
    expect(deep(other.shadowRoot!, 'bank-rail-offer')!.shadowRoot!.querySelector('[part=rail]')).to.equal(null);
  });

  it('a bank in maintenance, chosen: says so, offers its own page (the checkout allows it) or another bank; its page in one tap', async () => {
    const visited: string[] = [];
    const { bff } = bffOf(view({ state: 'select-bank' }, { modes: ['native', 'redirect'] }));
    const el = await mount(bff.fetch, { visited, locale: 'ca' });
    (await need(el, 'bank-selector #bank-norte')).click();
    const panel = await need(el, 'bank-maintenance [part=maintenance]');
    const inside = deep(el.shadowRoot!, 'bank-maintenance')!.shadowRoot!;
    await until(() => inside.activeElement?.id === 'title', 'focus on what it says');
    expect(text(panel.querySelector('h2'))).to.equal('Banco Norte està en manteniment');
    expect(text(panel.querySelector('p'))).to.equal('Ara mateix no es pot fer servir aquí. Pots pagar a la seva pàgina o triar un altre banc.');
    expect(deep(el.shadowRoot!, 'bank-login-form'), 'no sign-in for it').to.equal(null);
    await expect(el).to.be.accessible();
    // Another bank: back to the list.
    panel.querySelector<HTMLButtonElement>('[part=other]')!.click();
    (await need(el, 'bank-selector #bank-norte')).click();
    const page = await need<HTMLButtonElement>(el, 'bank-maintenance [part=page]');
    expect(text(page)).to.equal('Paga a la pàgina de Banco Norte');
    page.click();
    await until(() => visited.length === 1, 'to the bank’s page');
    // Each choice of the bank in maintenance told to the BFF, for the merchant's funnel (the bank counts as chosen).
    expect(paths(bff.calls).filter((p) => p.startsWith('POST'))).to.deep.equal([
      'POST /v1/checkout/bank',
      'POST /v1/checkout/bank',
      'POST /v1/checkout/redirect',
    ]);
    expect(bff.calls.filter((c) => c.path === '/v1/checkout/bank').map((c) => c.body)).to.deep.equal([{ bankId: 'norte' }, { bankId: 'norte' }]);

    // Without the bank's-page method: another bank, or later.
    const nativeOnly = bffOf(view({ state: 'select-bank' }, { modes: ['native'] }));
    const other = await mount(nativeOnly.bff.fetch);
    (await need(other, 'bank-selector #bank-norte')).click();
    const only = await need(other, 'bank-maintenance [part=maintenance]');
    expect(only.querySelector('[part=page]')).to.equal(null);
    expect(text(only.querySelector('p'))).to.equal('It cannot be used here right now. Choose another bank, or come back later.');
  });

  it('names the funnel step and the bank in bank-checkout-step', async () => {
    const { bff } = bffOf(view({ state: 'select-account', bank: { bankId: 'aurora', label: 'Aurora' }, accounts: [] }));
    const seen: unknown[] = [];
    const el = document.createElement('bank-checkout');
    el.addEventListener('bank-checkout-step', (e) => seen.push(e.detail));
    Object.assign(el, { api: 'https://bff.test', checkoutSecret: 'cs', fetch: bff.fetch, locale: 'en' });
    document.body.append(el);
    await until(() => seen.length === 1, 'step event');
    expect(seen[0]).to.deep.equal({ checkoutId: 'chk_test', state: 'select-account', previous: null, funnel: 'signed-in', bankId: 'aurora' });
    el.remove();
  });
});

describe('<bank-receipt>', () => {
  const paid = view({
    state: 'succeeded',
    paidAt: new Date(FIXED_NOW).toISOString(),
    payingBank: 'Banco Aurora · Particulares',
    account: 'ES •••• 2345',
    bankReference: '7KQ2-M9XD-4HTA',
  });
  const rows = (el: BankReceipt) => [...el.shadowRoot!.querySelectorAll('dt')].map((dt) => `${text(dt)}: ${text(dt.nextElementSibling)}`);

  it('says the payment was completed, with amount, payee, concept, reference, bank, account (masked), the bank’s reference and the date, and prints only itself', async () => {
    const el = await fixture<BankReceipt>(html`<bank-receipt locale="es" .view=${paid}></bank-receipt>`);
    expect(text(el.shadowRoot!.querySelector('[part=receipt-status]'))).to.equal('✓ Pago completado');
    expect(rows(el)).to.deep.equal([
      'Importe pagado: 42,50 €',
      'Pagado a: Tienda Demo',
      'Cuenta del beneficiario: ES91 2100 0418 4502 0005 1332',
      'Concepto: Pedido 1042',
      'Referencia: ORD-1042',
      'Banco pagador: Banco Aurora · Particulares',
      'Pagado desde: ES •••• 2345',
      'Referencia del banco: 7KQ2-M9XD-4HTA',
      `Fecha: ${new Intl.DateTimeFormat('es-ES', { dateStyle: 'long', timeStyle: 'short' }).format(FIXED_NOW)}`,
    ]);
    expect(el.shadowRoot!.innerHTML, 'nothing on it opens the checkout').not.to.contain(paid.id);
    expect(el.shadowRoot!.querySelector('a'), 'no address on it').to.equal(null);
    expect(text(el.shadowRoot!.querySelector('h3'))).to.equal('Justificante');
    // A print-only sheet on the page hides the rest on paper while the receipt shows; the status line is printed.
    const sheet = () => document.adoptedStyleSheets.find((s) => [...s.cssRules].some((r) => r.cssText.includes('@media print')));
    expect(sheet()).to.not.equal(undefined);
    const status = el.shadowRoot!.querySelector<HTMLElement>('[part=receipt-status]')!;
    expect(getComputedStyle(status).display).not.to.equal('none');
    const printed: string[] = [];
    const print = window.print;
    window.print = () => void printed.push('print');
    try {
      el.shadowRoot!.querySelector<HTMLButtonElement>('[part=print]')!.click();
    } finally {
      window.print = print;
    }
    expect(printed).to.deep.equal(['print']);
    await expect(el).to.be.accessible();
    el.remove();
    expect(sheet(), 'the page prints as usual once the receipt is gone').to.equal(undefined);
  });

  it('speaks Catalan, Basque and Galician, its dates written by the kit in Basque and Galician', async () => {
    const d = new Date(FIXED_NOW);
    const time = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    const expected: Record<string, [string, string, string]> = {
      ca: ['Justificant', '✓ Pagament completat', `Data: ${new Intl.DateTimeFormat('ca', { dateStyle: 'long', timeStyle: 'short' }).format(d)}`],
      eu: ['Ordainagiria', '✓ Ordainketa osatuta', `Data: 2030eko martxoaren ${d.getDate()}a, ${time}`],
      gl: ['Xustificante', '✓ Pagamento completado', `Data: ${d.getDate()} de marzo de 2030, ${time}`],
    };
    for (const [locale, [title, status, date]] of Object.entries(expected)) {
      const el = await fixture<BankReceipt>(html`<bank-receipt locale=${locale} .view=${paid}></bank-receipt>`);
      await until(() => text(el.shadowRoot!.querySelector('h3')) === title, `the ${locale} receipt`);
      expect(text(el.shadowRoot!.querySelector('[part=receipt-status]'))).to.equal(status);
      expect(rows(el).at(-1)).to.equal(date);
      const english = rows(el).filter((r) => /^(Amount paid|Paid to|Payee account|Concept|Reference|Paying bank|Paid from|Bank reference|Date):/.test(r));
      expect(english, `no English label in ${locale}`).to.deep.equal([]);
      await expect(el).to.be.accessible();
      el.remove();
    }
  });

  it('is not shown for a periodic order (a mandate, nothing paid) nor before success', async () => {
    const mandate = await fixture<BankReceipt>(html`<bank-receipt locale="en" .view=${view({ state: 'succeeded' }, { mode: 'periodic' })}></bank-receipt>`);
    expect(mandate.shadowRoot!.querySelector('[part=receipt]')).to.equal(null);
    const failed = await fixture<BankReceipt>(html`<bank-receipt locale="en" .view=${view({ state: 'failed' })}></bank-receipt>`);
    expect(failed.shadowRoot!.querySelector('[part=receipt]')).to.equal(null);
  });
});
