/**
 * The one error shape of every BFF response: `{error: {code, message, requestId, issues?}}`,
 * its code one of the contract's `API_ERROR_CODES`. No stack traces, no internals, no upstream
 * bodies.
 */
import type { Context } from 'hono';
import type { ApiErrorCode } from '@bank-checkout/contract';
import type { ErrorBody } from '@bank-checkout/contract/schemas';
import type { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export interface Issue {
  path: string;
  message: string;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ApiErrorCode,
    message: string,
    readonly issues?: Issue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * A payer action for a step the checkout has left (another window moved it on, or time did):
 * 409 `stale_step`, answered with the checkout's current view beside the error.
 */
export class StaleStep extends ApiError {
  declare readonly status: 409;
  constructor(message: string) {
    super(409, 'stale_step', message);
  }
}

export const errors = {
  badJson: () => new ApiError(400, 'invalid_json', 'The request body is not valid JSON.'),
  /** The client closed the connection before the body's end: nothing was read, nothing done. */
  bodyCutShort: () => new ApiError(400, 'invalid_json', 'The request body was cut short: the connection closed before its end.'),
  validation: (issues: Issue[]) => new ApiError(422, 'validation_failed', 'The request is not valid.', issues),
  unauthorized: (message = 'Missing or invalid credentials.') => new ApiError(401, 'unauthorized', message),
  notFound: (what = 'Resource') => new ApiError(404, 'not_found', `${what} not found.`),
  conflict: (code: ApiErrorCode, message: string) => new ApiError(409, code, message),
  /** An isolated checkout's API called from anywhere but its frame. */
  originRefused: () => new ApiError(403, 'origin_refused', "This checkout is isolated: it answers its own frame only, on the BFF's origin."),
  tooLarge: () => new ApiError(413, 'payload_too_large', 'The request body is too large.'),
  unsupportedType: () => new ApiError(415, 'unsupported_media_type', 'Content-Type must be application/json.'),
  rateLimited: (retryAfterS: number, headers: Record<string, string> = {}) =>
    new ApiError(429, 'rate_limited', 'Too many requests; try again later.', undefined, { ...headers, 'Retry-After': String(retryAfterS) }),
  storeUnavailable: (retryAfterS: number) =>
    new ApiError(503, 'store_unavailable', 'The store is not available right now; nothing was lost. Try again shortly.', undefined, {
      'Retry-After': String(retryAfterS),
    }),
  /** A call with the bank that did not leave (its lease would not have covered it, or its lock was never confirmed): nothing changed. */
  notSent: (retryAfterS: number) =>
    new ApiError(503, 'not_sent', 'Nothing was sent to the bank and the checkout is as it was. Try again shortly.', undefined, {
      'Retry-After': String(retryAfterS),
    }),
  upstream: (message = 'The payment provider answered with an error.') => new ApiError(502, 'upstream', message),
  upstreamTimeout: (message = 'The payment provider did not answer in time.') => new ApiError(504, 'upstream_timeout', message),
};

/** The error answer of `err` (its status and headers), with `extra` beside the error (the view of a stale step). */
/** The error code each request was answered with, for its span and the count of 503s (telemetry.ts). */
const answeredCodes = new WeakMap<Request, string>();
/** The error code a request was answered with, if it was answered with an error. */
export const errorCodeOf = (req: Request): string | undefined => answeredCodes.get(req);

export function errorResponse<V extends { Variables: { requestId: string } }, E extends ApiError>(c: Context<V>, err: E, extra?: Pick<ErrorBody, 'view'>) {
  const requestId = c.get('requestId') ?? 'unknown';
  answeredCodes.set(c.req.raw, err.code);
  for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
  const body: ErrorBody = { error: { code: err.code, message: err.message, requestId, ...(err.issues ? { issues: err.issues } : {}) }, ...extra };
  return c.json<ErrorBody, E['status']>(body, err.status);
}

export function zodIssues(issues: readonly { path: PropertyKey[]; message: string; code?: string; keys?: readonly string[] }[]): Issue[] {
  return issues.flatMap((i) => {
    const at = i.path.map(String);
    // An unknown field is named where it is (a typo such as `expireMinute` shows as itself).
    if (i.code === 'unrecognized_keys' && i.keys?.length) return i.keys.map((k) => ({ path: [...at, k].join('.'), message: 'is not a field of this request' }));
    return [{ path: at.join('.'), message: i.message }];
  });
}

/** A client error raised by Hono's own middleware, in the BFF's error shape (else null: a 500). */
export function fromHttpException(err: HTTPException): ApiError | null {
  if (err.status === 400) return errors.badJson();
  if (err.status === 413) return errors.tooLarge();
  if (err.status === 415) return errors.unsupportedType();
  return null;
}
