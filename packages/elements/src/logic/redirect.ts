/**
 * The redirect step: which addresses the page may go to, and how often to check for the bank's
 * result once the payer is back. Pure functions.
 */

/** Only web addresses are followed (never `javascript:`, `data:` …): the contract's rule. */
export { isWebUrl } from '@bank-checkout/contract';

/** Growth of the wait between two checks. */
export const POLL_BACKOFF = 1.5;
/** The longest wait between two checks, unless `base` itself is longer. */
export const POLL_MAX_MS = 60_000;

/** Milliseconds before check number `attempt` (0 for the first): `base`, growing ×1.5 up to a minute. */
export function pollDelay(attempt: number, base: number, max: number = POLL_MAX_MS): number {
  return Math.round(Math.min(base * POLL_BACKOFF ** Math.max(0, attempt), Math.max(base, max)));
}
