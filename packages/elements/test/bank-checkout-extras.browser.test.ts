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
    'POST /v1/checkout/handoff': () => ({ status: 200, body: { url: HANDOFF, expiresAt: new Date(FIXED_NOW + 600_000).toISOString() } }),
    ...extra,
  };
  return { bff: fakeBff(routes), set };
}

async function mount(fetch: typeof globalThis.fetch, opts: { mode?: CheckoutMode; visited?: string[]; locale?: string } = {}) {
  const visited = opts.visited ?? [];
  return fixture<BankCheckout>(
    html`<bank-checkout
      api="https://bff.test"
      checkout-secret="cs_test_secret"
      locale=${opts.locale ?? 'en'}
      mode=${opts.mode ?? ''}
      poll-interval="30"
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
    await expect(el).to.be.accessible();

    // The phone pays; this page reads the checkout and shows the result with the receipt.
    set(view({ state: 'succeeded', operationId: 'op-778', paidAt: new Date(FIXED_NOW).toISOString() }, { mode: 'redirect', modes: ALL }));
    // (The checks come from the element's own polling; a page in the background runs its timers once a second.)
    const receipt = await need(el, 'bank-receipt [part=receipt]', 15_000);
    expect(text(receipt)).to.contain('op-778');
    expect(visited).to.deep.equal([]);
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

  it('offers the same bank at its own page when its sign-in fails upstream, in one tap', async () => {
    const visited: string[] = [];
    const failed = view({ state: 'login', bank: AURORA }, { modes: ['native', 'redirect'], error: { code: 'upstream', message: 'error.upstream' } });
    const { bff } = bffOf(failed);
    const el = await mount(bff.fetch, { visited });
    const start = await need<HTMLButtonElement>(el, 'bank-rail-offer [part=rail-start]');
    expect(text(start)).to.equal(`Pay at the page of ${AURORA.label}`);
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
  const paid = view({ state: 'succeeded', operationId: 'TX-20300310-0001', paidAt: new Date(FIXED_NOW).toISOString() });

  it('shows amount, payee, concept, reference, date and operation id in the payer’s language, and prints only itself', async () => {
    const el = await fixture<BankReceipt>(html`<bank-receipt locale="es" .view=${paid}></bank-receipt>`);
    const rows = [...el.shadowRoot!.querySelectorAll('dt')].map((dt) => `${text(dt)}: ${text(dt.nextElementSibling)}`);
    expect(rows).to.deep.equal([
      'Importe pagado: 42,50 €',
      'Pagado a: Tienda Demo',
      'Cuenta del beneficiario: ES91 2100 0418 4502 0005 1332',
      'Concepto: Pedido 1042',
      'Referencia: ORD-1042',
      `Fecha: ${new Intl.DateTimeFormat('es-ES', { dateStyle: 'long', timeStyle: 'short' }).format(FIXED_NOW)}`,
      'Id. de la operación: TX-20300310-0001',
    ]);
    expect(text(el.shadowRoot!.querySelector('h2'))).to.equal('Justificante');
    // A print-only sheet on the page hides the rest on paper while the receipt shows.
    const sheet = () => document.adoptedStyleSheets.find((s) => [...s.cssRules].some((r) => r.cssText.includes('@media print')));
    expect(sheet()).to.not.equal(undefined);
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

  it('is not shown for a periodic order (a mandate, nothing paid) nor before success', async () => {
    const mandate = await fixture<BankReceipt>(html`<bank-receipt locale="en" .view=${view({ state: 'succeeded' }, { mode: 'periodic' })}></bank-receipt>`);
    expect(mandate.shadowRoot!.querySelector('[part=receipt]')).to.equal(null);
    const failed = await fixture<BankReceipt>(html`<bank-receipt locale="en" .view=${view({ state: 'failed' })}></bank-receipt>`);
    expect(failed.shadowRoot!.querySelector('[part=receipt]')).to.equal(null);
  });
});
