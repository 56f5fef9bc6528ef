/**
 * Validators for the fields a bank describes (FieldBank): pure functions that answer with a
 * message key and its parameters, or null when the value fits. The order is the order a payer
 * fixes things in: empty, wrong characters, wrong length, wrong format.
 */
import type { FieldView } from '@bank-checkout/bff/contract';
import type { MessageKey, MessageParams } from '../i18n/index.js';

/** The rules of a field that validation needs. */
export type FieldRules = Pick<FieldView, 'min' | 'max' | 'valueType' | 'specificType'>;

export interface FieldError {
  key: MessageKey;
  params?: MessageParams;
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const CIF_CONTROL_LETTERS = 'JABCDEFGHI';
/** CIF organisation letters whose control character must be a letter / a digit. */
const CIF_LETTER_CONTROL = 'NPQRSW';
const CIF_DIGIT_CONTROL = 'ABEH';

/** Spanish DNI (8 digits + check letter) or NIE (X/Y/Z + 7 digits + check letter); case ignored. */
export function isValidDniNie(input: string): boolean {
  const m = /^([XYZ]\d{7}|\d{8})([A-Z])$/.exec(input.toUpperCase());
  if (!m) return false;
  const digits = m[1]!.replace(/^[XYZ]/, (l) => String('XYZ'.indexOf(l)));
  return DNI_LETTERS[Number(digits) % 23] === m[2];
}

/** Spanish CIF: organisation letter, 7 digits and a control digit or letter; case ignored. */
export function isValidCif(input: string): boolean {
  const m = /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9A-J])$/.exec(input.toUpperCase());
  if (!m) return false;
  const [, org, digits, control] = m as unknown as [string, string, string, string];
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(digits[i]);
    sum += i % 2 === 0 ? Math.floor((d * 2) / 10) + ((d * 2) % 10) : d;
  }
  const digit = (10 - (sum % 10)) % 10;
  const asDigit = control === String(digit);
  const asLetter = control === CIF_CONTROL_LETTERS[digit];
  if (CIF_LETTER_CONTROL.includes(org)) return asLetter;
  if (CIF_DIGIT_CONTROL.includes(org)) return asDigit;
  return asDigit || asLetter;
}

/**
 * Checks by `specificType`. A type not listed here passes: the bank checks it anyway, and an
 * unknown rule must never block a payer.
 */
export const SPECIFIC_TYPE_VALIDATORS: Readonly<Record<string, { check: (value: string) => boolean; key: MessageKey }>> = {
  DNI_NIE: { check: isValidDniNie, key: 'field.DNI_NIE' },
  CIF: { check: isValidCif, key: 'field.CIF' },
};

export function required(value: string): FieldError | null {
  return value === '' ? { key: 'field.required' } : null;
}

export function digitsOnly(value: string): FieldError | null {
  return /^\d*$/.test(value) ? null : { key: 'field.digits' };
}

export function lengthWithin(value: string, min: number | null, max: number | null): FieldError | null {
  const tooShort = min != null && value.length < min;
  const tooLong = max != null && value.length > max;
  if (!tooShort && !tooLong) return null;
  if (min != null && min === max) return { key: 'field.exact', params: { min } };
  return tooShort ? { key: 'field.min', params: { min: min! } } : { key: 'field.max', params: { max: max! } };
}

export function specificType(value: string, type: string | null): FieldError | null {
  if (!type || !Object.hasOwn(SPECIFIC_TYPE_VALIDATORS, type)) return null;
  const v = SPECIFIC_TYPE_VALIDATORS[type]!;
  return v.check(value) ? null : { key: v.key };
}

/** The first rule of `field` that `value` breaks, or null. */
export function validateField(field: FieldRules, value: string): FieldError | null {
  return (
    required(value) ??
    (field.valueType === 'numeric' ? digitsOnly(value) : null) ??
    lengthWithin(value, field.min, field.max) ??
    specificType(value, field.specificType)
  );
}
