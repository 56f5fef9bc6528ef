/**
 * The parts of `<bank-checkout>` that are loaded on demand, each in its own file that a
 * merchant's bundler splits off: the periodic form, the native steps after the bank list, and
 * the isolated mode's host side.
 */

/**
 * `<bank-periodic-form>` is loaded only for a checkout that allows periodic payments (its own
 * file, split by the merchant's bundler): most checkouts never show it. The form's own code
 * comes with it, so that the form shows at once when the payer gets there (a failed fetch of
 * it is tried again when the form shows).
 */
let periodicForm: Promise<unknown> | undefined;
export const loadPeriodicForm = () => (periodicForm ??= import('../bank-periodic-form/bank-periodic-form.js').then((m) => m.orderForm.load().catch(() => {})));

/**
 * The native steps after the bank list (login, second login, contracts, accounts, validation):
 * their own file (later-steps.ts), fetched in the background once the checkout is on screen,
 * so they are in before the payer gets there and the first screen waits for none of them. A
 * failed fetch is tried again at the next update.
 */
let laterSteps: Promise<unknown> | undefined;
let later: typeof import('./later-steps.js') | null = null;
export const loadLaterSteps = () =>
  (laterSteps ??= import('./later-steps.js').then(
    (m) => {
      later = m;
    },
    (err: unknown) => {
      laterSteps = undefined;
      throw err;
    },
  ));
/** later-steps.ts once it is in (with its texts: those of the lines shown beside its steps too), else null. */
export const laterModule = () => later;

/**
 * What comes after the first screen (extras.ts): the phone hand-off, the other rail and the
 * receipt, fetched in the background once the checkout is on screen.
 */
let extras: Promise<unknown> | undefined;
let extrasIn: typeof import('./extras.js') | null = null;
export const loadExtras = () =>
  (extras ??= import('./extras.js').then(
    (m) => {
      extrasIn = m;
    },
    (err: unknown) => {
      extras = undefined;
      throw err;
    },
  ));
/** extras.ts once it is in, else null (one of its elements defined alone, by a page that imported it, is not it). */
export const extrasModule = () => extrasIn;
/** Whether extras.ts is in. */
export const extrasReady = (): boolean => !!extrasIn;

/** Settles once the step files asked for so far are in (or failed). */
export const stepFilesSettled = (): Promise<unknown> => Promise.all([laterSteps, periodicForm].flatMap((p) => (p ? [p.catch(() => undefined)] : [])));

/**
 * The isolated mode's host side (no Lit in it): loaded only when `isolate` is set, as the frame
 * runs the kit itself.
 */
let frameHost: Promise<typeof import('../frame/host.js')> | undefined;
export const loadFrameHost = () => (frameHost ??= import('../frame/host.js'));

/** The states whose step is in the later steps' file. */
export const LATER_STATES = new Set(['login', 'second-login', 'select-contract', 'select-account', 'validate']);

/**
 * Fetches what a checkout will show next, each file once (`update` when one is in): the periodic
 * form for a checkout that allows it; the later steps for one that allows the native mode (or
 * `now`, when the step shown needs them), and what comes after the first screen. The bank list
 * first: those are fetched once it is on screen (a frame, then a task; their download and
 * evaluation would delay it), unless `now` or the page is hidden (no frame comes then).
 */
export function loadFor(modes: readonly string[], now: boolean, update: () => void): void {
  const soon = (load: () => void) => (document.visibilityState === 'hidden' ? load() : requestAnimationFrame(() => setTimeout(load)));
  if (modes.includes('periodic') && !customElements.get('bank-periodic-form')) void loadPeriodicForm().then(update);
  const steps = () => void loadLaterSteps().then(update, () => {});
  if (!later && now) steps();
  else if (!later && modes.includes('native')) soon(steps);
  if (!extrasIn) soon(() => void loadExtras().then(update, () => {}));
}
