/**
 * The rules of a field a bank describes (FieldBank): required, digits only for numeric fields,
 * the length bounds, and the `specificType` check. One function answers with the first rule a
 * value breaks; the elements turn it into a message of the payer's language, the BFF into an
 * issue of its 422 answer.
 */
import { isSpecificType, SPECIFIC_TYPE_CHECKS, type SpecificType } from './ids.js';

/** What a field's rules need of its description. */
export interface FieldRules {
  min?: number | null;
  max?: number | null;
  valueType: 'alfanumeric' | 'numeric';
  specificType?: string | null;
}

export type FieldProblem =
  | { rule: 'required' }
  | { rule: 'digits' }
  | { rule: 'exact'; length: number }
  | { rule: 'min'; min: number }
  | { rule: 'max'; max: number }
  | { rule: 'specificType'; type: SpecificType };

export interface FieldCheckOptions {
  /** Check `specificType` too (default true). */
  specificType?: boolean;
}

/**
 * The first rule of `field` that `value` breaks, or null. The order is the order a payer fixes
 * things in: empty, wrong characters, wrong length, wrong format.
 */
export function fieldProblem(field: FieldRules, value: string | undefined, options: FieldCheckOptions = {}): FieldProblem | null {
  if (value === undefined || value === '') return { rule: 'required' };
  if (field.valueType === 'numeric' && !/^\d+$/.test(value)) return { rule: 'digits' };
  const { min, max } = field;
  const tooShort = min != null && value.length < min;
  const tooLong = max != null && value.length > max;
  if (tooShort || tooLong) {
    if (min != null && min === max) return { rule: 'exact', length: min };
    return tooShort ? { rule: 'min', min: min } : { rule: 'max', max: max! };
  }
  const type = field.specificType;
  if (options.specificType !== false && type && isSpecificType(type) && !SPECIFIC_TYPE_CHECKS[type](value)) {
    return { rule: 'specificType', type };
  }
  return null;
}
