/**
 * Whether the payer can see the checkout as they confirm, and has seen it long enough: nothing of
 * the page above it faded (opacity), filtered, transformed (other than moved, or scaled up),
 * laid over it or cropping it, and the checkout where it is on the screen for a moment before
 * the press. The browser says what is visible through IntersectionObserver v2 (`trackVisibility`,
 * `isVisible`), which looks through the frame's boundary at the host page's effects on the frame,
 * and which part of the checkout the screen shows (`intersectionRect`, clipped by the viewport and
 * by every element of the page around). A browser without it cannot tell: the frame allows the
 * confirmation there, as before.
 *
 * The frame watches while a step that confirms is on screen (the account list, the bank's
 * validation), not all along: while a frame tracks its visibility, Chromium also drops the input
 * that reaches it within 500 ms of its moving (a scroll of the page), so a frame that always
 * tracked would lose the payer's first click after each scroll at every step.
 *
 * A press counts when, at the press (`judge`):
 * - the browser says the checkout is visible, asked again at the press, and the screen shows the
 *   pressed control whole where it is then;
 * - the screen shows the amount and the payee whole (the summary) or, where the checkout is too
 *   tall to show them with the control (a long account list on a phone), the control states the
 *   amount itself (Pay €18.50) and the screen shows at least CONTEXT_PX of the checkout around it;
 * - the watch has seen it visible and unmoved for STILL_MS before the press: the same part of it
 *   on the screen, and the same share of each slice of an unseen ruler down the frame's side
 *   (which sees a scroll the checkout alone does not say: `ruler`).
 * Proportional upscaling is visible by the browser's own rule (it hides nothing by itself); what
 * it pushes off the screen or crops counts as above.
 */

/**
 * How long the checkout must have been visible and unmoved before a press counts: 600 ms. A
 * person reacts to something appearing in about a quarter of a second and needs about as long
 * again to see what it is and hold back a click already planned; Chromium drops the input to a
 * frame that moved within 500 ms, and this is a little longer, so that the frame's own rule,
 * which says why to the payer, decides at the edge rather than a click that silently vanished.
 */
export const STILL_MS = 600;
/** The least of the checkout the screen must show around a control that states the amount, when the amount and payee are out of view. */
export const CONTEXT_PX = 240;
/** The least delay the browser allows between two visibility checks. */
const DELAY_MS = 100;
/** How long an answer of "not visible" may take to turn (the browser's first check of a frame may predate what its page reported). */
const SETTLE_MS = 300;
/** A sighting every 1% of the checkout shown: a move of it on the screen is seen as soon as it changes what shows. */
const THRESHOLDS = Array.from({ length: 101 }, (_, i) => i / 100);
/** Less than this (CSS pixels) is rounding, not a move. */
const TOLERANCE_PX = 2;
/** A press older than this is not the one being judged (a confirmation sent without one). */
const PRESS_MS = 1_000;

/** `isVisible` of IntersectionObserver v2 (not in every browser, nor in TypeScript's DOM types). */
type VisibleEntry = IntersectionObserverEntry & { isVisible?: boolean };

/** Whether this browser can tell (IntersectionObserver v2). */
export const tracksVisibility = (): boolean => typeof IntersectionObserverEntry !== 'undefined' && 'isVisible' in IntersectionObserverEntry.prototype;

/** A rectangle in the frame's coordinates (the frame's document never scrolls). */
export interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** One look at the checkout: whether the browser says it is visible, and the part of it the screen shows (null: none). */
export interface Sighting {
  visible: boolean;
  shown: Box | null;
}

/** What the watch has seen: since when the checkout has been visible with the same part shown (null: it is not), and the last look. */
export interface Watched {
  since: number | null;
  last: Sighting | null;
}

/** Why a press did not count: the screen does not show what it must (`hidden`), or it changed too lately (`unsettled`). */
export type Refusal = 'hidden' | 'unsettled';

const sameBox = (a: Box, b: Box) =>
  Math.abs(a.top - b.top) <= TOLERANCE_PX &&
  Math.abs(a.left - b.left) <= TOLERANCE_PX &&
  Math.abs(a.bottom - b.bottom) <= TOLERANCE_PX &&
  Math.abs(a.right - b.right) <= TOLERANCE_PX;

const inside = (inner: Box, outer: Box) =>
  inner.top >= outer.top - TOLERANCE_PX &&
  inner.left >= outer.left - TOLERANCE_PX &&
  inner.bottom <= outer.bottom + TOLERANCE_PX &&
  inner.right <= outer.right + TOLERANCE_PX;

/** The watch's record after a look at `at`: the time it began showing what it shows now, kept while nothing changes. */
export function watched(before: Watched, look: Sighting, at: number): Watched {
  if (!look.visible || !look.shown) return { since: null, last: look };
  const unchanged = before.since !== null && before.last?.visible && before.last.shown && sameBox(before.last.shown, look.shown);
  return { since: unchanged ? before.since : at, last: look };
}

/** The watch's record after the checkout moved on the screen at `at` (the ruler saw it): still from then on, if it is visible. */
export const moved = (before: Watched, at: number): Watched => ({ since: before.since === null ? null : at, last: before.last });

/** Everything a press is judged by, each box in the frame's coordinates. */
export interface Press {
  /** When the payer pressed. */
  at: number;
  /** What the watch had seen by then. */
  watched: Watched;
  /** The look taken at the press. */
  fresh: Sighting;
  /** The control pressed (null: none known). */
  control: Box | null;
  /** The amount and the payee (null: not drawn). */
  summary: Box | null;
  /** Whether the control states the amount in its own words (Pay €18.50). */
  statesAmount: boolean;
  /** The checkout's height. */
  height: number;
}

/** Whether a press counts (null), or why not (see the module's comment). */
export function judge(p: Press): Refusal | null {
  const shown = p.fresh.visible ? p.fresh.shown : null;
  if (!shown) return 'hidden';
  if (p.control && !inside(p.control, shown)) return 'hidden';
  const amountShown = p.summary !== null && inside(p.summary, shown);
  const context = p.statesAmount && shown.bottom - shown.top >= Math.min(p.height, CONTEXT_PX) - TOLERANCE_PX;
  if (!amountShown && !context) return 'hidden';
  const { since } = p.watched;
  if (since === null || p.at - since < STILL_MS) return 'unsettled';
  return null;
}

const boxOf = (r: DOMRectReadOnly): Box => ({ top: r.top, left: r.left, bottom: r.bottom, right: r.right });
const lookOf = (e: VisibleEntry): Sighting => ({
  visible: e.isVisible === true && e.isIntersecting,
  shown: e.isIntersecting ? boxOf(e.intersectionRect) : null,
});
const observe = (target: Element, seen: (look: Sighting) => void) => {
  const observer = new IntersectionObserver((entries) => entries.forEach((e) => seen(lookOf(e))), {
    threshold: THRESHOLDS,
    trackVisibility: true,
    delay: DELAY_MS,
  } as IntersectionObserverInit);
  observer.observe(target);
  return observer;
};

/**
 * A look at `target` now, and what `measure` finds in the same layout: the browser's first answer
 * that it is visible; if none comes within SETTLE_MS, the last answer it gave (not visible).
 */
export function lookAt<M>(target: Element, measure: () => M): Promise<{ look: Sighting; measured: M }> {
  return new Promise((resolve) => {
    let last: Sighting = { visible: false, shown: null };
    const done = (look: Sighting) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve({ look, measured: measure() });
    };
    const observer = observe(target, (look) => (look.visible ? done(look) : (last = look)));
    const timer = setTimeout(() => done(last), SETTLE_MS);
  });
}

/** How tall each slice of the ruler is (CSS pixels), and the thresholds it is watched at: a move of 8 pixels or more is seen. */
const SLICE_PX = 32;
const SLICE_THRESHOLDS = [0, 0.25, 0.5, 0.75, 1];
const RULER_CSS =
  '.bank-ruler{position:absolute;top:0;left:0;bottom:0;width:1px;overflow:hidden;pointer-events:none;visibility:hidden}.bank-ruler>i{display:block;height:32px}';

/**
 * A ruler down the frame's side, unseen: slices of SLICE_PX, each watched for how much of it the
 * screen shows. The checkout alone cannot tell a scroll of the page when the screen shows a part
 * of it as tall as before (it is taller than the screen): the share of it shown does not change,
 * so the browser does not say. The slices' shares do. `shifted` is called at every change.
 */
function ruler(shifted: () => void): () => void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(RULER_CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  const rule = document.createElement('div');
  rule.className = 'bank-ruler';
  rule.ariaHidden = 'true';
  const observer = new IntersectionObserver(shifted, { threshold: SLICE_THRESHOLDS });
  const lay = () => {
    const wanted = Math.ceil(innerHeight / SLICE_PX) + 1;
    while (rule.children.length < wanted) observer.observe(rule.appendChild(document.createElement('i')));
    while (rule.children.length > wanted) rule.lastElementChild!.remove();
  };
  lay();
  document.documentElement.append(rule);
  addEventListener('resize', lay);
  return () => {
    removeEventListener('resize', lay);
    observer.disconnect();
    rule.remove();
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
  };
}

/** The control a click pressed: the first button on its way in (a click on a button's text included). */
function pressedControl(e: Event): Element | null {
  for (const node of e.composedPath()) {
    if (node instanceof HTMLButtonElement || (node instanceof HTMLInputElement && (node.type === 'submit' || node.type === 'button'))) return node;
  }
  return null;
}

/** What the gate reads of the checkout at a press: the amount and payee, and the amount's own words. */
export interface GateParts {
  summary(): Element | null;
  amount(): string;
}

/**
 * The gate of the payer's confirmations for the checkout `target`: `watch(true)` while a step
 * that confirms is on screen; `judge()` at a confirmation says whether its press counts. The
 * press is the last click in this document (a keyboard's Enter or Space on a button is one too);
 * one press is judged once, whoever asks (the step deciding whether to clear the code typed,
 * then the call itself). Where the browser cannot tell, every press counts.
 */
export function confirmGate(target: HTMLElement, parts: GateParts, now: () => number = () => performance.now()) {
  let record: Watched = { since: null, last: null };
  let observer: IntersectionObserver | null = null;
  let unrule: (() => void) | null = null;
  type Pressed = { at: number; control: Element | null };
  let press: Pressed | null = null;
  let decided: { press: Pressed | null; result: Promise<Refusal | null> } | null = null;
  document.addEventListener('click', (e) => (press = { at: now(), control: pressedControl(e) }), true);
  return {
    /** Starts (true) or stops watching the checkout. */
    watch(on: boolean): void {
      if (on && !observer && tracksVisibility()) {
        observer = observe(target, (look) => (record = watched(record, look, now())));
        unrule = ruler(() => (record = moved(record, now())));
      }
      if (!on && observer) {
        observer.disconnect();
        unrule?.();
        observer = unrule = null;
        record = { since: null, last: null };
      }
    },
    /** Whether the press being made counts (null), or why not. */
    judge(): Promise<Refusal | null> {
      if (!tracksVisibility()) return Promise.resolve(null);
      const current = press && now() - press.at < PRESS_MS ? press : null;
      if (decided && current && decided.press === current) return decided.result;
      const at = current?.at ?? now();
      const seen = record;
      // Measured in the layout the look is taken in: the press may change the checkout's own (a notice it clears).
      const measure = () => {
        const control = current?.control?.isConnected ? current.control : null;
        const summary = parts.summary();
        const amount = parts.amount();
        return {
          control: control ? boxOf(control.getBoundingClientRect()) : null,
          summary: summary ? boxOf(summary.getBoundingClientRect()) : null,
          statesAmount: Boolean(control && amount && control.textContent.includes(amount)),
          height: target.getBoundingClientRect().height,
        };
      };
      const result = lookAt(target, measure).then(({ look, measured }) => judge({ at, watched: seen, fresh: look, ...measured }));
      decided = { press: current, result };
      return result;
    },
  };
}

export type ConfirmGate = ReturnType<typeof confirmGate>;
