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
 */
import { isDevelopmentHost, FRAME_PROTOCOL, readHostMessage, type FrameMessage } from './messages.js';
import { framePair, newPair, warmPair } from './keys.js';
import { createProver } from './proof.js';
import type { Launch, LaunchFailure } from './page-checkout.js';

const kit = import('./page-checkout.js');
// Its failure is said to the host once there is one to tell (below), not thrown at the page.
kit.catch(() => {});

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

const ready: FrameMessage = { v: FRAME_PROTOCOL, type: 'ready' };
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
      void kit.then((k) => k.refuse(port, { code: 'secret_refused', status: null, requestId: null, key: 'error.unauthorized' }), unloaded(e.origin));
    }
    ignored('not an init', e.data);
    return;
  }
  if (started) {
    ignored('already started');
    return;
  }
  started = true;
  const api = new URL('..', location.href).href.replace(/\/$/, '');
  // The redemption goes now; the kit takes it over once it is in.
  const launch = redeem(api, msg.token);
  void kit.then((k) => k.start(msg, port, api, launch, ignored), unloaded(e.origin));
});

// `ready` carries nothing; the host answers only when it comes from its own frame at the BFF's origin.
window.parent.postMessage(ready, '*');
// Meanwhile: a key pair made and the database opened, for the redemption.
warmPair();
