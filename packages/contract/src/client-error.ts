/** The one error class of the BFF's clients. */
import type { ErrorCode } from './errors.js';
import type { CheckoutView } from './schemas/checkout.js';

/**
 * A failed call of a BFF client (the elements' checkout client, the merchant client). `status`
 * is the HTTP status (0 when the BFF was not reached), `code` the answer's code, or a client
 * code (`network`, `invalid_response`, `http_error`) when the answer had none. A code this
 * version does not know (a newer BFF) is kept as it came.
 */
export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | (string & {}),
    message: string,
    readonly requestId: string | null = null,
    readonly issues: readonly { path: string; message: string }[] = [],
    name = 'ApiClientError',
    /** With `stale_step` (409): the checkout as it is now (another window moved it on). */
    readonly view: CheckoutView | null = null,
  ) {
    super(message);
    this.name = name;
  }
}
