/**
 * The merchant API's request schemas (server to server, bearer secret). Payment-link bodies
 * reuse the provider's schemas, so every limit of the spec applies before anything is sent.
 */
import { z } from 'zod';
import { CHECKOUT_MODES, CHECKOUT_STATES } from '../states.js';
import { amountCents, httpUrl, iban, trimmedText } from './primitives.js';
import * as links from './links.js';
import { checkoutView } from './checkout.js';

export const createCheckoutBody = z.strictObject({
  amount: amountCents,
  /** 140 characters: what a SEPA transfer's remittance text holds, so both services accept it. */
  subject: trimmedText(140),
  reference: trimmedText(links.LIMITS.reference),
  holderDestiny: trimmedText(140).optional(),
  accountDestiny: iban.optional(),
  customData: links.limited('customData', links.LIMITS.customData).optional(),
  urlOk: httpUrl.optional(),
  urlError: httpUrl.optional(),
  modes: z
    .array(z.enum(CHECKOUT_MODES))
    .min(1)
    .max(3)
    .refine((m) => new Set(m).size === m.length, 'modes must not repeat')
    .optional(),
  expiresInMinutes: z.number().int().min(1).max(24 * 60).optional(),
}).superRefine((b, ctx) => {
  // A periodic order's subject travels to the bank's mandate, which takes only letters, digits,
  // spaces and hyphens: refused now rather than when the payer has already chosen to pay so.
  if (b.modes?.includes('periodic') && !links.PERIODIC_SUBJECT.test(b.subject)) {
    ctx.addIssue({ code: 'custom', path: ['subject'], message: 'with the periodic mode, only letters, digits, spaces and hyphens' });
  }
});
export type CreateCheckoutBody = z.infer<typeof createCheckoutBody>;

export const resolveBody = z.strictObject({ outcome: z.enum(['succeeded', 'failed']) });
export type ResolveBody = z.infer<typeof resolveBody>;

/** `urlNotif` is the BFF's own receiver: a merchant body that sets it is refused. */
const notSetByMerchant = z
  .unknown()
  .refine(() => false, 'is set by the BFF, which receives and verifies notifications')
  .optional()
  .meta({ description: 'Set by the BFF, which receives and verifies notifications; refused when sent.' });

/** The provider's signer body, with `urlNotif` refused and any field it does not know refused too (a typo is never dropped). */
const noNotif = <Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) =>
  // safeExtend keeps the schema's own refinements (the periodic date rules).
  schema.safeExtend({ urlNotif: notSetByMerchant } as never).strict() as unknown as z.ZodObject<Omit<Shape, 'urlNotif'> & { urlNotif: typeof notSetByMerchant }, z.core.$strict>;

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

export const checkoutsQuery = z.strictObject({
  state: z.enum(CHECKOUT_STATES),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** `next` of the previous page. */
  before: z.coerce.number().int().positive().optional(),
});

export const idParam = z.string().min(1).max(128).regex(/^[A-Za-z0-9_.:-]+$/, 'unexpected characters');

/* ---------- responses (BFF → merchant's server) ---------- */

/** A checkout as the merchant sees it: the view plus link-service ids, never session data. */
export const merchantCheckout = checkoutView.extend({
  customData: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The payment link's id at the provider, once one was made. */
  idDebt: z.string().optional(),
  /** The provider's transaction of a link payment, once known. */
  providerTransactionId: z.string().optional(),
  /** A periodic order the payer set up: a mandate, not a payment now. */
  schedule: z.object({ frequency: z.string(), startDate: z.string(), endDate: z.string().optional() }).optional(),
});

export const checkoutsPage = z.object({
  checkouts: z.array(merchantCheckout),
  /** Pass as `before` to read the next page; null on the last one. */
  next: z.number().nullable(),
});
export type MerchantCheckout = z.infer<typeof merchantCheckout>;

/** A new checkout (201), or the same one again for a repeated Idempotency-Key (200). */
export const createdCheckout = merchantCheckout.extend({
  /** Hand this to the payer's page only: it opens this one checkout. */
  clientSecret: z.string(),
});
export type CreatedCheckout = z.infer<typeof createdCheckout>;

/** The provider's answer status; further fields of the provider pass through as they are. */
const providerStatus = { status: z.string(), description: z.string().nullish() };

export const signedLink = z.looseObject({ ...providerStatus, url: z.string().nullish(), idDebt: z.string().nullish() });
export type SignedLink = z.infer<typeof signedLink>;

export const legacySignedLink = signedLink.extend({ variant: z.enum(['commerce', 'business']) });

export const providerStatusAnswer = z.looseObject(providerStatus);

const pageInfo = {
  ...providerStatus,
  itemsReturned: z.number().int().nullish(),
  currentPage: z.number().int().nullish(),
  totalItems: z.number().int().nullish(),
  totalPages: z.number().int().nullish(),
};

export const paymentOrdersPage = z.looseObject({
  ...pageInfo,
  paymentOrders: z.array(links.paymentOrder.loose()).nullish(),
});

export const legacyDebtsPage = z.looseObject({
  ...pageInfo,
  listDebts: z.array(z.looseObject({ debtLongId: z.string(), enabled: z.boolean(), amount: z.number(), subject: z.string(), createAt: z.number() })).nullish(),
});

export const linkBanksAnswer = z.looseObject({
  ...providerStatus,
  total: z.number().int().nullish(),
  data: z
    .array(
      z.looseObject({
        bankId: z.string(),
        name: z.string(),
        country: z.string().nullish(),
        enabled: z.union([z.literal(0), z.literal(1)]),
        enabledPeriodicPayment: z.union([z.literal(0), z.literal(1)]).nullish(),
        frequencyPeriodicPayment: z.array(z.string()).nullish(),
      }),
    )
    .nullish(),
});

/** A stored result notification, without its signature and raw data. */
export const notificationEntry = z.object({
  id: z.string(),
  receivedAt: z.string(),
  verified: z.boolean(),
  status: z.string(),
  transactionId: z.string(),
  reference: z.string(),
  amount: z.number(),
  checkoutId: z.string().nullable(),
  /** `unreadable`: the provider's signature verified but the result could not be read (kept raw; the provider is asked to retry). */
  outcome: z.enum(['pending', 'applied', 'ignored', 'unmatched', 'unreadable']),
  /** What the payer's bank said of the result. */
  description: z.string().nullable(),
  /** The `customData` given when the link was made. */
  customData: z.string().nullable(),
  /** The IBAN that received the money. */
  accountDestiny: z.string().nullable(),
});

export const notificationsPage = z.object({
  notifications: z.array(notificationEntry),
  /** Pass as `before` to read the next page; null on the last one. */
  next: z.number().nullable(),
});

/* ---------- webhook events ---------- */

export const webhookEventsQuery = z.strictObject({
  status: z.enum(['pending', 'delivered', 'failed']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** `next` of the previous page. */
  before: z.coerce.number().int().positive().optional(),
});

/** An event of the webhook and how its delivery went. */
export const webhookEventEntry = z.object({
  id: z.string(),
  type: z.string(),
  createdAt: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  failedAt: z.string().nullable(),
  lastError: z.string().nullable(),
  /** What the webhook carries (`data` of the delivery). */
  data: z.unknown(),
});

export const webhookEventsPage = z.object({
  events: z.array(webhookEventEntry),
  /** Pass as `before` to read the next page; null on the last one. */
  next: z.number().nullable(),
});

/* ---------- provider callbacks ---------- */

export const notificationAck = z.object({ received: z.literal(true), duplicate: z.boolean(), id: z.string() });

/** The payer's return when the checkout has no page to go back to. */
export const returnResult = z.object({ checkout: z.string(), result: z.string() });

/* ---------- service ---------- */

export const healthAnswer = z.object({ ok: z.boolean() });

/** The OpenAPI 3.1 document of the BFF. */
export const openApiAnswer = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) });

/* ---------- the payers' funnel ---------- */

/** `GET /v1/funnel`: checkouts created from `from` (default: 7 days before `to`) to `to` (default: now). */
export const funnelQuery = z.strictObject({
  from: instant.optional(),
  to: instant.optional(),
});

/** How many checkouts reached each step (each counts at every step up to its furthest). */
const funnelCounts = z.object({
  started: z.number().int(),
  bankChosen: z.number().int(),
  signedIn: z.number().int(),
  confirmed: z.number().int(),
  paid: z.number().int(),
});

/** One bank's funnel (`bankId` null: checkouts that never reached a bank, or paid at the bank's page where the payer chose it). */
export const funnelRow = funnelCounts.extend({
  bankId: z.string().nullable(),
  bank: z.string().nullable(),
  /** Checkouts that ended unpaid (failed, cancelled, expired), by the furthest step they reached: where payers left. */
  left: funnelCounts.omit({ paid: true }),
  /** Checkouts still open (or waiting for reconciliation). */
  open: z.number().int(),
});
export type FunnelRow = z.infer<typeof funnelRow>;

export const funnelAnswer = z.object({
  from: z.string(),
  to: z.string(),
  total: funnelRow,
  /** Per bank, the most started first. */
  banks: z.array(funnelRow),
  /** More checkouts were created in the period than were counted (narrow the period). */
  truncated: z.boolean(),
});
export type FunnelAnswer = z.infer<typeof funnelAnswer>;
