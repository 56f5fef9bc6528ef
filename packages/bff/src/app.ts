/**
 * `createBff(config, deps?)`: the backend-for-frontend as a Hono app, so it can run under
 * Node (`npm run bff`), be mounted in an existing server, or run on other runtimes.
 */
import { compress } from 'hono/compress';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { healthAnswer, openApiAnswer } from '@bank-checkout/contract/schemas';
import { HTTPException } from 'hono/http-exception';
import type { BffConfig } from './config.js';
import { ApiError, errorResponse, errors, fromHttpException } from './errors.js';
import { createLogger } from './log.js';
import { requestContext, securityHeaders, type BffEnv } from './http.js';
import { authGuard, bearerCheck, createRateLimiter } from './guards.js';
import { untrustedProxyWarning } from './proxy.js';
import { createStore } from './store/index.js';
import type { Store } from './store/types.js';
import { STORE_RETRY_AFTER_S, isUnavailable, unavailableCause } from './store/failure.js';
import { createUpstream } from './upstream.js';
import { createCheckoutService, type CheckoutEvent } from './checkout/service.js';
import { createNotificationReceiver, type NotificationEvent } from './notifications.js';
import { createWebhook, eventSubject, type WebhookEvent } from './webhook.js';
import { checkoutRouter } from './routes/checkout/checkout.index.js';
import { merchantRouter } from './routes/merchant/merchant.index.js';
import { providerRouter } from './routes/provider/provider.index.js';
import { handoffRouter } from './routes/handoff/handoff.index.js';
import { frameRoutes, installedFrameBundle, type FrameBundle } from './frame.js';
import { banksViewer } from './banks-view.js';
import { json, openApiDocument, router } from './openapi.js';
import { startRetention } from './retention.js';
import { routeDeps, type AppParts } from './parts.js';
import { createTelemetry, type TelemetryProviders } from './telemetry.js';

export type { AppParts };

export interface BffDeps {
  /** A store to use instead of the one DATABASE_URL names. */
  store?: Store;
  /** How the BFF reaches the provider (tests pass the simulator's `app.request`). */
  fetch?: typeof fetch;
  now?: () => number;
  /** Where log lines go (one JSON object per line). Default stdout. */
  log?: (line: string) => void;
  /** Called when a checkout reaches a final state (or unknown). */
  onCheckoutUpdate?: (event: CheckoutEvent) => void | Promise<void>;
  /**
   * Called once for each new result notification of the payment-link service, after it is
   * stored and applied: payment links made through the merchant API are told this way.
   */
  onNotification?: (event: NotificationEvent) => void | Promise<void>;
  retryDelayMs?: number;
  /** Waits before each webhook retry (default RETRY_DELAYS_MS). */
  webhookDelaysMs?: number[];
  /** How often the outbox is looked at (default 5 s). */
  webhookPollMs?: number;
  /**
   * The isolated checkout's page modules (`GET /v1/frame`). Default: those of the
   * `@bank-checkout/elements` installed beside the BFF; null: no isolated mode.
   */
  frame?: FrameBundle | null | (() => Promise<FrameBundle | null>);
  /** How often the sweeper runs (default SWEEP_SECONDS; 0: never, tests call `parts.sweep`). */
  sweepMs?: number;
  /**
   * Where traces and metrics go (telemetry.ts): by default the OpenTelemetry providers registered
   * in the process (none: nothing is recorded).
   */
  telemetry?: TelemetryProviders;
}

/**
 * `/ready` answers within this, whatever the database does (a load balancer's probe times out at
 * about a second): 600 ms leaves a busy instance 400 ms to be heard in (at 800, a loaded machine
 * answered in 1,002 ms).
 */
export const READY_DEADLINE_MS = 600;

export type BffApp = OpenAPIHono<BffEnv> & { parts: AppParts; ready: Promise<void>; close: () => Promise<void> };

export function createBff(config: BffConfig, deps: BffDeps = {}): BffApp {
  const now = deps.now ?? Date.now;
  const logger = createLogger(config.logLevel, deps.log);
  // The file of an embedded store is this process's alone while it serves (store/sqlite.ts).
  const store =
    deps.store ??
    createStore(config.databaseUrl, {
      ...config.database,
      exclusive: true,
      webhookEvents: Boolean(config.merchant.webhookUrl && config.merchant.webhookSecret),
    });
  const telemetry = createTelemetry(deps.telemetry);
  const upstream = createUpstream(config, {
    logger,
    now,
    telemetry,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.retryDelayMs !== undefined ? { retryDelayMs: deps.retryDelayMs } : {}),
  });
  const webhook = createWebhook({
    store,
    ...(config.merchant.webhookUrl ? { url: config.merchant.webhookUrl } : {}),
    ...(config.merchant.webhookSecret ? { secret: config.merchant.webhookSecret } : {}),
    fetch: deps.fetch ?? fetch,
    logger,
    now,
    telemetry,
    ...(deps.webhookDelaysMs ? { delaysMs: deps.webhookDelaysMs } : {}),
    ...(deps.webhookPollMs ? { pollMs: deps.webhookPollMs } : {}),
  });
  /**
   * Tells the merchant once a change is written: the webhook (its event is already in the
   * outbox, written with the change: delivered now, or by the next poll), and the in-process
   * hook (whose failure is logged, never thrown).
   */
  const tell = (event: WebhookEvent, hook: () => void | Promise<void>) => {
    webhook.kick();
    Promise.resolve()
      .then(hook)
      .catch((err: unknown) => logger.log('error', 'hook.failed', { ...eventSubject(event), reason: err instanceof Error ? err.message : 'error' }));
  };
  const onFinal = (event: CheckoutEvent) => tell({ type: 'checkout.updated', data: event }, () => deps.onCheckoutUpdate?.(event));
  const onReceived = (event: NotificationEvent) => tell({ type: 'notification.received', data: event }, () => deps.onNotification?.(event));
  const service = createCheckoutService({ config, store, upstream, logger, now, onFinal, webhook, telemetry });
  const notifications = createNotificationReceiver({ config, store, service, logger, now, onReceived, webhook });
  const limiter = createRateLimiter(config.rateLimitPerMinute, now);
  const failures = createRateLimiter(config.authFailuresPerMinute, now);
  const guards = {
    // The merchant secret is compared first (in constant time, nothing read): the right one
    // always passes, however many wrong ones came from its address.
    merchant: authGuard(failures, config.trustProxy, 'merchant', { verifyFirst: true }),
    checkout: authGuard(failures, config.trustProxy, 'checkout'),
    // Signed by the provider: verified before anything is counted (a valid one always passes).
    notifications: authGuard(failures, config.trustProxy, 'notifications', { verifyFirst: true }),
    returns: authGuard(failures, config.trustProxy, 'returns', { verifyFirst: true }),
  };
  const merchantLimiter = createRateLimiter(config.merchantRateLimitPerMinute, now);
  const every = deps.sweepMs ?? config.sweepMs;
  const sweep = async () => {
    // Every instance runs the sweeper; the one holding its lease sweeps. A holder that stops
    // is replaced once its lease (two rounds) lapses.
    if (!(await store.claimLease('sweeper', service.holder, now(), 2 * (every || 60_000)))) return false;
    await service.sweep();
    await notifications.sweepPending(now() - service.leaseMs);
    await service.reconcile();
    await store.forgetProofIds(now());
    return true;
  };
  const banksView = banksViewer(config.sandbox);
  const parts: AppParts = {
    config,
    store,
    upstream,
    banksView,
    service,
    notifications,
    limiter,
    merchantLimiter,
    guards,
    webhook,
    sweep,
    logger,
    now,
    telemetry,
  };

  const ready = store.init();
  let sweeper: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  let retention: ReturnType<typeof startRetention> | undefined;
  const startLoops = () => {
    if (closed) return;
    webhook.start();
    retention = startRetention({ store, retention: config.retention, logger, now });
    if (every > 0) {
      sweeper = setInterval(() => {
        sweep().catch((err: unknown) => logger.log('error', 'sweep.failed', { reason: err instanceof Error ? err.message : 'error' }));
      }, every);
      sweeper.unref();
    }
  };
  // The loops run even when the store was down at boot: each round opens it again.
  ready.then(startLoops, startLoops);
  ready.catch((err: unknown) => logger.log('error', 'store.init_failed', { reason: err instanceof Error ? err.message : 'error' }));

  /** The store's ping under way: readiness probes that come while it runs share it. */
  let pinging: Promise<void> | null = null;
  const ping = () =>
    (pinging ??= (async () => {
      await store.init();
      await store.ping();
    })().finally(() => {
      pinging = null;
    }));

  const app = router();
  // Each request's span: the shop's server (its requests carry the merchant secret) may continue its own trace.
  app.use('*', telemetry.serverSpans(bearerCheck(config.merchantSecret)));
  app.use('*', ...requestContext(logger));
  app.use('*', securityHeaders);
  if (!config.trustProxy.hops && !config.trustProxy.addresses.length) app.use('*', untrustedProxyWarning(config.trustProxy, logger));
  // Until the store has opened once, every API answers 503 (each request tries it again).
  app.use('/v1/*', async (_c, next) => {
    await store.init();
    await next();
  });

  app.openapi(createRoute({ method: 'get', path: '/health', summary: 'Liveness', tags: ['service'], responses: { 200: json(healthAnswer) } }), (c) =>
    c.json({ ok: true }, 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/ready',
      summary: 'Readiness: the store answers (503 when it does not)',
      tags: ['service'],
      responses: { 200: json(healthAnswer), 503: json(healthAnswer, 'The store does not answer') },
    }),
    async (c) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        // A stalled database is no answer: past the deadline the probe is told 503 while the
        // ping goes on (probes meanwhile share it).
        await Promise.race([
          ping(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${READY_DEADLINE_MS} ms`)), READY_DEADLINE_MS);
          }),
        ]);
        return c.json({ ok: true }, 200);
      } catch (err) {
        logger.log('error', 'ready.store_unavailable', { reason: err instanceof Error ? err.message : 'error' });
        return c.json({ ok: false }, 503);
      } finally {
        clearTimeout(timer);
      }
    },
  );
  // The launch's answer is the frame's first screen (the view and the bank list, about 6 KB):
  // compressed, as a phone's link counts every kilobyte. Nothing of the request is in it, and
  // its key is new at every redemption, so its size tells nothing worth guessing.
  app.use('/v1/frame/launch', compress());
  // The routes are given the service and the store's lists, never a checkout from the store nor its writes.
  const routes = routeDeps(parts);
  app.route('/v1', checkoutRouter(routes));
  app.route('/v1', merchantRouter(routes));
  app.route('/v1', providerRouter(routes));
  app.route('/v1', handoffRouter(routes));
  const frame = deps.frame;
  // The frame's page is written with the bank list the launch would answer (the same for every checkout).
  const banks = () =>
    upstream.nativeBanks().then(
      (groups) => banksView(groups),
      () => null,
    );
  app.route('/v1', frameRoutes(config, typeof frame === 'function' ? frame : frame !== undefined ? () => Promise.resolve(frame) : installedFrameBundle, banks));
  const document = openApiDocument(app, config.publicUrl);
  app.openapi(
    createRoute({ method: 'get', path: '/v1/openapi.json', summary: 'This document', tags: ['service'], responses: { 200: json(openApiAnswer) } }),
    (c) => c.json(document(), 200),
  );

  app.notFound((c) => errorResponse(c, errors.notFound('Route')));
  app.onError((err, c) => {
    if (err instanceof ApiError) return errorResponse(c, err);
    if (isUnavailable(err)) {
      // The database did not answer (a dropped connection, a failover, a full disk): nothing
      // is lost, the request may be sent again; the provider retries its notifications.
      // Which bound it hit (a pool with no free connection, a connection not opened, a statement or
      // a lock past its time, a commit in doubt, the network, the server): the operator's first question.
      logger.log('warn', 'store.unavailable', { path: c.req.path, cause: unavailableCause(err), reason: err instanceof Error ? err.message : 'error' });
      return errorResponse(c, errors.storeUnavailable(STORE_RETRY_AFTER_S));
    }
    const known = err instanceof HTTPException ? fromHttpException(err) : null;
    if (known) return errorResponse(c, known);
    logger.log('error', 'http.unhandled', { path: c.req.path, reason: err instanceof Error ? err.name : 'error' });
    return errorResponse(c, new ApiError(500, 'internal', 'Something went wrong; the request changed nothing it could not finish.'));
  });

  const close = async () => {
    closed = true;
    if (sweeper) clearInterval(sweeper);
    await retention?.stop();
    // A bank's answer still being written after the store failed is written before the store closes.
    const left = await service.drain(service.leaseMs);
    if (left) logger.log('error', 'checkout.answers_not_written', { count: left });
    await webhook.stop();
    await store.close();
  };
  return Object.assign(app, { parts, ready, close });
}
