/**
 * The BFF's configuration, read only from environment variables and validated at boot. A bad
 * value stops boot with a message that names the variable.
 */
import { SANDBOX, goingLiveProblems } from './going-live.js';
import { envSchema } from './config-env.js';

export type { Env, TrustProxy } from './config-env.js';
import type { TrustProxy } from './config-env.js';
export { DEV_ORIGINS, SANDBOX, isLoopback, isPublicHost, weakSecret, secretBits, STRONG_SECRET } from './going-live.js';

export interface BffConfig {
  port: number;
  host: string;
  provider: {
    linksUrl: string;
    nativeUrl: string;
    env: 'san' | 'pro';
    nativeEnv: string;
    apiKey: string;
    apiToken: string;
    /** The earlier signer variant's client; absent: its routes are off (PROVIDER_ENV=pro without its keys). */
    legacy?: { variant: 'commerce' | 'business'; apiKey: string; apiToken: string };
    timeoutMs: number;
    indirectSignedValue: string;
    /** How long a bank session may be quiet before an E301 on it means it ended. */
    sessionQuietMs: number;
    /** How far the provider's clock may be from ours (a link result's `dateInitPayment` is checked against the link's time). */
    clockSkewSeconds: number;
  };
  /** True when talking to the provider's test environment: test values are shown. */
  sandbox: boolean;
  merchantSecret: string;
  publicUrl: string;
  allowedOrigins: string[];
  databaseUrl: string;
  merchant: { name: string; iban: string; webhookUrl?: string; webhookSecret?: string };
  checkoutTtlMinutes: number;
  maxAmountCents: number;
  periodicStartWithinDays: number;
  linkGraceMinutes: number;
  maxAttempts: number;
  banksCacheTtlMs: number;
  rateLimitPerMinute: number;
  merchantRateLimitPerMinute: number;
  /** Wrong secrets a client address may send per minute, per API, before it is refused outright. */
  authFailuresPerMinute: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  trustProxy: TrustProxy;
  maxConnectionsPerAddress: number;
  /** Connections of the shop's server one address may hold beside `maxConnectionsPerAddress`. */
  maxMerchantConnectionsPerAddress: number;
  /** Milliseconds between sweeps (SWEEP_SECONDS). */
  sweepMs: number;
  /** Reconciliation of link results with the provider's order query (checkout/reconcile.ts). */
  reconcile: { everySeconds: number; horizonHours: number };
  retention: RetentionConfig;
  /** The database's bounds (DATABASE_*_MS). */
  database: DatabaseLimits;
}

/** How long the store waits on its database before it counts as unavailable (DATABASE_*_MS). */
export interface DatabaseLimits {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  idleTimeoutMs: number;
  keepAliveMs: number;
  busyTimeoutMs: number;
  /** How long boot keeps trying a database that does not answer (DATABASE_BOOT_WAIT_SECONDS). */
  bootWaitMs: number;
}

/** How long the store keeps each kind of row (RETENTION_*). */
export interface RetentionConfig {
  eventsDays: number;
  idempotencyDays: number;
  notificationsDays: number;
  checkoutsDays: number;
  /** Where ended checkouts are written (JSON lines) before they are deleted. */
  exportDir?: string;
  /** How often a running BFF prunes; 0: never. */
  intervalMinutes: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads the configuration from an environment; throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): BffConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    // One line per variable, its problems joined.
    const byName = new Map<string, string[]>();
    for (const i of parsed.error.issues) {
      const name = String(i.path[0]);
      const messages = byName.get(name) ?? [];
      if (!messages.includes(i.message)) byName.set(name, [...messages, i.message]);
    }
    throw new ConfigError(`Invalid configuration:\n${[...byName].map(([name, messages]) => `  ${name}: ${messages.join('; ')}`).join('\n')}`);
  }
  const e = parsed.data;
  if (e.DATABASE_LOCK_TIMEOUT_MS >= e.DATABASE_STATEMENT_TIMEOUT_MS)
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_LOCK_TIMEOUT_MS: must be shorter than DATABASE_STATEMENT_TIMEOUT_MS (a statement waiting for a lock is cancelled for the lock first)',
    );
  const problems = goingLiveProblems(e, present);
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  // Against the simulator the earlier variant has its keys; going live, only the keys given.
  const sandboxed = e.PROVIDER_ENV === 'san';
  const legacyKey = e.PROVIDER_LEGACY_API_KEY ?? (sandboxed ? SANDBOX.legacyApiKey : undefined);
  const legacyToken = e.PROVIDER_LEGACY_API_TOKEN ?? (sandboxed ? SANDBOX.legacyApiToken : undefined);
  const legacy = legacyKey && legacyToken ? { variant: e.PROVIDER_LEGACY_VARIANT, apiKey: legacyKey, apiToken: legacyToken } : undefined;
  return {
    port: e.PORT,
    host: e.HOST,
    provider: {
      linksUrl: e.PROVIDER_LINKS_URL,
      nativeUrl: e.PROVIDER_NATIVE_URL,
      env: e.PROVIDER_ENV,
      nativeEnv: e.PROVIDER_NATIVE_ENV,
      apiKey: e.PROVIDER_API_KEY,
      apiToken: e.PROVIDER_API_TOKEN,
      ...(legacy ? { legacy } : {}),
      timeoutMs: e.PROVIDER_TIMEOUT_MS,
      indirectSignedValue: e.PROVIDER_INDIRECT_SIGNED_VALUE,
      sessionQuietMs: e.PROVIDER_SESSION_QUIET_SECONDS * 1000,
      clockSkewSeconds: e.PROVIDER_CLOCK_SKEW_SECONDS,
    },
    sandbox: e.PROVIDER_ENV === 'san',
    merchantSecret: e.BFF_MERCHANT_SECRET,
    publicUrl: (e.BFF_PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/+$/, ''),
    allowedOrigins: e.ALLOWED_ORIGINS,
    databaseUrl: e.DATABASE_URL,
    merchant: {
      name: e.MERCHANT_NAME,
      iban: e.MERCHANT_IBAN,
      ...(e.MERCHANT_WEBHOOK_URL ? { webhookUrl: e.MERCHANT_WEBHOOK_URL } : {}),
      ...(e.MERCHANT_WEBHOOK_SECRET ? { webhookSecret: e.MERCHANT_WEBHOOK_SECRET } : {}),
    },
    checkoutTtlMinutes: e.CHECKOUT_TTL_MINUTES,
    maxAmountCents: e.MAX_AMOUNT_CENTS,
    periodicStartWithinDays: e.PERIODIC_START_WITHIN_DAYS,
    linkGraceMinutes: e.LINK_GRACE_MINUTES,
    maxAttempts: e.CHECKOUT_MAX_ATTEMPTS,
    banksCacheTtlMs: e.BANKS_CACHE_TTL_MS,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    merchantRateLimitPerMinute: e.MERCHANT_RATE_LIMIT_PER_MINUTE,
    authFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    // Behind a proxy every client arrives from the proxy's address: no per-address cap then.
    maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS ?? (e.TRUST_PROXY.hops || e.TRUST_PROXY.addresses.length ? 0 : 64),
    maxMerchantConnectionsPerAddress: e.MAX_MERCHANT_CONNECTIONS_PER_ADDRESS,
    sweepMs: e.SWEEP_SECONDS * 1000,
    reconcile: { everySeconds: e.RECONCILE_SECONDS, horizonHours: e.RECONCILE_HORIZON_HOURS },
    retention: {
      eventsDays: e.RETENTION_EVENTS_DAYS,
      idempotencyDays: e.RETENTION_IDEMPOTENCY_DAYS,
      notificationsDays: e.RETENTION_NOTIFICATIONS_DAYS,
      checkoutsDays: e.RETENTION_CHECKOUTS_DAYS,
      ...(e.RETENTION_EXPORT_DIR ? { exportDir: e.RETENTION_EXPORT_DIR } : {}),
      intervalMinutes: e.RETENTION_INTERVAL_MINUTES,
    },
    database: {
      connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: e.DATABASE_LOCK_TIMEOUT_MS,
      idleInTransactionTimeoutMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      idleTimeoutMs: e.DATABASE_IDLE_TIMEOUT_MS,
      keepAliveMs: e.DATABASE_KEEPALIVE_MS,
      busyTimeoutMs: e.DATABASE_BUSY_TIMEOUT_MS,
      bootWaitMs: e.DATABASE_BOOT_WAIT_SECONDS * 1000,
    },
  };
}
