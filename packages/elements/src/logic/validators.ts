/**
 * Validators for the fields a bank describes (FieldBank): the contract's rules, answered as a
 * message key and its parameters, or null when the value fits. The order is the order a payer
 * fixes things in: empty, wrong characters, wrong length, wrong format.
 */
import { fieldProblem, type FieldProblem, type FieldView } from '@bank-checkout/contract';
import type { MessageKey, MessageParams } from '../i18n/index.js';

/** The rules of a field that validation needs. */
export type FieldRules = Pick<FieldView, 'min' | 'max' | 'valueType' | 'specificType'>;

export interface FieldError {
  key: MessageKey;
  params?: MessageParams;
}

/** The message of a broken rule. */
export function fieldError(problem: FieldProblem): FieldError {
  switch (problem.rule) {
    case 'required':
      return { key: 'field.required' };
    case 'digits':
      return { key: 'field.digits' };
    case 'exact':
      return { key: 'field.exact', params: { min: problem.length } };
    case 'min':
      return { key: 'field.min', params: { min: problem.min } };
    case 'max':
      return { key: 'field.max', params: { max: problem.max } };
    case 'specificType':
      return { key: `field.${problem.type}` };
  }
}

/** The first rule of `field` that `value` breaks, or null. */
export function validateField(field: FieldRules, value: string): FieldError | null {
  const problem = fieldProblem(field, value);
  return problem ? fieldError(problem) : null;
}
