/**
 * Schemas of the payment-link service (docs/provider.md, the payment-link service), the earlier variant
 * of the signer (variant 1 "Commerce", variant 2 "Business") and its `info/debts` and
 * `update/enable-disable-url` services included. The signer bodies are defined once, in the
 * contract package, and re-exported here.
 */
import { z } from 'zod';
import { LIMITS, paymentOrder, requiredText, typeError } from '@bank-checkout/contract/schemas';
import { wholeNumber } from './primitives.js';

export {
  LIMITS,
  PERIODIC_SUBJECT,
  signerRequest,
  legacyCommerceSignerRequest,
  legacyBusinessSignerRequest,
  createPeriodicSignerRequest,
  periodicSignerRequest,
  cancelPeriodicRequest,
  type SignerRequest,
  type LegacyCommerceSignerRequest,
  type LegacyBusinessSignerRequest,
  type PeriodicSignerRequest,
  type CancelPeriodicRequest,
  type DateRuleOptions,
} from '@bank-checkout/contract/schemas';

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
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'country must be a two-letter ISO 3166 code')
    .optional(),
});
export type BanksQuery = z.input<typeof banksQuery>;

export const banksResponse = z.object({ ...statusBase, total: z.number().int().nullish(), data: z.array(linkBank).nullish() });
export type BanksResponse = z.output<typeof banksResponse>;

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
    pageSize: (maxPageSize === null ? size : size.refine((v) => v <= maxPageSize, `pageSize: at most ${maxPageSize}`)).optional(),
    orderAsc: z.boolean({ error: typeError('orderAsc', 'true or false') }).optional(),
  });
}

export const paymentOrdersQuery = ordersQuery(LIMITS.pageSizeMax);
export type PaymentOrdersQuery = z.input<typeof paymentOrdersQuery>;
/** The earlier variant states no maximum page size. */
export const debtsQuery = ordersQuery(null);
export type DebtsQuery = z.input<typeof debtsQuery>;

// The order as the payment-orders query answers it is part of the merchant API's contract too.
export { codStatus, paymentOrder } from '@bank-checkout/contract/schemas';
export type { CodStatus, PaymentOrder } from '@bank-checkout/contract/schemas';

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
  /** A string in the spec; a number (`200`) is read as its digits. */
  status: z.union([z.string().trim().min(1).max(16), z.number().int().nonnegative().max(99_999_999).transform(String)]),
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
