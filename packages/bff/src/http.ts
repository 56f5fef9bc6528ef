/**
 * HTTP plumbing shared by every route: request ids and access logs, security headers, JSON
 * bodies (content type, size, parse, schema), a per-client rate limit, and the two ways a
 * caller proves who it is.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { timingSafeEqual } from '@bank-checkout/provider';
import { ApiError, errors, zodIssues } from './errors.js';
import type { Logger } from './log.js';
import { randomUUID } from 'node:crypto';

export type BffEnv = { Variables: { requestId: string } };

export const MAX_JSON_BYTES = 64 * 1024;

export function requestContext(logger: Logger): MiddlewareHandler<BffEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = `req_${randomUUID()}`;
    c.set('requestId', requestId);
    // Set before the handler runs, so the response is built with it (no copy afterwards).
    c.header('X-Request-Id', requestId);
    await next();
    if (!c.res.headers.has('X-Request-Id')) c.header('X-Request-Id', requestId);
    logger.log(c.res.status >= 500 ? 'error' : 'info', 'http.request', {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    });
  };
}

const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-site',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
};
/** Defaults a handler may replace with its own value. */
const DEFAULT_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
};

/**
 * Headers on every response, errors included. They are prepared before the handler runs, so
 * responses built through the context carry them from the start; a response a handler builds
 * on its own gets them added afterwards.
 */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
  for (const [name, value] of Object.entries(DEFAULT_HEADERS)) c.header(name, value);
  await next();
  const headers = c.res.headers;
  if (headers.get('X-Content-Type-Options') === 'nosniff') return;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
  for (const [name, value] of Object.entries(DEFAULT_HEADERS)) if (!headers.has(name)) c.header(name, value);
};

export interface CorsOptions {
  methods: string[];
  headers: string[];
  expose: string[];
  maxAgeSeconds: number;
}

/**
 * CORS for an allowlist of exact origins, without credentials. Headers are prepared before the
 * handler runs (the response is built once, with them). A preflight from an allowed origin gets
 * 204 with the allowed methods and headers; any other origin gets no CORS header at all, so the
 * browser refuses the call.
 */
export function corsAllowlist(allowed: readonly string[], opts: CorsOptions): MiddlewareHandler {
  const methods = opts.methods.join(', ');
  const headers = opts.headers.join(', ');
  const expose = opts.expose.join(', ');
  const maxAge = String(opts.maxAgeSeconds);
  return async (c, next) => {
    const origin = c.req.header('Origin');
    const ok = origin !== undefined && allowed.includes(origin);
    c.header('Vary', 'Origin', { append: true });
    if (c.req.method === 'OPTIONS') {
      c.header('Vary', 'Access-Control-Request-Headers', { append: true });
      if (ok) {
        c.header('Access-Control-Allow-Origin', origin);
        c.header('Access-Control-Allow-Methods', methods);
        c.header('Access-Control-Allow-Headers', headers);
        c.header('Access-Control-Max-Age', maxAge);
      }
      return c.body(null, 204);
    }
    if (ok) {
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Access-Control-Expose-Headers', expose);
    }
    await next();
  };
}

/** Reads and validates a JSON body: 415 wrong type, 413 too large, 400 not JSON, 422 invalid. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S, opts: { allowEmpty?: boolean } = {}): Promise<z.output<S>> {
  const type = c.req.header('Content-Type') ?? '';
  const length = Number(c.req.header('Content-Length') ?? '0');
  if (length > MAX_JSON_BYTES) throw errors.tooLarge();
  let text: string;
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    if (opts.allowEmpty && !type && length === 0) text = '';
    else throw errors.unsupportedType();
  } else {
    text = await readText(c, MAX_JSON_BYTES);
  }
  let parsed: unknown = {};
  let protoKey = false;
  if (text.trim() !== '') {
    try {
      // A `__proto__` key is an own property after JSON.parse, but schemas do not see it: refused.
      // Only a body that could spell it (plainly or with a \u escape) is parsed key by key.
      parsed =
        text.includes('__proto__') || text.includes('\\u')
          ? JSON.parse(text, (key, value: unknown) => {
              if (key === '__proto__') protoKey = true;
              return value;
            })
          : JSON.parse(text);
    } catch {
      throw errors.badJson();
    }
  } else if (!opts.allowEmpty) {
    throw errors.badJson();
  }
  if (protoKey) throw errors.validation([{ path: '__proto__', message: 'is not an accepted key' }]);
  const result = schema.safeParse(parsed);
  if (!result.success) throw errors.validation(zodIssues(result.error.issues));
  return result.data;
}

/** Reads a body as text with a cap, whatever Content-Length claims. */
export async function readText(c: Context, max: number): Promise<string> {
  const body = c.req.raw.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw errors.tooLarge();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let off = 0;
  for (const ch of chunks) {
    all.set(ch, off);
    off += ch.byteLength;
  }
  return new TextDecoder().decode(all);
}

export function query<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const result = schema.safeParse(c.req.query());
  if (!result.success) throw errors.validation(zodIssues(result.error.issues));
  return result.data;
}

/** A fixed-window counter per key; memory is bounded by sweeping old windows. */
export function createRateLimiter(limitPerMinute: number, now: () => number) {
  let window = Math.floor(now() / 60_000);
  let counts = new Map<string, number>();
  const roll = () => {
    const w = Math.floor(now() / 60_000);
    if (w !== window) {
      window = w;
      counts = new Map();
    }
    return w;
  };
  const wait = (w: number) => Math.max(1, Math.ceil(((w + 1) * 60_000 - now()) / 1000));
  return {
    /** Counts one request; returns seconds to wait, or 0 when the request may go on. */
    hit(key: string): number {
      const w = roll();
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      return n > limitPerMinute ? wait(w) : 0;
    },
    /** Seconds to wait when the key has used up this minute, else 0; counts nothing. */
    spent(key: string): number {
      const w = roll();
      return (counts.get(key) ?? 0) >= limitPerMinute ? wait(w) : 0;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * Guards a secret check against guessing: a client address that sent too many wrong secrets
 * this minute gets 429 for any secret, right or wrong, until the minute is over.
 */
export function authGuard(limiter: RateLimiter, trustProxy: boolean) {
  return async <T>(c: Context, check: () => Promise<T>): Promise<T> => {
    const key = `auth:${clientAddress(c, trustProxy)}`;
    const blocked = limiter.spent(key);
    if (blocked) throw errors.rateLimited(blocked);
    try {
      return await check();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) limiter.hit(key);
      throw err;
    }
  };
}

export type AuthGuard = ReturnType<typeof authGuard>;

export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const fwd = c.req.header('X-Forwarded-For')?.split(',')[0]?.trim();
    if (fwd) return fwd;
  }
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'local';
}

/** `Authorization: Bearer <merchant secret>`, compared in constant time. */
export function merchantAuth(secret: string, guard: AuthGuard): MiddlewareHandler {
  return async (c, next) => {
    await guard(c, async () => {
      const header = c.req.header('Authorization') ?? '';
      const token = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!token || !timingSafeEqual(token, secret)) throw errors.unauthorized();
    });
    await next();
  };
}
