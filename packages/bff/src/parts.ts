/**
 * What the BFF's routes are given: its configuration, store, upstream clients, services,
 * limiters and logger. Its own module, so that the routes and app.ts (which mounts them) both
 * import it and neither imports the other.
 */
import type { BffConfig } from './config.js';
import type { Logger } from './log.js';
import type { AuthGuard, RateLimiter } from './guards.js';
import type { Store } from './store/types.js';
import type { Upstream } from './upstream.js';
import type { CheckoutService } from './checkout/service.js';
import type { NotificationReceiver } from './notifications.js';
import type { Webhook } from './webhook.js';
import type { Telemetry } from './telemetry.js';

export interface AppParts {
  config: BffConfig;
  store: Store;
  upstream: Upstream;
  service: CheckoutService;
  notifications: NotificationReceiver;
  /** Checkout-API requests per checkout. */
  limiter: RateLimiter;
  /** Merchant-API requests per route class (create, read, update). */
  merchantLimiter: RateLimiter;
  /**
   * Counts wrong secrets per client address, each API on its own: the merchant and checkout
   * APIs, and the provider's notifications and the payer's returns (verified first).
   */
  guards: { merchant: AuthGuard; checkout: AuthGuard; notifications: AuthGuard; returns: AuthGuard };
  /** The webhook's outbox dispatcher. */
  webhook: Webhook;
  /**
   * One round of the sweeper, if this instance holds its lease: checkouts past their time or
   * whose lock lapsed are settled, notifications stored but not applied are applied. False when
   * another instance holds the lease.
   */
  sweep: () => Promise<boolean>;
  logger: Logger;
  now: () => number;
  /** Traces and metrics (telemetry.ts). */
  telemetry: Telemetry;
}
