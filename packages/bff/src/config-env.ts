/**
 * The BFF's environment variables as a schema: each one's type, range and default, checked at
 * boot (config.ts turns them into the configuration; going-live.ts judges them for production).
 */
import { z } from 'zod';
import { INDIRECT_SIGNED_VALUE } from '@bank-checkout/contract';
import ipaddr from 'ipaddr.js';
import { isValidIban, normalizeIban } from '@bank-checkout/provider';
import { DEV_ORIGINS, SANDBOX, type TrustProxy } from './going-live.js';

export type { TrustProxy };
import { BOOT_WAIT_SECONDS, BUSY_TIMEOUT_MS, DATABASE_DEFAULTS } from './store/limits.js';

/** A URL's or origin's port, when it names one, is one a client can reach: 1 to 65535. */
const validPort = (v: string) => {
  const port = /^[a-z]+:\/\/(?:[^/?#@]*@)?(?:\[[^\]]*\]|[^/?#:]*):(\d*)(?:[/?#]|$)/i.exec(v)?.[1];
  return port === undefined || port === '' || (Number(port) >= 1 && Number(port) <= 65535);
};

/** No user or password in it: fetch refuses such a URL and puts it, password included, in its error. */
const url = z
  .string()
  .refine(validPort, 'its port must be from 1 to 65535')
  .refine((v) => URL.canParse(v), 'must be a valid URL')
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
  DATABASE_BOOT_WAIT_SECONDS: int(0, 3_600).default(BOOT_WAIT_SECONDS),
};

export const envSchema = z.object({
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
  /** Connections of the shop's server (requests with the merchant secret) one address may hold beside that cap (default 256). */
  MAX_MERCHANT_CONNECTIONS_PER_ADDRESS: int(0, 100_000).default(256),
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
export function proxyRange(entry: string): string | null {
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
