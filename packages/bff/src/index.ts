export { createBff, type BffApp, type BffDeps, type AppParts } from './app.js';
export { loadConfig, ConfigError, type BffConfig } from './config.js';
export { serveBff, type ServeOptions, type ServedBff } from './server.js';
export type { CheckoutEvent } from './checkout/service.js';
export type { NotificationEvent } from './notifications.js';
export type { WebhookEvent } from './webhook.js';
export type { Store, CheckoutRecord, NotificationRecord } from './store/types.js';
export * from '@bank-checkout/contract';
export * from '@bank-checkout/contract/schemas';
