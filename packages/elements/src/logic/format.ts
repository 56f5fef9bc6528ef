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
