import { z } from 'zod';

/** IBAN: country, two check digits, up to 30 alphanumerics; ISO 13616 mod-97 checksum. */
export function isValidIban(input: string): boolean {
  const iban = input.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}

export function normalizeIban(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

export const iban = z
  .string()
  .max(42, 'IBAN too long')
  .transform(normalizeIban)
  .refine(isValidIban, 'must be a valid IBAN (ISO 13616 checksum)');

/** Amount in cents: a positive integer (the spec's "amount times 100, no decimals"). */
export const amountCents = z
  .number({ error: 'must be a number of cents' })
  .int('must be an integer number of cents (amount times 100, no decimals)')
  .positive('must be greater than zero')
  .max(Number.MAX_SAFE_INTEGER);

/** A calendar date written YYYY-MM-DD that exists. */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export const isoDate = z.string().refine(isIsoDate, 'must be a date written YYYY-MM-DD');

/**
 * Today's date (YYYY-MM-DD) in a time zone. The provider is in Spain, so rules such as
 * "startDate after the current date" use Europe/Madrid unless configured otherwise.
 */
export const PROVIDER_TIME_ZONE = 'Europe/Madrid';

export function todayIn(timeZone: string = PROVIDER_TIME_ZONE, now: number = Date.now()): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(now));
}

/** A URL given to the provider: absolute http(s), at most 2000 characters. */
export const httpUrl = z
  .string()
  .max(2000, 'URL too long (max 2000 characters)')
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');

/** True when a URL points at this machine or a private network (the spec's "local address"). */
export function isLocalUrl(value: string): boolean {
  let host: string;
  try {
    host = new URL(value).hostname.toLowerCase();
  } catch {
    return false;
  }
  // The URL parser has already normalised IPv4 forms (`2130706433`, `0x7f.1`) and IPv6 text.
  host = host.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  // An IPv4 address written as IPv6 (`::ffff:127.0.0.1` arrives as `::ffff:7f00:1`).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    host = [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  if (host.includes(':')) return host === '::1' || host === '::' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 127 ||
    a === 10 ||
    a === 0 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254)
  );
}

/**
 * Accepts a whole number given either as a JSON number or as a string of digits: the spec
 * types several numeric query fields as String (pageRequest, pageSize, dateFrom).
 */
export function wholeNumber(what: string) {
  return z
    .union([z.number(), z.string().regex(/^\d{1,16}$/, `${what} must be a whole number`)])
    .transform((v) => Number(v))
    .refine((v) => Number.isSafeInteger(v) && v >= 0, `${what} must be a whole number`);
}
