/**
 * What the configuration must hold before the BFF serves anything but this machine, or talks to
 * the real provider (`PROVIDER_ENV=pro`): no development default left, no secret weak or used
 * for two roles, every address it calls or hands out an `https://` one on the public internet,
 * the shop's origins exact and not the BFF's own, the proxies in front named. Each problem is
 * one line naming its variable, never its value.
 */
import { createRequire } from 'node:module';
import ipaddr from 'ipaddr.js';

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
}

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Names that never lead to the public internet: special-use and private suffixes (RFC 6761,
 * 6762, 8375, ICANN's `.internal`) and those that intranets commonly use.
 */
const PRIVATE_SUFFIXES = ['localhost', 'local', 'lan', 'home.arpa', 'internal', 'intranet', 'corp', 'home', 'localdomain', 'private'];

/**
 * Public wildcard-DNS services: any name under them resolves to the address written in it
 * (`127.0.0.1.nip.io`, `10-0-0-1.sslip.io`, or in hex), so a name there is a private address
 * in disguise.
 */
const WILDCARD_DNS = [
  'nip.io',
  'sslip.io',
  'xip.io',
  'nip.direct',
  'traefik.me',
  'localtest.me',
  'lvh.me',
  'vcap.me',
  'lacolhost.com',
  'fuf.me',
  'localhost.direct',
];

const under = (host: string, suffixes: readonly string[]) => suffixes.some((s) => host === s || host.endsWith(`.${s}`));

/** NAT64's local-use prefix (RFC 8215): its addresses lead into a private network. */
const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');

/**
 * Whether an IP address is one of the public internet's: IPv4 outside every special range
 * (private, shared, loopback, link-local and cloud metadata, reserved, documentation...), IPv6
 * global unicast. An IPv4 address in IPv6 clothing is judged as IPv4 where it can reach one
 * (NAT64's well-known prefix); IPv4-mapped and IPv4-compatible forms, 6to4 and Teredo are never
 * public here (write the IPv4 address itself), nor NAT64's local-use prefix.
 */
function isPublicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  const parts = v6.parts;
  // ::a.b.c.d, IPv4-compatible (deprecated): the first 96 bits are zero.
  if (parts.slice(0, 6).every((p) => p === 0)) return false;
  if (v6.match(LOCAL_NAT64)) return false;
  if (v6.range() === 'rfc6052') {
    const v4 = new ipaddr.IPv4([parts[6]! >> 8, parts[6]! & 0xff, parts[7]! >> 8, parts[7]! & 0xff]);
    return isPublicAddress(v4);
  }
  return v6.range() === 'unicast';
}

/** An IPv4 address a name carries in its labels (`127.0.0.1.example`, `10-0-0-1.example`), if any. */
function embeddedIpv4(host: string): ipaddr.IPv4 | null {
  const m = /(?:^|[.-])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})(?=$|[.-])/.exec(host);
  if (!m) return null;
  const octets = m.slice(1, 5).map(Number);
  return octets.every((o) => o <= 255) ? new ipaddr.IPv4(octets) : null;
}

/**
 * Whether `host` (a URL's hostname) is a name or address on the public internet: not loopback
 * or `localhost`, no private, shared, link-local (cloud metadata), site-local, unique-local,
 * reserved or unspecified address in any IPv4 or IPv6 form, no name under a private suffix
 * (`.local`, `.lan`, `.home.arpa`, `.internal`...) or a wildcard-DNS service (`nip.io`,
 * `sslip.io`...), no name carrying a private IPv4 address in its labels, and no single-label
 * name (an intranet host).
 */
export function isPublicHost(host: string): boolean {
  const h = host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (!h || isLoopback(h)) return false;
  if (ipaddr.isValid(h)) {
    // Only the four-part dotted form is an address here (URLs already write every IPv4 so).
    if (!h.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(h)) return false;
    return isPublicAddress(ipaddr.parse(h));
  }
  if (under(h, PRIVATE_SUFFIXES) || under(h, WILDCARD_DNS)) return false;
  const embedded = embeddedIpv4(h);
  if (embedded && !isPublicAddress(embedded)) return false;
  return h.includes('.');
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

/**
 * The shortest secret accepted beyond loopback, the entropy its characters must show, and the
 * guesses (log10) an estimate of how people build secrets must put it beyond: 10^24, about 2^80.
 */
export const STRONG_SECRET = { minLength: 32, minBits: 96, minGuessesLog10: 24 };

/** zxcvbn's estimate (words, names, common passwords, keyboard walks, dates, repeats), made once. */
let estimator: { check(secret: string): { guessesLog10: number } } | null = null;
/** Estimates made, by secret: each takes tens of milliseconds. */
const estimates = new Map<string, number>();
function guessesLog10(secret: string): number {
  const known = estimates.get(secret);
  if (known !== undefined) return known;
  if (!estimator) {
    // Loaded on first use (its dictionaries take a few hundred milliseconds): only a BFF going
    // live or listening beyond loopback judges its secrets.
    const load = createRequire(import.meta.url);
    const { ZxcvbnFactory } = load('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
    const common = load('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    const en = load('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
    // A few leet substitutions (`P@ssw0rd`) are looked for: each more multiplies the time taken.
    estimator = new ZxcvbnFactory({
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary },
      useLevenshteinDistance: false,
      l33tMaxSubstitutions: 4,
    });
  }
  const estimate = estimator.check(secret).guessesLog10;
  estimates.set(secret, estimate);
  return estimate;
}

/** A Standard Webhooks secret's prefix: the key follows in base64. */
const WHSEC = 'whsec_';

/**
 * Whether a secret is too weak to go live: shorter than STRONG_SECRET, one character repeated,
 * a short pattern repeated, a run of characters, too few bits in its characters, or fewer
 * guesses than STRONG_SECRET by zxcvbn's estimate (words and names strung together, a keyboard
 * walk, a year...). A `whsec_` secret is judged by its key.
 */
export function weakSecret(secret: string): boolean {
  const key = secret.startsWith(WHSEC) ? secret.slice(WHSEC.length) : secret;
  const chars = [...key];
  if (chars.length < STRONG_SECRET.minLength || secretBits(key) < STRONG_SECRET.minBits) return true;
  // "abcabcabc…", "0123456701234567…": a pattern of up to a quarter of the length, repeated.
  for (let n = 1; n <= chars.length / 4; n++) {
    if (chars.every((c, i) => c === chars[i % n])) return true;
  }
  // Runs such as "abcdefgh…" or "12345678…": most characters one after (or the same as) the last.
  const steps = chars.slice(1).filter((c, i) => Math.abs(c.codePointAt(0)! - chars[i]!.codePointAt(0)!) <= 1).length;
  if (steps >= 0.75 * (chars.length - 1)) return true;
  return guessesLog10(key) < STRONG_SECRET.minGuessesLog10;
}

/** The forms a secret's material takes: as written, without `whsec_`, and that key decoded. */
function secretForms(secret: string): string[] {
  if (!secret.startsWith(WHSEC)) return [secret];
  const key = secret.slice(WHSEC.length);
  return [secret, key, Buffer.from(key, 'base64').toString('latin1')];
}

/** Whether two secrets share their material: the same in any form, or one inside the other. */
function sameMaterial(a: string, b: string): boolean {
  const fa = secretForms(a);
  const fb = secretForms(b);
  return fa.some((x) => fb.some((y) => x === y || (Math.min(x.length, y.length) >= 16 && (x.includes(y) || y.includes(x)))));
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
  if (secret === SANDBOX.merchantSecret && (live || exposed)) {
    problems.add('BFF_MERCHANT_SECRET', `must be set (not the development default) ${live ? 'when PROVIDER_ENV=pro' : `to listen on ${e.HOST}`}`);
  } else if ((live || exposed) && weakSecret(secret)) {
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
      const why = publicHttpsProblem(e[name]);
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
    if (own && e.ALLOWED_ORIGINS.some((o) => URL.canParse(o) && new URL(o).origin === own)) {
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
  if (e.MERCHANT_WEBHOOK_SECRET && !problems.has('MERCHANT_WEBHOOK_SECRET') && weakSecret(e.MERCHANT_WEBHOOK_SECRET)) {
    problems.add(
      'MERCHANT_WEBHOOK_SECRET',
      `too weak for PROVIDER_ENV=pro: use ${STRONG_SECRET.minLength}+ random characters (npx bank-checkout-bff secret), not words, names or a repeated or patterned value`,
    );
  }
  // Behind proxies the client's address decides every lock-out: `true` would believe whatever
  // the nearest hop says, whoever it is.
  if (/^(true|yes)$/i.test(env.TRUST_PROXY?.trim() ?? '')) {
    problems.add(
      'TRUST_PROXY',
      'must name the proxies in front when PROVIDER_ENV=pro: their number (1 for one) or their addresses or CIDRs (10.0.0.0/8), not true',
    );
  }
  return problems.lines();
}
