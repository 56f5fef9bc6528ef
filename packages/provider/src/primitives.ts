import { z } from 'zod';

export { iban, amountCents, isoDate, httpUrl } from '@bank-checkout/contract/schemas';
export { isValidIban, normalizeIban, isIsoDate, todayIn, PROVIDER_TIME_ZONE } from '@bank-checkout/contract';

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
  return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
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
