/**
 * What every part of the simulator shares: its configuration, its clock, the API-client
 * check, and the one error answer of the provider ({status, description}).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { inheritedKey } from '@bank-checkout/contract';

/** Which signer a payment-link API client gets: the current one or an earlier variant. */
export type SignerVariant = 'current' | 'commerce' | 'business';

export interface ApiClient {
  apiKey: string;
  apiToken: string;
  variant: SignerVariant;
}

export interface SandboxConfig {
  /** The default client's key (also the key notifications are signed with). */
  apiKey: string;
  apiToken: string;
  /** Extra API clients, e.g. the earlier signer variants. */
  clients: ApiClient[];
  /** Environment segment of the native service. Default `test`. */
  nativeEnv: string;
  /** Address the simulator is reached at, for signed and short URLs. */
  publicUrl: string;
  /** Allow a loopback/private `urlNotif` (the demo and tests need it). Default false. */
  allowLocalNotif: boolean;
  /** IBANs "validated in the dashboard": the only `accountDestiny` values accepted. */
  validatedAccounts: string[];
  /** Clock in ms; tests inject one. */
  now: () => number;
  /** Used to deliver notifications; tests inject one. */
  fetch: typeof fetch;
  /** Time zone of the date rules (startDate after today). Default Europe/Madrid. */
  timeZone: string;
}

export const SANDBOX_DEFAULTS = {
  apiKey: 'sandbox-api-key',
  apiToken: 'sandbox-api-token',
  commerceApiKey: 'sandbox-commerce-key',
  commerceApiToken: 'sandbox-commerce-token',
  businessApiKey: 'sandbox-business-key',
  businessApiToken: 'sandbox-business-token',
  /** The demo merchant's account, validated in the simulated dashboard. */
  merchantIban: 'ES9121000418450200051332',
} as const;

export function resolveConfig(partial: Partial<SandboxConfig> = {}): SandboxConfig {
  const apiKey = partial.apiKey ?? SANDBOX_DEFAULTS.apiKey;
  const apiToken = partial.apiToken ?? SANDBOX_DEFAULTS.apiToken;
  return {
    apiKey,
    apiToken,
    clients: partial.clients ?? [
      { apiKey: SANDBOX_DEFAULTS.commerceApiKey, apiToken: SANDBOX_DEFAULTS.commerceApiToken, variant: 'commerce' },
      { apiKey: SANDBOX_DEFAULTS.businessApiKey, apiToken: SANDBOX_DEFAULTS.businessApiToken, variant: 'business' },
    ],
    nativeEnv: partial.nativeEnv ?? 'test',
    publicUrl: (partial.publicUrl ?? 'http://127.0.0.1:4010').replace(/\/+$/, ''),
    allowLocalNotif: partial.allowLocalNotif ?? false,
    validatedAccounts: partial.validatedAccounts ?? [SANDBOX_DEFAULTS.merchantIban, 'ES7620770024003102575766'],
    now: partial.now ?? Date.now,
    fetch: partial.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args)),
    timeZone: partial.timeZone ?? 'Europe/Madrid',
  };
}

/**
 * HTTP statuses the simulator uses (the spec does not fix them; the body's `status` is the
 * provider's answer and the clients read that): 200 for 200/228/229, 400 for E301,
 * 401 for a missing or unknown key/token, 404 for an unknown path, 422 for E300, E302 and
 * B1xx; 500 only for a fault of the simulator itself.
 */
export function httpStatusFor(code: string): ContentfulStatusCode {
  if (code === '200' || code === '228' || code === '229') return 200;
  if (code === 'E301') return 400;
  // The rest, E300 included (a transfer cancelled at its deadline), is an answer about the
  // request, not a failure of the service: 5xx is kept for the simulator's own faults.
  return 422;
}

export function answer(c: Context, code: string, description: string, extra: Record<string, unknown> = {}, descriptionField = 'description') {
  return c.json({ ...extra, status: code, [descriptionField]: description }, httpStatusFor(code));
}

export type Env = { Variables: { client: ApiClient } };

/** Requires `X-Api-Key` and `Authorization` of a known client; sets `client`. */
export function requireClient(config: SandboxConfig, descriptionField: (path: string) => string = () => 'description'): MiddlewareHandler<Env> {
  const known: ApiClient[] = [{ apiKey: config.apiKey, apiToken: config.apiToken, variant: 'current' }, ...config.clients];
  return async (c, next) => {
    const key = c.req.header('X-Api-Key');
    const token = c.req.header('Authorization');
    const client = known.find((k) => k.apiKey === key && k.apiToken === token);
    if (!client) {
      return c.json({ status: 'E300', [descriptionField(c.req.path)]: 'Missing or invalid X-Api-Key / Authorization headers' }, 401);
    }
    c.set('client', client);
    await next();
  };
}

/** Reads a JSON object body; answers E301 (and returns null) when it is not one. */
export async function readJsonObject(c: Context, descriptionField = 'description'): Promise<Record<string, unknown> | Response> {
  const type = c.req.header('Content-Type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    return answer(c, 'E301', 'Content-Type must be application/json', {}, descriptionField);
  }
  let body: unknown;
  let text: string;
  try {
    text = await c.req.text();
    if (text.length > 256 * 1024) return answer(c, 'E301', 'Body too large (max 256 KiB)', {}, descriptionField);
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return answer(c, 'E301', 'Body is not valid JSON', {}, descriptionField);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return answer(c, 'E301', 'Body must be a JSON object', {}, descriptionField);
  }
  const inherited = inheritedKey(text);
  if (inherited) return answer(c, 'E301', `${inherited}: is not an accepted key`, {}, descriptionField);
  return body as Record<string, unknown>;
}

/** One line per zod issue: `field: message`. */
export function describeIssues(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.map(String).join('.') || 'body'}: ${i.message}`).join('; ');
}
