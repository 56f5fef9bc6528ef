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
 * browser (a reload, Back, a second tab) resumes the checkout where it is. The redemption
 * answers the first screen, drawn without another call.
 *
 * This module is small and runs first: it says `ready`, takes the host's `init` and starts the
 * redemption at once, while the kit (frame/page-checkout.ts, preloaded with the page) is still
 * on its way; the kit then draws what the redemption answered, or why the checkout cannot open.
 * When the shop's server wrote the frame (`isolatedCheckoutHtml`), the launch token is in the
 * frame's `name`: read and cleared before anything else, and redeemed at once, without waiting
 * for the host's script.
 *
 * A page written with its first screen (the BFF's bank list, `GET /v1/frame?state=select-bank`:
 * frame/first-screen.ts) shows it as soon as it is read. It is nobody's checkout: it gives the
 * host its size as soon as the host asks, and keeps the bank the payer chooses in it until the
 * kit, with the checkout redeemed, takes its place (page-checkout.ts). A bank chosen on this
 * device before (the list would start with it) or in this tab for this checkout (its sign-in
 * form would show) needs the kit: the written list goes, and the host keeps its placeholder.
 */
import { isDevelopmentHost, FRAME_PROTOCOL, readHostMessage, type FrameMessage } from './messages.js';
import { framePair, newPair, warmPair } from './keys.js';
import { createProver } from './proof.js';
import { deviceStorage, recallBank } from '../logic/banks.js';
import { keptBank } from './resume.js';
import type { Drawn, Launch, LaunchFailure } from './page-checkout.js';

// The launch token the shop's server handed in the frame element's `name`: taken, and the name
// cleared at once (a name stays with the frame, whatever document it goes to next).
const named = window.name;
window.name = '';

let kitLoad: Promise<typeof import('./page-checkout.js')> | null = null;
/** The kit (preloaded with the page): run at once, or once the written first screen was shown (below). */
function kit(): Promise<typeof import('./page-checkout.js')> {
  if (!kitLoad) {
    kitLoad = import('./page-checkout.js');
    // Its failure is said to the host once there is one to tell (below), not thrown at the page.
    kitLoad.catch(() => {});
  }
  return kitLoad;
}

const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
/** The origins allowed to embed the checkout (the BFF's ALLOWED_ORIGINS). */
const allowed = meta('bank-checkout-origins').split(/\s+/).filter(Boolean);
const debug = meta('bank-checkout-debug') === '1' || isDevelopmentHost(location.hostname);
const ignored = (why: string, data?: unknown) => {
  if (debug) console.warn(`bank-checkout frame: ignored a message (${why})`, data);
};

/** An `init` that carries a client secret instead of a launch token. */
const isSecretInit = (data: unknown) =>
  typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'init' && typeof (data as { secret?: unknown }).secret === 'string';

/** The checkout a launch token names (`lt_<checkout id>.<secret>`), or null. */
const checkoutOf = (token: string) => /^lt_(chk_[\w-]{1,64})\./.exec(token)?.[1] ?? null;

/** Waits before trying a redemption again while the checkout's line is busy (a call with the bank, the store for a moment). */
const BUSY_WAITS_MS = [500, 1_000, 2_000, 3_000, 5_000, 8_000, 8_000, 8_000];
/** A device clock this far from the BFF's makes proofs it refuses: they are dated by the BFF's clock instead. */
const SKEW_MS = 30_000;

/**
 * Redeems the page's launch token for this frame's key, proving possession of this browser's key
 * pair for the checkout: the key and the first screen, or why the checkout cannot go on here.
 * While the checkout's line is busy it waits and tries again (the token holds until redeemed); a
 * refusal of a proof dated by a clock far from the BFF's is tried once more, dated by the BFF's
 * (how far this device's clock is behind it: the `skew` every later proof is dated with).
 */
async function redeem(api: string, token: string): Promise<Launch> {
  const url = `${api}/v1/frame/launch`;
  const failure: LaunchFailure = { code: 'network', status: null, requestId: null };
  let skew = 0;
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
      failure.status = res.status;
      failure.requestId = res.headers.get('X-Request-Id');
      const body = (await res.json().catch(() => null)) as (Extract<Launch, { ok: true }>['answer'] & { error?: { code?: string } }) | null;
      if (res.ok && typeof body?.key === 'string' && typeof (body as { start?: unknown }).start === 'object') return { ok: true, answer: body, prover, skew };
      failure.code = body?.error?.code ?? 'upstream';
      const wait = BUSY_WAITS_MS[attempt];
      if ((failure.status === 503 || failure.code === 'checkout_busy') && wait !== undefined) {
        await new Promise((r) => setTimeout(r, wait));
        continue;
      }
      const off = Date.parse(res.headers.get('Date') ?? '') - Date.now();
      if (failure.status === 401 && !dated && Math.abs(off) > SKEW_MS) {
        skew = off;
        dated = true;
        continue;
      }
      break;
    }
  } catch {
    /* the network: said by the kit */
  }
  return { ok: false, ...failure };
}

/**
 * The kit did not load (the connection dropped while its modules came): the page has nothing to
 * show, so it tells the host, which shows the payer why with Try again (the same browser then
 * takes the checkout up again, its launch redeemed or not).
 */
const unloaded = (host: string) => () =>
  window.parent.postMessage({ v: FRAME_PROTOCOL, type: 'failed', code: 'frame_unreachable' } satisfies FrameMessage, host);

/** The first screen the page was written with, while it shows. */
let first: HTMLElement | null = document.querySelector<HTMLElement>('.first-screen');
/** The bank chosen in the first screen, kept for the kit. */
let chosen: string | null = null;
/** The written list stays only where the kit would draw the same: no bank chosen before on this device, nor in this tab for this checkout. */
function keepFirst(token: string): void {
  const id = checkoutOf(token);
  // Storage refused to the frame: none, as the kit finds none either.
  const recent = recallBank(deviceStorage());
  if (first && (recent || (id && keptBank(id)))) {
    first.remove();
    first = null;
    // The kit's checkout, which the page hides behind its first screen, draws the first one.
    document.querySelector<HTMLElement>('bank-checkout')!.hidden = false;
  }
}
if (first) {
  const list = first.shadowRoot?.querySelector('.first-selector')?.shadowRoot;
  // A bank chosen now is the kit's to open, once the checkout is redeemed: it shows as chosen meanwhile.
  list?.querySelector('[role=listbox]')?.addEventListener('click', (e) => {
    const option = e.target instanceof Element ? e.target.closest<HTMLElement>('[role=option]') : null;
    if (!option?.dataset.bank) return;
    chosen = option.dataset.bank;
    for (const o of list.querySelectorAll('[role=option]')) o.ariaSelected = String(o === option);
  });
}
/** What the kit takes over from the first screen, or null when there is none. */
const drawn = (): Drawn | null =>
  first && {
    element: first,
    chosen: () => chosen,
    search: () => first?.shadowRoot?.querySelector('.first-selector')?.shadowRoot?.querySelector<HTMLInputElement>('#search') ?? null,
  };

/** Tells the host the page's height, now (the first screen is drawn: the host shows it) and at every change. */
function sizeFromNow(port: MessagePort): void {
  const size = () => port.postMessage({ v: 1, type: 'size', height: document.documentElement.getBoundingClientRect().height } satisfies FrameMessage);
  size();
  new ResizeObserver(size).observe(document.documentElement);
}

const api = new URL('..', location.href).href.replace(/\/$/, '');
/** The redemption, started by the token in the frame's `name` or by the host's `init`. */
let launch: Promise<Launch> | null = null;
// Only a frame's (a page opened alone has no host to have been written by).
if (/^lt_/.test(named) && window.parent !== window) {
  keepFirst(named);
  launch = redeem(api, named);
}
// Without a first screen, the kit runs at once (it draws the first one). With one, it waits until
// the host has shown it: its evaluation would hold up the messages that show it.
if (!first) void kit();

const ready: FrameMessage = { v: FRAME_PROTOCOL, type: 'ready' };
/** The host's `init` (or a client secret in its place) was taken. */
let started = false;
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
  const port = e.ports[0];
  // A host that started after this page said `ready` (the shop's page wrote the frame in its HTML).
  if (msg?.type === 'hello') {
    if (!started) window.parent.postMessage(ready, e.origin);
    return;
  }
  if (msg?.type !== 'init' || !port) {
    // A client secret is never run here (any script of the page could have given it): the frame says it cannot open the payment.
    if (!started && isSecretInit(e.data) && port) {
      started = true;
      console.error('bank-checkout frame: refused a client secret; an isolated checkout opens with its launch token only.');
      void kit().then((k) => k.refuse(port, { code: 'secret_refused', status: null, requestId: null, key: 'error.unauthorized' }), unloaded(e.origin));
    }
    ignored('not an init', e.data);
    return;
  }
  if (started) {
    ignored('already started');
    return;
  }
  started = true;
  // The redemption goes now (unless the frame's name started it: that token is the page's too); the kit takes it over once it is in.
  if (!launch) {
    keepFirst(msg.token);
    launch = redeem(api, msg.token);
  } else if (msg.token !== named) ignored('a launch token other than the one in the frame’s name');
  const shown = drawn();
  const redeemed = launch;
  const run = () => void kit().then((k) => k.start(msg, port, api, redeemed, ignored, shown), unloaded(e.origin));
  if (!shown) {
    run();
    return;
  }
  // The first screen shows at once, at its height; the kit runs next, and its own screen takes its place later.
  sizeFromNow(port);
  setTimeout(run);
});

// `ready` carries nothing; the host answers only when it comes from its own frame at the BFF's origin.
window.parent.postMessage(ready, '*');
// Meanwhile: a key pair made and the database opened, for the redemption.
warmPair();
