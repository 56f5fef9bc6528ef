/**
 * Rate limits and the guards of secret checks: a fixed-window counter per key, the RateLimit
 * headers, and per address and API, the lock-out of callers that send wrong secrets.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { createHash, timingSafeEqual as cryptoTimingSafeEqual } from 'node:crypto';
import { timingSafeEqual } from '@bank-checkout/provider';
import { ApiError, errors } from './errors.js';
import type { TrustProxy } from './config.js';
import { clientAddress } from './proxy.js';

/** A key's budget after a request: its limit per minute, what is left, seconds to the next window, and seconds to wait (0: go on). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  reset: number;
  wait: number;
}

/** The IETF draft's rate-limit headers (RateLimit-Limit, -Remaining, -Reset in seconds) for a budget. */
export function rateLimitHeaders(s: RateLimitState): Record<string, string> {
  return { 'RateLimit-Limit': String(s.limit), 'RateLimit-Remaining': String(s.remaining), 'RateLimit-Reset': String(s.reset) };
}

/** The rate-limit headers that CORS lets the browser read. */
export const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/**
 * Counts one request against `key`: the answer carries the RateLimit headers; past the limit it
 * is a 429 with them and `Retry-After`.
 */
export function countRequest(c: Context, limiter: RateLimiter, key: string): void {
  const state = limiter.take(key);
  const headers = rateLimitHeaders(state);
  if (state.wait) throw errors.rateLimited(state.wait, headers);
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
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
  const take = (key: string): RateLimitState => {
    const w = roll();
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    const reset = wait(w);
    return { limit: limitPerMinute, remaining: Math.max(0, limitPerMinute - n), reset, wait: n > limitPerMinute ? reset : 0 };
  };
  return {
    /** Counts one request; returns the key's budget after it (`wait` > 0: refused for that many seconds). */
    take,
    /** Counts one request; returns seconds to wait, or 0 when the request may go on. */
    hit: (key: string): number => take(key).wait,
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
 * this minute gets 429 for any secret, right or wrong, until the minute is over. Each API has
 * its own guard (its own `scope`), so failures at one never lock an address out of another.
 *
 * A check that reads nothing (`verifyFirst`: the merchant secret, compared in constant time; the
 * provider's notifications and the payer's returns, by their signatures) is made first, whatever
 * came before it: the right secret or a valid signature always passes, so wrong ones sent from
 * an address (or through a proxy it shares) never lock the right one out, as the large payment
 * APIs behave. Only failures count, and past the limit they are answered 429. What bounds the
 * guessing then is the secret's strength, not the count: an HMAC key, or a merchant secret that
 * going live judged strong (going-live.ts). The checkout API's check reads the store: there an
 * address past its limit is refused before anything is read.
 */
export function authGuard(limiter: RateLimiter, trustProxy: TrustProxy, scope: string, opts: { verifyFirst?: boolean } = {}) {
  return async <T>(c: Context, check: () => Promise<T>): Promise<T> => {
    const key = `${scope}:${clientAddress(c, trustProxy)}`;
    if (!opts.verifyFirst) {
      const blocked = limiter.spent(key);
      if (blocked) throw errors.rateLimited(blocked);
    }
    try {
      return await check();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        const wait = limiter.hit(key);
        if (opts.verifyFirst && wait) throw errors.rateLimited(wait);
      }
      throw err;
    }
  };
}

export type AuthGuard = ReturnType<typeof authGuard>;

/**
 * Whether a request carries `Authorization: Bearer <secret>`, compared in constant time (hashes
 * of equal length): for what a request of the shop's server gets before its route checks it (the
 * connection cap, its trace), never instead of that check.
 */
export function bearerCheck(secret: string): (req: Request) => boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const expected = digest(`Bearer ${secret}`);
  return (req) => {
    const header = req.headers.get('authorization');
    return header !== null && cryptoTimingSafeEqual(digest(header), expected);
  };
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
