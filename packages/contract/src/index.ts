/**
 * `@bank-checkout/contract`: what the browser and the servers agree on, with no zod: states,
 * modes, outcomes, actions, error codes and their categories, and the shared rules (IBAN,
 * DNI/NIE/CIF, FieldBank fields, dates, web addresses) as pure functions. The request and
 * response types are inferred from the schemas of `@bank-checkout/contract/schemas` and exported here as types only.
 */
export * from './states.js';
export * from './actions.js';
export * from './errors.js';
export * from './client-error.js';
export * from './funnel.js';
export * from './rules/iban.js';
export * from './rules/ids.js';
export * from './rules/fields.js';
export * from './rules/dates.js';
export * from './rules/urls.js';
export * from './rules/text.js';
export * from './rules/json.js';
export type {
  BankChoiceBody,
  BankGroupView,
  BankView,
  BanksResponse,
  CheckoutStart,
  CheckoutView,
  ContractBody,
  ErrorBody,
  HandoffAnswer,
  HandoffBody,
  FieldView,
  LoginBody,
  ModeBody,
  LoginTypeView,
  PeriodicBankView,
  PeriodicBody,
  SecondLoginBody,
  StepView,
  TransferBody,
  ValidateBody,
  ValidationView,
} from './schemas/checkout.js';
export type { CreateCheckoutBody, FrameLaunchAnswer, ResolveBody, FunnelAnswer, FunnelRow } from './schemas/merchant.js';
