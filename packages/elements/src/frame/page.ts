/**
 * The script of the isolated checkout's page (`GET /v1/frame` on the BFF): the full kit in a
 * document of the BFF's own origin. It waits for the host's `init` (from its parent window, at
 * one of the origins the BFF allows), then runs `<bank-checkout>` against the BFF on this same
 * origin, and reports through the port: its size, the kit's events, and where to navigate for
 * the redirect mode. Nothing the payer types ever leaves this document except to the BFF.
 *
 * The page's launch token is redeemed here, once, for the key this document proves itself with
 * from then on: it lives in this document's memory only (no storage, no address, no message).
 * If the token was already used, nothing is shown but a message that the checkout cannot go on.
 * The host's theme passes the floor of theme-floor.ts first; what it refuses stays the kit's own
 * and is reported to the host. The page's background is opaque: nothing behind it shows through.
 */
import '../bank-checkout/bank-checkout.js';
import type { BankCheckout } from '../bank-checkout/bank-checkout.js';
import type { CheckoutMode, FrameLaunchAnswer } from '@bank-checkout/contract';
import { browserLanguages, errorKey, loadLocale, resolveLocale, translate } from '../i18n/index.js';
import { FRAME_EVENTS, FRAME_PROTOCOL, isDevelopmentHost, readHostMessage, type FrameMessage, type FrameSettings } from './messages.js';
import { DEFAULT_COLORS, themeFloor } from './theme-floor.js';

const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
/** The origins allowed to embed the checkout (the BFF's ALLOWED_ORIGINS). */
const allowed = meta('bank-checkout-origins').split(/\s+/).filter(Boolean);
const debug = meta('bank-checkout-debug') === '1' || isDevelopmentHost(location.hostname);
const ignored = (why: string, data?: unknown) => {
  if (debug) console.warn(`bank-checkout frame: ignored a message (${why})`, data);
};

const checkout = document.querySelector('bank-checkout') as BankCheckout;

// The page is the checkout and nothing else: no margin, sized by the host to its content, on
// an opaque background of its own (the theme's, once it passed the floor); its title (what the
// page is, for assistive technology) is not drawn.
const bg = (scheme: 'light' | 'dark') => `html{background:var(--bank-color-background,${DEFAULT_COLORS[scheme]['--bank-color-background']})}`;
const sheet = new CSSStyleSheet();
sheet.replaceSync(
  `html,body,main{margin:0;padding:0;overflow:hidden}body,main{background:transparent}${bg('light')}@media (prefers-color-scheme: dark){${bg('dark')}}` +
    '.title{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}' +
    '.launch-failed{margin:0;padding:16px;font:1rem/1.45 system-ui,sans-serif}',
);
document.adoptedStyleSheets = [sheet];
// It names the page's main landmark (the BFF's page: `<main aria-labelledby="frame-title">`), so
// the landmark differs from the host page's own main. It is no heading: the frame is part of the
// shop's page, whose own level-one heading the steps' level-two headings follow.
const title = document.createElement('p');
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
    const { accepted, refused } = themeFloor(s.theme.vars, { dark: matchMedia('(prefers-color-scheme: dark)').matches, resolveColor });
    for (const [name, value] of Object.entries(accepted)) root.setProperty(name, value);
    root.colorScheme = s.theme.colorScheme;
    if (refused.length) post({ v: 1, type: 'refused', items: refused });
  }
}

/** A colour as the browser computes it (`rgb()`), for the floor to read any syntax it knows; null when it is no colour. */
function resolveColor(value: string): string | null {
  const probe = document.createElement('i');
  probe.hidden = true;
  probe.style.color = value;
  if (!probe.style.color) return null;
  document.body.append(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

/** Redeems the page's launch token for this frame's key; null (the checkout cannot go on here) after saying why. */
async function redeem(api: string, token: string): Promise<string | null> {
  let status: number | null = null;
  let code = 'network';
  let requestId: string | null = null;
  try {
    const res = await fetch(`${api}/v1/frame/launch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
      credentials: 'omit',
      cache: 'no-store',
    });
    status = res.status;
    requestId = res.headers.get('X-Request-Id');
    const body = (await res.json().catch(() => null)) as (FrameLaunchAnswer & { error?: { code?: string } }) | null;
    if (res.ok && typeof body?.key === 'string') return body.key;
    code = body?.error?.code ?? 'upstream';
  } catch {
    /* the network: said below */
  }
  // Nothing was typed yet: the checkout is replaced by why it cannot go on.
  const notice = document.createElement('p');
  notice.className = 'launch-failed';
  notice.setAttribute('role', 'alert');
  notice.textContent = translate(spoken, errorKey(code));
  checkout.replaceWith(notice);
  sizeFromNow();
  post({ v: 1, type: 'event', name: 'bank-checkout-error', detail: { checkoutId: null, code, status, requestId } });
  return null;
}

let sizing = false;
/** Reports the document's height to the host from now on (once drawn, then at every change). */
function sizeFromNow(): void {
  if (sizing) return;
  sizing = true;
  void checkout.updateComplete.then(() =>
    new ResizeObserver(() => post({ v: 1, type: 'size', height: document.documentElement.getBoundingClientRect().height })).observe(document.documentElement),
  );
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
  for (const name of FRAME_EVENTS)
    checkout.addEventListener(name, (ev) => post({ v: 1, type: 'event', name, detail: (ev as CustomEvent).detail } as FrameMessage));
  checkout.navigate = (url) => post({ v: 1, type: 'navigate', url });
  // Its size once the first screen is drawn (the checkout, or why it cannot go on), then every
  // change: the host holds its placeholder until then, so the page moves once, not at each
  // piece of the loading.
  for (const name of ['bank-checkout-step', 'bank-checkout-error'] as const) checkout.addEventListener(name, sizeFromNow, { once: true });
  const api = new URL('..', location.href).href.replace(/\/$/, '');
  if (msg.token === undefined) {
    // An inline checkout shown in the frame: its client secret, as the page gave it.
    checkout.api = api;
    checkout.checkoutSecret = msg.secret;
    return;
  }
  void redeem(api, msg.token).then((key) => {
    if (!key) return;
    checkout.api = api;
    checkout.checkoutSecret = key;
  });
});

const ready: FrameMessage = { v: FRAME_PROTOCOL, type: 'ready' };
// `ready` carries nothing; the host answers only when it comes from its own frame at the BFF's origin.
window.parent.postMessage(ready, '*');
