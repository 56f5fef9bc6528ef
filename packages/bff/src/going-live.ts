/**
 * What the configuration must hold before the BFF serves anything but this machine, or talks to
 * the real provider (`PROVIDER_ENV=pro`): no development default left, no secret weak or used
 * for two roles, every address it calls or hands out an `https://` one on the public internet
 * and none on the provider's test paths, the shop's origins exact and not the BFF's own, the
 * proxies in front named and few, the lock-out of guessers in force. Each problem is one line
 * naming its variable, never its value.
 */
import ipaddr from 'ipaddr.js';
import { isLoopback, isPublicHost, normalHost } from './public-hosts.js';
import { DEPLOYMENT_WORDS, STRONG_SECRET, sameMaterial, weakSecret } from './secret-strength.js';

/** Proxies trusted to say who the client is (see TRUST_PROXY); neither set means none. */
export interface TrustProxy {
  hops: number;
  /** The trusted proxies' addresses, each as a CIDR. */
  addresses: string[];
}

export { isLoopback, isPublicHost } from './public-hosts.js';
export { STRONG_SECRET, secretBits, weakSecret } from './secret-strength.js';

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

/** The native service's production environment segment (the provider names two: test and production). */
export const NATIVE_PRODUCTION_ENV = 'production';

/** What the going-live checks read of the validated environment. */
export interface LiveSettings {
  HOST: string;
  PROVIDER_ENV: 'san' | 'pro';
  PROVIDER_NATIVE_ENV: string;
  PROVIDER_LINKS_URL: string;
  PROVIDER_NATIVE_URL: string;
  PROVIDER_API_KEY: string;
  PROVIDER_API_TOKEN: string;
  PROVIDER_LEGACY_API_KEY?: string | undefined;
  PROVIDER_LEGACY_API_TOKEN?: string | undefined;
  BFF_MERCHANT_SECRET: string;
  BFF_PUBLIC_URL?: string | undefined;
  ALLOWED_ORIGINS: string[];
  MERCHANT_NAME: string;
  MERCHANT_IBAN: string;
  MERCHANT_WEBHOOK_URL?: string | undefined;
  MERCHANT_WEBHOOK_SECRET?: string | undefined;
  TRUST_PROXY: TrustProxy;
  AUTH_FAILURES_PER_MINUTE: number;
}

/**
 * The most proxy hops going live believes (TRUST_PROXY as a number): a CDN, a load balancer and
 * an ingress. More would believe addresses a client wrote itself whenever fewer proxies stand in
 * front; name them by address or CIDR instead.
 */
export const MAX_PROXY_HOPS = 3;

/**
 * The most public addresses TRUST_PROXY's ranges may hold together, going live: a /8 of IPv4, a
 * /24 of IPv6 (a CDN's published ranges fit). Ranges inside private space (10.0.0.0/8,
 * fd00::/8...) are not counted: only the operator's own machines are there.
 */
const PUBLIC_PROXY_SPAN = { ipv4: 2 ** 24, ipv6: 2 ** 104 };

/** Private, loopback, link-local and shared space: where a trusted proxy range may be as wide as it likes. */
const PRIVATE_RANGES = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  'fc00::/7',
  'fe80::/10',
  '::1/128',
].map((r) => ipaddr.parseCIDR(r));

/** The wrong secrets a minute going live may allow one address (AUTH_FAILURES_PER_MINUTE). */
export const MAX_AUTH_FAILURES_PER_MINUTE = 100;

/** Path segments of the provider's test environments (the simulator's `/san` and `/test`). */
const TEST_SEGMENTS = new Set(['san', 'test', 'sandbox']);

/** Whether two URLs are of one origin, their hosts compared as names (case and a trailing dot aside). */
function sameOrigin(a: string, b: string): boolean {
  const [x, y] = [new URL(a), new URL(b)];
  return x.protocol === y.protocol && x.port === y.port && normalHost(x.hostname) === normalHost(y.hostname);
}

/** The port a URL names, when it is none a client can reach (0); URLs past 65535 do not parse. */
const noPort = (value: string) => URL.canParse(value) && new URL(value).port === '0';

/** Why `value` is not an `https://` address on a public host, or null when it is one. */
function publicHttpsProblem(value: string | undefined): string | null {
  if (!value) return 'must be set';
  if (!URL.canParse(value)) return 'must be an https:// address';
  const u = new URL(value);
  if (u.protocol !== 'https:') return `must be an https:// address (it is ${u.protocol}//)`;
  if (noPort(value)) return 'must name a port from 1 to 65535, or none';
  if (!isPublicHost(u.hostname))
    return `must be on a public host, not ${u.hostname} (loopback, private, link-local or site-local, or a name that leads to one such as .lan, .local, .internal, .home.arpa or a wildcard-DNS service)`;
  return null;
}

/** Why `origin` is not an exact `https://` origin of a public shop, or null when it is one. */
function liveOriginProblem(origin: string): string | null {
  if (!/^https:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/i.test(origin) || !URL.canParse(origin))
    return `"${origin}" is not an exact https://host[:port] origin (no wildcard, path, query or separator)`;
  if (noPort(origin)) return `"${origin}" names port 0`;
  const host = new URL(origin).hostname;
  return isPublicHost(host) ? null : `"${origin}" is not a public host`;
}

/** The roles a secret plays, in the order a reused one is reported (on the later role). */
const SECRET_ROLES = [
  'BFF_MERCHANT_SECRET',
  'MERCHANT_WEBHOOK_SECRET',
  'PROVIDER_API_KEY',
  'PROVIDER_API_TOKEN',
  'PROVIDER_LEGACY_API_KEY',
  'PROVIDER_LEGACY_API_TOKEN',
] as const satisfies readonly (keyof LiveSettings)[];

/** Problems by variable: one line each, its problems joined. */
class Problems {
  private readonly byName = new Map<string, string[]>();
  add(name: string, problem: string): void {
    this.byName.set(name, [...(this.byName.get(name) ?? []), problem]);
  }
  has(name: string): boolean {
    return this.byName.has(name);
  }
  lines(): string[] {
    return [...this.byName].map(([name, problems]) => `${name}: ${problems.join('; ')}`);
  }
}

/**
 * What must hold before the BFF serves anything but this machine, or the real provider: each
 * problem as `VARIABLE: what is wrong`, one line per variable. `env` is the environment as set
 * (to tell a value given from a default).
 */
export function goingLiveProblems(e: LiveSettings, env: Record<string, string | undefined>): string[] {
  const problems = new Problems();
  const live = e.PROVIDER_ENV === 'pro';
  const exposed = !isLoopback(e.HOST);
  const secret = e.BFF_MERCHANT_SECRET;
  const context = deploymentWords(e);
  if (secret === SANDBOX.merchantSecret && (live || exposed)) {
    problems.add('BFF_MERCHANT_SECRET', `must be set (not the development default) ${live ? 'when PROVIDER_ENV=pro' : `to listen on ${e.HOST}`}`);
  } else if ((live || exposed) && weakSecret(secret, context)) {
    problems.add(
      'BFF_MERCHANT_SECRET',
      `too weak to ${live ? 'go live' : `listen on ${e.HOST}`}: use ${STRONG_SECRET.minLength}+ random characters (npx bank-checkout-bff secret), not words, names or a pattern`,
    );
  }
  if (env.MERCHANT_WEBHOOK_URL && !env.MERCHANT_WEBHOOK_SECRET)
    problems.add('MERCHANT_WEBHOOK_SECRET', 'must be set when MERCHANT_WEBHOOK_URL is (webhooks are always signed)');
  if (!live) return problems.lines();

  const same = (name: keyof LiveSettings, value: string, what: string) => {
    if (e[name] === value) problems.add(name, `is the ${what}; set the real one for PROVIDER_ENV=pro`);
  };
  same('PROVIDER_API_KEY', SANDBOX.apiKey, "simulator's key");
  same('PROVIDER_API_TOKEN', SANDBOX.apiToken, "simulator's token");
  same('PROVIDER_LEGACY_API_KEY', SANDBOX.legacyApiKey, "simulator's key");
  same('PROVIDER_LEGACY_API_TOKEN', SANDBOX.legacyApiToken, "simulator's token");
  same('MERCHANT_NAME', SANDBOX.payeeName, 'demo payee');
  same('MERCHANT_IBAN', SANDBOX.payeeIban, "demo payee's IBAN");
  // The earlier signer variant is off unless both of its credentials are given.
  if (Boolean(e.PROVIDER_LEGACY_API_KEY) !== Boolean(e.PROVIDER_LEGACY_API_TOKEN)) {
    const missing = e.PROVIDER_LEGACY_API_KEY ? 'PROVIDER_LEGACY_API_TOKEN' : 'PROVIDER_LEGACY_API_KEY';
    problems.add(missing, 'must be set with its pair for the earlier signer variant (or leave both unset: its routes are then off)');
  }

  // Each role its own secret: one leaked must not open another door.
  const roles = SECRET_ROLES.filter((name) => e[name]);
  roles.forEach((name, i) => {
    const earlier = roles.slice(0, i).find((other) => sameMaterial(e[other]!, e[name]!));
    if (earlier && !problems.has(name)) problems.add(name, `is the same secret as ${earlier}; give each role a secret of its own for PROVIDER_ENV=pro`);
  });

  for (const name of ['PROVIDER_LINKS_URL', 'PROVIDER_NATIVE_URL'] as const) {
    if (URL.canParse(e[name]) && isLoopback(new URL(e[name]).hostname))
      problems.add(name, `points at this machine (${e[name]}); set the provider's https:// address for PROVIDER_ENV=pro`);
    else {
      // The API key, token and the payer's bank credentials travel on it: TLS, to the provider's public host.
      const why = publicHttpsProblem(e[name]) ?? testPathProblem(e[name]);
      if (why) problems.add(name, `${why}; set the provider's https:// address for PROVIDER_ENV=pro`);
    }
  }
  const publicUrl = publicHttpsProblem(e.BFF_PUBLIC_URL);
  if (publicUrl) problems.add('BFF_PUBLIC_URL', `${publicUrl}: the https:// address the provider and payers reach when PROVIDER_ENV=pro`);
  // The shops that may embed the checkout: `frame-ancestors` and CORS take them as they are.
  if (!env.ALLOWED_ORIGINS || env.ALLOWED_ORIGINS.trim() === DEV_ORIGINS) {
    problems.add('ALLOWED_ORIGINS', "must be set to the shop's https:// origins (not the development default) when PROVIDER_ENV=pro");
  } else {
    const bad = e.ALLOWED_ORIGINS.map(liveOriginProblem).filter((p): p is string => p !== null);
    if (bad.length) problems.add('ALLOWED_ORIGINS', `${bad.join('; ')}; list exact https:// origins separated by commas when PROVIDER_ENV=pro`);
    const own = e.BFF_PUBLIC_URL && URL.canParse(e.BFF_PUBLIC_URL) ? new URL(e.BFF_PUBLIC_URL).origin : null;
    if (own && e.ALLOWED_ORIGINS.some((o) => URL.canParse(o) && sameOrigin(o, own))) {
      problems.add(
        'ALLOWED_ORIGINS',
        `lists the BFF's own origin (${own}, from BFF_PUBLIC_URL): only the shop's pages may embed the checkout; give the BFF an origin of its own and list the shop's`,
      );
    }
  }
  if (e.PROVIDER_NATIVE_ENV !== NATIVE_PRODUCTION_ENV) {
    problems.add(
      'PROVIDER_NATIVE_ENV',
      `"${e.PROVIDER_NATIVE_ENV}" is not the native service's production environment; set its production segment (${NATIVE_PRODUCTION_ENV}) for PROVIDER_ENV=pro`,
    );
  }
  if (e.MERCHANT_WEBHOOK_URL) {
    const why = publicHttpsProblem(e.MERCHANT_WEBHOOK_URL);
    if (why) problems.add('MERCHANT_WEBHOOK_URL', `${why} when PROVIDER_ENV=pro`);
  }
  if (e.MERCHANT_WEBHOOK_SECRET && !problems.has('MERCHANT_WEBHOOK_SECRET') && weakSecret(e.MERCHANT_WEBHOOK_SECRET, context)) {
    problems.add(
      'MERCHANT_WEBHOOK_SECRET',
      `too weak for PROVIDER_ENV=pro: use ${STRONG_SECRET.minLength}+ random characters (npx bank-checkout-bff secret), not words, names or a repeated or patterned value`,
    );
  }
  // Behind proxies the client's address decides every lock-out: `true` would believe whatever
  // the nearest hop says, whoever it is; too many hops, or ranges that hold the internet, would
  // believe what a client wrote itself.
  const trust = proxyTrustProblem(e.TRUST_PROXY, env.TRUST_PROXY);
  if (trust) problems.add('TRUST_PROXY', `${trust} when PROVIDER_ENV=pro`);
  if (e.AUTH_FAILURES_PER_MINUTE > MAX_AUTH_FAILURES_PER_MINUTE) {
    problems.add(
      'AUTH_FAILURES_PER_MINUTE',
      `must be from 1 to ${MAX_AUTH_FAILURES_PER_MINUTE} when PROVIDER_ENV=pro: the wrong secrets one address may send a minute before it is refused (default 30)`,
    );
  }
  return problems.lines();
}

/** Why a provider address names one of the provider's test environments in its path (`/test`, `/san`), or null. */
function testPathProblem(value: string): string | null {
  const segment = new URL(value).pathname.split('/').find((s) => TEST_SEGMENTS.has(s.toLowerCase()));
  return segment === undefined ? null : `names a test environment in its path (/${segment}): the production address has none`;
}

/** A range's network address and prefix, an IPv4-mapped IPv6 range as the IPv4 range it maps. */
function asRange(cidr: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const [address, bits] = ipaddr.parseCIDR(cidr);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
  return [address, bits];
}

/** Why the trusted proxies are not named closely enough to go live, or null (see MAX_PROXY_HOPS, PUBLIC_PROXY_SPAN). */
function proxyTrustProblem(trust: TrustProxy, given: string | undefined): string | null {
  const named = 'name the proxies in front: their number (1 for one) or their addresses or CIDRs (10.0.0.0/8)';
  if (/^(true|yes)$/i.test(given?.trim() ?? '')) return `must ${named}, not true`;
  if (trust.hops > MAX_PROXY_HOPS) return `believes ${trust.hops} proxy hops, at most ${MAX_PROXY_HOPS}: ${named}`;
  const span = { ipv4: 0, ipv6: 0 };
  for (const cidr of trust.addresses) {
    const [address, bits] = asRange(cidr);
    const kind = address.kind();
    const inside = PRIVATE_RANGES.some(([net, netBits]) => net.kind() === kind && bits >= netBits && address.match(net, netBits));
    if (!inside) span[kind] += 2 ** ((kind === 'ipv4' ? 32 : 128) - bits);
  }
  if (span.ipv4 > PUBLIC_PROXY_SPAN.ipv4 || span.ipv6 > PUBLIC_PROXY_SPAN.ipv6)
    return `its ranges hold ${span.ipv4 > PUBLIC_PROXY_SPAN.ipv4 ? 'more of the IPv4 internet than a /8' : 'more of the IPv6 internet than a /24'} (a catch-all such as 0.0.0.0/0 or ::/0 believes any client): ${named}`;
  return null;
}

/**
 * The words of this deployment a secret may be built from: the roles' and environments' own
 * (DEPLOYMENT_WORDS), the shop's name (each word, and all of them run together) and the labels of
 * its hosts.
 */
function deploymentWords(e: LiveSettings): string[] {
  const words = new Set<string>(DEPLOYMENT_WORDS);
  const name = e.MERCHANT_NAME.toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  for (const w of [...name, name.join('')]) words.add(w);
  for (const url of [e.BFF_PUBLIC_URL, e.MERCHANT_WEBHOOK_URL, e.PROVIDER_LINKS_URL, e.PROVIDER_NATIVE_URL, ...e.ALLOWED_ORIGINS]) {
    if (url && URL.canParse(url)) for (const label of normalHost(new URL(url).hostname).split('.')) if (label.length > 1) words.add(label);
  }
  return [...words].filter((w) => w.length > 1);
}
