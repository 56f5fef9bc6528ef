/** zod schemas of the values both services and the merchant API share. Servers only. */
import { z } from 'zod';
import { isValidIban, normalizeIban } from '../rules/iban.js';
import { isIsoDate } from '../rules/dates.js';
import { textProblem } from '../rules/text.js';

/** The most a SEPA credit transfer carries: 999,999,999.99 in cents. */
export const MAX_AMOUNT_CENTS = 99_999_999_999;

/** Refuses control characters and broken Unicode (see rules/text.ts). */
export const cleanText = <S extends z.ZodString>(schema: S) =>
  schema.superRefine((v, ctx) => {
    const problem = textProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Text a person reads (subject, reference, names): trimmed, not empty, at most `max`, clean. */
export const trimmedText = (max: number) => cleanText(z.string().trim().min(1, 'must not be empty or only spaces').max(max, `at most ${max} characters`));

export const iban = z.string().max(42, 'IBAN too long').transform(normalizeIban).refine(isValidIban, 'must be a valid IBAN (ISO 13616 checksum)');

/** Amount in cents: a positive integer (the spec's "amount times 100, no decimals"). */
export const amountCents = z
  .number({ error: 'must be a number of cents' })
  .int('must be an integer number of cents (amount times 100, no decimals)')
  .positive('must be greater than zero')
  .max(MAX_AMOUNT_CENTS, 'at most 99999999999 cents (999,999,999.99, the most a SEPA transfer carries)');

export const isoDate = z.string().refine(isIsoDate, 'must be a date written YYYY-MM-DD');

/** A URL given to the provider: absolute http(s), at most 2000 characters. */
export const httpUrl = z
  .string()
  .max(2000, 'URL too long (max 2000 characters)')
  // The URL parser would silently drop tabs and line breaks; a URL holding any is refused.
  .refine((v) => !/[\s\u0000-\u001F\u007F]/.test(v), 'must not contain spaces or control characters')
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');
