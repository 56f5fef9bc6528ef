/**
 * IBAN rules (ISO 13616): the country lengths of the SWIFT registry, the ISO 7064 mod-97
 * check, and the first rule an IBAN breaks. Pure functions; the browser, the BFF, the provider
 * client and the simulator all use these.
 */

/** Longest IBAN of any country, without spaces. */
export const IBAN_MAX_LENGTH = 34;

/** IBAN length by country, from the SWIFT IBAN registry (country code and length, packed). */
const LENGTHS =
  'AD24AE23AL28AT20AZ28BA20BE16BG22BH22BR29BY28CH21CR22CY28CZ24DE22DK18DO28EE20EG29ES24FI18FO18FR27GB22GE22GI23GL18GR27GT28' +
  'HR21HU28IE22IL23IQ23IS26IT27JO30KW30KZ20LB28LC32LI21LT20LU20LV21MC27MD24ME22MK19MR27MT31MU30NL18NO15PK24PL28PS29PT25QA29' +
  'RO24RS22SA24SC31SE24SI19SK24SM27ST25SV28TL23TN24TR26UA29VA22VG24XK20';

let lengths: ReadonlyMap<string, number> | undefined;

/** The length of an IBAN of `country` (two letters), or null for a country not in the registry. */
export function ibanLength(country: string): number | null {
  lengths ??= new Map(Array.from(LENGTHS.matchAll(/([A-Z]{2})(\d\d)/g), (m) => [m[1]!, Number(m[2])] as const));
  return lengths.get(country.toUpperCase()) ?? null;
}

/** ISO 7064 mod 97 of a string of letters (A=10 … Z=35) and digits. */
export function mod97(text: string): number {
  let remainder = 0;
  for (const ch of text) {
    const value = parseInt(ch, 36);
    remainder = (value > 9 ? remainder * 100 + value : remainder * 10 + value) % 97;
  }
  return remainder;
}

/** The mod-97 check of a compact IBAN: true when the remainder is 1. */
export function ibanChecksumOk(compact: string): boolean {
  if (!/^[A-Z0-9]{5,}$/.test(compact)) return false;
  return mod97(compact.slice(4) + compact.slice(0, 4)) === 1;
}

/** The two check digits of an IBAN of `country` with this BBAN. */
export function ibanCheckDigits(country: string, bban: string): string {
  return String(98 - mod97(`${bban}${country.toUpperCase()}00`)).padStart(2, '0');
}

/** An IBAN as the services take it: white space removed, upper case. */
export function normalizeIban(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

/** The first rule a compact IBAN breaks, in the order a payer fixes them. */
export type IbanProblem = { rule: 'required' } | { rule: 'format' } | { rule: 'length'; country: string; length: number } | { rule: 'checksum' };

/**
 * The first rule a compact IBAN breaks, or null: required, the shape (country letters, two
 * check digits, 15–34 letters and digits), the country's length, then the checksum.
 */
export function ibanProblem(compact: string): IbanProblem | null {
  if (compact === '') return { rule: 'required' };
  if (!/^[A-Z]{2}\d\d[A-Z0-9]+$/.test(compact)) return { rule: 'format' };
  const country = compact.slice(0, 2);
  const length = ibanLength(country);
  if (length !== null && compact.length !== length) return { rule: 'length', country, length };
  if (compact.length < 15 || compact.length > IBAN_MAX_LENGTH) return { rule: 'format' };
  return ibanChecksumOk(compact) ? null : { rule: 'checksum' };
}

/** True for a valid IBAN, spaces and case aside. */
export function isValidIban(input: string): boolean {
  return ibanProblem(normalizeIban(input)) === null;
}
