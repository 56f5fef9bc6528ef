/**
 * IBANs (ISO 13616): the compact form sent, the rules' messages, and the editing of
 * an IBAN input that shows groups of four while keeping the caret where the payer expects it.
 * Pure functions.
 */
import { IBAN_MAX_LENGTH, ibanProblem } from '@bank-checkout/contract';
import { formatIban } from './format.js';
import type { FieldError } from './validators.js';

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

/**
 * The first rule a compact IBAN breaks, or null, as a message key: required, the shape, the
 * country's length, then the checksum (the rules are the contract's).
 */
export function validateIban(compact: string): FieldError | null {
  const problem = ibanProblem(compact);
  if (!problem) return null;
  if (problem.rule === 'length') return { key: 'iban.length', params: { country: problem.country, length: problem.length } };
  return { key: `iban.${problem.rule}` };
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
