/**
 * The merchant API's request schemas (server to server, bearer secret). Payment-link bodies
 * reuse the provider's schemas, so every limit of the spec applies before anything is sent.
 */
import { z } from 'zod';
import { CHECKOUT_MODES } from '../states.js';
import { httpUrl, iban } from './primitives.js';
import * as links from './links.js';

export const createCheckoutBody = z.strictObject({
  amount: z.number().int('amount is in cents: a whole number').positive().max(99_999_999_99),
  /** 140 characters: what a SEPA transfer's remittance text holds, so both services accept it. */
  subject: z.string().min(1).max(140),
  reference: z.string().min(1).max(links.LIMITS.reference),
  holderDestiny: z.string().min(1).max(140).optional(),
  accountDestiny: iban.optional(),
  customData: z.string().max(links.LIMITS.customData).optional(),
  urlOk: httpUrl.optional(),
  urlError: httpUrl.optional(),
  modes: z
    .array(z.enum(CHECKOUT_MODES))
    .min(1)
    .max(3)
    .refine((m) => new Set(m).size === m.length, 'modes must not repeat')
    .optional(),
  expiresInMinutes: z.number().int().min(1).max(24 * 60).optional(),
});
export type CreateCheckoutBody = z.infer<typeof createCheckoutBody>;

export const resolveBody = z.strictObject({ outcome: z.enum(['succeeded', 'failed']) });
export type ResolveBody = z.infer<typeof resolveBody>;

const noNotif = <S extends z.ZodType<unknown, Record<string, unknown>>>(schema: S) =>
  z
    .custom<Record<string, unknown>>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), 'body must be a JSON object')
    .superRefine((v, ctx) => {
      if ('urlNotif' in v) ctx.addIssue({ code: 'custom', path: ['urlNotif'], message: 'is set by the BFF, which receives and verifies notifications' });
    })
    .pipe(schema);

export const linkBody = noNotif(links.signerRequest);
export const periodicLinkBody = (now: () => number) => noNotif(links.createPeriodicSignerRequest({ now }));
export const cancelPeriodicBody = noNotif(links.cancelPeriodicRequest);
export const legacyCommerceBody = noNotif(links.legacyCommerceSignerRequest);
export const legacyBusinessBody = noNotif(links.legacyBusinessSignerRequest);

/** Query of GET /v1/orders and /v1/legacy/debts. Dates as ms or YYYY-MM-DD. */
const instant = z
  .string()
  .regex(/^(\d{1,16}|\d{4}-\d{2}-\d{2})$/, 'must be a time in ms or a date YYYY-MM-DD')
  .transform((v) => (/^\d{4}-/.test(v) ? Date.parse(`${v}T00:00:00Z`) : Number(v)))
  .refine((v) => Number.isFinite(v), 'must be a valid date');

export const ordersQuery = (maxPageSize: number | null) =>
  z.strictObject({
    dateFrom: instant.optional(),
    dateTo: instant.optional(),
    page: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce
      .number()
      .int()
      .min(1)
      .max(maxPageSize ?? 1000)
      .default(links.LIMITS.pageSizeDefault),
    order: z.enum(['asc', 'desc']).default('desc'),
  });

export const linkBanksQuery = z.strictObject({
  country: z.string().regex(/^[A-Za-z]{2}$/, 'two-letter country code').optional(),
  enabled: z.enum(['0', '1']).optional(),
  periodic: z.enum(['0', '1']).optional(),
});

export const notificationsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: z.coerce.number().int().positive().optional(),
});

export const idParam = z.string().min(1).max(128).regex(/^[A-Za-z0-9_.:-]+$/, 'unexpected characters');
