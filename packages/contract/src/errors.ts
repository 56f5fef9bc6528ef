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
  'internal',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/**
 * Codes a client (the elements', the merchant's) makes when no answer carries one. The isolated
 * checkout's: its frame could not be shown (`frame_unreachable`: the BFF could not be reached;
 * `frame_refused`: it refused the page's origin; `frame_timeout`: the frame did not say it was
 * ready in time), it was given a client secret instead of a launch token (`secret_refused`: it
 * never runs one), or the payer's confirmation was refused while the frame was not fully
 * visible (`frame_hidden`).
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
