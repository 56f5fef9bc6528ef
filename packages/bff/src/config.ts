/**
 * The BFF's configuration, read only from environment variables and validated at boot. A bad
 * value stops boot with a message that names the variable.
 */
import { z } from 'zod';
import { INDIRECT_SIGNED_VALUE } from '@bank-checkout/contract';
import { isValidIban, normalizeIban } from '@bank-checkout/provider';
import ipaddr from 'ipaddr.js';
import { DEV_ORIGINS, SANDBOX, goingLiveProblems } from './going-live.js';
import { BUSY_TIMEOUT_MS, DATABASE_DEFAULTS } from './store/limits.js';

export { DEV_ORIGINS, SANDBOX, isLoopback, isPublicHost, weakSecret, secretBits, STRONG_SECRET } from './going-live.js';

/** A URL's or origin's port, when it names one, is one a client can reach: 1 to 65535. */
const validPort = (v: string) => {
  const port = /^[a-z]+:\/\/(?:[^/?#@]*@)?(?:\[[^\]]*\]|[^/?#:]*):(\d*)(?:[/?#]|$)/i.exec(v)?.[1];
  return port === undefined || port === '' || (Number(port) >= 1 && Number(port) <= 65535);
};

/** No user or password in it: fetch refuses such a URL and puts it, password included, in its error. */
const url = z
  .string()
  .refine(validPort, 'its port must be from 1 to 65535')
  .url('must be a valid URL')
  .refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL')
  .refine((v) => !URL.canParse(v) || (!new URL(v).username && !new URL(v).password), 'must not hold a user or password');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * Retention (store/retention.ts): how long each kind of row is kept, in days, and how often a
 * running BFF prunes (one instance at a time, under a lease; 0 minutes: never, only
 * `bank-checkout-bff prune`). Checkouts are kept 400 days by default: a year of accounts and
 * the month or so it takes to close them, with every ended payment still readable by the
 * merchant API. With RETENTION_EXPORT_DIR, checkouts are written there as JSON lines before
 * they are deleted.
 */
const RETENTION_ENV = {
  RETENTION_EVENTS_DAYS: int(1, 36_500).default(30),
  RETENTION_IDEMPOTENCY_DAYS: int(1, 36_500).default(7),
  RETENTION_NOTIFICATIONS_DAYS: int(1, 36_500).default(90),
  RETENTION_CHECKOUTS_DAYS: int(1, 36_500).default(400),
  RETENTION_EXPORT_DIR: z.string().min(1).optional(),
  RETENTION_INTERVAL_MINUTES: int(0, 7 * 24 * 60).default(60),
};

/**
 * The database's bounds (store/postgres.ts, store/sqlite.ts): a database that stops answering
 * makes the store unavailable (every API 503 with `Retry-After`) within about a second and a half.
 * PostgreSQL: the time to get a connection, `statement_timeout` (the client gives up on an answer
 * half a second after it), `lock_timeout`, `idle_in_transaction_session_timeout`, how long an
 * unused pooled connection stays open, and when TCP keepalive probes start on a silent one.
 * SQLite: how long a write waits for another process's lock.
 */
const DATABASE_ENV = {
  DATABASE_CONNECT_TIMEOUT_MS: int(100, 60_000).default(DATABASE_DEFAULTS.connectTimeoutMs),
  DATABASE_STATEMENT_TIMEOUT_MS: int(100, 600_000).default(DATABASE_DEFAULTS.statementTimeoutMs),
  DATABASE_LOCK_TIMEOUT_MS: int(10, 600_000).default(DATABASE_DEFAULTS.lockTimeoutMs),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: int(1_000, 3_600_000).default(DATABASE_DEFAULTS.idleInTransactionTimeoutMs),
  DATABASE_IDLE_TIMEOUT_MS: int(1_000, 3_600_000).default(DATABASE_DEFAULTS.idleTimeoutMs),
  DATABASE_KEEPALIVE_MS: int(1_000, 3_600_000).default(DATABASE_DEFAULTS.keepAliveMs),
  DATABASE_BUSY_TIMEOUT_MS: int(0, 60_000).default(BUSY_TIMEOUT_MS),
};

const envSchema = z.object({
  PORT: int(0, 65535).default(4020),
  HOST: z.string().min(1).default('127.0.0.1'),
  PROVIDER_LINKS_URL: url.default(SANDBOX.linksUrl),
  PROVIDER_NATIVE_URL: url.default(SANDBOX.nativeUrl),
  PROVIDER_ENV: z.enum(['san', 'pro']).default('san'),
  PROVIDER_NATIVE_ENV: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/, 'must be a path segment such as test')
    .default('test'),
  PROVIDER_API_KEY: z.string().min(1).default(SANDBOX.apiKey),
  PROVIDER_API_TOKEN: z.string().min(1).default(SANDBOX.apiToken),
  /**
   * Earlier signer variant: its own API client (key, token) and kind. Against the simulator both
   * default to its keys; with PROVIDER_ENV=pro the variant is off (its routes are not served, its
   * key verifies nothing) unless both are given.
   */
  PROVIDER_LEGACY_VARIANT: z.enum(['commerce', 'business']).default('business'),
  PROVIDER_LEGACY_API_KEY: z.string().min(1).optional(),
  PROVIDER_LEGACY_API_TOKEN: z.string().min(1).optional(),
  PROVIDER_TIMEOUT_MS: int(100, 120_000).default(15_000),
  /** The value that tells the native service a signature on another device is done (type 6). */
  PROVIDER_INDIRECT_SIGNED_VALUE: z.string().min(1).max(64).default(INDIRECT_SIGNED_VALUE),
  /** An E301 on a session quiet this long is the bank's session having ended (the spec does not say how long one lives). */
  PROVIDER_SESSION_QUIET_SECONDS: int(1, 86_400).default(60),
  /** How far the provider's clock may be from ours when a link result's payment time is checked. */
  PROVIDER_CLOCK_SKEW_SECONDS: int(0, 3_600).default(300),
  BFF_MERCHANT_SECRET: z.string().min(16, 'must be at least 16 characters').default(SANDBOX.merchantSecret),
  BFF_PUBLIC_URL: url.optional(),
  ALLOWED_ORIGINS: z
    .string()
    .default(DEV_ORIGINS)
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    // Exact origins only: each goes as it is into the frame's `frame-ancestors` and into CORS, so
    // no wildcard, path, query or separator (`;`, `,`, spaces) can widen either.
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^https?:\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/,
            'each origin must be exactly scheme://host[:port] (no wildcard, path or separator)',
          )
          .refine(validPort, "each origin's port must be from 1 to 65535"),
      ),
    ),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/|:memory:$)/, 'must be a file: path or a postgres:// URL')
    .default('file:./data/bff.db'),
  /** Default payee (the merchant's account) when a checkout names none. */
  MERCHANT_NAME: z.string().min(1).max(140).default(SANDBOX.payeeName),
  MERCHANT_IBAN: z.string().default(SANDBOX.payeeIban).transform(normalizeIban).refine(isValidIban, 'must be a valid IBAN'),
  MERCHANT_WEBHOOK_URL: url.optional(),
  MERCHANT_WEBHOOK_SECRET: z
    .string()
    .min(16)
    .refine(
      (v) => !v.startsWith('whsec_') || /^whsec_[A-Za-z0-9+/]{22,}={0,2}$/.test(v),
      'a whsec_ secret must carry its key in base64 (npx bank-checkout-bff secret)',
    )
    .optional(),
  CHECKOUT_TTL_MINUTES: int(1, 24 * 60).default(30),
  /** How long after a payment link's lifetime its result is still awaited before the checkout expires (default 15). */
  LINK_GRACE_MINUTES: int(0, 24 * 60).default(15),
  /** A periodic order's first payment must fall within this many days (default 31). */
  PERIODIC_START_WITHIN_DAYS: int(1, 3660).default(31),
  /** The largest amount the merchant API accepts, in cents (default 1,000,000.00). */
  MAX_AMOUNT_CENTS: int(1, 99_999_999_999).default(100_000_000),
  CHECKOUT_MAX_ATTEMPTS: int(1, 10).default(3),
  BANKS_CACHE_TTL_MS: int(0, 24 * 3600_000).default(300_000),
  /** Checkout-API requests per checkout per minute (a payer's browser). */
  RATE_LIMIT_PER_MINUTE: int(1, 1_000_000).default(120),
  /** Merchant-API requests per minute and instance, for each class: creations, reads, updates. */
  MERCHANT_RATE_LIMIT_PER_MINUTE: int(1, 10_000_000).default(3_000),
  /** Wrong secrets (or forged notifications) one address may send per minute, per API, before it is refused. */
  AUTH_FAILURES_PER_MINUTE: int(1, 1_000_000).default(30),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /**
   * Which proxies in front of the BFF to believe about the client's address: `0` (none, the
   * default), a number of hops (`1`: the one proxy in front; `true` means 1 and is refused when
   * going live), or a comma list of the proxies' addresses or CIDRs (`10.0.0.0/8,fd00::/8`). The
   * client is the address the nearest trusted proxy appended to X-Forwarded-For, never the
   * left-most entry, which the client itself writes.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('0')
    .transform((v, ctx): TrustProxy => {
      const lower = v.toLowerCase();
      if (['', '0', 'false', 'no'].includes(lower)) return { hops: 0, addresses: [] };
      if (['true', 'yes'].includes(lower)) return { hops: 1, addresses: [] };
      if (/^\d{1,2}$/.test(v)) return { hops: Number(v), addresses: [] };
      const addresses = v
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean)
        .map(proxyRange);
      if (!addresses.every((a): a is string => a !== null)) {
        ctx.addIssue({ code: 'custom', message: 'must be 0, a number of proxy hops, or a comma list of proxy IP addresses or CIDRs (10.0.0.0/8)' });
        return z.NEVER;
      }
      return { hops: 0, addresses };
    }),
  /** Open connections one client address may hold (0: no cap; default 64, or 0 behind a proxy). */
  MAX_CONNECTIONS_PER_ADDRESS: int(0, 100_000).optional(),
  /** How often the sweeper runs (seconds, default 60): one instance at a time, by lease. */
  SWEEP_SECONDS: int(1, 3600).default(60),
  /** How often a checkout waiting on a link's result with none come is looked up in the provider's order query. */
  RECONCILE_SECONDS: int(10, 86_400).default(60),
  /** How long after its expiry a checkout is still looked up before it is given up on. */
  RECONCILE_HORIZON_HOURS: int(1, 24 * 90).default(24),
  ...RETENTION_ENV,
  ...DATABASE_ENV,
});

export type Env = z.input<typeof envSchema>;

/** A proxy's address or CIDR as a CIDR (`10.0.0.7` as `10.0.0.7/32`), or null when it is neither. */
function proxyRange(entry: string): string | null {
  try {
    if (entry.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(entry);
      return `${address.toString()}/${bits}`;
    }
    if (!ipaddr.isValid(entry)) return null;
    const address = ipaddr.process(entry);
    return `${address.toString()}/${address.kind() === 'ipv4' ? 32 : 128}`;
  } catch {
    return null;
  }
}

/** Proxies trusted to say who the client is (see TRUST_PROXY); neither set means none. */
export interface TrustProxy {
  hops: number;
  /** The trusted proxies' addresses, each as a CIDR. */
  addresses: string[];
}

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
    },
  };
}
