/**
 * Every error code, in one spelling (snake_case; the provider's own codes as the provider
 * spells them): the codes of the BFF's error answers (`{error: {code}}`), those a view's
 * `error` carries, and those a client makes when no answer carries one. A view's code comes
 * with the category that tells the payer's next step. Messages live in the elements'
 * catalogues under `error.<code>`.
 */

export const PROVIDER_ERROR_CODES = ['B100', 'B101', 'B102', 'B103', 'B104', 'B105', 'B106', 'B107', 'B108', 'E300', 'E301', 'E302'] as const;
export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];

/** The BFF's own codes of a view's `error` (the provider's travel as they are). */
export const BFF_ERROR_CODES = ['expired', 'cancelled', 'unknown', 'deadline', 'attempts', 'upstream', 'upstream_timeout', 'invalid_state'] as const;
export type BffErrorCode = (typeof BFF_ERROR_CODES)[number];

export type ViewErrorCode = ProviderErrorCode | BffErrorCode;

/** Every code a view's `error` may carry: the provider's (a code it sends that is none of these is a fault), and the BFF's. */
export const VIEW_ERROR_CODES = /* @__PURE__ */ (() => [...PROVIDER_ERROR_CODES, ...BFF_ERROR_CODES] as const satisfies readonly ViewErrorCode[])();

/**
 * The message keys a view's error names besides `error.<code>`: a refusal the product tells
 * apart from the rest of its code (a session the bank ended, a wrong code of the second login, a
 * payment not completed at the bank's page), and a fault that left the payer a way on (a sign-in
 * or a transfer's start the bank did not answer: no money moved). Every language of the elements
 * has each.
 */
export const VIEW_MESSAGE_EXTRAS = [
  'error.sessionEnded',
  'error.secondLoginCode',
  'error.linkNotCompleted',
  'error.loginNoAnswer',
  'error.transferNoAnswer',
] as const;
export type ViewMessageKey = `error.${ViewErrorCode}` | (typeof VIEW_MESSAGE_EXTRAS)[number];
export const VIEW_MESSAGE_KEYS: readonly ViewMessageKey[] = /* @__PURE__ */ (() => [
  ...VIEW_ERROR_CODES.map((c) => `error.${c}` as const),
  ...VIEW_MESSAGE_EXTRAS,
])();

/** A view's error: its code, and the key of its message in the elements' catalogues. */
export interface ViewError {
  code: ViewErrorCode;
  message: ViewMessageKey;
}

/** Whether a code the provider sent is one the product knows (any other is taken as a fault). */
export const isProviderErrorCode = (code: string): code is ProviderErrorCode => (PROVIDER_ERROR_CODES as readonly string[]).includes(code);

/** The codes of the BFF's error answers (HTTP 4xx/5xx with `{error: {code, message, requestId}}`). */
export const API_ERROR_CODES = [
  // The request
  'invalid_json',
  'validation_failed',
  'payload_too_large',
  'unsupported_media_type',
  'unauthorized',
  'not_found',
  'rate_limited',
  // The checkout
  'checkout_busy',
  'checkout_finished',
  'invalid_state',
  'mode_not_allowed',
  'bank_unavailable',
  'login_unavailable',
  'stale_step',
  // An isolated checkout's launch and its frame
  'launch_used',
  'launch_expired',
  'opened_elsewhere',
  'not_isolated',
  'origin_refused',
  // The merchant API and the provider's calls to the BFF
  'idempotency_mismatch',
  'idempotency_in_progress',
  'webhook_off',
  'invalid_signature',
  'notification_unreadable',
  'reference_in_use',
  'handoff_invalid',
  'handoff_expired',
  // The provider
  'upstream',
  'upstream_timeout',
  'provider_error',
  'provider_rejected',
  'provider_credentials',
  // The BFF itself
  'frame_unavailable',
  'unavailable',
  'store_unavailable',
  'not_sent',
  'internal',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/**
 * The HTTP status of each code of the BFF's error answers, and what it tells the caller to do.
 * The merchant API reference's table of errors is generated from it; a test holds the BFF's
 * answers to these statuses.
 */
export const API_ERRORS: Readonly<Record<ApiErrorCode, { status: number; meaning: string }>> = {
  invalid_json: { status: 400, meaning: 'The request body is not valid JSON.' },
  validation_failed: { status: 422, meaning: 'The request is not valid: `issues` names each field and what is wrong with it.' },
  payload_too_large: { status: 413, meaning: 'The request body is too large.' },
  unsupported_media_type: { status: 415, meaning: 'Content-Type must be application/json.' },
  unauthorized: { status: 401, meaning: "Missing or invalid credentials (the merchant secret, or a checkout's secret or frame key)." },
  not_found: { status: 404, meaning: 'No such checkout, event or route.' },
  rate_limited: {
    status: 429,
    meaning: 'Too many requests: wait `Retry-After` seconds. (A connection over `MAX_CONNECTIONS_PER_ADDRESS` is answered 503 with the same code.)',
  },
  checkout_busy: { status: 409, meaning: 'A call for this checkout is with the bank, or another request changed it meanwhile: try again in a moment.' },
  checkout_finished: { status: 409, meaning: 'The checkout has ended (paid, failed, expired or cancelled): nothing more can be done with it; make a new one.' },
  invalid_state: {
    status: 409,
    meaning: 'The checkout is not in a state this call applies to: only an `unknown` checkout is resolved, and an `unknown` one is resolved, not cancelled.',
  },
  mode_not_allowed: { status: 409, meaning: 'The checkout does not allow this mode (its `modes`).' },
  bank_unavailable: { status: 422, meaning: 'This bank is in maintenance; choose another one.' },
  login_unavailable: { status: 422, meaning: 'This login type is in maintenance; choose another one.' },
  stale_step: {
    status: 409,
    meaning: "The payer's action is for a step the checkout has left (another window moved it on); the current view comes with the error.",
  },
  launch_used: {
    status: 409,
    meaning:
      'This launch token was already redeemed (or replaced by a newer one) and another browser has the checkout; a fresh one (`POST /v1/checkouts/{id}/launch`) takes it back.',
  },
  launch_expired: { status: 401, meaning: 'The launch token has expired; load the page again for a new one.' },
  opened_elsewhere: { status: 409, meaning: "The checkout was opened in another browser (or this browser's oldest tab was left behind); it continues there." },
  not_isolated: { status: 409, meaning: 'This checkout is inline: its page opens it with the client secret, not a launch token.' },
  origin_refused: { status: 403, meaning: "This checkout is isolated: its API answers its own frame only, on the BFF's origin." },
  idempotency_mismatch: { status: 409, meaning: 'This Idempotency-Key was used with a different request body.' },
  idempotency_in_progress: { status: 409, meaning: 'A request with this Idempotency-Key is still running: send it again after `Retry-After`.' },
  webhook_off: { status: 409, meaning: 'No webhook is configured (MERCHANT_WEBHOOK_URL).' },
  invalid_signature: { status: 401, meaning: "The provider's notification signature does not verify." },
  notification_unreadable: {
    status: 503,
    meaning: 'The notification verifies but could not be read; it is kept for the merchant, and the provider is asked to send it again.',
  },
  reference_in_use: {
    status: 409,
    meaning:
      'An open checkout already has this reference (the message names it): use it, or cancel it first (a changed cart: `POST /v1/checkouts/{id}/cancel`).',
  },
  handoff_invalid: { status: 404, meaning: 'This hand-off link is not valid.' },
  handoff_expired: { status: 410, meaning: 'This hand-off link was already used or has expired; the checkout shows a new code.' },
  upstream: { status: 502, meaning: 'The payment provider failed (an error, garbage, a reset): trying again may work.' },
  upstream_timeout: { status: 504, meaning: 'The payment provider did not answer in time.' },
  provider_error: { status: 502, meaning: 'The payment provider answered with an error code (in the message).' },
  provider_rejected: { status: 422, meaning: 'The payment provider rejected the parameters (E301), such as an account not validated in its dashboard.' },
  provider_credentials: { status: 502, meaning: "The payment provider refused the BFF's own key or token: check PROVIDER_API_KEY and PROVIDER_API_TOKEN." },
  frame_unavailable: { status: 404, meaning: 'The isolated checkout is not installed beside the BFF: install @bank-checkout/elements there.' },
  unavailable: { status: 503, meaning: 'The BFF cannot serve this right now: try again shortly.' },
  store_unavailable: { status: 503, meaning: 'The store is not available right now; nothing was lost: try again after `Retry-After`.' },
  not_sent: {
    status: 503,
    meaning:
      'Nothing was sent to the bank: the call could no longer leave within its turn (the BFF was paused, or its store slow), so it was not sent and the checkout is as it was: try again after `Retry-After`.',
  },
  internal: { status: 500, meaning: 'Something went wrong; the request changed nothing it could not finish.' },
};

/**
 * Codes a client (the elements', the merchant's) makes when no answer carries one. The isolated
 * checkout's: its frame could not be shown (`frame_unreachable`: its page loaded but never said
 * it was there, the BFF down or the address wrong; `frame_refused`: the BFF said it refuses the
 * page's origin; `frame_timeout`: the frame did not load in time), it was given a client secret instead of a launch token (`secret_refused`: it
 * never runs one), or the payer's confirmation was refused: the frame was not fully visible, or
 * not for long enough before the press (`frame_hidden`).
 */
export const CLIENT_ERROR_CODES = [
  'network',
  'invalid_response',
  'http_error',
  'generic',
  'frame_unreachable',
  'frame_timeout',
  'frame_refused',
  'secret_refused',
  'frame_hidden',
] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/** Every error code. */
export type ErrorCode = ApiErrorCode | ViewErrorCode | ClientErrorCode;

/** Codes only the merchant's server meets (merchant API, the provider's calls): never shown to a payer. */
export const MERCHANT_ERROR_CODES = [
  'idempotency_mismatch',
  'idempotency_in_progress',
  'webhook_off',
  'invalid_signature',
  'notification_unreadable',
  'provider_credentials',
  'reference_in_use',
  'not_isolated',
] as const satisfies readonly ApiErrorCode[];

/** The codes a payer may be shown a message for: every code but the merchant's own. */
export type PayerErrorCode = Exclude<ErrorCode, (typeof MERCHANT_ERROR_CODES)[number]>;

/**
 * - `credentials`: what the payer typed was refused; typing it again may work.
 * - `account`: this account cannot pay; another one may.
 * - `bank`: the bank cannot be used now; another bank, or later.
 * - `refused`: the bank refused the payment.
 * - `service`: the provider or the network failed; trying again may work.
 * - `ended`: the checkout ended (time, cancellation, attempts).
 * - `pending`: the outcome is not known yet.
 */
export type ErrorCategory = 'credentials' | 'account' | 'bank' | 'refused' | 'service' | 'ended' | 'pending';

export const ERROR_CATEGORIES: Readonly<Record<ViewErrorCode, ErrorCategory>> = {
  B100: 'credentials',
  B103: 'credentials',
  B101: 'account',
  B106: 'account',
  B107: 'account',
  E302: 'account',
  B104: 'bank',
  B105: 'bank',
  B108: 'bank',
  B102: 'refused',
  E300: 'service',
  E301: 'service',
  upstream: 'service',
  upstream_timeout: 'service',
  invalid_state: 'service',
  expired: 'ended',
  cancelled: 'ended',
  deadline: 'ended',
  attempts: 'ended',
  unknown: 'pending',
};

/** The category of a view's error code; a code this version does not know is a service fault. */
export function errorCategory(code: string): ErrorCategory {
  return Object.hasOwn(ERROR_CATEGORIES, code) ? ERROR_CATEGORIES[code as ViewErrorCode] : 'service';
}
