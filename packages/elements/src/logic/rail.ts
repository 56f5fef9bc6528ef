/**
 * Another rail in one tap: when the in-page flow cannot go on at a bank (maintenance, an action
 * the bank needs first, a user who may not pay from the online bank, the bank's service
 * failing at sign-in), the same payment at the bank's own page, when the checkout allows it.
 * Pure functions.
 */
import { errorCategory, type CheckoutView } from '@bank-checkout/contract';

/** Whether the view's error means the payer cannot go on in the page at this bank, for now. */
export function blockedInPage(v: CheckoutView): boolean {
  const code = v.error?.code;
  if (!code || v.mode !== 'native') return false;
  return errorCategory(code) === 'bank' || (code === 'upstream' && v.state === 'login');
}

/** How the bank's page is reached in one tap: at once (`redirect`), after a restart of the failed checkout (`restart`), or not at all (null). */
export function railRoute(v: CheckoutView): 'redirect' | 'restart' | null {
  if (!v.modes.includes('redirect') || !blockedInPage(v)) return null;
  if (v.actions.includes('redirect')) return 'redirect';
  return v.actions.includes('restart') ? 'restart' : null;
}
