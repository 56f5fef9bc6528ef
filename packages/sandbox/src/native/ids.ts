/**
 * The `specificType` values of the catalogue: the contract's checks, each with the rule its
 * E301 answers state.
 */
import { isValidCif, isValidDniNie } from '@bank-checkout/contract';

export const SPECIFIC_TYPES = {
  DNI_NIE: { check: isValidDniNie, rule: 'must be a DNI (8 digits and check letter) or NIE (X/Y/Z, 7 digits and check letter) with a correct check letter' },
  CIF: { check: isValidCif, rule: 'must be a CIF (organisation letter, 7 digits and control character) with a correct control character' },
} as const;
export type SpecificType = keyof typeof SPECIFIC_TYPES;

export function isSpecificType(name: string): name is SpecificType {
  return Object.hasOwn(SPECIFIC_TYPES, name);
}
