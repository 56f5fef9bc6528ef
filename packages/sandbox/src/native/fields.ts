/**
 * The rules a FieldBank states (length, digits only, specificType), applied to one value.
 * Used for login fields, the second-login field and validation fields alike.
 */
import type { FieldBank } from '@bank-checkout/provider';
import { SPECIFIC_TYPES, isSpecificType } from './ids.js';

/** What is wrong with `value` for `field`, as one sentence naming the field; null when it fits. */
export function fieldIssue(field: FieldBank, value: string | undefined, name: string = field.fieldId): string | null {
  const where = `${name} (${field.label})`;
  if (value === undefined || value === '') return `${where}: is required`;
  const rules: string[] = [];
  const min = field.min ?? 0;
  const max = field.max ?? Infinity;
  if (value.length < min || value.length > max) {
    rules.push(min === max ? `must be exactly ${min} characters` : `must be ${min} to ${max} characters`);
  }
  if (field.valueType === 'numeric' && !/^\d*$/.test(value)) rules.push('must contain digits only');
  const specific = field.specificType;
  if (specific && isSpecificType(specific) && !SPECIFIC_TYPES[specific].check(value)) {
    rules.push(`${specific}: ${SPECIFIC_TYPES[specific].rule}`);
  }
  return rules.length ? `${where}: ${rules.join('; ')}` : null;
}

/** Compares a payer's value with the expected one; identity documents ignore letter case. */
export function sameValue(field: FieldBank, value: string | undefined, expected: string | null | undefined): boolean {
  if (value === undefined || expected == null) return false;
  return field.specificType ? value.toUpperCase() === expected.toUpperCase() : value === expected;
}
