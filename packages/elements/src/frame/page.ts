/**
 * The script of the isolated checkout's page (`GET /v1/frame` on the BFF): the full kit in a
 * document of the BFF's own origin. It waits for the host's `init` (from its parent window, at
 * one of the origins the BFF allows), then runs `<bank-checkout>` against the BFF on this same
 * origin, and reports through the port: its size, the kit's events, and where to navigate for
 * the redirect mode. Nothing the payer types ever leaves this document except to the BFF.
 */
import '../bank-checkout/bank-checkout.js';
import type { BankCheckout } from '../bank-checkout/bank-checkout.js';
import type { CheckoutMode } from '@bank-checkout/contract';
import { browserLanguages, loadLocale, resolveLocale, translate } from '../i18n/index.js';
import { FRAME_EVENTS, FRAME_PROTOCOL, isDevelopmentHost, readHostMessage, type FrameMessage, type FrameSettings } from './messages.js';

const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
/** The origins allowed to embed the checkout (the BFF's ALLOWED_ORIGINS). */
const allowed = meta('bank-checkout-origins').split(/\s+/).filter(Boolean);
const debug = meta('bank-checkout-debug') === '1' || isDevelopmentHost(location.hostname);
const ignored = (why: string, data?: unknown) => {
  if (debug) console.warn(`bank-checkout frame: ignored a message (${why})`, data);
};

const checkout = document.querySelector('bank-checkout') as BankCheckout;

// The page is the checkout and nothing else: no margin, transparent, sized by the host to its
// content; its heading (what the page is, for assistive technology) is not drawn.
const sheet = new CSSStyleSheet();
sheet.replaceSync(
  'html,body,main{margin:0;padding:0;background:transparent;overflow:hidden}.title{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}',
);
document.adoptedStyleSheets = [sheet];
// It names the page's main landmark too (the BFF's page: `<main aria-labelledby="frame-title">`),
// so the landmark differs from the host page's own main.
const title = document.createElement('h1');
title.className = 'title';
title.id = 'frame-title';
checkout.before(title);

let spoken = '';
/** The document speaks the checkout's language: its `lang` and its heading (the last asked for wins). */
async function speak(requested: string | null | undefined): Promise<void> {
  const locale = (spoken = resolveLocale(requested, browserLanguages()));
  await loadLocale(locale);
  if (locale !== spoken) return;
  document.documentElement.lang = locale;
  title.textContent = translate(locale, 'frame.title');
}
void speak(null);
let port: MessagePort | null = null;

const post = (msg: FrameMessage) => port?.postMessage(msg);

function apply(s: FrameSettings): void {
  if (s.locale !== undefined) {
    checkout.locale = s.locale ?? undefined;
    void speak(s.locale);
  }
  if (s.mode !== undefined) checkout.mode = (s.mode ?? undefined) as CheckoutMode | undefined;
  if (typeof s.pollInterval === 'number') checkout.pollInterval = s.pollInterval;
  if (s.theme) {
    const root = document.documentElement.style;
    for (let i = root.length - 1; i >= 0; i--) {
      const name = root.item(i);
      if (name.startsWith('--bank-')) root.removeProperty(name);
    }
    for (const [name, value] of Object.entries(s.theme.vars)) root.setProperty(name, value);
    root.colorScheme = s.theme.colorScheme;
  }
}

window.addEventListener('message', (e) => {
  if (e.source !== window.parent) return ignored('not from the parent window');
  if (!allowed.includes(e.origin)) return ignored(`origin ${e.origin} is not allowed`);
  const msg = readHostMessage(e.data);
  if (msg?.type !== 'init' || !e.ports[0]) return ignored('not an init', e.data);
  if (port) return ignored('already started');
  port = e.ports[0];
  port.onmessage = (m) => {
    const next = readHostMessage(m.data);
    if (next?.type === 'update') apply(next);
    else if (next?.type === 'focus') void checkout.focusStep();
    else ignored('unknown message', m.data);
  };
  apply(msg);
  for (const name of FRAME_EVENTS) checkout.addEventListener(name, (ev) => post({ v: 1, type: 'event', name, detail: (ev as CustomEvent).detail } as FrameMessage));
  checkout.navigate = (url) => post({ v: 1, type: 'navigate', url });
  new ResizeObserver(() => post({ v: 1, type: 'size', height: document.documentElement.getBoundingClientRect().height })).observe(document.documentElement);
  checkout.api = new URL('..', location.href).href.replace(/\/$/, '');
  checkout.checkoutSecret = msg.secret;
});

const ready: FrameMessage = { v: FRAME_PROTOCOL, type: 'ready' };
// `ready` carries nothing; the host answers only when it comes from its own frame at the BFF's origin.
window.parent.postMessage(ready, '*');
