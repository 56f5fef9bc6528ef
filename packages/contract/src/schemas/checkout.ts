/**
 * The checkout API's contract: request bodies the elements send and the one view every
 * checkout response has. The same schemas validate the routes and generate the OpenAPI
 * document; the elements import only the inferred types.
 */
import { z } from 'zod';
import { CHECKOUT_MODES, CHECKOUT_STATES } from '../states.js';
import { CHECKOUT_ACTIONS } from '../actions.js';
import { API_ERROR_CODES, VIEW_ERROR_CODES, VIEW_MESSAGE_KEYS, type ViewMessageKey } from '../errors.js';
import { cleanText } from './primitives.js';
import { HANDOFF_STATES, KIT_LOCALES } from '../states.js';

/* ---------- request bodies (elements → BFF) ---------- */

/** Actions without data (cancel, redirect) take an empty object or no body. */
export const emptyBody = z.strictObject({});

// Credentials and codes are sent as typed (never trimmed), but never with a control character
// or bytes that were not UTF-8: those would reach the bank and cost the payer an attempt.
const value = (max: number) => cleanText(z.string().min(1, 'must not be empty').max(max, `at most ${max} characters`));
const id = value(128);
const fieldValues = z
  .record(z.string().max(64), cleanText(z.string().max(256, 'at most 256 characters')))
  .refine((r) => Object.keys(r).length <= 10, 'at most 10 fields');

export const loginBody = z.strictObject({ bankId: id, loginId: id, fields: fieldValues });
export type LoginBody = z.infer<typeof loginBody>;

export const secondLoginBody = z.strictObject({ value: value(64) });
export type SecondLoginBody = z.infer<typeof secondLoginBody>;

export const contractBody = z.strictObject({ contractId: id });
export type ContractBody = z.infer<typeof contractBody>;

export const transferBody = z.strictObject({ accountId: id });
export type TransferBody = z.infer<typeof transferBody>;

export const validateBody = z.strictObject({ values: fieldValues });
export type ValidateBody = z.infer<typeof validateBody>;

export const periodicBody = z.strictObject({
  bankId: id,
  frequency: value(32),
  debtorAccount: value(42),
  startDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD'),
  endDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
    .optional(),
});
export type PeriodicBody = z.infer<typeof periodicBody>;

/** Switches to another mode the merchant allowed. */
export const modeBody = z.strictObject({ mode: z.enum(CHECKOUT_MODES) });
export type ModeBody = z.infer<typeof modeBody>;

/** The bank the payer chose in the list, before its sign-in (one in maintenance too): for the merchant's funnel. */
export const bankChoiceBody = z.strictObject({ bankId: id });
export type BankChoiceBody = z.infer<typeof bankChoiceBody>;

/* ---------- the view (BFF → elements) ---------- */

/** A field to ask the payer, as the bank describes it (FieldBank). */
export const fieldView = z.object({
  fieldId: z.string(),
  label: z.string(),
  min: z.number().int().nullable(),
  max: z.number().int().nullable(),
  valueType: z.enum(['alfanumeric', 'numeric']),
  specificType: z.string().nullable(),
  password: z.boolean(),
  /** Only in sandbox mode: a value the simulated bank accepts. */
  testValue: z.string().optional(),
});
export type FieldView = z.infer<typeof fieldView>;

export const loginTypeView = z.object({
  loginId: z.string(),
  label: z.string(),
  active: z.boolean(),
  fields: z.array(fieldView),
});
export type LoginTypeView = z.infer<typeof loginTypeView>;

export const bankView = z.object({
  bankId: z.string(),
  /** 0 natural person, 1 legal person. */
  type: z.union([z.literal(0), z.literal(1)]),
  label: z.string(),
  active: z.boolean(),
  defaultLogin: z.string(),
  logins: z.array(loginTypeView),
});
export type BankView = z.infer<typeof bankView>;

export const bankGroupView = z.object({
  group: z.string(),
  name: z.string(),
  defaultType: z.string(),
  types: z.array(bankView),
});
export type BankGroupView = z.infer<typeof bankGroupView>;

export const banksResponse = z.object({ groups: z.array(bankGroupView) });
export type BanksResponse = z.infer<typeof banksResponse>;

/** A bank of the payment-link service that allows periodic payments. */
export const periodicBankView = z.object({
  bankId: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  frequencies: z.array(z.string()),
  groupId: z.number().int().nullable(),
  groupName: z.string().nullable(),
});
export type PeriodicBankView = z.infer<typeof periodicBankView>;

export const validationView = fieldView.extend({
  /** 0 SIGNATURE … 6 INDIRECT_IN_OTHER_DEVICE. */
  type: z.number().int().min(0).max(6),
  /** What the bank shows: a coordinate position, or a card image as a data: URL (type 5). */
  value: z.string().nullable(),
});
export type ValidationView = z.infer<typeof validationView>;

const bankRef = z.object({ bankId: z.string(), label: z.string() });

export const stepView = z.discriminatedUnion('state', [
  z.object({ state: z.literal('select-bank') }),
  /** A login was tried and must be tried again for this bank. */
  z.object({ state: z.literal('login'), bank: bankView }),
  z.object({
    state: z.literal('second-login'),
    bank: bankRef,
    /** 1 SMS code, 2 coordinates card position, 3 token from the bank's app. */
    type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    /** What the bank shows, such as the coordinate asked for. */
    value: z.string().nullable(),
    field: fieldView,
  }),
  z.object({
    state: z.literal('select-contract'),
    bank: bankRef,
    contracts: z.array(z.object({ contractId: z.string(), info: z.string() })),
  }),
  z.object({
    state: z.literal('select-account'),
    bank: bankRef,
    /** `refused`: the bank refused a transfer from this account in this checkout. */
    accounts: z.array(z.object({ accountId: z.string(), info: z.string(), balance: z.number().nullable(), refused: z.boolean().optional() })),
    /**
     * Where the back action leads: the contracts (the bank session goes on), or this bank's
     * sign-in (the bank session ends).
     */
    back: z.enum(['select-contract', 'login']).optional(),
    /** The account the payer chose for a transfer that did not go through in time: it stays chosen. */
    chosen: z.string().optional(),
  }),
  z.object({
    state: z.literal('validate'),
    bank: bankRef,
    /** 1 for the first round of validations, 2 for a further one … */
    round: z.number().int().positive(),
    /** ISO instant after which the bank cancels the transfer (90 s after transfer init). */
    deadline: z.string(),
    validations: z.array(validationView),
  }),
  z.object({
    state: z.literal('redirect'),
    url: z.string(),
    /**
     * The last link for the payer's phone (`POST /v1/checkout/handoff`): still `open`, `used` (the
     * phone went on to the bank's page with it), or `expired`. Absent before any.
     */
    handoff: z.object({ state: z.enum(HANDOFF_STATES), expiresAt: z.string() }).optional(),
  }),
  z.object({
    state: z.literal('periodic'),
    banks: z.array(periodicBankView),
    /** Set when the bank list could not be read from the provider: reading the view again retries. */
    banksError: z.enum(['upstream', 'upstream_timeout']).optional(),
  }),
  z.object({
    state: z.literal('succeeded'),
    /** When the payment was confirmed (ISO instant). */
    paidAt: z.string().optional(),
    /** The receipt's paying bank, when the payment was made at a bank the checkout knows. */
    payingBank: z.string().optional(),
    /** The account paid from, masked (`ES •••• 2345`), when the bank showed it. */
    account: z.string().optional(),
    /**
     * The payment's reference at the provider, for the payer's receipt: a short code made from the
     * provider's operation id (which itself never leaves the BFF); the merchant's view of the
     * checkout carries the same code.
     */
    bankReference: z.string().optional(),
  }),
  z.object({ state: z.literal('failed') }),
  z.object({ state: z.literal('expired') }),
  z.object({ state: z.literal('cancelled') }),
  z.object({ state: z.literal('unknown') }),
]);
export type StepView = z.infer<typeof stepView>;

export const checkoutView = z.object({
  id: z.string(),
  state: z.enum(CHECKOUT_STATES),
  mode: z.enum(CHECKOUT_MODES),
  /** The modes the merchant allowed for this checkout; the payer may switch between them. */
  modes: z.array(z.enum(CHECKOUT_MODES)),
  /** In cents. */
  amount: z.number().int(),
  currency: z.literal('EUR'),
  subject: z.string(),
  reference: z.string(),
  payee: z.object({ name: z.string(), iban: z.string().nullable() }),
  expiresAt: z.string(),
  sandbox: z.boolean(),
  /** Failed login or validation attempts left before the checkout fails. */
  attemptsLeft: z.number().int().nonnegative(),
  /** The actions the payer may take now, from the BFF's transition table. */
  actions: z.array(z.enum(CHECKOUT_ACTIONS)),
  step: stepView,
  /**
   * A call with the bank is under way for this checkout (the payer's action, from this window or
   * another): the view is the step before its answer. The payer waits ("confirming with your
   * bank" for a transfer or a confirmation) and reads the checkout again.
   */
  inFlight: z.enum(CHECKOUT_ACTIONS).optional(),
  /**
   * With `inFlight`, once the instance that holds the call has stopped answering for it (its
   * lease ran out without a renewal): when the wait ends at the latest. The step opens again
   * then (a confirmation's outcome becomes `unknown`, to be reconciled); the payer is told so
   * rather than left to wait with no word.
   */
  inFlightUntil: z.string().optional(),
  error: z
    .object({
      /** A provider code (B100…) or a BFF code (expired, deadline, …). */
      code: z.enum(VIEW_ERROR_CODES),
      /** Key into the elements' message catalogues, e.g. `error.B100`. */
      message: z.enum(VIEW_MESSAGE_KEYS as [ViewMessageKey, ...ViewMessageKey[]]),
    })
    .optional(),
});
export type CheckoutView = z.infer<typeof checkoutView>;

/**
 * `GET /v1/checkout/start`: the view and, when it opens on the native bank list, that list too
 * (one round trip before the list shows instead of two). `banks` is null otherwise, or when the
 * list could not be had (then `GET /v1/banks` tells why).
 */
export const checkoutStart = z.object({ view: checkoutView, banks: banksResponse.nullable() });
export type CheckoutStart = z.infer<typeof checkoutStart>;

/**
 * `POST /v1/checkout/handoff`: `locale` is the language of the page the link opens on the phone
 * (the checkout's); without it, the phone's own.
 */
export const handoffBody = z.strictObject({ locale: z.enum(KIT_LOCALES).optional() });
export type HandoffBody = z.infer<typeof handoffBody>;

/**
 * `POST /v1/checkout/handoff`: a link for the payer's phone while the checkout waits at the
 * bank's page. It opens nothing but that page: opening it shows a page with one button, whose
 * POST the BFF answers once, before `expiresAt`, with a redirect to the bank's page of this
 * checkout (a preview or a `HEAD` spends nothing); it never opens the checkout API.
 */
export const handoffAnswer = z.object({ url: z.string(), expiresAt: z.string() });
export type HandoffAnswer = z.infer<typeof handoffAnswer>;

/** Every BFF error body. */
export const errorBody = z.object({
  error: z.object({
    code: z.enum(API_ERROR_CODES),
    message: z.string(),
    requestId: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
  /**
   * With `stale_step` (409): the checkout as it is now. The action was for a step the checkout
   * has left (another window moved it on); the page shows this view instead.
   */
  view: checkoutView.optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;
