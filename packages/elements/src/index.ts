/**
 * `import '@bank-checkout/elements'` registers every element of the kit. English and Spanish
 * texts are built in; Catalan, Basque and Galician load when a page asks for them. Each element
 * can also be imported alone from its folder.
 */

export { BankCheckout } from './bank-checkout/bank-checkout.js';
export { BankSelector } from './bank-selector/bank-selector.js';
export { BankLoginForm } from './bank-login-form/bank-login-form.js';
export { BankSecondLogin, type SecondLoginKind } from './bank-second-login/bank-second-login.js';
export { BankContractPicker, type ContractItem } from './bank-contract-picker/bank-contract-picker.js';
export { BankAccountPicker, type AccountItem } from './bank-account-picker/bank-account-picker.js';
export { BankChallenge, systemClock, type Clock } from './bank-challenge/bank-challenge.js';
export { BankPeriodicForm } from './bank-periodic-form/bank-periodic-form.js';
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
