/**
 * Spanish identity documents, the `specificType` values banks use, checked with the real
 * control-character algorithms.
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

/** The check letter of a DNI's 8 digits (or an NIE's digits with X/Y/Z as 0/1/2). */
export function dniLetter(digits: string): string {
  return DNI_LETTERS[Number(digits) % 23] ?? '';
}

/** Spanish DNI or NIE with a correct check letter; case ignored. */
export function isValidDniNie(input: string): boolean {
  const m = /^([XYZ]\d{7}|\d{8})([A-Z])$/.exec(input.toUpperCase());
  if (!m) return false;
  const body = m[1]!.replace(/^[XYZ]/, (l) => String('XYZ'.indexOf(l)));
  return dniLetter(body) === m[2];
}

/** The CIF control digit (0..9) of 7 digits; the letter form is `JABCDEFGHI`[digit]. */
export function cifControlDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(digits[i]);
    sum += i % 2 === 0 ? Math.floor((d * 2) / 10) + ((d * 2) % 10) : d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Spanish CIF with a correct control character; case ignored. */
export function isValidCif(input: string): boolean {
  const m = /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9A-J])$/.exec(input.toUpperCase());
  if (!m) return false;
  const [, org, digits, control] = m as unknown as [string, string, string, string];
  const digit = cifControlDigit(digits);
  const asDigit = control === String(digit);
  const asLetter = control === CIF_CONTROL_LETTERS[digit];
  if (CIF_LETTER_CONTROL.includes(org)) return asLetter;
  if (CIF_DIGIT_CONTROL.includes(org)) return asDigit;
  return asDigit || asLetter;
}

/** The `specificType` values with a known check. A type not listed passes: the bank checks it. */
export const SPECIFIC_TYPE_CHECKS = {
  DNI_NIE: isValidDniNie,
  CIF: isValidCif,
} as const satisfies Record<string, (value: string) => boolean>;
export type SpecificType = keyof typeof SPECIFIC_TYPE_CHECKS;

export function isSpecificType(name: string): name is SpecificType {
  return Object.hasOwn(SPECIFIC_TYPE_CHECKS, name);
}
