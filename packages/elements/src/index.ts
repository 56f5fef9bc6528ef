/**
 * `import '@bank-checkout/elements'` registers every element of the kit: `<bank-checkout>`, the
 * bank list and the result at once (the first screen, and nothing else up front), the other
 * steps moments later from files of their own, fetched in the background (`elementsDefined`
 * settles once every element is defined). English and Spanish texts are built in; Catalan,
 * Basque and Galician load when a page asks for them. Each element can also be imported alone
 * from its folder, its class with it.
 */
import { loadExtras, loadLaterSteps } from './bank-checkout/loaders.js';

export { BankCheckout } from './bank-checkout/bank-checkout.js';
export { BankSelector } from './bank-selector/bank-selector.js';
// The later steps' classes are types here (their code comes in the background, below); import
// one from its folder for the class itself.
export type { BankLoginForm } from './bank-login-form/bank-login-form.js';
export type { BankSecondLogin, SecondLoginKind } from './bank-second-login/bank-second-login.js';
export type { BankContractPicker, ContractItem } from './bank-contract-picker/bank-contract-picker.js';
export type { BankMaintenance } from './bank-maintenance/bank-maintenance.js';
export type { BankAccountPicker, AccountItem } from './bank-account-picker/bank-account-picker.js';
export type { BankChallenge } from './bank-challenge/bank-challenge.js';
export type { BankPeriodicForm } from './bank-periodic-form/bank-periodic-form.js';
export { systemClock, type Clock } from './shared/clock.js';
export { BankResult, canRetry, type ResultStatus } from './bank-result/bank-result.js';
export {
  createCheckoutClient,
  CheckoutApiError,
  INDIRECT_SIGNED_VALUE,
  type CheckoutClient,
  type CheckoutClientOptions,
  type ApiIssue,
  type ModeBody,
} from './client.js';
export { checkoutContext, type CheckoutContextValue, type StepAction } from './context.js';
export type {
  BankEventMap,
  BankSelectDetail,
  ChallengeExpireDetail,
  CheckoutCompleteDetail,
  CheckoutErrorDetail,
  CheckoutOutcome,
  CheckoutStepDetail,
  PeriodicSubmitDetail,
} from './events.js';
export { registerCatalogue, resolveLocale, translate, availableLocales, loadLocale, type Catalogue, type MessageKey } from './i18n/index.js';
export { en } from './i18n/en.js';
export { es } from './i18n/es.js';

/**
 * Settles once every element of the kit is defined: the later steps, `<bank-periodic-form>` and
 * the extras (phone hand-off, other rail, receipt), each fetched in the background (the first
 * screen waits for none of them). The periodic order form itself still comes only with the first
 * periodic form shown (most checkouts never show one). Rejects if one of their files cannot be
 * fetched (`<bank-checkout>` tries again when it needs a step).
 */
export const elementsDefined: Promise<void> = Promise.all([loadLaterSteps(), import('./bank-periodic-form/bank-periodic-form.js'), loadExtras()]).then(
  () => undefined,
);
// A page that never awaits it must not see an unhandled rejection for a file fetched again later.
elementsDefined.catch(() => {});
