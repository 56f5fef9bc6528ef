/**
 * What the BFF's routes are given: its configuration, store, upstream clients, services,
 * limiters and logger. Its own module, so that the routes and app.ts (which mounts them) both
 * import it and neither imports the other.
 */
import type { BffConfig } from './config.js';
import type { Logger } from './log.js';
import type { AuthGuard, RateLimiter } from './guards.js';
import type { RedeliveryStore, ReplyStore, RouteReader, Store } from './store/types.js';
import type { Upstream } from './upstream.js';
import type { CheckoutService } from './checkout/service.js';
import type { NotificationReceiver } from './notifications.js';
import type { Webhook } from './webhook.js';
import type { Telemetry } from './telemetry.js';
import type { BanksBody } from './banks-view.js';
import type { BankGroup } from '@bank-checkout/provider';

export interface AppParts {
  config: BffConfig;
  store: Store;
  upstream: Upstream;
  /** The native bank list as the elements get it (banks-view.ts). */
  banksView: (groups: BankGroup[]) => BanksBody;
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

/**
 * What the routes are given: the service (which answers every read and change of a checkout),
 * the store's lists for the merchant's lists and feed (`reader`), and the narrow stores of the
 * routes' own records (`replies`, `redelivery`); never the store's writes of a checkout, which
 * only the engine's door makes. Each handler takes what it uses of these.
 */
export interface RouteDeps {
  config: BffConfig;
  /** The merchant's lists and feed; no checkout by its id or secret (the service answers those). */
  reader: RouteReader;
  /** The replies of creations that are not checkouts (payment links), under an Idempotency-Key. */
  replies: ReplyStore;
  /** A webhook event sent again on the merchant's asking. */
  redelivery: RedeliveryStore;
  /** The provider's services, for the calls the merchant API relays and the bank list. */
  upstream: Upstream;
  /** The native bank list as the elements get it (banks-view.ts). */
  banksView: AppParts['banksView'];
  service: CheckoutService;
  notifications: NotificationReceiver;
  limiter: RateLimiter;
  merchantLimiter: RateLimiter;
  guards: AppParts['guards'];
  webhook: Pick<Webhook, 'enabled' | 'kick'>;
  logger: Logger;
  now: () => number;
  telemetry: Telemetry;
}

/** The routes' share of the app's parts. */
export function routeDeps(p: AppParts): RouteDeps {
  const { store } = p;
  return {
    config: p.config,
    reader: store,
    replies: store,
    redelivery: store,
    upstream: p.upstream,
    banksView: p.banksView,
    service: p.service,
    notifications: p.notifications,
    limiter: p.limiter,
    merchantLimiter: p.merchantLimiter,
    guards: p.guards,
    webhook: p.webhook,
    logger: p.logger,
    now: p.now,
    telemetry: p.telemetry,
  };
}
