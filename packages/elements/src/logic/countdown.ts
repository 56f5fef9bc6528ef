/**
 * The validation deadline as the payer sees it: seconds left, and when to announce them to
 * screen readers (on the first look, then as each mark is crossed; never every second).
 */

/** Seconds left at which the countdown is announced. */
export const ANNOUNCE_AT_SECONDS: readonly number[] = [60, 30, 10];

/** Whole seconds left until `deadlineMs` (rounded up, never negative). */
export function secondsLeft(deadlineMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000));
}

/**
 * Seconds to announce when the countdown moves from `previous` to `current` seconds left: the
 * first reading, or a mark crossed (also when several were skipped, as in a background tab);
 * null otherwise and once time is up (expiry has its own message).
 */
export function announcementDue(previous: number | null, current: number, marks: readonly number[] = ANNOUNCE_AT_SECONDS): number | null {
  if (current <= 0) return null;
  if (previous === null) return current;
  return marks.some((m) => previous > m && current <= m) ? current : null;
}

/** The ISO deadline as epoch milliseconds; NaN (an unreadable date) counts as already past. */
export function deadlineMs(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}
