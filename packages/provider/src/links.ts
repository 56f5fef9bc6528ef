/**
 * Schemas of the payment-link service (spec/payment-links-service.md), the earlier variant
 * of the signer (variant 1 "Commerce", variant 2 "Business") and its `info/debts` and
 * `update/enable-disable-url` services included.
 */
import { z } from 'zod';
import { amountCents, httpUrl, iban, isoDate, todayIn, wholeNumber, PROVIDER_TIME_ZONE } from './primitives.js';

export const LIMITS = {
  subject: 160,
  reference: 100,
  customRecipient: 200,
  customData: 4000,
  expireMinutesDefault: 30,
  expireMinutesMax: 259200,
  legacyCommerceValidityMinutes: 10,
  legacyBusinessExpireMinutesDefault: 259200,
  pageSizeDefault: 50,
  pageSizeMax: 300,
  firstPage: 1,
} as const;

/** Message of a field that is absent where a value is needed, or of another type. */
const typeError = (what: string, type: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${what} is required` : `${what} must be ${type}`;

const limited = (what: string, max: number) =>
  z.string({ error: typeError(what, 'a string') }).max(max, `${what}: at most ${max} characters`);
const requiredText = (what: string, max: number) => limited(what, max).min(1, `${what} is required`);

const subject = requiredText('subject', LIMITS.subject);
const reference = requiredText('reference', LIMITS.reference);
const customRecipient = limited('customRecipient', LIMITS.customRecipient);
const customData = limited('customData', LIMITS.customData);
const expireMinutes = z
  .number({ error: 'expireMinutes must be a number' })
  .int('expireMinutes must be a whole number of minutes')
  .min(1, 'expireMinutes must be at least 1')
  .max(LIMITS.expireMinutesMax, `expireMinutes: at most ${LIMITS.expireMinutesMax} (180 days)`);
/** Amount in cents: required or typed message first, then the cents rules. */
const amount = z.number({ error: typeError('amount', 'a number (the amount times 100)') }).pipe(amountCents);
/** An IBAN field: required or typed message first, then the IBAN rules. */
const ibanField = (what: string) => z.string({ error: typeError(what, 'a string') }).pipe(iban);
/** A YYYY-MM-DD field: required or typed message first, then the date rule. */
const dateField = (what: string) => z.string({ error: typeError(what, 'a string written YYYY-MM-DD') }).pipe(isoDate);
const partnerId = limited('partnerId', 64);
const holderDestiny = limited('holderDestiny', 140);

/** Periodic subjects: only alphanumerics (letters of any script, digits), spaces and hyphens. */
export const PERIODIC_SUBJECT = /^[\p{L}\p{N} -]+$/u;

const returnUrls = {
  urlOk: httpUrl.optional(),
  urlError: httpUrl.optional(),
  urlNotif: httpUrl.optional(),
};

/* ---------- 1. url/signer ---------- */

export const signerRequest = z.object({
  subject,
  amount,
  reference,
  ...returnUrls,
  expireMinutes: expireMinutes.optional(),
  customRecipient: customRecipient.optional(),
  customData: customData.optional(),
  partnerId: partnerId.optional(),
  holderDestiny: holderDestiny.optional(),
  accountDestiny: ibanField('accountDestiny').optional(),
});
export type SignerRequest = z.input<typeof signerRequest>;

/** Earlier variant 1: fixed destination tied to the API client; valid 10 minutes. */
export const legacyCommerceSignerRequest = z.object({
  subject,
  amount,
  reference,
  ...returnUrls,
  partnerId: partnerId.optional(),
});
export type LegacyCommerceSignerRequest = z.input<typeof legacyCommerceSignerRequest>;

/** Earlier variant 2: custom destination; expireMinutes defaults to and is capped at 180 days. */
export const legacyBusinessSignerRequest = legacyCommerceSignerRequest.extend({
  customRecipient: customRecipient.min(1, 'customRecipient is required'),
  holderDestiny: holderDestiny.min(1, 'holderDestiny is required'),
  accountDestiny: ibanField('accountDestiny'),
  expireMinutes: expireMinutes.optional(),
  customData: customData.optional(),
});
export type LegacyBusinessSignerRequest = z.input<typeof legacyBusinessSignerRequest>;

const statusBase = { status: z.string(), description: z.string().nullish() };

export const signerResponse = z.object({ ...statusBase, url: z.string().nullish(), idDebt: z.string().nullish() });
export type SignerResponse = z.output<typeof signerResponse>;

/* ---------- 2. banks ---------- */

export const linkBank = z.object({
  bankId: z.string(),
  name: z.string(),
  bankCodes: z.array(z.string()).nullish(),
  country: z.string().nullish(),
  enabled: z.union([z.literal(0), z.literal(1)]),
  enabledPeriodicPayment: z.union([z.literal(0), z.literal(1)]).nullish(),
  frequencyPeriodicPayment: z.array(z.string()).nullish(),
  bankGroupId: z.number().int().nullish(),
  bankGroupName: z.string().nullish(),
});
export type LinkBank = z.output<typeof linkBank>;

export const banksQuery = z.object({
  enabled: z.enum(['0', '1'], { error: 'enabled must be 0 or 1' }).optional(),
  enabledPeriodicPayment: z.enum(['0', '1'], { error: 'enabledPeriodicPayment must be 0 or 1' }).optional(),
  country: z.string().regex(/^[A-Za-z]{2}$/, 'country must be a two-letter ISO 3166 code').optional(),
});
export type BanksQuery = z.input<typeof banksQuery>;

export const banksResponse = z.object({ ...statusBase, total: z.number().int().nullish(), data: z.array(linkBank).nullish() });
export type BanksResponse = z.output<typeof banksResponse>;

/* ---------- 3. url/periodic-payment-signer ---------- */

export interface DateRuleOptions {
  /** Time zone in which "after the current date" is judged. Default Europe/Madrid. */
  timeZone?: string;
  now?: () => number;
}

/**
 * The periodic signer's body. The date rules depend on the clock, so the schema is built by a
 * factory; `periodicSignerRequest` is the one built with the real clock.
 */
export function createPeriodicSignerRequest(opts: DateRuleOptions = {}) {
  const timeZone = opts.timeZone ?? PROVIDER_TIME_ZONE;
  const now = opts.now ?? Date.now;
  return z
    .object({
      subject: subject.regex(PERIODIC_SUBJECT, 'subject: only letters, digits, spaces and hyphens'),
      amount,
      reference,
      frequency: requiredText('frequency', 32),
      debtorAccount: ibanField('debtorAccount'),
      startDate: dateField('startDate'),
      endDate: dateField('endDate').optional(),
      bankIdSelected: limited('bankIdSelected', 64).min(1).optional(),
      ...returnUrls,
      holderDestiny: holderDestiny.optional(),
      accountDestiny: ibanField('accountDestiny').optional(),
      expireMinutes: expireMinutes.optional(),
      customData: customData.optional(),
      partnerId: partnerId.optional(),
    })
    .superRefine((body, ctx) => {
      if (body.startDate <= todayIn(timeZone, now())) {
        ctx.addIssue({ code: 'custom', path: ['startDate'], message: 'startDate must be after the current date' });
      }
      if (body.endDate !== undefined && body.endDate < body.startDate) {
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'endDate must not be before startDate' });
      }
    });
}
export const periodicSignerRequest = createPeriodicSignerRequest();
export type PeriodicSignerRequest = z.input<typeof periodicSignerRequest>;

/* ---------- 4. url/cancel-periodic-payment-signer ---------- */

export const cancelPeriodicRequest = z.object({
  transactionId: requiredText('transactionId', 128),
  reference,
  ...returnUrls,
  expireMinutes: expireMinutes.optional(),
  customData: customData.optional(),
  partnerId: partnerId.optional(),
});
export type CancelPeriodicRequest = z.input<typeof cancelPeriodicRequest>;

/* ---------- 6. info/payment-orders and 8. info/debts ---------- */

/** A whole number given as a JSON number or a string of digits, with a message naming the field. */
const queryNumber = (what: string) =>
  z.union([z.number(), z.string()], { error: typeError(what, 'a whole number (a number or a string of digits)') }).pipe(wholeNumber(what));

function ordersQuery(maxPageSize: number | null) {
  const size = queryNumber('pageSize').refine((v) => v >= 1, 'pageSize must be at least 1');
  return z.object({
    dateFrom: queryNumber('dateFrom'),
    dateTo: queryNumber('dateTo').optional(),
    pageRequest: queryNumber('pageRequest').refine((v) => v >= LIMITS.firstPage, 'pageRequest: the first page is 1'),
    pageSize: (maxPageSize === null
      ? size
      : size.refine((v) => v <= maxPageSize, `pageSize: at most ${maxPageSize}`)
    ).optional(),
    orderAsc: z.boolean({ error: typeError('orderAsc', 'true or false') }).optional(),
  });
}

export const paymentOrdersQuery = ordersQuery(LIMITS.pageSizeMax);
export type PaymentOrdersQuery = z.input<typeof paymentOrdersQuery>;
/** The earlier variant states no maximum page size. */
export const debtsQuery = ordersQuery(null);
export type DebtsQuery = z.input<typeof debtsQuery>;

export const codStatus = z.enum(['OK', 'ERROR', 'PENDING']);
export type CodStatus = z.output<typeof codStatus>;

export const paymentOrder = z.object({
  idDebt: z.string(),
  enabled: z.boolean(),
  amount: z.number(),
  subject: z.string(),
  reference: z.string().nullish(),
  holderDestiny: z.string().nullish(),
  accountDestiny: z.string().nullish(),
  customRecipient: z.string().nullish(),
  customData: z.string().nullish(),
  urlLong: z.string().nullish(),
  urlShort: z.string().nullish(),
  urlShortClicks: z.number().nullish(),
  codStatus: codStatus,
  periodicOriginAccount: z.string().nullish(),
  periodicFrequency: z.string().nullish(),
  periodicStartDate: z.string().nullish(),
  periodicEndDate: z.string().nullish(),
  periodicExecutionRule: z.string().nullish(),
  periodicDayOfExecution: z.string().nullish(),
  createAt: z.number(),
  updateAt: z.number().nullish(),
  expireAt: z.number().nullish(),
});
export type PaymentOrder = z.output<typeof paymentOrder>;

const page = {
  ...statusBase,
  itemsReturned: z.number().int().nullish(),
  currentPage: z.number().int().nullish(),
  totalItems: z.number().int().nullish(),
  totalPages: z.number().int().nullish(),
};

export const paymentOrdersResponse = z.object({ ...page, paymentOrders: z.array(paymentOrder).nullish() });
export type PaymentOrdersResponse = z.output<typeof paymentOrdersResponse>;

export const urlShort = z.object({
  urlShortName: z.string(),
  clicks: z.number(),
  createAt: z.number(),
  updateAt: z.number().nullish(),
});

export const transaction = z.object({
  transactionLongId: z.string(),
  typeTransaction: z.union([z.literal(1), z.literal(2)]),
  amount: z.number(),
  holderOrigin: z.string().nullish(),
  accountOrigin: z.string().nullish(),
  reference: z.string().nullish(),
  subject: z.string().nullish(),
  codStatus: z.string(),
  descStatus: z.string().nullish(),
  createAt: z.number(),
  updateAt: z.number().nullish(),
});
export type Transaction = z.output<typeof transaction>;

export const debt = z.object({
  debtLongId: z.string(),
  createAt: z.number(),
  updateAt: z.number().nullish(),
  expireAt: z.number().nullish(),
  enabled: z.boolean(),
  partialsEnabled: z.boolean().nullish(),
  amount: z.number(),
  subject: z.string(),
  customRecipient: z.string().nullish(),
  customReference: z.string().nullish(),
  holderDestiny: z.string().nullish(),
  accountDestiny: z.string().nullish(),
  customData: z.string().nullish(),
  urlLong: z.string().nullish(),
  listUrlShort: z.array(urlShort).nullish(),
  listTransactions: z.array(transaction).nullish(),
});
export type Debt = z.output<typeof debt>;

export const debtsResponse = z.object({ ...page, listDebts: z.array(debt).nullish() });
export type DebtsResponse = z.output<typeof debtsResponse>;

/* ---------- 7. and 8. enable/disable ---------- */

export const enableDisableRequest = z.object({
  idDebt: requiredText('idDebt', 128),
  enable: z.boolean({ error: typeError('enable', 'true or false') }),
});
export type EnableDisableRequest = z.input<typeof enableDisableRequest>;

export const legacyEnableDisableRequest = z.object({
  idProvider: requiredText('idProvider', 128),
  enable: z.boolean({ error: typeError('enable', 'true or false') }),
});
export type LegacyEnableDisableRequest = z.input<typeof legacyEnableDisableRequest>;

export const statusResponse = z.object(statusBase);
export type StatusResponse = z.output<typeof statusResponse>;

/* ---------- result notification ---------- */

/** The object carried (Base64-encoded JSON) in a notification's `dataReturn`. */
export const dataReturn = z.object({
  status: z.string().min(1).max(16),
  description: z.string().max(1000).nullish(),
  transactionId: z.string().min(1).max(128),
  amount: z.number().int(),
  reference: z.string().max(LIMITS.reference),
  dateInitPayment: z.number(),
  accountDestiny: z.string().max(42).nullish(),
  customData: z.string().max(LIMITS.customData).nullish(),
  /** The `customRecipient` given at creation ("returned through urlNotif after payment"). */
  customRecipient: z.string().max(LIMITS.customRecipient).nullish(),
});
export type DataReturn = z.output<typeof dataReturn>;
