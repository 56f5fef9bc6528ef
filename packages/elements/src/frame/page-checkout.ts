/**
 * The checkout of the isolated checkout's page (frame/page.ts loads it at once, and the BFF's
 * page preloads it): the full kit, `<bank-checkout>` run against the BFF on this same origin
 * with what the page redeemed, the host's settings applied (the theme once it passed the floor
 * of theme-floor.ts), and the kit's events, size and navigation reported through the port. The
 * page's redemption runs while this module loads; nothing here waits for the network.
 *
 * The payer's confirmation (the transfer, a validation) waits until the frame is fully visible
 * (frame/visibility.ts); the frame's other windows of this checkout (a reload, Back, a second
 * tab) tell each other when they moved it on (a BroadcastChannel of this origin), and each reads
 * it again. If the checkout cannot be opened, nothing is shown but why. The page's background is
 * opaque: nothing behind it shows through.
 */
import '../bank-checkout/bank-checkout.js';
import type { BankCheckout } from '../bank-checkout/bank-checkout.js';
import { LATER_STATES, loadExtras, loadLaterSteps, stepFilesSettled } from '../bank-checkout/loaders.js';
import type { CheckoutMode, CheckoutState, FrameLaunchAnswer } from '@bank-checkout/contract';
import { CheckoutApiError, createCheckoutClient, type CheckoutClient } from '../client.js';
import { browserLanguages, errorKey, loadLocale, registerTexts, resolveLocale, translate, type MessageKey } from '../i18n/index.js';
import { enFrame } from '../i18n/en-frame.js';
import { esFrame } from '../i18n/es-frame.js';
import { FRAME_EVENTS, readHostMessage, type FrameMessage, type FrameSettings, type HostMessage } from './messages.js';
import { themeFloor } from './theme-floor.js';
import { FRAME_PAGE_CSS } from './page-style.js';
import type { Prover } from './proof.js';
import { confirmGate } from './visibility.js';
import { STARTS, keptBank, resume } from './resume.js';

registerTexts({ en: enFrame, es: esFrame });

const checkout = document.querySelector('bank-checkout') as BankCheckout;

// The page is the checkout and nothing else (page-style.ts).
const sheet = new CSSStyleSheet();
sheet.replaceSync(FRAME_PAGE_CSS);
document.adoptedStyleSheets = [sheet];
// It names the page's main landmark (the BFF's page: `<main aria-labelledby="frame-title">`), so
// the landmark differs from the host page's own main. It is no heading: the frame is part of the
// shop's page, whose own level-one heading the steps' level-two headings follow. Read as the
// landmark's name only, not again as the landmark's first line. A page written with its first
// screen has it already.
const title =
  document.getElementById('frame-title') ??
  (() => {
    const p = document.createElement('p');
    p.className = 'title';
    p.id = 'frame-title';
    p.ariaHidden = 'true';
    checkout.before(p);
    return p;
  })();

let spoken = '';
/** The document speaks the checkout's language: its `lang`, its landmark's name and its title (the last asked for wins). */
async function speak(requested: string | null | undefined): Promise<void> {
  const locale = (spoken = resolveLocale(requested, browserLanguages()));
  await loadLocale(locale);
  if (locale !== spoken) return;
  document.documentElement.lang = locale;
  title.textContent = document.title = translate(locale, 'frame.title');
}
void speak(null);

let port: MessagePort | null = null;
const post = (msg: FrameMessage) => port?.postMessage(msg);

/** Applies the host's settings; resolves once the language they name is loaded. */
function apply(s: FrameSettings): Promise<void> {
  let spoken = Promise.resolve();
  if (s.locale !== undefined) {
    checkout.locale = s.locale ?? undefined;
    spoken = speak(s.locale);
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
  return spoken;
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

/**
 * The gate of the payer's confirmations (frame/visibility.ts): it watches the checkout while a
 * step that confirms is on screen, and judges each press by what the screen showed (the amount
 * and the payee, from the summary; the amount in the control's own words).
 */
const gate = confirmGate(checkout, {
  summary: () => checkout.shadowRoot?.querySelector('[part~="summary"] > dl') ?? null,
  amount: () => checkout.shadowRoot?.querySelector('[part~="amount"]')?.textContent.trim() ?? '',
});
/** The states whose step confirms the payment: the account list (the transfer) and the bank's validation. */
const CONFIRMING = new Set(['select-account', 'validate']);
checkout.addEventListener('bank-checkout-step', (e) => gate.watch(CONFIRMING.has(e.detail.state)));

/** When another window's action started, how long after it this one reads the checkout (its call may be with the bank by then). */
const BUSY_READS_MS = [300, 1_500];

/** Why the page cannot open the checkout (frame/page.ts `redeem`). */
export interface LaunchFailure {
  code: string;
  status: number | null;
  requestId: string | null;
  key?: MessageKey;
}

/** What the page's redemption gave: the key and the first screen, with the prover and the clock's skew it used; or why not. */
export type Launch = { ok: true; answer: FrameLaunchAnswer; prover: Prover; skew: number } | ({ ok: false } & LaunchFailure);

/** The page cannot open the checkout: it is replaced by why (nothing was typed yet), and the host hears it. */
function cannotOpen({ code, status, requestId, key = errorKey(code) }: LaunchFailure): void {
  const notice = document.createElement('p');
  notice.className = 'launch-failed';
  notice.setAttribute('role', 'alert');
  notice.textContent = translate(spoken, key);
  checkout.replaceWith(notice);
  // Nothing of the first screen the page was written with stays either.
  document.querySelector('.first-screen')?.remove();
  sizeFromNow();
  post({ v: 1, type: 'event', name: 'bank-checkout-error', detail: { checkoutId: null, code, status, requestId } });
}

/**
 * The checkout's client for this frame: its key, with a proof of possession on every call; the
 * payer's confirmation (the transfer, a validation) refused, with nothing sent, unless the gate
 * lets its press count (`frame_hidden`, its words saying whether the payment was not fully
 * visible or changed on the screen just before); and the frame's other windows of this checkout
 * told when an action starts and ends (each then reads the checkout again).
 */
function frameClient(api: string, key: string, prover: Prover, skew: number, channel: BroadcastChannel | null): CheckoutClient {
  const client = createCheckoutClient({ api, secret: key, proof: (method, url) => prover.prove(method, url, key, Date.now() + skew) });
  const confirmable = async () => (await gate.judge()) === null;
  const calls = Object.entries(client) as [keyof CheckoutClient, (...args: unknown[]) => Promise<unknown>][];
  const wrapped = calls.map(([name, call]) => {
    // Reads, and what changes nothing another window shows (a hand-off link, the bank chosen for the funnel).
    if (name === 'banks' || name === 'checkout' || name === 'start' || name === 'handoff' || name === 'chooseBank') return [name, call];
    const confirms = name === 'transfer' || name === 'validate';
    return [
      name,
      async (...args: unknown[]) => {
        const refusal = confirms ? await gate.judge() : null;
        // The message is the key of the words the payer is shown (the code stays the shop's one `frame_hidden`).
        if (refusal) throw new CheckoutApiError(0, 'frame_hidden', refusal === 'hidden' ? 'error.frame_hidden' : 'error.frame_unsettled');
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

/**
 * The first screen the page was written with (frame/first-screen.ts), shown until the checkout's
 * own takes its place: the element, the bank the payer chose in it meanwhile, and its search box.
 */
export interface Drawn {
  element: HTMLElement;
  chosen(): string | null;
  search(): HTMLInputElement | null;
}

/**
 * Runs the checkout the launch opened: its first screen at once (in the place of the one the
 * page was written with, `drawn`), then its calls with this frame's key.
 */
async function run(api: string, launch: Extract<Launch, { ok: true }>, drawn: Drawn | null): Promise<void> {
  const id = launch.answer.start.view.id;
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`bank-checkout:${id}`) : null;
  // Another window of this browser acted on the checkout: read it again (quietly). An action
  // that starts is read a moment later, and again, once its call has reached the BFF: a call
  // still with the bank then shows as such here (and the step waits for it).
  if (channel)
    channel.onmessage = (e) => {
      for (const ms of e.data === 'busy' ? BUSY_READS_MS : [0]) setTimeout(() => void checkout.check(), ms);
    };
  checkout.initial = launch.answer.start;
  checkout.client = frameClient(api, launch.answer.key, launch.prover, launch.skew, channel);
  // Back where the payer was: the bank chosen in the list before a reload, or in the written
  // first screen before the checkout was redeemed (its sign-in form in the first screen: its
  // file comes at once), or focus on the step (frame/resume.ts).
  const { state } = launch.answer.start.view;
  const bank = state === 'select-bank' ? (keptBank(id) ?? drawn?.chosen() ?? null) : null;
  if (bank) {
    bankKept = true;
    loadLaterSteps().catch(() => {});
  }
  const resumed = resume(checkout, id, state, bank);
  if (drawn) await takeOver(drawn, state, resumed, Boolean(bank));
}

/**
 * The checkout's own first screen takes the place of the written one, in one frame, once it is
 * drawn whole (the written one's height is the host's meanwhile): the summary's facts fill the
 * lines kept for them. What the payer typed in the written search box is typed in the
 * checkout's, with the focus.
 */
async function takeOver(drawn: Drawn, state: CheckoutState, resumed: Promise<void>, chose: boolean): Promise<void> {
  await resumed;
  await whole(state);
  const selector = checkout.renderRoot.querySelector<HTMLElement & { updateComplete?: Promise<unknown> }>('bank-selector');
  await selector?.updateComplete;
  const typed = drawn.search();
  const focused = typed !== null && drawn.element.shadowRoot?.activeElement != null;
  drawn.element.remove();
  checkout.hidden = false;
  const search = selector?.shadowRoot?.querySelector<HTMLInputElement>('#search');
  if (typed?.value && search && !chose) {
    search.value = typed.value;
    search.dispatchEvent(new Event('input'));
  }
  if (focused && search && !chose) search.focus();
  // Focus where it would have gone had the checkout been shown (a bank chosen, a step under way).
  else if (chose || !STARTS.includes(state)) void checkout.focusStep();
}

/**
 * The first screen drawn whole: its step's file in, and a paid checkout's receipt (which
 * otherwise comes after the first screen), so that the page around moves once, not twice.
 */
async function whole(state: string): Promise<void> {
  await checkout.updateComplete;
  // Only a step that comes in a file of its own waits for it: the bank list never does.
  if (LATER_STATES.has(state) || state === 'periodic' || bankKept) await stepFilesSettled();
  if (state === 'succeeded') await loadExtras().catch(() => undefined);
  // Drawn with what just came in: the checkout's own request for that redraw may still be
  // waiting for a frame (it fetches the extras after the first screen shows), and a size
  // taken before it would move the page twice.
  checkout.requestUpdate();
  await checkout.updateComplete;
}

/** A bank chosen before a reload is chosen again: the first screen is its sign-in form. */
let bankKept = false;

let sizing = false;
/**
 * Reports the document's height to the host from now on (once drawn, then at every change). The
 * first screen is drawn whole first: its step's file in, and a paid checkout's receipt (which
 * otherwise comes after the first screen), so that the page around moves once, not twice.
 */
function sizeFromNow(ev?: Event): void {
  if (sizing) return;
  sizing = true;
  const state = (ev as CustomEvent<{ state?: string } | undefined> | undefined)?.detail?.state ?? '';
  void (async () => {
    await whole(state);
    new ResizeObserver(() => post({ v: 1, type: 'size', height: document.documentElement.getBoundingClientRect().height })).observe(document.documentElement);
  })();
}

/** The page refused what the host sent (a client secret): it says so through the port. */
export function refuse(to: MessagePort, why: LaunchFailure): void {
  port = to;
  cannotOpen(why);
}

/**
 * The host's `init` came (with its port): its settings apply, the kit's events and size go to
 * the host, and the checkout runs once the page's redemption (`launch`, already under way) gave
 * its key; `ignored` is the page's word for a message it does not take.
 */
export async function start(
  init: Extract<HostMessage, { type: 'init' }>,
  to: MessagePort,
  api: string,
  launch: Promise<Launch>,
  ignored: (why: string, data?: unknown) => void,
  drawn: Drawn | null = null,
) {
  port = to;
  port.onmessage = (m) => {
    const next = readHostMessage(m.data);
    if (next?.type === 'update') void apply(next);
    else if (next?.type === 'focus') void checkout.focusStep();
    else ignored('unknown message', m.data);
  };
  const spoken = apply(init);
  for (const name of FRAME_EVENTS)
    checkout.addEventListener(name, (ev) => post({ v: 1, type: 'event', name, detail: (ev as CustomEvent<unknown>).detail } as FrameMessage));
  checkout.navigate = (url) => post({ v: 1, type: 'navigate', url });
  // Its size once the first screen is drawn (the checkout, or why it cannot go on), then every
  // change: the host holds its placeholder until then, so the page moves once, not at each
  // piece of the loading. A page written with its first screen tells it already (frame/page.ts).
  if (drawn) sizing = true;
  else for (const name of ['bank-checkout-step', 'bank-checkout-error'] as const) checkout.addEventListener(name, sizeFromNow, { once: true });
  // The first screen is drawn once in the payer's language (a catalogue that comes later would
  // redraw it at another height, under the payer's eyes).
  const [launched] = await Promise.all([launch, spoken.catch(() => {})]);
  if (launched.ok) await run(api, launched, drawn);
  else cannotOpen(launched);
}
