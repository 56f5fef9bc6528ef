/**
 * What tests and benchmarks of anything built on the simulator need, by name
 * (`@bank-checkout/sandbox/testing`): the simulator app and its fault switch and clock, the
 * catalogue's test values (credentials, magic values, the input that reaches each error code),
 * the card that answers coordinate challenges, and a driver of the hosted gateway pages.
 */
export { createSandbox, type Sandbox } from './app.js';
export { SANDBOX_DEFAULTS, resolveConfig, type SandboxConfig, type ApiClient, type SignerVariant } from './context.js';
export { createFaults, FAULT_KINDS, parseFaultRule, type Faults, type FaultKind, type FaultRule, type FaultRuleInput } from './faults.js';
export {
  NATIVE_BANKS,
  NATIVE_MAGIC,
  NATIVE_TEST_INPUTS,
  NATIVE_ERROR_INPUTS,
  NATIVE_VALIDATION_DEADLINE_MS,
  NATIVE_SESSION_IDLE_MS,
  SIM_BANKS,
  testCredentials,
  type SimBank,
  type SimAccount,
  type ValidationSpec,
} from './native/catalogue.js';
export { CARD_DATA_URL, CARD_POSITIONS, cardValue } from './native/card.js';
export {
  formFor,
  radioValues,
  readForms,
  submit,
  toPage,
  walkGateway,
  type GatewayForm,
  type GatewayPage,
  type GatewayWalk,
  type RequestFn,
} from './gateway/drive.js';
