/**
 * Where the isolated frame takes the payer back to when it opens a checkout already under way
 * (a reload, a second tab, the order's page opened again):
 *
 * - the bank chosen in the list and not yet signed in to: the BFF knows nothing of it (nothing
 *   was sent), so the frame keeps its id, and nothing else (never a value typed), in the
 *   session storage of its own origin, for this checkout: the same tab's next load of the
 *   checkout shows that bank's sign-in form again. It is forgotten once the payer goes back to
 *   the list or the checkout moves on (the BFF then holds the bank). The shop's page cannot read
 *   it (another origin), nor can another tab (session storage is the tab's own);
 * - focus: on the step's heading (its error first, when it has one), as after an action, unless
 *   the checkout opens at its start.
 */
import type { CheckoutState } from '@bank-checkout/contract';
import type { BankCheckout } from '../bank-checkout/bank-checkout.js';

const key = (checkoutId: string) => `bank-checkout:chosen-bank:${checkoutId}`;

/** The frame origin's session storage, or null where the browser refuses it to the frame. */
function storage(): Storage | null {
  try {
    return sessionStorage;
  } catch {
    return null;
  }
}

/** The bank chosen in the list for this checkout before a reload, if any. */
export function keptBank(checkoutId: string): string | null {
  try {
    return storage()?.getItem(key(checkoutId)) ?? null;
  } catch {
    return null;
  }
}

function keep(checkoutId: string, bankId: string | null): void {
  try {
    const store = storage();
    if (bankId) store?.setItem(key(checkoutId), bankId);
    else store?.removeItem(key(checkoutId));
  } catch {
    // Storage full or refused: a reload then starts at the list, as without it.
  }
}

/** States a checkout opens at when nothing of it has been done: no focus is taken there. */
export const STARTS: readonly CheckoutState[] = ['select-bank', 'periodic'];

/**
 * Takes the payer back to where the checkout was: the bank kept (`bank`, at the list) chosen
 * again, or focus on the step (but at the start); from then on the bank chosen in the list is
 * kept while the checkout is at the list. Called once the checkout has its first view (`state`),
 * before its first update.
 */
export async function resume(checkout: BankCheckout, checkoutId: string, state: CheckoutState, bank: string | null): Promise<void> {
  let at = state;
  checkout.addEventListener('bank-checkout-step', (e) => {
    at = e.detail.state;
  });
  checkout.addController({
    hostUpdated: () => keep(checkoutId, at === 'select-bank' ? checkout.chosenBankId : null),
  });
  await checkout.updateComplete;
  if (bank && at === 'select-bank') checkout.chooseBank(bank);
  else if (!STARTS.includes(at)) await checkout.focusStep();
}
