/** Formatters: pure functions from data to the text shown. */

const numberFormats = new Map<string, Intl.NumberFormat>();

/** An amount in cents as currency text in a locale (`1234, 'EUR', 'es'` → `12,34 €`). */
/**
 * Browsers whose Intl has no data for Basque or Galician would write amounts the US way; those
 * languages are written in Spain like Spanish (`1.234,50 €`), so that is what they fall back to.
 */
const FORMAT_FALLBACK: Record<string, string> = { eu: 'es-ES', gl: 'es-ES' };

/** `locale` when this browser's Intl knows it, else the fallback that writes numbers alike. */
export function numberLocale(locale: string): string {
  if (Intl.NumberFormat.supportedLocalesOf([locale]).length) return locale;
  return FORMAT_FALLBACK[locale.toLowerCase().split(/[-_]/)[0]!] ?? locale;
}

/**
 * Euros in the two built-in languages, as Intl writes them (`€1,234.50`; `1234,50 €`,
 * `12.345,50 €`), without Intl: a page's first `Intl.NumberFormat` reads the number data of
 * every language (15–50 ms on a cold page), which would fall in the checkout's first screen.
 */
function euros(cents: number, en: boolean): string {
  const digits = String(Math.abs(cents)).padStart(3, '0');
  const whole = digits.slice(0, -2);
  // Thousands grouped from four digits in English, from five in Spanish.
  const n = (whole.length > (en ? 3 : 4) ? whole.replace(/\B(?=(\d{3})+$)/g, en ? ',' : '.') : whole) + (en ? '.' : ',') + digits.slice(-2);
  // Negative, -0 included (1 / -0 is -Infinity).
  return (1 / cents < 0 ? '-' : '') + (en ? `€${n}` : `${n}\u00a0€`);
}

export function formatCents(cents: number, currency: string, locale: string): string {
  if (currency === 'EUR' && (locale === 'en' || locale === 'es') && Number.isInteger(cents) && Math.abs(cents) < 1e12) return euros(cents, locale === 'en');
  const id = `${locale}|${currency}`;
  let nf = numberFormats.get(id);
  if (!nf) {
    nf = new Intl.NumberFormat(numberLocale(locale), { style: 'currency', currency });
    numberFormats.set(id, nf);
  }
  return nf.format(cents / 100);
}

/** An IBAN in groups of four (`ES9121000418450200051332` → `ES91 2100 0418 4502 0005 1332`). */
export function formatIban(iban: string): string {
  return iban
    .replace(/\s+/g, '')
    .toUpperCase()
    .replace(/(.{4})(?=.)/g, '$1 ');
}

/** Seconds as `m:ss` (`87` → `1:27`); negative counts as zero. */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Text for matching: no accents, lower case, single spaces (`  Caixa  Galícia ` → `caixa galicia`). */
export function normalizeForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** A moment as the calendar of the payer's clock shows it (what `longDate` writes). */
export interface DateParts {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** The parts of a date on this device's clock. */
export const localParts = (d: Date): DateParts => ({
  year: d.getFullYear(),
  month: d.getMonth() + 1,
  day: d.getDate(),
  hour: d.getHours(),
  minute: d.getMinutes(),
});

/**
 * The Basque ending of a year (`2026ko`, `2025eko`): `-eko` after a number whose last word ends in
 * a consonant (bat, bost, hamar, hamabost: the years ending in 1, 5, 10 or 15 in each score, and
 * those ending in a hundred), `-ko` after one that ends in a vowel (bi, hiru, hogei, mila …).
 */
function basqueYear(year: number): string {
  const lastScore = year % 20;
  const consonant = year % 100 === 0 ? year % 1000 !== 0 : [1, 5, 10, 15].includes(lastScore);
  return `${year}${consonant ? 'eko' : 'ko'}`;
}

/**
 * A long date and time the kit writes itself, for the languages browsers often lack (or, for
 * Basque, write with the endings left open, `2026(e)ko azaroaren 25(a)`): Basque
 * `2026ko azaroaren 25a, 18:02`, Galician `25 de novembro de 2026, 18:02`. `months`: the
 * catalogue's twelve month names as the date writes them (Basque: `azaroaren`). Null for any
 * other language (Intl writes those).
 */
export function longDate(p: DateParts, locale: string, months: readonly string[]): string | null {
  const lang = locale.toLowerCase().split(/[-_]/)[0];
  const month = months[p.month - 1];
  if (!month || (lang !== 'eu' && lang !== 'gl')) return null;
  const time = `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
  return lang === 'eu' ? `${basqueYear(p.year)} ${month} ${p.day}a, ${time}` : `${p.day} de ${month} de ${p.year}, ${time}`;
}
