/**
 * The merchant API's request schemas (server to server, bearer secret). Payment-link bodies
 * reuse the provider's schemas, so every limit of the spec applies before anything is sent.
 */
import { z } from 'zod';
import { CHECKOUT_ISOLATIONS, CHECKOUT_MODES, CHECKOUT_STATES } from '../states.js';
import { amountCents, httpUrl, iban, trimmedText } from './primitives.js';
import * as links from './links.js';
import { checkoutStart, checkoutView } from './checkout.js';

export const createCheckoutBody = z
  .strictObject({
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
    expiresInMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .optional(),
    /**
     * `isolated` (the default, recommended): the payer's page gets a single-use launch token, and
     * only the BFF's own frame ever holds what opens the checkout. `inline`: the page gets the
     * client secret, which any script of the page can use (the weaker mode).
     */
    isolation: z.enum(CHECKOUT_ISOLATIONS).optional(),
  })
  .superRefine((b, ctx) => {
    // A periodic order's subject travels to the bank's mandate, which takes only letters, digits,
    // spaces and hyphens: refused now rather than when the payer has already chosen to pay so.
    if (b.modes?.includes('periodic') && !links.PERIODIC_SUBJECT.test(b.subject)) {
      ctx.addIssue({ code: 'custom', path: ['subject'], message: 'with the periodic mode, only letters, digits, spaces and hyphens' });
    }
  });
export type CreateCheckoutBody = z.infer<typeof createCheckoutBody>;

/** What the bank confirmed about a checkout left `unknown`, and a note of how it was checked (kept with the checkout). */
export const resolveBody = z.strictObject({
  outcome: z.enum(['succeeded', 'failed']),
  note: trimmedText(500).optional(),
});
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
  schema.safeExtend({ urlNotif: notSetByMerchant } as never).strict() as unknown as z.ZodObject<
    Omit<Shape, 'urlNotif'> & { urlNotif: typeof notSetByMerchant },
    z.core.$strict
  >;

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
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'two-letter country code')
    .optional(),
  enabled: z.enum(['0', '1']).optional(),
  periodic: z.enum(['0', '1']).optional(),
});

/** An opaque cursor of a list: the `next` of the page before. */
const cursor = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,512}$/, 'is not a cursor this API gave')
  .meta({ description: 'The `next` of the page before (opaque).' });

export const notificationsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: cursor.optional(),
});

export const checkoutsQuery = z.strictObject({
  /** Only checkouts in this state; without it, recent checkouts in any state. */
  state: z.enum(CHECKOUT_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: cursor.optional(),
  /**
   * The feed of every change instead of the list: checkouts whose last change comes after this
   * position, oldest change first (`0`: from the first change kept; then the `next` of the page
   * before). Takes no `state` or `cursor`.
   */
  after: z
    .string()
    .regex(/^(0|[A-Za-z0-9_-]{1,512})$/, 'is 0 or the next of the page before')
    .optional()
    .meta({
      description:
        'The feed of every change instead of the list: checkouts whose last change comes after this position, oldest change first (`0`: from the first change kept; then the `next` of the page before). Takes no `state` or `cursor`.',
    }),
});

export const idParam = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'unexpected characters');

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
  /** The merchant's decision on a checkout left `unknown`: the outcome the bank confirmed, when, and the note given. */
  resolution: z.object({ outcome: z.enum(['succeeded', 'failed']), at: z.string(), note: z.string().optional() }).optional(),
  /**
   * For a checkout left `unknown`, what the BFF knows to ask the bank or the provider with: the
   * call whose outcome is not known, when, why (it timed out, failed, or the instance making it
   * stopped), the bank and, once the bank gave one, the provider's transaction id.
   */
  inDoubt: z
    .object({
      call: z.string(),
      at: z.string(),
      why: z.enum(['timeout', 'fault', 'lease']),
      bank: z.object({ bankId: z.string(), label: z.string() }).optional(),
      providerTransactionId: z.string().optional(),
    })
    .optional(),
  /**
   * A payment at the bank's page whose signed result did not come: what the provider's order
   * query said (`OK`, `ERROR`, `PENDING`), when last asked, and whether that settled it or the
   * BFF gave up asking.
   */
  reconciliation: z.object({ checkedAt: z.string(), codStatus: z.string().optional(), done: z.enum(['found', 'gave-up']).optional() }).optional(),
  /** How the payer's page opens the checkout (`inline` for checkouts made before isolation existed). */
  isolation: z.enum(CHECKOUT_ISOLATIONS),
  /**
   * An isolated checkout's launches: when its frame last redeemed a launch token, and how many
   * times a browser other than the one the launch belongs to presented a token already redeemed
   * or replaced (someone else opened the checkout: each time is also a
   * `checkout.launch_refused` webhook event).
   */
  launch: z
    .object({
      redeemedAt: z.string().nullable(),
      refusals: z.number().int().nonnegative(),
      lastRefusedAt: z.string().nullable(),
    })
    .optional(),
});

export const checkoutsPage = z.object({
  checkouts: z.array(merchantCheckout),
  /**
   * A list: pass as `cursor` to read the next page; null on the last one. The feed (`after`):
   * pass as `after` to read on; never null (the same position when nothing changed since).
   */
  next: z.string().nullable().meta({
    description:
      'A list: pass as `cursor` to read the next page; null on the last one. The feed (`after`): pass as `after` to read on; never null (the same position when nothing changed since).',
  }),
});
export type MerchantCheckout = z.infer<typeof merchantCheckout>;

/** A launch token for the payer's page: single use, short lived, redeemed by the checkout's frame. */
export const launchTokenFields = {
  /** Put it in the page (`<bank-checkout launch-token>`): only the frame can redeem it, once. */
  launchToken: z.string(),
  /** When the token stops being redeemable (ISO 8601); the page gets a fresh one on each load. */
  launchExpiresAt: z.string(),
};

/**
 * A new checkout (201), or the same one again for a repeated Idempotency-Key (200; an isolated
 * one with a fresh launch token). Isolated: `launchToken`; inline: `clientSecret`.
 */
export const createdCheckout = merchantCheckout.extend({
  /** Inline checkouts only. Hand this to the payer's page only: it opens this one checkout. */
  clientSecret: z.string().optional(),
  launchToken: launchTokenFields.launchToken.optional(),
  launchExpiresAt: launchTokenFields.launchExpiresAt.optional(),
});
export type CreatedCheckout = z.infer<typeof createdCheckout>;

/**
 * POST /v1/checkouts/:id/launch: a fresh launch token for an isolated checkout (the page was
 * loaded again), with the checkout's state and modes as the page is written (`isolatedCheckoutHtml`
 * draws the bank list in the frame's page for a checkout that opens on it).
 */
export const checkoutLaunch = z.object({ id: z.string(), state: checkoutView.shape.state, modes: checkoutView.shape.modes, ...launchTokenFields });
export type CheckoutLaunch = z.infer<typeof checkoutLaunch>;

/** POST /v1/frame/launch (the checkout's frame, on the BFF's own origin): redeems a launch token. */
export const frameLaunchBody = z.strictObject({ token: z.string().min(1).max(256) });
/**
 * The frame's key: it lives only in the frame's memory and goes in `X-Checkout-Secret`, each call
 * with a proof of the key pair it is bound to (`DPoP`); `resumed` when this browser had the
 * checkout open already (a reload, Back, a second tab), which goes on where it was. `start` is the
 * first screen (the view, and the bank list when the view opens on it), so the frame draws it
 * without another call.
 */
export const frameLaunchAnswer = z.object({ key: z.string(), resumed: z.boolean(), start: checkoutStart });
export type FrameLaunchAnswer = z.infer<typeof frameLaunchAnswer>;

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
  /** Pass as `cursor` to read the next page; null on the last one. */
  next: z.string().nullable().meta({ description: 'Pass as `cursor` to read the next page; null on the last one.' }),
});

/* ---------- the webhook's events (what the BFF posts to MERCHANT_WEBHOOK_URL) ---------- */

const described = <S extends z.ZodType>(schema: S, description: string) => schema.meta({ description });

/** Where a change came from. */
export const CHANGE_SOURCES = ['native', 'notification', 'return', 'merchant', 'time', 'reconciliation'] as const;

/** `checkout.updated`: a checkout reached an outcome, or `unknown`, or left `unknown`; one event per ending. */
export const checkoutUpdatedData = z.object({
  checkoutId: z.string(),
  reference: described(z.string(), 'Your reference for the order.'),
  amount: described(z.number().int(), 'In cents.'),
  state: described(
    z.enum(CHECKOUT_STATES),
    "An outcome (`succeeded`, `failed`, `expired`, `cancelled`), or `unknown` (ask the bank, then resolve it). After `unknown` (`previousState`), the bank's late answer may also reopen a step the payer goes on from (`validate`, `select-account`): no money moved yet.",
  ),
  previousState: z.enum(CHECKOUT_STATES),
  source: described(
    z.enum(CHANGE_SOURCES),
    "What ended it: the payer's bank session (`native`), the provider's notification or the payer's return (`notification`, `return`), you (`merchant`: a cancel or a decision), or time (`time`).",
  ),
  mode: described(z.enum(CHECKOUT_MODES), '`periodic` with `succeeded` is a mandate the payer signed, not money received now.'),
  schedule: described(
    z.object({ frequency: z.string(), startDate: z.string(), endDate: z.string().optional() }),
    'A periodic order: when its payments run.',
  ).optional(),
});

/** `checkout.launch_refused`: a browser was refused the checkout's launch because another browser had taken it. */
export const launchRefusedData = z.object({
  checkoutId: z.string(),
  reference: z.string(),
  reason: described(
    z.enum(['launch_used', 'launch_replaced']),
    '`launch_used`: the token had already been redeemed, and another browser has the checkout. `launch_replaced`: a newer token of this checkout was redeemed in another browser before this one.',
  ),
  refusals: described(z.number().int(), 'How many times so far.'),
  at: described(z.string(), 'When (ISO 8601).'),
});

const eventOf = <T extends string, D extends z.ZodType>(type: T, data: D, description: string) =>
  z
    .object({
      id: described(z.string(), 'The event id (`evt_…`), the same on every retry: handle each once.'),
      type: z.literal(type),
      createdAt: described(z.string(), 'When the event was written, with the change it reports (ISO 8601).'),
      data,
    })
    .meta({ description });

/** Every event of the webhook, by its `type`. */
export const webhookEventBody = z.discriminatedUnion('type', [
  eventOf(
    'checkout.updated',
    checkoutUpdatedData,
    'A checkout reached an outcome (or `unknown`), or left `unknown`: one event per ending, your cancel included, and one for every change out of `unknown`.',
  ),
  eventOf(
    'notification.received',
    notificationEntry,
    'A new result of the payment-link service (links made with `POST /v1/links` included, with `checkoutId: null` and `outcome: unmatched`).',
  ),
  eventOf(
    'checkout.launch_refused',
    launchRefusedData,
    "A browser other than the one the checkout's launch belongs to presented a launch token already redeemed or replaced: someone else opened the checkout.",
  ),
]);
export type WebhookEventBody = z.output<typeof webhookEventBody>;
/** The list of types is the union's, no more and no less (checked when compiled). */
true satisfies [WebhookEventBody['type']] extends [(typeof WEBHOOK_EVENT_TYPES)[number]]
  ? [(typeof WEBHOOK_EVENT_TYPES)[number]] extends [WebhookEventBody['type']]
    ? true
    : false
  : false;

/* ---------- webhook events ---------- */

export const webhookEventsQuery = z.strictObject({
  status: z.enum(['pending', 'delivered', 'failed']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: cursor.optional(),
});

/** The webhook's event types (webhookEventBody says what each carries). */
export const WEBHOOK_EVENT_TYPES = ['checkout.updated', 'notification.received', 'checkout.launch_refused'] as const;

/** An event of the webhook and how its delivery went. */
export const webhookEventEntry = z.object({
  id: z.string(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
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
  /** Pass as `cursor` to read the next page; null on the last one. */
  next: z.string().nullable().meta({ description: 'Pass as `cursor` to read the next page; null on the last one.' }),
});

/* ---------- provider callbacks ---------- */

export const notificationAck = z.object({ received: z.literal(true), duplicate: z.boolean(), id: z.string() });

/**
 * The payer's return when the checkout has no page to go back to: the checkout's state as stored,
 * `unmatched` when it could not be read, `unverified` when the result posted was not signed right.
 */
export const RETURN_RESULTS = [...CHECKOUT_STATES, 'unmatched', 'unverified'] as const;
export const returnResult = z.object({ checkout: z.string(), result: z.enum(RETURN_RESULTS) });

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
