export { createBff, type BffApp, type BffDeps, type AppParts } from './app.js';
export { loadConfig, ConfigError, type BffConfig } from './config.js';
export {
  frameRoutes,
  readFrameBundle,
  installedFrameBundle,
  frameManifest,
  type FrameBundle,
  type FrameFile,
  type FrameBanks,
  type FirstScreen,
} from './frame.js';
export { serveBff, serveOptionsOf, stopBoundMs, stopGraceMs, STOP_MARGIN_MS, CLOSE_MS, type ServeOptions, type ServedBff } from './server.js';
export { BFF_VERSION } from './version.js';
export { createStore, createPostgresStore, type PostgresStoreOptions } from './store/index.js';
/** The engines' drivers: statements with the store's own bounds and durability (for tools that must write as the BFF writes, such as the relay benchmark's journal). */
export { createSqliteDriver, createPostgresDriver, type SqlDriver } from './store/index.js';
export type { CheckoutEvent, NotificationEvent, WebhookEvent, WebhookDelivery, LaunchRefusedEvent } from './events.js';
export type { Store, CheckoutRecord, NotificationRecord } from './store/types.js';
export * from '@bank-checkout/contract';
export * from '@bank-checkout/contract/schemas';
