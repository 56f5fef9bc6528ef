export * from './codes.js';
export * from './primitives.js';
export * from './facts.js';
export { deepFreeze } from './freeze.js';
export * as native from './native.js';
export * as links from './links.js';
export type { FieldBank, LoginType, BankType, BankGroup, Contract, Account, ValidationBank } from './native.js';
export type { LinkBank, PaymentOrder, Debt, DataReturn, CodStatus } from './links.js';
export { LIMITS, PERIODIC_SUBJECT } from './links.js';
export * from './signature.js';
export {
  ProviderError,
  UpstreamError,
  InvalidRequestError,
  type ClientOptions,
  type CallEvent,
  type CallOptions,
  type CallTrace,
  type UpstreamFault,
} from './http.js';
export { createNativeClient, type NativeClient, type NativeClientOptions } from './native-client.js';
export { createLinksClient, type LinksClient, type LinksClientOptions } from './links-client.js';
