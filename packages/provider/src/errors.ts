/**
 * What a provider call can end with besides its answer: the provider's own error code
 * (ProviderError), an upstream fault (UpstreamError: timeout, network, garbage), or a request
 * refused before sending (InvalidRequestError, with the request's rules checked here).
 */
import type { z } from 'zod';
import { codeName } from './codes.js';

/** The provider answered with an error code in `status`. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly code: string,
    readonly description: string | null,
    readonly endpoint: string,
    readonly httpStatus: number,
  ) {
    super(`${endpoint}: provider answered ${code} (${codeName(code)})`);
  }
}

export type UpstreamFault = 'timeout' | 'network' | 'http' | 'body' | 'schema' | 'too-large' | 'aborted';

/** The provider could not be reached or answered something that is not a provider answer. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(
    readonly kind: UpstreamFault,
    readonly endpoint: string,
    readonly httpStatus?: number,
  ) {
    super(`${endpoint}: upstream ${kind}${httpStatus ? ` (HTTP ${httpStatus})` : ''}`);
  }
}

/** The request given to a client method broke the provider's rules (docs/provider.md); nothing was sent. */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
  constructor(
    readonly endpoint: string,
    readonly issues: { path: string; message: string }[],
  ) {
    super(`${endpoint}: invalid request: ${issues.map((i) => `${i.path || '(body)'} ${i.message}`).join('; ')}`);
  }
}

export function checkRequest<S extends z.ZodType>(schema: S, endpoint: string, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new InvalidRequestError(
      endpoint,
      result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
  return result.data;
}
