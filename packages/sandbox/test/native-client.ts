/**
 * A simulator with its own clock, and a POST helper for its native service, as the native
 * suites use them. The API key and token headers go on every call unless `auth` is false.
 */
import { createSandbox } from '../src/app.js';
import { SANDBOX_DEFAULTS } from '../src/context.js';

export type Body = Record<string, any>;
export interface Reply {
  http: number;
  body: Body;
}

export const AUTH = { 'X-Api-Key': SANDBOX_DEFAULTS.apiKey, Authorization: SANDBOX_DEFAULTS.apiToken };

export interface PostOptions {
  headers?: Record<string, string>;
  /** The body as sent, instead of `body` as JSON. */
  raw?: string;
  /** Send the API key and token (default true). */
  auth?: boolean;
}

export function nativeSandbox(nativeEnv = 'test') {
  let clock = Date.UTC(2025, 5, 1, 10, 0, 0);
  const sandbox = createSandbox({ now: () => clock, nativeEnv });
  /** POSTs `body` as JSON (no body at all when it is undefined and `raw` is not given). */
  async function post(path: string, body?: unknown, opts: PostOptions = {}): Promise<Reply> {
    const sent = opts.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const res = await sandbox.app.request(`/${nativeEnv}/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(opts.auth === false ? {} : AUTH), ...opts.headers },
      ...(sent === undefined ? {} : { body: sent }),
    });
    return { http: res.status, body: (await res.json()) as Body };
  }
  return { sandbox, post, advance: (ms: number) => (clock += ms) };
}
