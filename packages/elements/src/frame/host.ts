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
 * What the host says while the frame loads, and the frame's title, by language: the host has no
 * catalogues (it stays small); these are the catalogues' `frame.loading` and `frame.title`
 * (a test keeps them equal).
 */
export const HOST_TEXTS: Readonly<Record<string, readonly [title: string, loading: string]>> = {
  en: ['Pay by bank', 'Loading the payment…'],
  es: ['Pagar con tu banco', 'Cargando el pago…'],
  ca: ['Paga amb el teu banc', "S'està carregant el pagament…"],
  eu: ['Ordaindu zure bankuarekin', 'Ordainketa kargatzen…'],
  gl: ['Pagar co teu banco', 'Cargando o pagamento…'],
};

/** The texts for a locale (as given, then its language, then the browser's languages, then English). */
export function hostTexts(locale: string | null | undefined): readonly [title: string, loading: string] {
  for (const tag of [locale, ...navigator.languages]) {
    const t = tag && (HOST_TEXTS[tag.toLowerCase()] ?? HOST_TEXTS[tag.toLowerCase().split(/[-_]/)[0]!]);
    if (t) return t;
  }
  return HOST_TEXTS.en!;
}

// Until the frame says its size, a placeholder (`--bank-checkout-placeholder-height` tall) holds
// its place and says the payment is loading; the frame loads under it, unseen and inert, in the
// same grid cell (kept rendered: a browser may stop rendering a hidden cross-origin frame).
const STYLE =
  ':host{display:grid}iframe,.loading{grid-area:1/1}iframe{display:block;width:100%;border:0;overflow:hidden;background:transparent}iframe[inert]{opacity:0}' +
  '.loading{display:grid;place-items:center;min-height:var(--bank-checkout-placeholder-height,32rem);color:var(--bank-color-muted)}';

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

export class IsolatedCheckout {
  private frame: HTMLIFrameElement | null = null;
  private placeholder: HTMLElement | null = null;
  private port: MessagePort | null = null;
  private origin: string | null = null;
  private sentTheme = '';
  private loadedFor = '';
  private readonly watchers: (() => void)[] = [];

  constructor(
    private readonly host: HTMLElement,
    private readonly root: ShadowRoot | HTMLElement,
    private readonly source: () => IsolatedSource,
    /** Where the payer is sent for the redirect mode (the page's own navigation by default). */
    private readonly navigate: (url: string) => void = (url) => window.location.assign(url),
    /** The frame's title and the placeholder's text (the full kit gives its catalogues'). */
    private readonly texts: (locale: string | null | undefined) => readonly [title: string, loading: string] = hostTexts,
  ) {}

  /** Builds (or rebuilds, when the BFF or the secret changed) the frame. */
  connect(): void {
    const { api, checkoutSecret, launchToken } = this.source();
    const key = `${api}\n${launchToken ?? ''}\n${checkoutSecret}`;
    if (this.frame && key === this.loadedFor) return;
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
    const [title] = this.texts(this.source().locale);
    const placeholder = document.createElement('div');
    placeholder.className = 'loading';
    placeholder.setAttribute('part', 'placeholder');
    placeholder.setAttribute('role', 'status');
    this.placeholder = placeholder;
    // Its words come once the status is in the page, so that screen readers announce them.
    setTimeout(() => (placeholder.textContent = this.texts(this.source().locale)[1]));
    const frame = document.createElement('iframe');
    frame.title = this.host.getAttribute('frame-title') || title;
    frame.setAttribute('part', 'frame');
    frame.referrerPolicy = 'no-referrer';
    frame.inert = true;
    frame.src = `${api.replace(/\/+$/, '')}/v1/frame`;
    this.frame = frame;
    const onMessage = (e: MessageEvent) => this.handshake(e);
    window.addEventListener('message', onMessage);
    this.watchers.push(() => window.removeEventListener('message', onMessage));
    this.watchTheme();
    this.root.append(placeholder, frame);
  }

  /** Removes the frame and every listener. */
  teardown(): void {
    for (const stop of this.watchers.splice(0)) stop();
    this.port?.close();
    this.port = null;
    this.frame?.remove();
    this.frame = null;
    this.placeholder?.remove();
    this.placeholder = null;
    this.loadedFor = '';
    this.sentTheme = '';
  }

  /** Sends what changed (locale, mode, poll interval, theme) to the frame. */
  update(): void {
    const [title, loading] = this.texts(this.source().locale);
    if (this.placeholder) this.placeholder.textContent = loading;
    if (this.frame && !this.host.hasAttribute('frame-title')) this.frame.title = title;
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
        // Its first size: the frame shows at that height, in the placeholder's place.
        this.frame.inert = false;
        this.placeholder?.remove();
        this.placeholder = null;
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
