/**
 * The rules a FieldBank states (the contract's: length, digits only, specificType), applied to
 * one value, as the sentences of the simulator's E301, B100 and B103 answers.
 * Used for login fields, the second-login field and validation fields alike.
 */
import type { FieldBank } from '@bank-checkout/provider';
import { fieldProblem } from '@bank-checkout/contract';
import { SPECIFIC_TYPE_RULES } from './ids.js';

/** What is wrong with `value` for `field`, as one sentence naming the field; null when it fits. */
export function fieldIssue(field: FieldBank, value: string | undefined, name: string = field.fieldId): string | null {
  const problem = fieldProblem(field, value);
  if (!problem) return null;
  const where = `${name} (${field.label})`;
  switch (problem.rule) {
    case 'required':
      return `${where}: is required`;
    case 'digits':
      return `${where}: must contain digits only`;
    case 'exact':
      return `${where}: must be exactly ${problem.length} characters`;
    case 'min':
    case 'max':
      if (field.min == null) return `${where}: must be at most ${field.max} characters`;
      if (field.max == null) return `${where}: must be at least ${field.min} characters`;
      return `${where}: must be ${field.min} to ${field.max} characters`;
    case 'specificType':
      return `${where}: ${problem.type}: ${SPECIFIC_TYPE_RULES[problem.type]}`;
  }
}

/** Compares a payer's value with the expected one; identity documents ignore letter case. */
export function sameValue(field: FieldBank, value: string | undefined, expected: string | null | undefined): boolean {
  if (value === undefined || expected == null) return false;
  return field.specificType ? value.toUpperCase() === expected.toUpperCase() : value === expected;
}
