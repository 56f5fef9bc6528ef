/**
 * IBANs (ISO 13616): the compact form sent, the checksum and length rules, and the editing of
 * an IBAN input that shows groups of four while keeping the caret where the payer expects it.
 * Pure functions.
 */
import { formatIban } from './format.js';
import type { FieldError } from './validators.js';

/** Longest IBAN of any country, without spaces. */
export const IBAN_MAX_LENGTH = 34;

/** IBAN length by country, from the SWIFT IBAN registry (country code and length, packed). */
const LENGTHS =
  'AD24AE23AL28AT20AZ28BA20BE16BG22BH22BR29BY28CH21CR22CY28CZ24DE22DK18DO28EE20EG29ES24FI18FO18FR27GB22GE22GI23GL18GR27GT28' +
  'HR21HU28IE22IL23IQ23IS26IT27JO30KW30KZ20LB28LC32LI21LT20LU20LV21MC27MD24ME22MK19MR27MT31MU30NL18NO15PK24PL28PS29PT25QA29' +
  'RO24RS22SA24SC31SE24SI19SK24SM27ST25SV28TL23TN24TR26UA29VA22VG24XK20';

const IBAN_LENGTHS: ReadonlyMap<string, number> = new Map(
  Array.from(LENGTHS.matchAll(/([A-Z]{2})(\d\d)/g), (m) => [m[1]!, Number(m[2])] as const),
);

/** The length of an IBAN of `country` (two letters), or null for a country not in the registry. */
export function ibanLength(country: string): number | null {
  return IBAN_LENGTHS.get(country.toUpperCase()) ?? null;
}

/**
 * What the payer typed or pasted as the IBAN sent: letters and digits only, upper case, a
 * leading `IBAN` label dropped, at most 34 characters (`es91 2100-0418…` → `ES912100…`).
 */
export function compactIban(raw: string): string {
  const clean = raw.replace(/[^0-9A-Za-z]+/g, '').toUpperCase();
  const skip = labelLength(clean);
  return clean.slice(skip, skip + IBAN_MAX_LENGTH);
}

/** 4 when letters and digits start with an `IBAN` label before the country code, else 0. */
function labelLength(clean: string): number {
  return /^IBAN[A-Z]{2}\d/.test(clean) ? 4 : 0;
}

/** The ISO 7064 mod-97 check of a compact IBAN: true when the remainder is 1. */
export function ibanChecksumOk(compact: string): boolean {
  if (!/^[A-Z0-9]{5,}$/.test(compact)) return false;
  let remainder = 0;
  for (const ch of compact.slice(4) + compact.slice(0, 4)) {
    const value = parseInt(ch, 36);
    remainder = (value > 9 ? remainder * 100 + value : remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

/**
 * The first rule a compact IBAN breaks, or null: required, the shape (country letters, two
 * check digits, 15–34 letters and digits), the country's length, then the checksum.
 */
export function validateIban(compact: string): FieldError | null {
  if (compact === '') return { key: 'iban.required' };
  if (!/^[A-Z]{2}\d\d[A-Z0-9]+$/.test(compact)) return { key: 'iban.format' };
  const length = ibanLength(compact.slice(0, 2));
  if (length !== null && compact.length !== length) return { key: 'iban.length', params: { country: compact.slice(0, 2), length } };
  if (compact.length < 15 || compact.length > IBAN_MAX_LENGTH) return { key: 'iban.format' };
  return ibanChecksumOk(compact) ? null : { key: 'iban.checksum' };
}

/** Letters and digits in `text`. */
const significant = (text: string) => text.replace(/[^0-9A-Za-z]/g, '').length;

/** Caret position in a formatted IBAN after its first `n` characters (after a group's space once the next group starts). */
function caretAfter(n: number): number {
  return n <= 0 ? 0 : n + Math.floor((n - 1) / 4);
}

export interface IbanEdit {
  /** What the input shows: the compact IBAN in groups of four. */
  value: string;
  /** Where the caret goes in `value`. */
  caret: number;
}

/**
 * One edit of an IBAN input. `raw` is the input's value after the edit and `caret` its caret;
 * `previous` the value before and `inputType` the InputEvent's. The result is formatted in groups
 * of four, with the caret after the same letters and digits as before. Deleting only a space
 * (Backspace right after one, Delete right before one) deletes the character beyond it instead,
 * so the key never seems stuck.
 */
export function editIban(raw: string, caret: number, previous = '', inputType = ''): IbanEdit {
  let text = raw;
  let at = Math.max(0, Math.min(caret, raw.length));
  const onlySpaceDeleted = inputType.startsWith('delete') && significant(raw) === significant(previous) && raw.length < previous.length;
  if (onlySpaceDeleted) {
    if (inputType === 'deleteContentBackward') {
      // The character before the caret, skipping separators.
      let i = at - 1;
      while (i >= 0 && !/[0-9A-Za-z]/.test(text[i]!)) i--;
      if (i >= 0) {
        text = text.slice(0, i) + text.slice(i + 1);
        at = i;
      }
    } else if (inputType === 'deleteContentForward') {
      let i = at;
      while (i < text.length && !/[0-9A-Za-z]/.test(text[i]!)) i++;
      if (i < text.length) text = text.slice(0, i) + text.slice(i + 1);
    }
  }
  const compact = compactIban(text);
  const label = labelLength(text.replace(/[^0-9A-Za-z]+/g, '').toUpperCase());
  const before = Math.min(compact.length, Math.max(0, significant(text.slice(0, at)) - label));
  return { value: formatIban(compact), caret: caretAfter(before) };
}
