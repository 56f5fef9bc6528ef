/**
 * Stable error codes a view's `error` carries, with the category that tells the payer's next
 * step. The provider's native codes (B100–B108, E300–E302) travel as they are; the BFF adds
 * its own. Messages live in the elements' catalogues under `error.<code>`.
 */

export const PROVIDER_ERROR_CODES = ['B100', 'B101', 'B102', 'B103', 'B104', 'B105', 'B106', 'B107', 'B108', 'E300', 'E301', 'E302'] as const;
export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];

export const BFF_ERROR_CODES = ['expired', 'cancelled', 'unknown', 'deadline', 'attempts', 'upstream', 'upstream-timeout', 'invalid-state'] as const;
export type BffErrorCode = (typeof BFF_ERROR_CODES)[number];

export type ViewErrorCode = ProviderErrorCode | BffErrorCode;

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
  'upstream-timeout': 'service',
  'invalid-state': 'service',
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
