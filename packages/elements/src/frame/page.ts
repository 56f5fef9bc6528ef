/**
 * The script of the isolated checkout's page (`GET /v1/frame` on the BFF): the full kit in a
 * document of the BFF's own origin. It waits for the host's `init` (from its parent window, at
 * one of the origins the BFF allows), then runs `<bank-checkout>` against the BFF on this same
 * origin, and reports through the port: its size, the kit's events, and where to navigate for
 * the redirect mode. Nothing the payer types ever leaves this document except to the BFF.
 *
 * It runs only what it redeemed itself: the page's launch token, redeemed here with a proof of
 * possession of this browser's key pair for the checkout (frame/keys.ts, frame/proof.ts), for the
 * key this document proves itself with from then on, on every call (it lives in this document's
 * memory only: no storage, no address, no message). A client secret is never taken. The same
 * browser (a reload, Back, a second tab) resumes the checkout where it is; its frames tell each
 * other when they moved it on (a BroadcastChannel of this origin), and each reads it again. The
 * redemption answers the first screen, drawn without another call. If the checkout cannot be
 * opened, nothing is shown but why. The payer's confirmation (the transfer, a validation) waits
 * until the frame is fully visible (frame/visibility.ts). The host's theme passes the floor of
 * theme-floor.ts first; what it refuses stays the kit's own and is reported to the host. The
 * page's background is opaque: nothing behind it shows through.
 */
import '../bank-checkout/bank-checkout.js';
import type { BankCheckout } from '../bank-checkout/bank-checkout.js';
import type { CheckoutMode, FrameLaunchAnswer } from '@bank-checkout/contract';
import { CheckoutApiError, createCheckoutClient, type CheckoutClient } from '../client.js';
import { browserLanguages, errorKey, loadLocale, registerTexts, resolveLocale, translate, type MessageKey } from '../i18n/index.js';
import { enFrame } from '../i18n/en-frame.js';
import { esFrame } from '../i18n/es-frame.js';
import { FRAME_EVENTS, FRAME_PROTOCOL, isDevelopmentHost, readHostMessage, type FrameMessage, type FrameSettings } from './messages.js';
import { DEFAULT_COLORS, themeFloor } from './theme-floor.js';
import { framePair, newPair } from './keys.js';
import { createProver, type Prover } from './proof.js';
import { isFullyVisible } from './visibility.js';

registerTexts({ en: enFrame, es: esFrame });

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

/** An `init` that carries a client secret instead of a launch token. */
const isSecretInit = (data: unknown) =>
  typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'init' && typeof (data as { secret?: unknown }).secret === 'string';

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

/** The checkout a launch token names (`lt_<checkout id>.<secret>`), or null. */
const checkoutOf = (token: string) => /^lt_(chk_[\w-]{1,64})\./.exec(token)?.[1] ?? null;

/** Waits before trying a redemption again while the checkout's line is busy (a call with the bank, the store for a moment). */
const BUSY_WAITS_MS = [500, 1_000, 2_000, 3_000, 5_000, 8_000, 8_000, 8_000];
/** When another window's action started, how long after it this one reads the checkout (its call may be with the bank by then). */
const BUSY_READS_MS = [300, 1_500];
/** A device clock this far from the BFF's makes proofs it refuses: they are dated by the BFF's clock instead. */
const SKEW_MS = 30_000;

/** How far this device's clock is behind the BFF's (its `Date`), once found too far off; proofs are dated by it. */
let skew = 0;

/** The page cannot open the checkout: it is replaced by why (nothing was typed yet), and the host hears it. */
function cannotOpen(code: string, status: number | null, requestId: string | null, key: MessageKey = errorKey(code)): void {
  const notice = document.createElement('p');
  notice.className = 'launch-failed';
  notice.setAttribute('role', 'alert');
  notice.textContent = translate(spoken, key);
  checkout.replaceWith(notice);
  sizeFromNow();
  post({ v: 1, type: 'event', name: 'bank-checkout-error', detail: { checkoutId: null, code, status, requestId } });
}

/**
 * Redeems the page's launch token for this frame's key, proving possession of this browser's key
 * pair for the checkout: the key and the first screen, or null (the checkout cannot go on here)
 * after saying why. While the checkout's line is busy it waits and tries again (the token holds
 * until redeemed); a refusal of a proof dated by a clock far from the BFF's is tried once more,
 * dated by the BFF's.
 */
async function redeem(api: string, token: string): Promise<{ answer: FrameLaunchAnswer; prover: Prover } | null> {
  const url = `${api}/v1/frame/launch`;
  let status: number | null = null;
  let code = 'network';
  let requestId: string | null = null;
  try {
    // A token that names no checkout gets a pair of this document's own (the BFF refuses it anyway).
    const id = checkoutOf(token);
    const prover = await createProver(id ? (await framePair(id)).pair : await newPair());
    for (let attempt = 0, dated = false; ; attempt++) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', DPoP: await prover.prove('POST', url, undefined, Date.now() + skew) },
        body: JSON.stringify({ token }),
        credentials: 'omit',
        cache: 'no-store',
      });
      status = res.status;
      requestId = res.headers.get('X-Request-Id');
      const body = (await res.json().catch(() => null)) as (FrameLaunchAnswer & { error?: { code?: string } }) | null;
      if (res.ok && typeof body?.key === 'string' && typeof (body as { start?: unknown }).start === 'object') return { answer: body, prover };
      code = body?.error?.code ?? 'upstream';
      const wait = BUSY_WAITS_MS[attempt];
      if ((status === 503 || code === 'checkout_busy') && wait !== undefined) {
        await new Promise((r) => setTimeout(r, wait));
        continue;
      }
      const off = Date.parse(res.headers.get('Date') ?? '') - Date.now();
      if (status === 401 && !dated && Math.abs(off) > SKEW_MS) {
        skew = off;
        dated = true;
        continue;
      }
      break;
    }
  } catch {
    /* the network: said below */
  }
  cannotOpen(code, status, requestId);
  return null;
}

/**
 * The checkout's client for this frame: its key, with a proof of possession on every call; the
 * payer's confirmation (the transfer, a validation) refused, with nothing sent, while the frame
 * is not fully visible (`frame_hidden`); and the frame's other windows of this checkout told when
 * an action starts and ends (each then reads the checkout again).
 */
function frameClient(api: string, key: string, prover: Prover, channel: BroadcastChannel | null): CheckoutClient {
  const client = createCheckoutClient({ api, secret: key, proof: (method, url) => prover.prove(method, url, key, Date.now() + skew) });
  const confirmable = () => isFullyVisible(checkout);
  const calls = Object.entries(client) as [keyof CheckoutClient, (...args: unknown[]) => Promise<unknown>][];
  const wrapped = calls.map(([name, call]) => {
    if (name === 'banks' || name === 'checkout' || name === 'start' || name === 'handoff') return [name, call];
    const confirms = name === 'transfer' || name === 'validate';
    return [
      name,
      async (...args: unknown[]) => {
        if (confirms && !(await confirmable()))
          throw new CheckoutApiError(0, 'frame_hidden', 'The payment is not fully visible to the payer: it was not sent.');
        channel?.postMessage('busy');
        try {
          return await call(...args);
        } finally {
          channel?.postMessage('changed');
        }
      },
    ];
  });
  return { ...(Object.fromEntries(wrapped) as unknown as CheckoutClient), confirmable };
}

/** Runs the checkout `answer` opened: its first screen at once, then its calls with this frame's key. */
function run(api: string, answer: FrameLaunchAnswer, prover: Prover): void {
  const id = answer.start.view.id;
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`bank-checkout:${id}`) : null;
  // Another window of this browser acted on the checkout: read it again (quietly). An action
  // that starts is read a moment later, and again, once its call has reached the BFF: a call
  // still with the bank then shows as such here (and the step waits for it).
  if (channel)
    channel.onmessage = (e) => {
      for (const ms of e.data === 'busy' ? BUSY_READS_MS : [0]) setTimeout(() => void checkout.check(), ms);
    };
  checkout.initial = answer.start;
  checkout.client = frameClient(api, answer.key, prover, channel);
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
  if (e.source !== window.parent) {
    ignored('not from the parent window');
    return;
  }
  if (!allowed.includes(e.origin)) {
    ignored(`origin ${e.origin} is not allowed`);
    return;
  }
  const msg = readHostMessage(e.data);
  if (msg?.type !== 'init' || !e.ports[0]) {
    // A client secret is never run here (any script of the page could have given it): the frame says it cannot open the payment.
    if (!port && isSecretInit(e.data) && e.ports[0]) {
      port = e.ports[0];
      console.error('bank-checkout frame: refused a client secret; an isolated checkout opens with its launch token only.');
      cannotOpen('secret_refused', null, null, 'error.unauthorized');
    }
    ignored('not an init', e.data);
    return;
  }
  if (port) {
    ignored('already started');
    return;
  }
  port = e.ports[0];
  port.onmessage = (m) => {
    const next = readHostMessage(m.data);
    if (next?.type === 'update') apply(next);
    else if (next?.type === 'focus') void checkout.focusStep();
    else ignored('unknown message', m.data);
  };
  apply(msg);
  for (const name of FRAME_EVENTS)
    checkout.addEventListener(name, (ev) => post({ v: 1, type: 'event', name, detail: (ev as CustomEvent<unknown>).detail } as FrameMessage));
  checkout.navigate = (url) => post({ v: 1, type: 'navigate', url });
  // Its size once the first screen is drawn (the checkout, or why it cannot go on), then every
  // change: the host holds its placeholder until then, so the page moves once, not at each
  // piece of the loading.
  for (const name of ['bank-checkout-step', 'bank-checkout-error'] as const) checkout.addEventListener(name, sizeFromNow, { once: true });
  const api = new URL('..', location.href).href.replace(/\/$/, '');
  void redeem(api, msg.token).then((redeemed) => redeemed && run(api, redeemed.answer, redeemed.prover));
});

const ready: FrameMessage = { v: FRAME_PROTOCOL, type: 'ready' };
// `ready` carries nothing; the host answers only when it comes from its own frame at the BFF's origin.
window.parent.postMessage(ready, '*');
