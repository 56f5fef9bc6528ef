/**
 * The isolated checkout's thin host (`@bank-checkout/elements/frame`), alone in a page: the frame
 * it makes, the handshake (the secret only to its own frame at the BFF's exact origin, never in
 * the address), every message checked, the frame sized to its content, the kit's events
 * re-fired on the host, and the warning when the BFF shares the page's origin.
 */
import { expect } from '@open-wc/testing';
import '../src/frame/frame.js';
import { FRAME_PROTOCOL, HOST_TEXTS, type BankCheckoutFrame } from '../src/frame/frame.js';
import { loadLocale, translate } from '../src/i18n/index.js';
import { until } from './fixtures.js';

type Sent = { message: unknown; origin: string; transfer: Transferable[] };

const warnings: unknown[][] = [];
const warn = console.warn;

async function mount(api: string): Promise<{ el: BankCheckoutFrame; frame: HTMLIFrameElement; sent: Sent[] }> {
  const el = document.createElement('bank-checkout') as unknown as BankCheckoutFrame;
  el.setAttribute('isolate', '');
  el.setAttribute('api', api);
  el.setAttribute('checkout-secret', 'cs_test_secret');
  el.setAttribute('locale', 'es');
  document.body.append(el);
  const frame = el.shadowRoot!.querySelector('iframe')!;
  const sent: Sent[] = [];
  // The frame answers 404 on this test server, on this same origin, so its window can be watched.
  await new Promise((r) => frame.addEventListener('load', r, { once: true }));
  frame.contentWindow!.postMessage = ((message: unknown, origin: string, transfer: Transferable[] = []) =>
    void sent.push({ message, origin, transfer })) as unknown as typeof postMessage;
  return { el, frame, sent };
}

const ready = (source: MessageEventSource | null, origin = location.origin) =>
  window.dispatchEvent(new MessageEvent('message', { data: { v: FRAME_PROTOCOL, type: 'ready' }, origin, source }));

describe('the isolated checkout host', () => {
  beforeEach(() => {
    warnings.length = 0;
    console.warn = (...args: unknown[]) => void warnings.push(args);
  });
  afterEach(() => {
    console.warn = warn;
    document.querySelectorAll('bank-checkout').forEach((e) => e.remove());
  });

  it('is defined without Lit, and makes a titled frame on the BFF whose address carries no secret', async () => {
    const { el, frame } = await mount(`${location.origin}/bff/`);
    expect(customElements.get('bank-checkout')!.name).to.equal('BankCheckoutFrame');
    expect(frame.src).to.equal(`${location.origin}/bff/v1/frame`);
    expect(frame.src).not.to.contain('cs_');
    expect(frame.title, 'in the checkout’s language').to.equal('Pagar con tu banco');
    expect(frame.referrerPolicy).to.equal('no-referrer');
    expect(el.shadowRoot!.adoptedStyleSheets.length, 'its style is a constructed sheet, not inline').to.equal(1);
  });

  it('shows and announces a placeholder while the frame loads unseen, then the frame at the height it reports, with no step between', async () => {
    const { el, frame, sent } = await mount(location.origin);
    const placeholder = el.shadowRoot!.querySelector<HTMLElement>('[part="placeholder"]')!;
    expect(placeholder, 'a placeholder').to.exist;
    expect(placeholder.getAttribute('role')).to.equal('status');
    await until(() => placeholder.textContent === 'Cargando el pago…', 'its words in the checkout’s language, once the status is in the page');
    expect(placeholder.getBoundingClientRect().height, 'about the first screen, 32rem').to.equal(512);
    expect(frame.inert, 'the loading frame is out of reach').to.equal(true);
    expect(getComputedStyle(frame).opacity, 'and out of view').to.equal('0');
    expect(frame.style.height, 'no fixed first height').to.equal('');
    expect(el.getBoundingClientRect().height, 'the host is the placeholder’s height').to.equal(512);
    await expect(el).to.be.accessible();

    el.style.setProperty('--bank-checkout-placeholder-height', '300px');
    expect(el.getBoundingClientRect().height, 'the merchant sets the placeholder’s height').to.equal(300);

    ready(frame.contentWindow);
    const port = sent[0]!.transfer[0] as MessagePort;
    port.postMessage({ v: 1, type: 'size', height: 1234.2 });
    await until(() => !el.shadowRoot!.querySelector('[part="placeholder"]'), 'the placeholder gone at the first size');
    expect(frame.inert).to.equal(false);
    expect(getComputedStyle(frame).opacity).to.equal('1');
    expect(frame.getBoundingClientRect().height).to.equal(1235);
    expect(el.getBoundingClientRect().height).to.equal(1235);
  });

  it('says “loading” in the host’s language, as the catalogues do', async () => {
    for (const [locale, [title, loading]] of Object.entries(HOST_TEXTS)) {
      await loadLocale(locale);
      expect([title, loading], locale).to.deep.equal([translate(locale, 'frame.title'), translate(locale, 'frame.loading')]);
    }
    const { el, frame } = await mount(location.origin);
    el.setAttribute('locale', 'ca-ES');
    await until(() => el.shadowRoot!.querySelector('[part="placeholder"]')!.textContent === HOST_TEXTS.ca![1], 'the Catalan words');
    expect(frame.title).to.equal(HOST_TEXTS.ca![0]);
  });

  it('warns in development when the BFF is on the page’s own origin', async () => {
    await mount(location.origin);
    expect(warnings.some((w) => String(w[0]).includes("on this page's own origin"))).to.equal(true);
  });

  it('answers only its own frame, at the BFF’s origin, with a well-formed ready', async () => {
    const { frame, sent } = await mount(location.origin);
    ready(window);
    ready(frame.contentWindow, 'https://elsewhere.example');
    window.dispatchEvent(new MessageEvent('message', { data: { v: 2, type: 'ready' }, origin: location.origin, source: frame.contentWindow }));
    window.dispatchEvent(new MessageEvent('message', { data: 'ready', origin: location.origin, source: frame.contentWindow }));
    expect(sent).to.deep.equal([]);
    expect(warnings.filter((w) => String(w[0]).includes('ignored')).length, 'each ignored message logged in development').to.equal(3);

    ready(frame.contentWindow);
    expect(sent.length).to.equal(1);
    const [init] = sent;
    expect(init!.origin, 'to the exact origin, never *').to.equal(location.origin);
    const message = init!.message as Record<string, unknown>;
    expect(message.v).to.equal(1);
    expect(message.type).to.equal('init');
    expect(message.secret).to.equal('cs_test_secret');
    expect(message.locale).to.equal('es');
    expect(init!.transfer[0]).to.be.instanceOf(MessagePort);
  });

  it('sizes the frame, re-fires the kit’s events on the host, and ignores anything else from the port', async () => {
    const { el, frame, sent } = await mount(location.origin);
    ready(frame.contentWindow);
    const port = sent[0]!.transfer[0] as MessagePort;
    const fired: CustomEvent[] = [];
    document.addEventListener('bank-checkout-complete', (e) => fired.push(e), { once: true });

    port.postMessage({ v: 1, type: 'size', height: 812.4 });
    await until(() => frame.style.height === '813px', 'the frame sized to its content');
    port.postMessage({ v: 1, type: 'event', name: 'bank-checkout-complete', detail: { checkoutId: 'chk_1', outcome: 'succeeded', code: null } });
    await until(() => fired.length === 1, 'the event on the host');
    expect(fired[0]!.target).to.equal(el);
    expect(fired[0]!.composed && fired[0]!.bubbles).to.equal(true);
    expect(fired[0]!.detail).to.deep.equal({ checkoutId: 'chk_1', outcome: 'succeeded', code: null });

    port.postMessage({ v: 1, type: 'event', name: 'click', detail: {} });
    port.postMessage({ v: 1, type: 'size', height: 'huge' });
    port.postMessage({ v: 1, type: 'navigate', url: 'javascript:alert(1)' });
    await until(() => warnings.filter((w) => String(w[0]).includes('ignored')).length === 3, 'three ignored messages');
    expect(frame.style.height).to.equal('813px');
  });

  it('sends the theme computed on the host, and sends it again when the page changes it', async () => {
    const { el, frame, sent } = await mount(location.origin);
    el.style.setProperty('--bank-color-primary', 'rgb(1, 2, 3)');
    el.style.colorScheme = 'dark';
    ready(frame.contentWindow);
    const port = sent[0]!.transfer[0] as MessagePort;
    const theme = (sent[0]!.message as { theme: { vars: Record<string, string>; colorScheme: string } }).theme;
    expect(theme.vars['--bank-color-primary']).to.equal('rgb(1, 2, 3)');
    expect(theme.colorScheme).to.equal('dark');
    const updates: unknown[] = [];
    // Listen on the frame's end of the channel (the host keeps the other).
    port.onmessage = (m) => updates.push(m.data);
    port.start();
    el.style.setProperty('--bank-color-primary', 'rgb(9, 9, 9)');
    await until(() => updates.length > 0, 'an update');
    expect((updates[0] as { type: string; theme: { vars: Record<string, string> } }).theme.vars['--bank-color-primary']).to.equal('rgb(9, 9, 9)');
    el.setAttribute('locale', 'ca');
    await until(() => updates.some((u) => (u as { locale?: string }).locale === 'ca'), 'the new locale');
  });
});
