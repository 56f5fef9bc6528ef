/**
 * The BFF's configuration, read only from environment variables and validated at boot. A bad
 * value stops boot with a message that names the variable.
 */
import { z } from 'zod';
import { INDIRECT_SIGNED_VALUE } from '@bank-checkout/contract';
import { isValidIban, normalizeIban } from '@bank-checkout/provider';

/** The development defaults: fine on loopback against the simulator, refused when going live. */
export const SANDBOX = {
  linksUrl: 'http://127.0.0.1:4010',
  nativeUrl: 'http://127.0.0.1:4010',
  apiKey: 'sandbox-api-key',
  apiToken: 'sandbox-api-token',
  legacyApiKey: 'sandbox-business-key',
  legacyApiToken: 'sandbox-business-token',
  merchantSecret: 'dev-merchant-secret-change-me',
  payeeName: 'Demo Shop S.L.',
  payeeIban: 'ES9121000418450200051332',
};

/** The development default of ALLOWED_ORIGINS: the demo shop on this machine. */
export const DEV_ORIGINS = 'http://127.0.0.1:5173,http://localhost:5173';

/** No user or password in it: fetch refuses such a URL and puts it, password included, in its error. */
const url = z
  .string()
  .url()
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
  /** Earlier signer variant: its own API client (key, token) and kind. */
  PROVIDER_LEGACY_VARIANT: z.enum(['commerce', 'business']).default('business'),
  PROVIDER_LEGACY_API_KEY: z.string().min(1).default(SANDBOX.legacyApiKey),
  PROVIDER_LEGACY_API_TOKEN: z.string().min(1).default(SANDBOX.legacyApiToken),
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
          ),
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
   * default), a number of hops (`1`: the one proxy in front; `true` means 1), or a comma list of
   * the proxies' addresses. The client is the address the nearest trusted proxy appended to
   * X-Forwarded-For, never the left-most entry, which the client itself writes.
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
        .filter(Boolean);
      if (!addresses.every((a) => /^[0-9a-fA-F:.]{2,45}$/.test(a))) {
        ctx.addIssue({ code: 'custom', message: 'must be 0, a number of proxy hops, or a comma list of proxy IP addresses' });
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
});

export type Env = z.input<typeof envSchema>;

/** Proxies trusted to say who the client is (see TRUST_PROXY); neither set means none. */
export interface TrustProxy {
  hops: number;
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
    legacy: { variant: 'commerce' | 'business'; apiKey: string; apiToken: string };
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

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Bits of entropy the characters of `secret` show (their distribution, times the length). */
export function secretBits(secret: string): number {
  const counts = new Map<string, number>();
  for (const ch of secret) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const n = [...secret].length;
  let perChar = 0;
  for (const c of counts.values()) perChar -= (c / n) * Math.log2(c / n);
  return perChar * n;
}

/** The shortest merchant secret accepted beyond loopback, and the entropy it must show. */
export const STRONG_SECRET = { minLength: 32, minBits: 96 };

/**
 * Whether a secret is too weak to go live: shorter than STRONG_SECRET, one character repeated,
 * a short pattern repeated, or too few bits in its characters.
 */
export function weakSecret(secret: string): boolean {
  const chars = [...secret];
  if (chars.length < STRONG_SECRET.minLength || secretBits(secret) < STRONG_SECRET.minBits) return true;
  // "abcabcabc…", "0123456701234567…": a pattern of up to a quarter of the length, repeated.
  for (let n = 1; n <= chars.length / 4; n++) {
    if (chars.every((c, i) => c === chars[i % n])) return true;
  }
  // Runs such as "abcdefgh…" or "12345678…": most characters one after (or the same as) the last.
  const steps = chars.slice(1).filter((c, i) => Math.abs(c.codePointAt(0)! - chars[i]!.codePointAt(0)!) <= 1).length;
  return steps >= 0.75 * (chars.length - 1);
}

/**
 * Whether `host` (a URL's hostname) is a name or address on the public internet: not loopback,
 * `localhost` or `*.localhost`, a private (10/8, 172.16/12, 192.168/16, 100.64/10 shared),
 * link-local (169.254/16: cloud metadata) or unspecified IPv4 address, nor an IPv6 loopback,
 * unique-local (fc00::/7), link-local (fe80::/10) or IPv4-mapped private one, nor a single-label
 * name (an intranet host).
 */
export function isPublicHost(host: string): boolean {
  const h = host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (!h || isLoopback(h) || h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return false;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h.replace(/^::ffff:/, ''));
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return !(
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127) ||
      a >= 224
    );
  }
  if (h.includes(':')) return !(h === '::' || h === '::1' || /^f[cd]/.test(h) || /^fe[89ab]/.test(h) || h.startsWith('::ffff:'));
  return h.includes('.');
}

/** Why `value` is not an `https://` address on a public host, or null when it is one. */
function publicHttpsProblem(value: string | undefined): string | null {
  if (!value) return 'must be set';
  const u = new URL(value);
  if (u.protocol !== 'https:') return `must be an https:// address (it is ${u.protocol}//)`;
  if (!isPublicHost(u.hostname)) return `must be on a public host, not ${u.hostname} (loopback, private or link-local)`;
  return null;
}

/** Why `origin` is not an exact `https://` origin of a public shop, or null when it is one. */
function liveOriginProblem(origin: string): string | null {
  if (!/^https:\/\/[a-z0-9.-]+(:\d{1,5})?$/i.test(origin))
    return `"${origin}" is not an exact https://host[:port] origin (no wildcard, path, query or separator)`;
  const host = new URL(origin).hostname;
  return isPublicHost(host) ? null : `"${origin}" is not a public host`;
}

/**
 * What must hold before the BFF serves anything but this machine, or the real provider: each
 * problem as `VARIABLE: what is wrong`.
 */
function goingLiveProblems(e: z.output<typeof envSchema>, env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  const live = e.PROVIDER_ENV === 'pro';
  const exposed = !isLoopback(e.HOST);
  const secret = e.BFF_MERCHANT_SECRET;
  if (secret === SANDBOX.merchantSecret && (live || exposed)) {
    problems.push(`BFF_MERCHANT_SECRET: must be set (not the development default) ${live ? 'when PROVIDER_ENV=pro' : `to listen on ${e.HOST}`}`);
  } else if ((live || exposed) && weakSecret(secret)) {
    problems.push(
      `BFF_MERCHANT_SECRET: too weak to ${live ? 'go live' : `listen on ${e.HOST}`}: use ${STRONG_SECRET.minLength}+ random characters (npx bank-checkout-bff secret)`,
    );
  }
  if (env.MERCHANT_WEBHOOK_URL && !env.MERCHANT_WEBHOOK_SECRET)
    problems.push('MERCHANT_WEBHOOK_SECRET: must be set when MERCHANT_WEBHOOK_URL is (webhooks are always signed)');
  if (!live) return problems;
  const same = (name: keyof typeof e, value: string, what: string) => {
    if (e[name] === value) problems.push(`${name}: is the ${what}; set the real one for PROVIDER_ENV=pro`);
  };
  same('PROVIDER_API_KEY', SANDBOX.apiKey, "simulator's key");
  same('PROVIDER_API_TOKEN', SANDBOX.apiToken, "simulator's token");
  same('PROVIDER_LEGACY_API_KEY', SANDBOX.legacyApiKey, "simulator's key");
  same('PROVIDER_LEGACY_API_TOKEN', SANDBOX.legacyApiToken, "simulator's token");
  same('MERCHANT_NAME', SANDBOX.payeeName, 'demo payee');
  same('MERCHANT_IBAN', SANDBOX.payeeIban, "demo payee's IBAN");
  for (const name of ['PROVIDER_LINKS_URL', 'PROVIDER_NATIVE_URL'] as const) {
    if (isLoopback(new URL(e[name]).hostname))
      problems.push(`${name}: points at this machine (${e[name]}); set the provider's https:// address for PROVIDER_ENV=pro`);
    else {
      // The API key, token and the payer's bank credentials travel on it: TLS, to the provider's public host.
      const why = publicHttpsProblem(e[name]);
      if (why) problems.push(`${name}: ${why}; set the provider's https:// address for PROVIDER_ENV=pro`);
    }
  }
  const publicUrl = publicHttpsProblem(e.BFF_PUBLIC_URL);
  if (publicUrl) problems.push(`BFF_PUBLIC_URL: ${publicUrl}: the https:// address the provider and payers reach when PROVIDER_ENV=pro`);
  // The shops that may embed the checkout: `frame-ancestors` and CORS take them as they are.
  if (!env.ALLOWED_ORIGINS || env.ALLOWED_ORIGINS.trim() === DEV_ORIGINS) {
    problems.push("ALLOWED_ORIGINS: must be set to the shop's https:// origins (not the development default) when PROVIDER_ENV=pro");
  } else {
    const bad = e.ALLOWED_ORIGINS.map(liveOriginProblem).filter((p): p is string => p !== null);
    if (bad.length) problems.push(`ALLOWED_ORIGINS: ${bad.join('; ')}; list exact https:// origins separated by commas when PROVIDER_ENV=pro`);
  }
  if (/test|sandbox|^san$|dev|stag|demo/.test(e.PROVIDER_NATIVE_ENV)) {
    problems.push(
      `PROVIDER_NATIVE_ENV: "${e.PROVIDER_NATIVE_ENV}" is a test environment of the native service; set its production segment (such as production) for PROVIDER_ENV=pro`,
    );
  }
  if (e.MERCHANT_WEBHOOK_URL) {
    const why = publicHttpsProblem(e.MERCHANT_WEBHOOK_URL);
    if (why) problems.push(`MERCHANT_WEBHOOK_URL: ${why} when PROVIDER_ENV=pro`);
  }
  if (e.MERCHANT_WEBHOOK_SECRET && weakSecret(e.MERCHANT_WEBHOOK_SECRET)) {
    problems.push(
      `MERCHANT_WEBHOOK_SECRET: too weak for PROVIDER_ENV=pro: use ${STRONG_SECRET.minLength}+ random characters (openssl rand -base64 33), not a repeated or patterned value`,
    );
  }
  return problems;
}

/** Reads the configuration from an environment; throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): BffConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${[...new Set(lines)].join('\n')}`);
  }
  const e = parsed.data;
  const problems = goingLiveProblems(e, present);
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
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
      legacy: { variant: e.PROVIDER_LEGACY_VARIANT, apiKey: e.PROVIDER_LEGACY_API_KEY, apiToken: e.PROVIDER_LEGACY_API_TOKEN },
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
  };
}
