/**
 * Whether the payer can see the checkout as it is drawn: nothing of the page above it faded
 * (opacity), filtered, transformed, or laid over it. The browser says so through
 * IntersectionObserver v2 (`trackVisibility`, `isVisible`), which looks through the frame's
 * boundary at the host page's effects on the frame; the isolated frame refuses the final
 * confirmation while it answers no. A browser without it cannot tell: the frame allows the
 * confirmation there, as before.
 *
 * The frame asks at the moment the payer confirms, not all along: while a frame tracks its
 * visibility, Chromium drops the clicks that reach it within a moment of its moving (a scroll of
 * the page), so a frame that always tracked would lose the payer's first click after each scroll.
 */

/** The least delay the browser allows between two visibility checks. */
const DELAY_MS = 100;
/** How long an answer of "not visible" may take to turn (the browser's first check of a frame may predate what its page reported). */
const SETTLE_MS = 300;

/** `isVisible` of IntersectionObserver v2 (not in every browser, nor in TypeScript's DOM types). */
type VisibleEntry = IntersectionObserverEntry & { isVisible?: boolean };

/** Whether this browser can tell (IntersectionObserver v2). */
export const tracksVisibility = (): boolean => typeof IntersectionObserverEntry !== 'undefined' && 'isVisible' in IntersectionObserverEntry.prototype;

/**
 * Whether `target` is fully visible now, as the browser says: true at its first answer that it
 * is; false if it has not said so within SETTLE_MS. True where the browser cannot tell.
 */
export function isFullyVisible(target: Element): Promise<boolean> {
  if (!tracksVisibility()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (visible: boolean) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(visible);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        if ((entries as VisibleEntry[]).some((e) => e.isVisible === true)) done(true);
      },
      { threshold: [0, 1], trackVisibility: true, delay: DELAY_MS } as IntersectionObserverInit,
    );
    const timer = setTimeout(() => done(false), SETTLE_MS);
    observer.observe(target);
  });
}
