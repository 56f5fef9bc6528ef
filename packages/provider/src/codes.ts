/**
 * Status codes of the provider's two services. Both answer with the code in the body's
 * `status` field and a text in `description` (`descripción` in the native login responses).
 */

export const NATIVE_CODES = {
  '200': { name: 'OK_DEFAULT', meaning: 'Success' },
  '228': { name: 'PENDING_VALIDATION', meaning: 'Success; further validations from the payer are required' },
  '229': { name: 'PENDING_SECOND_LOGIN', meaning: 'Success; an additional validation is required to complete login' },
  E300: { name: 'ERROR_DEFAULT', meaning: 'Generic error' },
  E301: { name: 'ERROR_INVALID_PARAMS', meaning: 'Incorrect parameters' },
  E302: { name: 'ERROR_ORIGIN_ACCOUNT_EQUALS_DESTINY', meaning: 'Origin account equals destination account' },
  B100: { name: 'ERROR_INVALID_ACCESS', meaning: 'Bank credentials rejected at login' },
  B101: { name: 'ERROR_INVALID_ORIGIN_ACCOUNT', meaning: 'Origin account invalid' },
  B102: { name: 'ERROR_TRANSACTION_NOT_AUTHORIZED', meaning: 'Bank does not authorise the payment' },
  B103: { name: 'ERROR_INVALID_VALIDATION', meaning: 'Transfer validation failed' },
  B104: {
    name: 'ERROR_ACTION_USER_REQUIRED',
    meaning: 'The user must use the online bank directly to activate or authorise a service or contract',
  },
  B105: { name: 'ERROR_BANK_NOT_AVAILABLE', meaning: 'Bank unavailable for maintenance' },
  B106: { name: 'ERROR_MULTI_SIGNATURE_REQUIRED', meaning: 'Multi-signature or joint signature is required' },
  B107: {
    name: 'ERROR_TRANSFER_DISABLED_IN_ORIGIN_ACCOUNT',
    meaning: 'Transfers not allowed from the selected account',
  },
  B108: {
    name: 'ERROR_TRANSFER_NOT_AVAILABLE_FROM_USER',
    meaning: 'The online-banking user may not make transfers',
  },
} as const;

export type NativeCode = keyof typeof NATIVE_CODES;
export type NativeErrorCode = Exclude<NativeCode, '200' | '228' | '229'>;
export const NATIVE_SUCCESS_CODES = ['200', '228', '229'] as const;
export const NATIVE_ERROR_CODES = Object.keys(NATIVE_CODES).filter((c) => !(NATIVE_SUCCESS_CODES as readonly string[]).includes(c)) as NativeErrorCode[];

export const LINK_CODES = {
  '200': { name: 'OK_DEFAULT', meaning: 'Request succeeded' },
  E300: { name: 'ERROR_DEFAULT', meaning: 'Generic error' },
  E301: { name: 'INVALID_PARAMS', meaning: 'Incorrect parameters' },
} as const;

export type LinkCode = keyof typeof LINK_CODES;

/** Validation types of a native transfer (ValidationBank.type). */
export const VALIDATION_TYPES = {
  0: 'SIGNATURE',
  1: 'SMS',
  2: 'COORDINATES',
  3: 'COORDINATES_BY_SMS',
  4: 'TOKEN',
  5: 'COORDINATES_CARD_SHOWN',
  6: 'INDIRECT_IN_OTHER_DEVICE',
} as const;
export type ValidationType = keyof typeof VALIDATION_TYPES;

/** Second-login types returned by the native login (code 229). */
export const SECOND_LOGIN_TYPES = {
  1: 'SMS_SECOND_LOGIN',
  2: 'COORDINATES_SECOND_LOGIN',
  3: 'TOKEN_SECOND_LOGIN',
} as const;
export type SecondLoginType = keyof typeof SECOND_LOGIN_TYPES;

export function codeName(code: string): string {
  if (Object.hasOwn(NATIVE_CODES, code)) return NATIVE_CODES[code as NativeCode].name;
  return 'UNKNOWN';
}
