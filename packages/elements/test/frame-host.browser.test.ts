/**
 * The isolated checkout's thin host (`@bank-checkout/elements/frame`), alone in a page: the frame
 * it makes, the handshake (the launch token only to its own frame at the BFF's exact origin,
 * never in the address), every message checked, the frame sized to its content, the kit's events
 * re-fired on the host, the warning when the BFF shares the page's origin, its failures (a BFF
 * down, an origin refused, a frame that never loads, a frame that says it failed): said to the
 * page and to the payer, and a client secret refused; a frame that said it is there is never
 * judged by the host, however late its first screen.
 */
import { expect } from '@open-wc/testing';
import '../src/frame/frame.js';
import { FRAME_PROTOCOL, HOST_WORDS, IsolatedCheckout, type BankCheckoutFrame } from '../src/frame/frame.js';
import { isolatedCheckoutHtml } from '../src/prerender/prerender.js';
import { FAILURE_WORDS } from '../src/frame/failure.js';
import { loadLocale, translate } from '../src/i18n/index.js';
import { nextTask, until } from './fixtures.js';

type Sent = { message: unknown; origin: string; transfer: Transferable[] };

/** The host's words by language: its own up front (title, loading), then a failure's (unreachable, timeout, refused, Try again). */
const HOST_TEXTS = Object.fromEntries(Object.entries(HOST_WORDS).map(([locale, words]) => [locale, [...words, ...FAILURE_WORDS[locale]!]]));
const LAUNCH_TOKEN = 'lt_chk_host.0123456789abcdef0123456789abcdef0123456789a';

const warnings: unknown[][] = [];
const warn = console.warn;

/** The host in the page, in Spanish, not yet loaded. */
function place(api: string, attrs: Record<string, string> = {}): BankCheckoutFrame {
  const el = document.createElement('bank-checkout') as unknown as BankCheckoutFrame;
  el.setAttribute('isolate', '');
  el.setAttribute('api', api);
  el.setAttribute('launch-token', LAUNCH_TOKEN);
  el.setAttribute('locale', 'es');
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  document.body.append(el);
  return el;
}

async function mount(api: string): Promise<{ el: BankCheckoutFrame; frame: HTMLIFrameElement; sent: Sent[] }> {
  const el = place(api);
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

/**
 * The host's waits (its `frame-timeout`, the grace after the frame loaded: any timer of `min` ms
 * or more) held here instead of running: `pass()` runs those still set, as if their time had
 * come, so a test meets the end of a wait without waiting for it. Shorter timers run as usual.
 */
function holdWaits(min = 250) {
  const original = { set: window.setTimeout, clear: window.clearTimeout };
  const real = { set: original.set.bind(window), clear: original.clear.bind(window) };
  const held = new Map<number, () => void>();
  let ids = 1e9;
  window.setTimeout = ((fn: TimerHandler, ms?: number, ...args: unknown[]) => {
    if ((ms ?? 0) < min || typeof fn !== 'function') return real.set(fn, ms, ...args);
    held.set(++ids, () => (fn as (...a: unknown[]) => void)(...args));
    return ids;
  }) as typeof setTimeout;
  window.clearTimeout = ((id?: number) => (held.delete(id!) ? undefined : real.clear(id))) as typeof clearTimeout;
  return {
    get count() {
      return held.size;
    },
    pass() {
      const due = [...held.values()];
      held.clear();
      for (const run of due) run();
    },
    restore() {
      Object.assign(window, { setTimeout: original.set, clearTimeout: original.clear });
    },
  };
}

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
    expect(frame.src).not.to.contain('lt_');
    expect(frame.title, 'in the checkout’s language').to.equal('Pagar con tu banco');
    expect(frame.referrerPolicy, 'the page’s origin alone, for the BFF to tell a page it refuses so').to.equal('origin');
    expect(el.shadowRoot!.adoptedStyleSheets.length, 'its style is a constructed sheet, not inline').to.equal(1);
  });

  it('shows and announces a placeholder while the frame loads unseen, then the frame at the height it reports, with no step between', async () => {
    const { el, frame, sent } = await mount(location.origin);
    const placeholder = el.shadowRoot!.querySelector<HTMLElement>('[part="placeholder"]')!;
    expect(placeholder, 'a placeholder').not.to.equal(null);
    expect(placeholder.getAttribute('role')).to.equal('status');
    await until(() => placeholder.textContent === 'Cargando el pago…', 'its words in the checkout’s language, once the status is in the page');
    const screen = Math.max(512, innerHeight);
    expect(placeholder.getBoundingClientRect().height, 'the screen’s height, at least 32rem: what follows stays below the fold').to.equal(screen);
    expect(frame.inert, 'the loading frame is out of reach').to.equal(true);
    expect(getComputedStyle(frame).opacity, 'and out of view').to.equal('0');
    expect(frame.style.height, 'no fixed first height').to.equal('');
    expect(el.getBoundingClientRect().height, 'the host is the placeholder’s height').to.equal(screen);
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

  it('says “loading”, and each failure with Try again, in the host’s language: its title, loading and Try again as the catalogues say them', async () => {
    expect(Object.keys(HOST_WORDS).sort()).to.deep.equal(['ca', 'en', 'es', 'eu', 'gl']);
    expect(Object.keys(FAILURE_WORDS).sort()).to.deep.equal(['ca', 'en', 'es', 'eu', 'gl']);
    for (const [locale, [title, loading, unreachable, timeout, refused, retry]] of Object.entries(HOST_TEXTS)) {
      await loadLocale(locale);
      expect([title, loading, retry], locale).to.deep.equal([
        translate(locale, 'frame.title'),
        translate(locale, 'frame.loading'),
        translate(locale, 'action.retry'),
      ]);
      // The failures' words are the host's own (it must have them when nothing can be loaded): one for each, in each language.
      expect(new Set([unreachable, timeout, refused]).size, locale).to.equal(3);
      if (locale !== 'en') expect([unreachable, timeout, refused], locale).not.to.deep.equal(HOST_TEXTS.en!.slice(2, 5));
    }
    const { el, frame } = await mount(location.origin);
    el.setAttribute('locale', 'ca-ES');
    await until(() => el.shadowRoot!.querySelector('[part="placeholder"]')!.textContent === HOST_TEXTS.ca![1], 'the Catalan words');
    expect(frame.title).to.equal(HOST_TEXTS.ca![0]);
  });

  it('opens the connection to the BFF’s origin while the launch token is on its way: one preconnect link, none when the page has its own', async () => {
    const links = (origin: string) =>
      [...document.head.querySelectorAll<HTMLLinkElement>('link[rel=preconnect]')].filter((l) => new URL(l.href).origin === origin);
    const api = 'http://127.0.0.1:9/bff';
    const el = place(api, {});
    el.removeAttribute('launch-token');
    const waiting = document.createElement('bank-checkout');
    waiting.setAttribute('isolate', '');
    waiting.setAttribute('api', api);
    document.body.append(waiting);
    expect(waiting.shadowRoot!.querySelector('iframe'), 'no frame without a launch token').to.equal(null);
    expect(links('http://127.0.0.1:9').map((l) => l.crossOrigin)).to.deep.equal([null], 'one link, for the frame’s page (a navigation: no crossorigin)');
    links('http://127.0.0.1:9').forEach((l) => l.remove());
    // The page's own link (without crossorigin) is enough; a crossorigin one is for other calls.
    const own = Object.assign(document.createElement('link'), { rel: 'preconnect', href: 'http://127.0.0.1:10' });
    const cors = Object.assign(document.createElement('link'), { rel: 'preconnect', href: 'http://127.0.0.1:11', crossOrigin: 'anonymous' });
    document.head.append(own, cors);
    try {
      for (const port of [10, 11]) place(`http://127.0.0.1:${port}/`);
      expect(links('http://127.0.0.1:10')).to.deep.equal([own]);
      expect(links('http://127.0.0.1:11').map((l) => l.crossOrigin)).to.deep.equal(['anonymous', null]);
    } finally {
      for (const port of [10, 11]) links(`http://127.0.0.1:${port}`).forEach((l) => l.remove());
    }
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
    expect(message.token).to.equal(LAUNCH_TOKEN);
    expect(message).not.to.have.property('secret');
    expect(message.locale).to.equal('es');
    expect(init!.transfer[0]).to.be.instanceOf(MessagePort);
  });

  it('takes the frame the shop’s page wrote (prerender) as it is, loaded before the host ran: not loaded again, asked to say ready, then given the token', async () => {
    const written = Document.parseHTMLUnsafe(isolatedCheckoutHtml({ api: location.origin, launchToken: LAUNCH_TOKEN, locale: 'es' }));
    // The page's element before its script ran: a plain element with the written root.
    const holder = document.createElement('div');
    const root = holder.attachShadow({ mode: 'open' });
    root.append(...written.querySelector('bank-checkout')!.shadowRoot!.childNodes);
    const frame = root.querySelector('iframe')!;
    expect(frame.hidden, 'hidden until the host runs').to.equal(true);
    document.body.append(holder);
    await new Promise((r) => frame.addEventListener('load', r, { once: true }));
    let loads = 0;
    frame.addEventListener('load', () => loads++);
    const sent: Sent[] = [];
    frame.contentWindow!.postMessage = ((message: unknown, origin: string, transfer: Transferable[] = []) =>
      void sent.push({ message, origin, transfer })) as unknown as typeof postMessage;
    const host = new IsolatedCheckout(holder, root, () => ({ api: location.origin, launchToken: LAUNCH_TOKEN, checkoutSecret: '', locale: 'es' }));
    try {
      host.connect();
      expect([...root.querySelectorAll('iframe')], 'the same frame, no other').to.deep.equal([frame]);
      expect(frame.hidden).to.equal(false);
      expect(frame.inert, 'unseen under the placeholder until its first size').to.equal(true);
      expect(
        sent.map((s) => [s.message, s.origin]),
        'asked to say ready again (a message that carries nothing)',
      ).to.deep.equal([[{ v: 1, type: 'hello' }, '*']]);
      expect(sent[0]!.transfer, 'no port with it').to.deep.equal([]);
      ready(frame.contentWindow);
      expect((sent[1]!.message as { type: string; token: string }).token, 'then its init').to.equal(LAUNCH_TOKEN);
      const port = sent[1]!.transfer[0] as MessagePort;
      expect(port).to.be.instanceOf(MessagePort);
      // The frame's own first `ready`, heard only now: the frame keeps the port it took.
      ready(frame.contentWindow);
      expect(sent.length, 'no second init').to.equal(2);
      port.postMessage({ v: 1, type: 'size', height: 400 });
      await until(() => !frame.inert, 'shown at its first size, through the port it took');
      expect(frame.getBoundingClientRect().height).to.equal(400);
      expect(loads, 'never loaded again').to.equal(0);
    } finally {
      host.teardown();
      holder.remove();
    }
  });

  it('as the element: keeps the written root and its frame; a frame written for another BFF is replaced', async () => {
    for (const [api, kept] of [
      [location.origin, true],
      [`${location.origin}/other`, false],
    ] as const) {
      const written = Document.parseHTMLUnsafe(isolatedCheckoutHtml({ api: location.origin, launchToken: LAUNCH_TOKEN, locale: 'es' }));
      const el = written.querySelector('bank-checkout')!;
      el.setAttribute('api', api);
      const frame = el.shadowRoot!.querySelector('iframe')!;
      document.body.append(el);
      const now = (el as unknown as BankCheckoutFrame).shadowRoot!.querySelectorAll('iframe');
      expect(now.length, api).to.equal(1);
      expect(now[0] === frame, api).to.equal(kept);
      expect(now[0]!.src, api).to.equal(`${api}/v1/frame`);
      expect(el.shadowRoot!.querySelector('[part=placeholder]'), 'its placeholder').not.to.equal(null);
      el.remove();
    }
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

  describe('when the frame cannot be shown', () => {
    /** Mounts the host with the shop's own fallback, and waits for its error event. */
    async function failing(api: string, timeout: number): Promise<{ el: BankCheckoutFrame; detail: Record<string, unknown> }> {
      let detail: Record<string, unknown> | null = null;
      const onError = (e: Event) => (detail = (e as CustomEvent).detail);
      document.addEventListener('bank-checkout-error', onError);
      try {
        const el = place(api, { 'frame-timeout': String(timeout) });
        const fallback = document.createElement('a');
        fallback.slot = 'fallback';
        fallback.href = '/pay-another-way';
        fallback.textContent = 'Pay by card instead';
        el.append(fallback);
        await until(() => detail, 'bank-checkout-error', timeout + 5_000);
        return { el, detail: detail! };
      } finally {
        document.removeEventListener('bank-checkout-error', onError);
      }
    }

    /** What the failure says: its words, and its Try again. */
    const said = async (el: BankCheckoutFrame) => [
      await until(() => el.shadowRoot!.querySelector('[part="failure"] p')?.textContent, 'its words'),
      el.shadowRoot!.querySelector('[part="retry"]')!.textContent,
    ];

    /** The failure the payer sees: its words, Try again, and the shop's fallback in view. */
    async function seen(el: BankCheckoutFrame) {
      const failure = await until(() => el.shadowRoot!.querySelector<HTMLElement>('[part="failure"]'), 'the failure');
      await until(() => failure.querySelector('p')!.textContent, 'its words');
      const slot = failure.querySelector('slot[name="fallback"]') as HTMLSlotElement;
      return {
        role: failure.getAttribute('role'),
        text: failure.querySelector('p')!.textContent,
        retry: failure.querySelector('[part="retry"]')?.textContent,
        fallback: slot.assignedElements().map((e) => e.textContent),
        fallbackShown: (el.querySelector('[slot=fallback]') as HTMLElement).getBoundingClientRect().height > 0,
        frame: el.shadowRoot!.querySelector('iframe'),
        placeholder: el.shadowRoot!.querySelector('[part="placeholder"]'),
      };
    }

    it('with the BFF down: frame_unreachable once its frame loaded without a word (an error page), and the payer is told in the checkout’s language, with Try again and the shop’s fallback', async () => {
      const { port } = (await (await fetch('/__closed-port')).json()) as { port: number };
      const waits = holdWaits();
      try {
        let detail: Record<string, unknown> | null = null;
        document.addEventListener('bank-checkout-error', (e) => (detail = (e as CustomEvent).detail), { once: true });
        const el = place(`http://127.0.0.1:${port}`, { 'frame-timeout': '10000' });
        const fallback = Object.assign(document.createElement('a'), { slot: 'fallback', href: '/pay-another-way', textContent: 'Pay by card instead' });
        el.append(fallback);
        await new Promise((r) => el.shadowRoot!.querySelector('iframe')!.addEventListener('load', r, { once: true }));
        expect(detail, 'nothing said before the grace after its load is over').to.equal(null);
        waits.pass();
        await until(() => detail, 'bank-checkout-error');
        expect(detail).to.deep.equal({ checkoutId: null, code: 'frame_unreachable', status: null, requestId: null });
        expect(await seen(el)).to.deep.equal({
          role: 'alert',
          text: HOST_TEXTS.es![2],
          retry: 'Reintentar',
          fallback: ['Pay by card instead'],
          fallbackShown: true,
          frame: null,
          placeholder: null,
        });
        await expect(el).to.be.accessible();
      } finally {
        waits.restore();
      }
    });

    it('with the page’s origin refused by the BFF: frame_refused as soon as the BFF’s page says so, said to the developer in the console too', async () => {
      const errors: unknown[][] = [];
      const error = console.error;
      console.error = (...args: unknown[]) => void errors.push(args);
      const waits = holdWaits();
      try {
        // The test server under another name: another origin, which answers this page (its
        // Referer, the host's origin alone) with the page that says it refuses it.
        const other = location.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1';
        const { el, detail } = await failing(`http://${other}:${location.port}`, 10_000);
        expect(detail.code).to.equal('frame_refused');
        expect((await seen(el)).text).to.equal(HOST_TEXTS.es![4]);
        expect(
          errors.some((e) => String(e[0]).includes('ALLOWED_ORIGINS')),
          'the console names ALLOWED_ORIGINS',
        ).to.equal(true);
        expect(waits.count, 'none of its waits had to end').to.equal(0);
      } finally {
        console.error = error;
        waits.restore();
      }
    });

    it('with an api that is no web address: frame_unreachable at once, and the console says why', async () => {
      const errors: unknown[][] = [];
      const error = console.error;
      console.error = (...args: unknown[]) => void errors.push(args);
      try {
        const { el, detail } = await failing('javascript:alert(1)', 10_000);
        expect(detail.code).to.equal('frame_unreachable');
        expect((await seen(el)).frame, 'no frame').to.equal(null);
        await until(() => errors.some((e) => String(e[0]).includes('is not an http(s) address')), 'the console says why');
      } finally {
        console.error = error;
      }
    });

    it('given a client secret: runs nothing, fires secret_refused, says why in the console once, and tells the payer without a Try again', async () => {
      const errors: unknown[][] = [];
      const error = console.error;
      console.error = (...args: unknown[]) => void errors.push(args);
      const requests = performance.getEntriesByType('resource').length;
      try {
        const details: Record<string, unknown>[] = [];
        const onError = (e: Event) => details.push((e as CustomEvent).detail);
        document.addEventListener('bank-checkout-error', onError);
        // A page script swapped the launch token for a client secret it holds.
        const el = place(location.origin);
        el.removeAttribute('launch-token');
        el.setAttribute('checkout-secret', 'cs_held_by_a_script');
        const fallback = document.createElement('a');
        fallback.slot = 'fallback';
        fallback.href = '/pay-another-way';
        fallback.textContent = 'Pay by card instead';
        el.append(fallback);
        await until(() => details.length, 'bank-checkout-error');
        expect(details).to.deep.equal([{ checkoutId: null, code: 'secret_refused', status: null, requestId: null }]);
        const shown = await seen(el);
        expect(shown.text).to.equal(HOST_TEXTS.es![4]);
        expect(shown.frame, 'no frame').to.equal(null);
        expect(shown.fallbackShown).to.equal(true);
        expect(el.shadowRoot!.querySelector<HTMLElement>('[part="retry"]')!.hidden, 'trying again would not help').to.equal(true);
        // Another secret: refused again, to the page; the console said it once.
        el.setAttribute('checkout-secret', 'cs_another');
        await until(() => details.length === 2, 'the second refusal');
        document.removeEventListener('bank-checkout-error', onError);
        expect(details[1]!.code).to.equal('secret_refused');
        expect(errors.filter((e) => String(e[0]).includes('launch token only')).length, 'said once').to.equal(1);
        expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
        const fetched = performance
          .getEntriesByType('resource')
          .slice(requests)
          .map((r) => r.name);
        expect(
          fetched.filter((n) => !n.includes('/src/') && !n.includes('node_modules')),
          'no call with it',
        ).to.deep.equal([]);
        await expect(el).to.be.accessible();
      } finally {
        console.error = error;
      }
    });

    it('a frame that said it is there is not judged by the host: past its timeout and its load, a launch answered late still shows, no error is fired, and the host calls nothing', async () => {
      const waits = holdWaits();
      const fetches: unknown[] = [];
      const realFetch = window.fetch;
      window.fetch = (...args: unknown[]) => (fetches.push(args[0]), Promise.reject(new TypeError('no call expected')));
      const details: unknown[] = [];
      const onError = (e: Event) => details.push((e as CustomEvent).detail);
      document.addEventListener('bank-checkout-error', onError);
      try {
        const el = place(location.origin, { 'frame-timeout': '400' });
        const frame = el.shadowRoot!.querySelector('iframe')!;
        await new Promise((r) => frame.addEventListener('load', r, { once: true }));
        const sent: Sent[] = [];
        frame.contentWindow!.postMessage = ((message: unknown, origin: string, transfer: Transferable[] = []) =>
          void sent.push({ message, origin, transfer })) as unknown as typeof postMessage;
        ready(frame.contentWindow);
        expect((sent[0]!.message as { type: string }).type, 'its init').to.equal('init');
        // Its timeout and the grace after its load come and go while the launch is answered late.
        expect(waits.count, 'the timeout and the grace after the load').to.equal(2);
        waits.pass();
        // What a failure would load is in (a failure's words), and a task has gone by.
        await import('../src/frame/failure.js');
        await nextTask();
        expect(fetches, 'no call of the host’s own (the page’s CSP allows it none)').to.deep.equal([]);
        expect(el.shadowRoot!.querySelector('[part="placeholder"]'), 'still loading').not.to.equal(null);
        expect(el.shadowRoot!.querySelector('[part="failure"]')).to.equal(null);
        const port = sent[0]!.transfer[0] as MessagePort;
        port.postMessage({ v: 1, type: 'size', height: 300 });
        await until(() => !frame.inert, 'the checkout, at its first size');
        expect(details, 'no error event').to.deep.equal([]);
      } finally {
        document.removeEventListener('bank-checkout-error', onError);
        window.fetch = realFetch;
        waits.restore();
      }
    });

    it('a frame that says it failed (its kit did not load) is shown failed at once, frame_unreachable, with Try again, which loads it anew with the same launch token', async () => {
      const { el, frame, sent } = await mount(location.origin);
      let detail: Record<string, unknown> | null = null;
      document.addEventListener('bank-checkout-error', (e) => (detail = (e as CustomEvent).detail), { once: true });
      ready(frame.contentWindow);
      expect(sent.length, 'its init').to.equal(1);
      // Only its own frame, at the BFF's origin, with a known reason, is heard.
      const failed = (data: unknown, source: MessageEventSource | null = frame.contentWindow, origin = location.origin) =>
        window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
      failed({ v: 1, type: 'failed', code: 'frame_unreachable' }, window);
      failed({ v: 1, type: 'failed', code: 'frame_unreachable' }, frame.contentWindow, 'https://elsewhere.example');
      failed({ v: 1, type: 'failed', code: 'anything' });
      expect(el.shadowRoot!.querySelector('[part="failure"]')).to.equal(null);
      failed({ v: 1, type: 'failed', code: 'frame_unreachable' });
      await until(() => detail, 'bank-checkout-error');
      expect(detail!.code).to.equal('frame_unreachable');
      expect(await said(el)).to.deep.equal([HOST_TEXTS.es![2], 'Reintentar']);
      (el.shadowRoot!.querySelector('[part="retry"]') as HTMLButtonElement).click();
      const again = el.shadowRoot!.querySelector('iframe')!;
      expect(again, 'a new frame').not.to.equal(frame);
      await new Promise((r) => again.addEventListener('load', r, { once: true }));
      const resent: Sent[] = [];
      again.contentWindow!.postMessage = ((message: unknown, origin: string, transfer: Transferable[] = []) =>
        void resent.push({ message, origin, transfer })) as unknown as typeof postMessage;
      ready(again.contentWindow);
      expect((resent[0]!.message as { token: string }).token, 'the same launch token: the browser that redeemed it takes the checkout up again').to.equal(
        LAUNCH_TOKEN,
      );
    });

    it('a frame that says it failed once it was shown (its page shows a first screen written in before its kit runs, and the kit did not load) is shown failed too', async () => {
      const { el, frame, sent } = await mount(location.origin);
      let detail: Record<string, unknown> | null = null;
      document.addEventListener('bank-checkout-error', (e) => (detail = (e as CustomEvent).detail), { once: true });
      ready(frame.contentWindow);
      const port = sent[0]!.transfer[0] as MessagePort;
      port.postMessage({ v: 1, type: 'size', height: 640 });
      await until(() => !frame.inert, 'the frame shown');
      window.dispatchEvent(
        new MessageEvent('message', { data: { v: 1, type: 'failed', code: 'frame_unreachable' }, origin: location.origin, source: frame.contentWindow }),
      );
      await until(() => detail, 'bank-checkout-error');
      expect(detail!.code).to.equal('frame_unreachable');
      expect(await said(el)).to.deep.equal([HOST_TEXTS.es![2], 'Reintentar']);
      expect(el.shadowRoot!.querySelector('iframe'), 'the frame gone').to.equal(null);
    });

    it('a frame that never loads: frame_timeout at its timeout', async () => {
      const waits = holdWaits();
      try {
        let detail: Record<string, unknown> | null = null;
        document.addEventListener('bank-checkout-error', (e) => (detail = (e as CustomEvent).detail), { once: true });
        // The test server holds this address's answer: the frame never loads.
        const el = place(`${location.origin}/__unanswered`, { 'frame-timeout': '8000' });
        expect(waits.count, 'its timeout').to.equal(1);
        waits.pass();
        await until(() => detail, 'bank-checkout-error');
        expect(detail!.code).to.equal('frame_timeout');
        expect(await said(el)).to.deep.equal([HOST_TEXTS.es![3], 'Reintentar']);
      } finally {
        waits.restore();
      }
    });

    it('with an address that answers but no checkout’s frame (it never says ready): frame_unreachable once loaded; Try again loads the frame anew, in the placeholder’s place', async () => {
      const waits = holdWaits();
      try {
        let detail: Record<string, unknown> | null = null;
        document.addEventListener('bank-checkout-error', (e) => (detail = (e as CustomEvent).detail), { once: true });
        // The test server answers the frame's address with a page that never says `ready`.
        const el = place(location.origin, { 'frame-timeout': '9000' });
        await new Promise((r) => el.shadowRoot!.querySelector('iframe')!.addEventListener('load', r, { once: true }));
        waits.pass();
        await until(() => detail, 'bank-checkout-error');
        expect(detail!.code).to.equal('frame_unreachable');
        expect((await said(el))[0]).to.equal(HOST_TEXTS.es![2]);
        el.setAttribute('locale', 'gl');
        await until(() => el.shadowRoot!.querySelector('[part="failure"] p')!.textContent === HOST_TEXTS.gl![2], 'the failure follows the language');
        expect(el.shadowRoot!.querySelector('[part="retry"]')!.textContent).to.equal('Tentar de novo');

        (el.shadowRoot!.querySelector('[part="retry"]') as HTMLButtonElement).click();
        const frame = el.shadowRoot!.querySelector('iframe');
        const placeholder = el.shadowRoot!.querySelector<HTMLElement>('[part="placeholder"]');
        expect(frame, 'a new frame').not.to.equal(null);
        expect(placeholder, 'loading again').not.to.equal(null);
        expect(el.shadowRoot!.activeElement, 'focus kept on the placeholder, not lost').to.equal(placeholder);
        expect(el.shadowRoot!.querySelector('[part="failure"]')).to.equal(null);
      } finally {
        waits.restore();
      }
    });
  });
});
