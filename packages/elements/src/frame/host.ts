/**
 * The isolated checkout's host side, without Lit: an iframe on the BFF's own origin in the
 * host element's shadow root. The launch token goes to the frame by `postMessage` to the BFF's
 * exact origin, never in its address; the frame redeems it once and keeps what opens the
 * checkout to itself, so nothing this page holds opens it afterwards. The frame's events come
 * back as the same DOM events the inline checkout fires; the frame is sized to its content; a
 * theme value the frame refused is reported here, as a console warning.
 */
import { FRAME_PROTOCOL, THEME_VARS, isDevelopmentHost, readFrameMessage, type FrameSettings, type FrameTheme, type HostMessage } from './messages.js';

/**
 * The host's own words, by language: the frame's title, what it says while the frame loads, why
 * the frame could not be shown (one sentence per failure), and "Try again". The host has no
 * catalogues (it stays small); these are the catalogues' `frame.title`, `frame.loading`,
 * `error.frame_unreachable`, `error.frame_timeout`, `error.frame_refused` and `action.retry` (a
 * test keeps them equal).
 */
export type HostTexts = readonly [title: string, loading: string, unreachable: string, timeout: string, refused: string, retry: string];

export const HOST_TEXTS: Readonly<Record<string, HostTexts>> = {
  en: [
    'Pay by bank',
    'Loading the payment…',
    'The payment service cannot be reached. Check your connection and try again.',
    'The payment is taking too long to load.',
    'The payment cannot be shown on this page.',
    'Try again',
  ],
  es: [
    'Pagar con tu banco',
    'Cargando el pago…',
    'No se puede conectar con el servicio de pago. Revisa tu conexión e inténtalo de nuevo.',
    'El pago tarda demasiado en cargar.',
    'El pago no se puede mostrar en esta página.',
    'Reintentar',
  ],
  ca: [
    'Paga amb el teu banc',
    "S'està carregant el pagament…",
    'No es pot connectar amb el servei de pagament. Revisa la connexió i torna-ho a provar.',
    'El pagament triga massa a carregar-se.',
    'El pagament no es pot mostrar en aquesta pàgina.',
    'Torna-ho a provar',
  ],
  eu: [
    'Ordaindu zure bankuarekin',
    'Ordainketa kargatzen…',
    'Ezin da ordainketa-zerbitzuarekin konektatu. Egiaztatu konexioa eta saiatu berriro.',
    'Ordainketa kargatzeak gehiegi irauten du.',
    'Ordainketa ezin da orri honetan erakutsi.',
    'Saiatu berriro',
  ],
  gl: [
    'Pagar co teu banco',
    'Cargando o pagamento…',
    'Non se pode conectar co servizo de pagamento. Revisa a túa conexión e téntao de novo.',
    'O pagamento tarda demasiado en cargar.',
    'O pagamento non se pode amosar nesta páxina.',
    'Tentar de novo',
  ],
};

/** The texts for a locale (as given, then its language, then the browser's languages, then English). */
export function hostTexts(locale: string | null | undefined): HostTexts {
  for (const tag of [locale, ...navigator.languages]) {
    const t = tag && (HOST_TEXTS[tag.toLowerCase()] ?? HOST_TEXTS[tag.toLowerCase().split(/[-_]/)[0]!]);
    if (t) return t;
  }
  return HOST_TEXTS.en!;
}

/** Why the frame could not be shown: the code of the `bank-checkout-error` the host fires. */
export type FrameFailureCode = 'frame_unreachable' | 'frame_timeout' | 'frame_refused';

/**
 * What the host shows, one at a time: the placeholder while the frame loads unseen under it (its
 * height held until the frame says its own), the frame at the height it says, or why it could
 * not be shown (with Try again and the shop's own fallback).
 */
export type HostState = { is: 'loading' } | { is: 'shown' } | { is: 'failed'; code: FrameFailureCode };

/** How long the frame has to say it is ready, by default (`frame-timeout` changes it). */
export const FRAME_TIMEOUT_MS = 10_000;
/** After the frame loaded without saying it is ready, how long before the host asks why. */
const LOAD_GRACE_MS = 1_000;

// The placeholder and the failure take the frame's grid cell; the frame loads under the
// placeholder, unseen and inert (kept rendered: a browser may stop rendering a hidden
// cross-origin frame). The placeholder is at least as tall as the screen by default, so what
// follows the checkout stays below the fold until the frame knows its height.
const STYLE =
  ':host{display:grid}iframe,.panel{grid-area:1/1}iframe{display:block;width:100%;border:0;overflow:hidden;background:transparent}iframe[inert]{opacity:0}' +
  '.panel{box-sizing:border-box;padding:var(--bank-padding,16px);color:var(--bank-color-muted)}' +
  '.loading{min-height:var(--bank-checkout-placeholder-height,max(32rem,100svh))}' +
  '.failed{display:grid;gap:12px;align-content:start;justify-items:start;color:inherit}.failed p{margin:0}' +
  '.failed button{font:inherit;min-height:44px;padding:0 1em;border:1px solid;border-radius:var(--bank-radius,8px);background:none;color:inherit;cursor:pointer}';

/** What the host element gives the frame. */
export interface IsolatedSource {
  readonly api: string;
  /** The launch token the merchant's server gave the page (isolated checkouts). */
  readonly launchToken?: string | null | undefined;
  /** An inline checkout's client secret (the weaker mode), when no launch token is given. */
  readonly checkoutSecret: string;
  readonly locale?: string | null | undefined;
  readonly mode?: string | null | undefined;
  readonly pollInterval?: number | null | undefined;
  /** Milliseconds the frame has to say it is ready (FRAME_TIMEOUT_MS by default). */
  readonly frameTimeout?: number | null | undefined;
}

let sheet: CSSStyleSheet | undefined;
/** The frame's own style, as a constructed sheet (no inline style for the page's CSP to refuse). */
function adoptStyle(root: ShadowRoot | HTMLElement): void {
  if (!(root instanceof ShadowRoot)) return;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

const dev = () => isDevelopmentHost(location.hostname);

/** The `--bank-*` custom properties and colour scheme computed on `el`. */
export function readTheme(el: Element): FrameTheme {
  const style = getComputedStyle(el);
  const vars: Record<string, string> = {};
  for (const name of THEME_VARS) {
    const value = style.getPropertyValue(name).trim();
    if (value) vars[name] = value;
  }
  return { vars, colorScheme: style.colorScheme || 'normal' };
}

/** The BFF's origin, or null when `api` is not an absolute http(s) address. */
export function bffOrigin(api: string): string | null {
  try {
    const url = new URL(api, location.href);
    return /^https?:$/.test(url.protocol) ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Why a frame that did not say it is ready is not showing: the BFF cannot be reached at all
 * (`frame_unreachable`), it answers but not to this page's origin (`frame_refused`: the origin is
 * not in its ALLOWED_ORIGINS, which also keep the frame out of the page), or neither (null: it is
 * only slow). A CORS request answers only an allowed origin; a no-cors one answers any page, and
 * fails only when nothing answers. Nothing of the checkout's is sent.
 */
export async function probeBff(api: string): Promise<FrameFailureCode | null> {
  const at = `${api.replace(/\/+$/, '')}/v1/frame`;
  const reach = (mode: RequestMode) =>
    fetch(at, { mode, method: 'HEAD', credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' }).then(
      () => true,
      () => false,
    );
  if (await reach('cors')) return null;
  return (await reach('no-cors')) ? 'frame_refused' : 'frame_unreachable';
}

export class IsolatedCheckout {
  private frame: HTMLIFrameElement | null = null;
  /** The placeholder or the failure, whichever shows. */
  private panel: HTMLElement | null = null;
  private port: MessagePort | null = null;
  private origin: string | null = null;
  private sentTheme = '';
  private loadedFor = '';
  private readonly watchers: (() => void)[] = [];
  /** Stops the wait for the frame's `ready`. */
  private stopWaiting: (() => void) | null = null;
  /** What shows now. */
  state: HostState = { is: 'loading' };
  /** The payer pressed Try again: focus goes to the placeholder, then into the frame once it shows. */
  private refocus = false;

  constructor(
    private readonly host: HTMLElement,
    private readonly root: ShadowRoot | HTMLElement,
    private readonly source: () => IsolatedSource,
    /** Where the payer is sent for the redirect mode (the page's own navigation by default). */
    private readonly navigate: (url: string) => void = (url) => window.location.assign(url),
    /** The host's words (the full kit gives its catalogues'). */
    private readonly texts: (locale: string | null | undefined) => HostTexts = hostTexts,
  ) {}

  /** Builds (or rebuilds, when the BFF or the secret changed) the frame. */
  connect(): void {
    const { api, checkoutSecret, launchToken } = this.source();
    const key = `${api}\n${launchToken ?? ''}\n${checkoutSecret}`;
    // The same checkout again: it stays as it is (a failure too, until the payer tries again).
    if (key === this.loadedFor && (this.frame || this.state.is === 'failed')) return;
    this.teardown();
    if (!api || !(launchToken || checkoutSecret)) return;
    const origin = bffOrigin(api);
    if (!origin) {
      console.error(`bank-checkout: the api attribute "${api}" is not an http(s) address; the isolated checkout cannot load.`);
      return;
    }
    if (origin === location.origin && dev()) {
      console.warn(
        "bank-checkout: the BFF is on this page's own origin, so the isolated checkout is in the same origin as the page and its scripts can reach into it. Serve the BFF from an origin of its own (such as https://pay.shop.example) for the isolation to protect the payer.",
      );
    }
    this.origin = origin;
    this.loadedFor = key;
    adoptStyle(this.root);
    const frame = document.createElement('iframe');
    frame.title = this.host.getAttribute('frame-title') || this.texts(this.source().locale)[0];
    frame.setAttribute('part', 'frame');
    frame.referrerPolicy = 'no-referrer';
    frame.src = `${api.replace(/\/+$/, '')}/v1/frame`;
    this.frame = frame;
    const onMessage = (e: MessageEvent) => this.handshake(e);
    window.addEventListener('message', onMessage);
    this.watchers.push(() => window.removeEventListener('message', onMessage));
    this.watchTheme();
    this.wait(api);
    this.show({ is: 'loading' });
    this.root.append(frame);
  }

  /**
   * Waits for the frame's `ready`: when the frame has loaded without it, or the time is up, asks
   * why (probeBff) and fails with the reason; a frame only slow to load gets the whole time.
   */
  private wait(api: string): void {
    const limit = this.source().frameTimeout;
    let done = false;
    const fail = async (timedOut: boolean) => {
      const code = await probeBff(api);
      if (!done && (code || timedOut)) this.fail(code ?? 'frame_timeout');
    };
    const timers = [setTimeout(() => void fail(true), limit != null && limit >= 0 ? limit : FRAME_TIMEOUT_MS)];
    // Loaded (an error page loads too): its `ready` comes with its load, or a moment after.
    const loaded = () => void timers.push(setTimeout(() => void fail(false), LOAD_GRACE_MS));
    this.frame!.addEventListener('load', loaded, { once: true });
    this.stopWaiting = () => {
      done = true;
      timers.forEach(clearTimeout);
      this.frame?.removeEventListener('load', loaded);
    };
  }

  /** The frame could not be shown: it goes, the payer is told why, and the page hears it. */
  private fail(code: FrameFailureCode): void {
    const key = this.loadedFor;
    this.teardown();
    this.loadedFor = key;
    this.show({ is: 'failed', code });
    if (code === 'frame_refused') {
      console.error(`bank-checkout: the BFF at ${this.origin} does not answer this page's origin (${location.origin}): list it in the BFF's ALLOWED_ORIGINS.`);
    }
    this.host.dispatchEvent(
      new CustomEvent('bank-checkout-error', { detail: { checkoutId: null, code, status: null, requestId: null }, bubbles: true, composed: true }),
    );
  }

  /** Shows one of the host's states (HostState): the frame in view or unseen, and the panel that goes with it. */
  private show(state: HostState): void {
    const refocus = this.refocus && state.is === 'shown';
    this.state = state;
    this.panel?.remove();
    this.panel = null;
    if (this.frame) this.frame.inert = state.is !== 'shown';
    if (refocus) {
      this.refocus = false;
      this.focus();
    }
    if (state.is === 'shown') return;
    const panel = document.createElement('div');
    const failed = state.is === 'failed';
    panel.className = failed ? 'panel failed' : 'panel loading';
    panel.setAttribute('part', failed ? 'failure' : 'placeholder');
    panel.setAttribute('role', failed ? 'alert' : 'status');
    panel.tabIndex = -1;
    if (failed) {
      const again = document.createElement('button');
      again.type = 'button';
      again.setAttribute('part', 'retry');
      again.addEventListener('click', () => this.retry());
      // The shop's own way to pay instead (`slot="fallback"`): shown only while the frame failed.
      const fallback = document.createElement('slot');
      fallback.name = 'fallback';
      panel.append(document.createElement('p'), again, fallback);
    }
    this.panel = panel;
    this.root.prepend(panel);
    if (this.refocus) panel.focus();
    // Its words come once it is in the page, so that screen readers announce them.
    setTimeout(() => this.speak());
  }

  /** The panel's words in the checkout's language (the frame's title too, unless the page set one); only what changed. */
  private speak(): void {
    const [title, loading, unreachable, timeout, refused, retry] = this.texts(this.source().locale);
    if (this.frame && !this.host.hasAttribute('frame-title')) this.frame.title = title;
    const s = this.state;
    const say = (el: Node | null | undefined, text: string) => {
      if (el && el.textContent !== text) el.textContent = text;
    };
    if (s.is === 'loading') say(this.panel, loading);
    if (s.is !== 'failed') return;
    say(this.panel?.firstChild, s.code === 'frame_unreachable' ? unreachable : s.code === 'frame_timeout' ? timeout : refused);
    say(this.panel?.children[1], retry);
  }

  /** Try again: the frame loads anew (the launch token was never sent, so it still holds); focus follows. */
  retry(): void {
    this.refocus = true;
    this.loadedFor = '';
    this.connect();
  }

  /** Removes the frame and every listener. */
  teardown(): void {
    this.stopWaiting?.();
    this.stopWaiting = null;
    for (const stop of this.watchers.splice(0)) stop();
    this.port?.close();
    this.port = null;
    this.frame?.remove();
    this.frame = null;
    this.panel?.remove();
    this.panel = null;
    this.loadedFor = '';
    this.sentTheme = '';
  }

  /** Sends what changed (locale, mode, poll interval, theme) to the frame. */
  update(): void {
    this.speak();
    if (!this.port) return;
    this.send({ v: 1, type: 'update', ...this.settings() });
  }

  /** Moves focus into the frame, to its current step. */
  focus(): void {
    this.frame?.focus();
    if (this.port) this.send({ v: 1, type: 'focus' });
  }

  /** The frame said `ready`: it gets the launch token (or secret) and its port, at the BFF's exact origin only. */
  private handshake(e: MessageEvent): void {
    const frame = this.frame;
    if (!frame || e.source !== frame.contentWindow) return;
    const msg = e.origin === this.origin ? readFrameMessage(e.data) : null;
    if (msg?.type !== 'ready') {
      if (dev()) console.warn('bank-checkout: ignored a message from the checkout frame', e.origin, e.data);
      return;
    }
    this.stopWaiting?.();
    const { port1, port2 } = new MessageChannel();
    this.port?.close();
    this.port = port1;
    port1.onmessage = (m) => this.receive(m.data);
    const { launchToken, checkoutSecret } = this.source();
    const credential = launchToken ? { token: launchToken } : { secret: checkoutSecret };
    const init: HostMessage = { v: FRAME_PROTOCOL, type: 'init', ...credential, ...this.settings() };
    frame.contentWindow!.postMessage(init, this.origin!, [port2]);
  }

  private receive(data: unknown): void {
    const msg = readFrameMessage(data);
    if (!msg) {
      if (dev()) console.warn('bank-checkout: ignored a message from the checkout frame', data);
      return;
    }
    switch (msg.type) {
      case 'size':
        if (!this.frame) break;
        this.frame.style.height = `${Math.ceil(msg.height)}px`;
        // Its first size (the frame sends it once its first screen is drawn): it shows at that
        // height, in the placeholder's place.
        if (this.state.is === 'loading') this.show({ is: 'shown' });
        break;
      case 'event':
        this.host.dispatchEvent(new CustomEvent(msg.name, { detail: msg.detail, bubbles: true, composed: true }));
        break;
      case 'navigate':
        this.navigate(msg.url);
        break;
      case 'refused':
        for (const r of msg.items) console.warn(`bank-checkout: the checkout frame did not apply ${r.name}: ${r.value} (${r.reason}); it keeps its own value.`);
        break;
    }
  }

  private settings(): FrameSettings {
    const s = this.source();
    const theme = readTheme(this.host);
    this.sentTheme = JSON.stringify(theme);
    if (this.frame) this.frame.style.colorScheme = theme.colorScheme;
    return { locale: s.locale ?? null, mode: s.mode ?? null, pollInterval: s.pollInterval ?? null, theme };
  }

  /** Theme changes on the host or the page (class, style, colour-scheme preference) reach the frame. */
  private watchTheme(): void {
    const check = () => {
      if (this.port && JSON.stringify(readTheme(this.host)) !== this.sentTheme) this.update();
    };
    const observer = new MutationObserver(check);
    for (const el of [document.documentElement, document.body, this.host])
      if (el) observer.observe(el, { attributes: true, attributeFilter: ['class', 'style', 'data-theme'] });
    const media = matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', check);
    this.watchers.push(() => {
      observer.disconnect();
      media.removeEventListener('change', check);
    });
  }

  private send(msg: HostMessage): void {
    this.port?.postMessage(msg);
  }
}
