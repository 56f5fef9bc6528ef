/**
 * The signer bodies of the payment-link service (docs/provider.md, the payment-link service): simple,
 * periodic, periodic cancellation and the earlier variant's two signers, with every limit of
 * the spec. The merchant API takes these same bodies (less `urlNotif`, which the BFF sets), and
 * the provider's client validates its requests with them: one definition for both.
 */
import { z } from 'zod';
import { amountCents, cleanText, httpUrl, iban, isoDate } from './primitives.js';
import { todayIn, PROVIDER_TIME_ZONE } from '../rules/dates.js';

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
export const typeError = (what: string, type: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${what} is required` : `${what} must be ${type}`;

/** Optional text: at most `max` characters, no control characters or broken Unicode. */
export const limited = (what: string, max: number) =>
  cleanText(z.string({ error: typeError(what, 'a string') }).max(max, `${what}: at most ${max} characters`));
/** Required text: trimmed, and not empty once trimmed. */
export const requiredText = (what: string, max: number) =>
  cleanText(
    z
      .string({ error: typeError(what, 'a string') })
      .trim()
      .max(max, `${what}: at most ${max} characters`)
      .min(1, `${what} is required (not only spaces)`),
  );

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

/* ---------- payment orders (answers of the orders query) ---------- */

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
  /** Not in the spec: the simulator adds it once a periodic order is authorised or cancelled. */
  periodicStatus: z.string().nullish(),
  createAt: z.number(),
  updateAt: z.number().nullish(),
  expireAt: z.number().nullish(),
});
export type PaymentOrder = z.output<typeof paymentOrder>;
