/**
 * Spanish identity-document formats used as `specificType` by the simulated banks, checked
 * with the real control-character algorithms.
 *
 * - `DNI_NIE`: a DNI (8 digits and a check letter) or an NIE (X, Y or Z, 7 digits and a
 *   check letter). The letter is `TRWAGMYFPDXBNJZSQVHLCKE`[number mod 23], where an NIE's
 *   leading X/Y/Z counts as 0/1/2.
 * - `CIF`: a legal person's tax id: an organisation letter, 7 digits and a control character
 *   (a digit or a letter of `JABCDEFGHI`), computed from the 7 digits.
 */

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const CIF_CONTROL_LETTERS = 'JABCDEFGHI';
/** Organisation letters whose control character must be a letter. */
const CIF_LETTER_CONTROL = 'NPQRSW';
/** Organisation letters whose control character must be a digit. */
const CIF_DIGIT_CONTROL = 'ABEH';

export function dniLetter(digits: string): string {
  return DNI_LETTERS[Number(digits) % 23] ?? '';
}

export function isValidDniNie(input: string): boolean {
  const v = input.toUpperCase();
  const m = /^([XYZ]\d{7}|\d{8})([A-Z])$/.exec(v);
  if (!m) return false;
  const body = m[1]!.replace(/^[XYZ]/, (l) => String('XYZ'.indexOf(l)));
  return dniLetter(body) === m[2];
}

/** The CIF control digit (0..9) of 7 digits; the letter form is `JABCDEFGHI`[digit]. */
export function cifControlDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(digits[i]);
    if (i % 2 === 0) {
      const doubled = d * 2;
      sum += Math.floor(doubled / 10) + (doubled % 10);
    } else {
      sum += d;
    }
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidCif(input: string): boolean {
  const v = input.toUpperCase();
  const m = /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9A-J])$/.exec(v);
  if (!m) return false;
  const [, org, digits, control] = m as unknown as [string, string, string, string];
  const digit = cifControlDigit(digits);
  const asDigit = control === String(digit);
  const asLetter = control === CIF_CONTROL_LETTERS[digit];
  if (CIF_LETTER_CONTROL.includes(org)) return asLetter;
  if (CIF_DIGIT_CONTROL.includes(org)) return asDigit;
  return asDigit || asLetter;
}

/** The `specificType` values of the catalogue, each with its check and the rule it states. */
export const SPECIFIC_TYPES = {
  DNI_NIE: { check: isValidDniNie, rule: 'must be a DNI (8 digits and check letter) or NIE (X/Y/Z, 7 digits and check letter) with a correct check letter' },
  CIF: { check: isValidCif, rule: 'must be a CIF (organisation letter, 7 digits and control character) with a correct control character' },
} as const;
export type SpecificType = keyof typeof SPECIFIC_TYPES;

export function isSpecificType(name: string): name is SpecificType {
  return Object.hasOwn(SPECIFIC_TYPES, name);
}
