/**
 * The isolated checkout's host side, without Lit: an iframe on the BFF's own origin in the
 * host element's shadow root. The launch token goes to the frame by `postMessage` to the BFF's
 * exact origin, never in its address; the frame redeems it once and keeps what opens the
 * checkout to itself, so nothing this page holds opens it afterwards. The frame's events come
 * back as the same DOM events the inline checkout fires; the frame is sized to its content; a
 * theme value the frame refused is reported here, as a console warning.
 *
 * The host makes no network call of its own (an isolated page's CSP needs `frame-src` for the BFF
 * and nothing more), and judges the frame only by what the frame says: a frame that said `ready`
 * is there, and says itself what goes wrong from then on.
 */
import {
  FRAME_PROTOCOL,
  THEME_VARS,
  byLanguage,
  isDevelopmentHost,
  readFrameMessage,
  type FrameSettings,
  type FrameTheme,
  type HostMessage,
} from './messages.js';

/**
 * The host's own words up front, by language: the frame's title and what it says while the
 * frame loads (the catalogues' `frame.title` and `frame.loading`: a test keeps them equal). Why
 * the frame could not be shown comes with what only a failure needs (failure.ts), on demand.
 */
export type HostWords = readonly [title: string, loading: string];

export const HOST_WORDS: Readonly<Record<string, HostWords>> = {
  en: ['Pay by bank', 'Loading the payment…'],
  es: ['Pagar con tu banco', 'Cargando el pago…'],
  ca: ['Paga amb el teu banc', "S'està carregant el pagament…"],
  eu: ['Ordaindu zure bankuarekin', 'Ordainketa kargatzen…'],
  gl: ['Pagar co teu banco', 'Cargando o pagamento…'],
};

/** The words for a locale (as given, then its language, then the browser's languages, then English). */
export const hostWords = (locale: string | null | undefined): HostWords => byLanguage(HOST_WORDS, locale);

/**
 * Why the frame could not be shown: the code of the `bank-checkout-error` the host fires. The
 * frame's page loaded but never said `ready` (an error page: the BFF down or the address wrong;
 * or it said itself that it could not load what it runs), the BFF refused this page's origin (its
 * page said so), the frame did not even load within `frame-timeout`, or the element was given a
 * client secret (`secret_refused`: the frame runs launch tokens only).
 */
export type FrameFailureCode = 'frame_unreachable' | 'frame_timeout' | 'frame_refused' | 'secret_refused';

/**
 * What the host shows, one at a time: the placeholder while the frame loads unseen under it (its
 * height held until the frame says its own), the frame at the height it says, or why it could
 * not be shown (with Try again and the shop's own fallback).
 */
export type HostState = { is: 'loading' } | { is: 'shown' } | { is: 'failed'; code: FrameFailureCode };

/** How long the frame has to say it is there, by default (`frame-timeout` changes it). */
export const FRAME_TIMEOUT_MS = 10_000;
/**
 * After the frame loaded, how long its `ready` may take to arrive: the frame's page says it while
 * it loads, before its `load` event, so a loaded frame silent this long is no checkout's page.
 */
const LOAD_GRACE_MS = 2_000;

// The placeholder and the failure take the frame's grid cell; the frame loads under the
// placeholder, unseen and inert (kept rendered: a browser may stop rendering a hidden
// cross-origin frame). The placeholder is at least as tall as the screen by default, so what
// follows the checkout stays below the fold until the frame knows its height.
// (A failure's own style comes with it: failure.ts.)
const STYLE =
  ':host{display:grid}iframe,.panel{grid-area:1/1}iframe{display:block;width:100%;border:0;overflow:hidden;background:transparent}iframe[inert]{opacity:0}' +
  '.panel{box-sizing:border-box;padding:var(--bank-padding,16px);color:var(--bank-color-muted)}' +
  '.loading{min-height:var(--bank-checkout-placeholder-height,max(32rem,100svh))}';

/** What the host element gives the frame. */
export interface IsolatedSource {
  readonly api: string;
  /** The launch token the merchant's server gave the page (isolated checkouts). */
  readonly launchToken?: string | null | undefined;
  /**
   * A client secret given to the isolated element: refused (`secret_refused`), as the frame runs
   * only what it redeemed itself from a launch token.
   */
  readonly checkoutSecret: string;
  readonly locale?: string | null | undefined;
  readonly mode?: string | null | undefined;
  readonly pollInterval?: number | null | undefined;
  /** Milliseconds the frame has to say it is there (FRAME_TIMEOUT_MS by default). */
  readonly frameTimeout?: number | null | undefined;
}

const sheets = new Map<string, CSSStyleSheet>();
/** A style as a constructed sheet (no inline style for the page's CSP to refuse), adopted once by `root`. */
export function adoptStyle(root: ShadowRoot | HTMLElement, style = STYLE): void {
  if (!(root instanceof ShadowRoot)) return;
  let sheet = sheets.get(style);
  if (!sheet) {
    sheets.set(style, (sheet = new CSSStyleSheet()));
    sheet.replaceSync(style);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

const dev = () => isDevelopmentHost(location.hostname);
/** A message from the frame that was not for the host, said in development. */
const ignored = (what: unknown) => dev() && console.warn('bank-checkout: ignored a message from the checkout frame', what);

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
 * Opens the connection to the BFF's origin ahead of the frame (`<link rel="preconnect">` in the
 * page's head), unless the page has one: a page that gets its launch token after the host ran
 * (from its server, by a call) has it open by then. No `crossorigin`: the frame's page is a
 * navigation, which takes the connections a page's credentialed requests use.
 */
function preconnect(origin: string): void {
  if (!document.querySelector(`link[rel=preconnect][href^="${origin}"]:not([crossorigin])`))
    document.head.append(Object.assign(document.createElement('link'), { rel: 'preconnect', href: origin }));
}

/** What only a failure needs (its words, what the page's developer is told): a chunk of its own, loaded when the frame failed. */
let failureChunk: Promise<typeof import('./failure.js')> | undefined;
const loadFailure = () =>
  (failureChunk ??= import('./failure.js').catch((err: unknown) => {
    failureChunk = undefined;
    throw err;
  }));

/** Tells the page's developer what is wrong (failure.ts `tellDeveloper`). */
const tell = (...why: Parameters<Awaited<ReturnType<typeof loadFailure>>['tellDeveloper']>) =>
  void loadFailure().then(
    (f) => f.tellDeveloper(...why),
    () => {},
  );

export class IsolatedCheckout {
  private frame: HTMLIFrameElement | null = null;
  /** The placeholder or the failure, whichever shows. */
  declare private panel?: HTMLElement | null;
  private port: MessagePort | null = null;
  private origin: string | null = null;
  private sentTheme = '';
  private loadedFor = '';
  /** Ends what the current frame listens to (its messages, the theme's changes). */
  declare private listening?: AbortController;
  /** The failure chunk, once a failure loaded it. */
  declare private failure?: Awaited<ReturnType<typeof loadFailure>> | null;
  /** The console was told why a client secret is refused (once). */
  declare private toldSecret?: boolean;
  /** What shows now. */
  state: HostState = { is: 'loading' };
  /** The payer pressed Try again: focus goes to the placeholder, then into the frame once it shows. */
  declare private refocus?: boolean;

  constructor(
    private readonly host: HTMLElement,
    private readonly root: ShadowRoot | HTMLElement,
    private readonly source: () => IsolatedSource,
    /** Where the payer is sent for the redirect mode (the page's own navigation by default). */
    private readonly navigate: (url: string) => void = (url) => window.location.assign(url),
    /** The frame's title and what shows while it loads (the full kit gives its catalogues'). */
    private readonly texts: (locale: string | null | undefined) => HostWords = hostWords,
  ) {}

  /** Builds (or rebuilds, when the BFF or the launch token changed) the frame. */
  connect(): void {
    const { api, checkoutSecret, launchToken } = this.source();
    const key = `${api}\n${launchToken ?? ''}\n${checkoutSecret}`;
    // The same checkout again: it stays as it is (a failure too, until the payer tries again).
    if (key === this.loadedFor && (this.frame || this.state.is === 'failed')) return;
    this.teardown();
    if (checkoutSecret) {
      // The frame runs only what it redeemed itself: a client secret is any script's to use.
      this.loadedFor = key;
      if (!this.toldSecret) tell('secret');
      this.toldSecret = true;
      void this.fail('secret_refused');
      return;
    }
    if (!api) return;
    const origin = bffOrigin(api);
    // The frame's page comes from there: its connection is opened while the launch token is on its way.
    if (origin) preconnect(origin);
    if (!launchToken) return;
    if (!origin) {
      // No web address: nothing can load, which the payer is told like a BFF that cannot be reached.
      this.loadedFor = key;
      tell('api', api);
      void this.fail('frame_unreachable');
      return;
    }
    if (origin === location.origin && dev()) tell('same-origin');
    this.origin = origin;
    this.loadedFor = key;
    adoptStyle(this.root);
    const src = `${api.replace(/\/+$/, '')}/v1/frame`;
    // The frame the shop's page wrote in its HTML (prerender.ts), loading since the page was
    // read: taken as it is when it is this BFF's, its address saying the checkout's state and
    // language or not (it says `ready` again when asked); else a new one.
    let frame = this.root.querySelector('iframe');
    const written = frame?.getAttribute('src')?.split('?')[0] === src;
    if (!written) {
      frame?.remove();
      frame = document.createElement('iframe');
      frame.setAttribute('part', 'frame');
      // The page's origin alone, which the BFF answers with a page that says it refuses it when
      // it is not allowed (nothing else of the page's address).
      frame.referrerPolicy = 'origin';
      frame.src = src;
    }
    frame!.hidden = false;
    this.frame = frame;
    const signal = (this.listening = new AbortController()).signal;
    window.addEventListener('message', (e) => this.handshake(e), { signal });
    this.watchTheme(signal);
    this.wait(signal);
    this.show({ is: 'loading' });
    // `hello` carries nothing, so it goes to whatever the frame holds now: its page, or still the
    // empty document a frame starts with (an exact origin would make the browser warn then).
    if (written) frame!.contentWindow?.postMessage({ v: 1, type: 'hello' } satisfies HostMessage, '*');
    else this.root.append(frame!);
  }

  /**
   * Waits for the frame to say it is there (`ready`), judging it by what it says only: once it
   * did, its page is loaded and its script runs, and the frame says itself what goes wrong from
   * then on (a slow launch only keeps the placeholder longer). A frame whose page loaded without
   * saying it (an error page, or a page that is no checkout's) fails `frame_unreachable` a moment
   * later; one that did neither within `frame-timeout`, `frame_timeout` (`frame_unreachable` if it
   * loaded). A frame the page wrote may have loaded before this listened: it answers the `hello`,
   * or fails at the timeout.
   */
  private wait(signal: AbortSignal): void {
    const limit = this.source().frameTimeout;
    let loaded = false;
    // The frame said `ready` (and got its port): it is there, and nothing here judges it any more.
    const fail = (code: FrameFailureCode) => this.port || void this.fail(code);
    const timers = [setTimeout(() => fail(loaded ? 'frame_unreachable' : 'frame_timeout'), limit != null && limit >= 0 ? limit : FRAME_TIMEOUT_MS)];
    const onLoad = () => {
      loaded = true;
      timers.push(setTimeout(() => fail('frame_unreachable'), LOAD_GRACE_MS));
    };
    this.frame!.addEventListener('load', onLoad, { once: true, signal });
    signal.addEventListener('abort', () => timers.forEach(clearTimeout));
  }

  /** The frame could not be shown: it goes, the payer is told why (once the failure's chunk is in), and the page hears it. */
  private async fail(code: FrameFailureCode): Promise<void> {
    const key = this.loadedFor;
    const origin = this.origin;
    this.teardown();
    this.loadedFor = key;
    this.state = { is: 'failed', code };
    this.failure = await loadFailure().catch(() => null);
    // Something else started meanwhile (another checkout, the element left the page).
    if (this.loadedFor !== key || this.state.code !== code) return;
    this.show(this.state);
    if (code === 'frame_refused') tell('refused', origin ?? '');
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
    let panel: HTMLElement;
    if (state.is === 'failed') {
      // Its words, Try again and the shop's own fallback: the failure chunk's (without it, the fallback alone).
      panel = this.failure?.failurePanel(this.root, state.code, () => this.retry()) ?? document.createElement('div');
    } else {
      panel = document.createElement('div');
      panel.className = 'panel loading';
      panel.setAttribute('part', 'placeholder');
      panel.setAttribute('role', 'status');
    }
    panel.tabIndex = -1;
    this.panel = panel;
    this.root.prepend(panel);
    if (this.refocus) panel.focus();
    // Its words come once it is in the page, so that screen readers announce them.
    setTimeout(() => this.speak());
  }

  /** The panel's words in the checkout's language, and the frame's title (the page's `frame-title`, else the language's); only what changed. */
  private speak(): void {
    const locale = this.source().locale;
    const [title, loading] = this.texts(locale);
    if (this.frame) this.frame.title = this.host.getAttribute('frame-title') || title;
    const s = this.state;
    if (s.is === 'loading' && this.panel && this.panel.textContent !== loading) this.panel.textContent = loading;
    if (s.is === 'failed' && this.panel) this.failure?.sayFailure(this.panel, s.code, locale);
  }
  /**
   * Try again: the frame loads anew, with the same launch token (never sent, when the frame never
   * said it was there; else redeemed by this browser, which the BFF lets take the checkout up
   * again); focus follows.
   */
  retry(): void {
    this.refocus = true;
    this.loadedFor = '';
    this.connect();
  }

  /** Removes the frame and every listener. */
  teardown(): void {
    this.listening?.abort();
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
    this.send({ v: 1, type: 'focus' });
  }

  /**
   * The frame said `ready`: it is there (the wait ends with its port), and it gets the launch
   * token and its port, at the BFF's exact origin only. Or it said it cannot show the checkout
   * (`failed`).
   */
  private handshake(e: MessageEvent): void {
    const frame = this.frame;
    if (!frame || e.source !== frame.contentWindow) return;
    const msg = e.origin === this.origin ? readFrameMessage(e.data) : null;
    const token = this.source().launchToken;
    // Shown or not (a first screen written in its page shows before its kit has run): it fails.
    if (msg?.type === 'failed') return void this.fail(msg.code);
    // One init a frame: a second `ready` (the frame's first, heard after the host's `hello` had
    // asked for another) would leave the frame on a port closed under it.
    if (msg?.type !== 'ready' || !token || this.port) {
      ignored(e);
      return;
    }
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    port1.onmessage = (m) => this.receive(m.data);
    const init: HostMessage = { v: FRAME_PROTOCOL, type: 'init', token, ...this.settings() };
    frame.contentWindow!.postMessage(init, this.origin!, [port2]);
  }

  private receive(data: unknown): void {
    const msg = readFrameMessage(data);
    if (!msg) {
      ignored(data);
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
        for (const r of msg.items) tell('theme', `${r.name}: ${r.value} (${r.reason})`);
        break;
      case 'ready':
      case 'failed':
        // Heard where the frame's window is known (the handshake, above): nothing more here.
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
  private watchTheme(signal: AbortSignal): void {
    const check = () => {
      if (this.port && JSON.stringify(readTheme(this.host)) !== this.sentTheme) this.update();
    };
    const observer = new MutationObserver(check);
    for (const el of [document.documentElement, document.body, this.host])
      observer.observe(el, { attributes: true, attributeFilter: ['class', 'style', 'data-theme'] });
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', check, { signal });
    signal.addEventListener('abort', () => observer.disconnect());
  }

  private send(msg: HostMessage): void {
    this.port?.postMessage(msg);
  }
}
