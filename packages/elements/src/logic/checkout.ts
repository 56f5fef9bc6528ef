/**
 * What `<bank-checkout>` shows for a view: the step, the mode at the start, whether a mode
 * switch is needed, and when to wait for a result. The BFF's `actions` decide what the payer
 * may do; these functions only read them. Pure functions.
 */
import type { CheckoutAction, CheckoutMode, CheckoutView } from '@bank-checkout/contract';

/** Whether the BFF allows `action` now. */
export const allows = (v: CheckoutView, action: CheckoutAction): boolean => v.actions.includes(action);

/** What changes the step shown: the state, and the round of validations. */
export const stepKey = (v: CheckoutView): string => (v.step.state === 'validate' ? `validate#${v.step.round}` : v.state);

/** The mode a view at its start stands for. */
export const modeOf = (v: CheckoutView): CheckoutMode => (v.state === 'periodic' ? 'periodic' : v.mode === 'redirect' ? 'redirect' : 'native');

/**
 * Whether choosing `mode` needs `POST /v1/checkout/mode`. Redirect never does: the redirect
 * button's own call creates the signed URL (switching to it would create one at once).
 */
export const needsSwitch = (mode: CheckoutMode, v: CheckoutView): boolean => mode !== 'redirect' && allows(v, 'mode') && modeOf(v) !== mode;

/** The mode shown at the start: the one chosen (when the checkout allows it), else the view's. */
export const shownMode = (v: CheckoutView, wanted: CheckoutMode | null): CheckoutMode => (wanted && v.modes.includes(wanted) ? wanted : modeOf(v));

/** The mode to switch to for the merchant's preferred `mode`, or null when it is shown already or cannot be chosen now. */
export const preferredMode = (mode: CheckoutMode | undefined, v: CheckoutView): CheckoutMode | null =>
  mode && v.modes.includes(mode) && allows(v, 'mode') && modeOf(v) !== mode ? mode : null;

/** Redirect mode at the start: the button that creates the signed URL is shown instead of the step. */
export const showsRedirectStart = (v: CheckoutView, wanted: CheckoutMode | null): boolean => allows(v, 'redirect') && shownMode(v, wanted) === 'redirect';

/** The native bank list is shown (so the bank groups are needed). */
export const showsBankList = (v: CheckoutView, wanted: CheckoutMode | null): boolean =>
  v.state === 'select-bank' && shownMode(v, wanted) === 'native' && !needsSwitch('native', v);

/**
 * What to wait for with background checks: the step's key while the outcome is unknown, or
 * while in `redirect` when the payer is back from (not on the way to) the bank's page; null
 * when nothing is awaited.
 */
export const waitKey = (v: CheckoutView | null, leaving: boolean): string | null =>
  v && (v.state === 'unknown' || (v.state === 'redirect' && !leaving)) ? stepKey(v) : null;
