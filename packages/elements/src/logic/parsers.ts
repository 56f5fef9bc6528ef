/**
 * Parsers: what the payer types becomes the value sent. Pure functions, applied on every input
 * so that the field shows exactly what will be sent.
 */
import type { FieldRules } from './validators.js';

/** Digits only: everything else typed or pasted is dropped. */
export function parseDigits(raw: string): string {
  return raw.replace(/\D+/g, '');
}

/** Identity documents: no spaces, dots or dashes, upper case (`12.345.678-z` → `12345678Z`). */
export function parseIdentityDocument(raw: string): string {
  return raw.replace(/[\s.-]+/g, '').toUpperCase();
}

/** Identity-document types whose input is normalised with `parseIdentityDocument`. */
const IDENTITY_TYPES = new Set(['DNI_NIE', 'CIF', 'NIF', 'NIE', 'DNI']);

/**
 * The value of a field from what was typed. Numeric fields keep digits only; identity
 * documents are normalised; other text is kept as typed (a password may contain spaces).
 */
export function parseFieldInput(field: Pick<FieldRules, 'valueType' | 'specificType'>, raw: string): string {
  if (field.valueType === 'numeric') return parseDigits(raw);
  if (field.specificType && IDENTITY_TYPES.has(field.specificType)) return parseIdentityDocument(raw);
  return raw;
}
