/**
 * What the configuration must hold before the BFF serves anything but this machine, or talks to
 * the real provider (`PROVIDER_ENV=pro`): no development default left, no secret weak or used
 * for two roles, every address it calls or hands out an `https://` one on the public internet,
 * the shop's origins exact and not the BFF's own, the proxies in front named. Each problem is
 * one line naming its variable, never its value.
 */
import { isLoopback, isPublicHost } from './public-hosts.js';
import { STRONG_SECRET, sameMaterial, weakSecret } from './secret-strength.js';

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
