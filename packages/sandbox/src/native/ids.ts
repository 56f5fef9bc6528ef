/**
 * The `specificType` values of the catalogue (checked by the contract's rules), each with the
 * rule its E301 answers state.
 */
import type { SpecificType } from '@bank-checkout/contract';

export const SPECIFIC_TYPE_RULES: Readonly<Record<SpecificType, string>> = {
  DNI_NIE: 'must be a DNI (8 digits and check letter) or NIE (X/Y/Z, 7 digits and check letter) with a correct check letter',
  CIF: 'must be a CIF (organisation letter, 7 digits and control character) with a correct control character',
};
