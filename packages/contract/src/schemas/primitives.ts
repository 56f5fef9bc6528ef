/** zod schemas of the values both services and the merchant API share. Servers only. */
import { z } from 'zod';
import { isValidIban, normalizeIban } from '../rules/iban.js';
import { isIsoDate } from '../rules/dates.js';

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

export const isoDate = z.string().refine(isIsoDate, 'must be a date written YYYY-MM-DD');

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
