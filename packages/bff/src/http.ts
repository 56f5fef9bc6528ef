/**
 * HTTP plumbing shared by every route: request ids and access logs, security headers, CORS,
 * JSON bodies (content type, size, parse), and whether a request comes from the BFF's own pages.
 * Rate limits and the guards of secret checks are in guards.ts; who the client is behind
 * proxies, in proxy.ts.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { inheritedKey } from '@bank-checkout/contract';
import { ApiError, errors } from './errors.js';
import { inRequest, type Logger } from './log.js';
import { randomUUID } from 'node:crypto';

export type BffEnv = { Variables: { requestId: string } };

export const MAX_JSON_BYTES = 64 * 1024;

/** An incoming X-Request-Id is kept only when it looks like an id; otherwise one is made. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Also kept: word characters, `-` and `=`, up to 128 (what Hono's request-id middleware keeps). */
const WORDY_REQUEST_ID = /^[\w\-=]{1,128}$/;

/** The path as the access log writes it: a phone's hand-off link is a single-use token, never logged. */
export const loggedPath = (path: string) => path.replace(/\/handoff\/[^/]+/, '/handoff/{token}');

/**
 * The headers every answer carries, set before the handler runs (a handler's own header of
 * the same name wins, as the isolated checkout's page does with its Content-Security-Policy).
 */
const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ['Cross-Origin-Resource-Policy', 'same-site'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Cache-Control', 'no-store'],
];

/**
 * Request id (the caller's when sane, else `req_<uuid>`), echoed in X-Request-Id, and the
 * access log line. While lines of `info` are written, the id is bound to every line written
 * while the request runs (its upstream calls and transitions too) with AsyncLocalStorage,
 * whose promise hooks cost every request on Node 20; at `warn` and above no per-request line
 * is written but a failed request's (status 5xx, at `error`), which carries its id itself.
 */
export function requestContext(logger: Logger): MiddlewareHandler<BffEnv>[] {
  const scoped = logger.writes?.('info') ?? true;
  const context: MiddlewareHandler<BffEnv> = async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header('X-Request-Id');
    const id = incoming && (SANE_REQUEST_ID.test(incoming) || WORDY_REQUEST_ID.test(incoming)) ? incoming : `req_${randomUUID()}`;
    c.set('requestId', id);
    c.header('X-Request-Id', id);
    if (scoped) await inRequest(id, next);
    else await next();
    if (!c.res.headers.has('X-Request-Id')) c.header('X-Request-Id', id);
    const failed = c.res.status >= 500;
    if (!scoped && !failed) return;
    const fields = {
      method: c.req.method,
      path: loggedPath(c.req.path),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    };
    if (scoped) inRequest(id, () => logger.log(failed ? 'error' : 'info', 'http.request', fields));
    else logger.log('error', 'http.request', { requestId: id, ...fields });
  };
  return [context];
}

/**
 * Security headers on every response, errors included; `Cache-Control: no-store` unless a
 * handler set its own. They are set before the handler (so the answer is built with them
 * once); an answer built without them (a handler's own Response) gets them afterwards.
 */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  for (const [name, value] of SECURITY_HEADERS) c.header(name, value);
  await next();
  const headers = c.res.headers;
  if (!headers.has('X-Content-Type-Options')) {
    for (const [name, value] of SECURITY_HEADERS) if (!headers.has(name)) headers.set(name, value);
  }
  headers.delete('X-Powered-By');
  // A page whose own policy names who may frame it (the isolated checkout) is not denied framing.
  const csp = headers.get('Content-Security-Policy') ?? '';
  if (/frame-ancestors (?!'none')/.test(csp)) headers.delete('X-Frame-Options');
};

export interface CorsOptions {
  methods: string[];
  headers: string[];
  expose: string[];
  maxAgeSeconds: number;
}

/**
 * CORS for an allowlist of exact origins, without credentials. A preflight from an allowed
 * origin gets 204 with the allowed methods and headers; any other origin gets no CORS header
 * at all, so the browser refuses the call.
 */
export function corsAllowlist(allowed: readonly string[], opts: CorsOptions): MiddlewareHandler {
  const allowedCors = cors({
    origin: (origin) => (allowed.includes(origin) ? origin : null),
    allowMethods: opts.methods,
    allowHeaders: opts.headers,
    exposeHeaders: opts.expose,
    maxAge: opts.maxAgeSeconds,
  });
  return async (c, next) => {
    const origin = c.req.header('Origin');
    if (origin !== undefined && allowed.includes(origin)) return allowedCors(c, next);
    c.header('Vary', 'Origin', { append: true });
    if (c.req.method === 'OPTIONS') return c.body(null, 204);
    await next();
  };
}

/**
 * 413 as the BFF's JSON error, whatever Content-Length claims. A body with a Content-Length
 * (and no Transfer-Encoding) is judged by the header alone: the HTTP parser never hands on more
 * bytes than it declares, and the body is then read once, directly, by the route. Only a
 * chunked body is counted as it streams (Hono's bodyLimit), which costs a web stream per
 * request on Node.
 */
export const limitBody = (maxSize: number): MiddlewareHandler => {
  const streamed = bodyLimit({
    maxSize,
    onError: () => {
      throw errors.tooLarge();
    },
  });
  return async (c, next) => {
    const length = c.req.header('Content-Length');
    if (length !== undefined && c.req.header('Transfer-Encoding') === undefined && /^\d+$/.test(length)) {
      if (Number(length) > maxSize) throw errors.tooLarge();
      return next();
    }
    // The chunked body is read here, before the route: a failure before the route ran is the body's.
    const reached = { route: false };
    try {
      return await streamed(c, () => {
        reached.route = true;
        return next();
      });
    } catch (err) {
      throw reached.route ? err : bodyError(err);
    }
  };
};

/**
 * What a failure to read the request's body is: the BFF's own error as it is (413 too large),
 * anything else the client's side of the connection failing before the body's end (an `aborted`
 * or ECONNRESET error of its socket), a 400 that says so. Never the store's 503, however the BFF
 * was started: its own server, the CLI, mounted in another server, each hands the app a socket of
 * its own or none.
 */
const bodyError = (err: unknown): unknown => (err instanceof ApiError || err instanceof HTTPException ? err : errors.bodyCutShort());

/** The request's body as text, or a 400 when the client cut it short (`bodyError`). */
export async function bodyText(c: Context): Promise<string> {
  try {
    return await c.req.text();
  } catch (err) {
    throw bodyError(err);
  }
}

/**
 * Reads a JSON body before the route's schema sees it: 413 too large, 415 wrong type, 400 not
 * JSON, 422 for a key named like a property of every object (`__proto__`, `toString`…). With `allowEmpty`, no body at all reads as `{}`.
 */
export function jsonBody(opts: { allowEmpty?: boolean } = {}): MiddlewareHandler {
  const limit = limitBody(MAX_JSON_BYTES);
  return (c, next) =>
    limit(c, async () => {
      const type = c.req.header('Content-Type') ?? '';
      let text = '';
      if (!/^application\/json\s*(;|$)/i.test(type)) {
        const length = Number(c.req.header('Content-Length') ?? '0');
        if (!(opts.allowEmpty && !type && length === 0)) throw errors.unsupportedType();
        return next();
      }
      text = await bodyText(c);
      if (text.trim() === '') {
        if (!opts.allowEmpty) throw errors.badJson();
        (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve('{}');
        return next();
      }
      try {
        JSON.parse(text);
      } catch {
        throw errors.badJson();
      }
      // `__proto__`, `toString` and the like: no field of any request, and a trap for the schemas (contract's rules/json.ts).
      const inherited = inheritedKey(text);
      if (inherited) throw errors.validation([{ path: inherited, message: 'is not an accepted key' }]);
      return next();
    });
}

/**
 * The address a proof of possession (`DPoP`) must name for a request: the BFF's public address
 * and the API's path, no query, however the BFF is mounted.
 */
export function proofUrlOf(publicUrl: string): (c: Context) => string {
  const base = publicUrl.replace(/\/+$/, '');
  return (c) => `${base}${c.req.path.slice(Math.max(0, c.req.path.indexOf('/v1/')))}`;
}

/**
 * A request a browser made from a document of the BFF's own origin, as it says itself: a
 * same-origin fetch carries `Sec-Fetch-Site: same-origin` and the `Origin` of its document.
 * A server, or a page elsewhere, cannot pass for the isolated checkout's frame.
 */
export function fromTheFrame(c: Context, publicUrl: string): boolean {
  return c.req.header('Sec-Fetch-Site') === 'same-origin' && c.req.header('Origin') === new URL(publicUrl).origin;
}

/**
 * Whether a request comes from a page of the BFF's own origin, as far as a browser says: its
 * `Origin` (sent with every cross-origin request and every POST) is the BFF's (`publicUrl`'s, or
 * the host it was sent to), and its `Sec-Fetch-Site`, when sent, is `same-origin`. A request
 * with neither comes from no web page (a server, a tool): its credential alone then decides.
 */
export function fromOwnOrigin(c: Context, publicUrl: string): boolean {
  const site = c.req.header('Sec-Fetch-Site');
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = c.req.header('Origin');
  if (origin === undefined) return true;
  try {
    const from = new URL(origin);
    return from.origin === new URL(publicUrl).origin || from.host === (c.req.header('Host') ?? new URL(c.req.url).host);
  } catch {
    // `Origin: null` (a sandboxed or opaque document) is no one's origin.
    return false;
  }
}
