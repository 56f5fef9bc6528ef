/**
 * Schemas of the native bank-session service (docs/provider.md, the native service).
 *
 * Resource schemas are lenient where the provider may send `null` for an absent optional
 * field; request schemas are strict (an optional field may only be absent or `null`) and carry
 * the limits the simulator and the BFF enforce.
 */
import { z } from 'zod';
import { amountCents } from './primitives.js';

const text = (max: number) => z.string({ error: 'must be a string' }).max(max, `at most ${max} characters`);
/**
 * An optional String of a request: absent, or `null` (how many clients write "not given",
 * and how the service itself writes an absent String), means not given; parsed to undefined.
 */
const optionalText = (max: number) =>
  text(max)
    .nullish()
    .transform((v) => v ?? undefined);
const required = (what: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${what} is required` : `${what} must be a string`) })
    .min(1, `${what} is required`)
    .max(max, `${what}: at most ${max} characters`);

/** Numbers and strings both appear for numeric enumerations; normalise to a number. */
const smallInt = z.union([z.number().int(), z.string().regex(/^\d{1,3}$/)]).transform(Number);

export const fieldBank = z.object({
  fieldId: z.string(),
  min: z.number().int().nonnegative().nullish(),
  max: z.number().int().positive().nullish(),
  valueType: z.enum(['alfanumeric', 'numeric']).catch('alfanumeric'),
  specificType: z.string().nullish(),
  password: z.boolean().nullish(),
  label: z.string(),
  testValue: z.string().nullish(),
});
export type FieldBank = z.output<typeof fieldBank>;

export const loginType = z.object({
  loginId: z.string(),
  label: z.string(),
  active: z.boolean(),
  fields: z.array(fieldBank),
});
export type LoginType = z.output<typeof loginType>;

export const bankType = z.object({
  bankId: z.string(),
  type: z.union([z.literal(0), z.literal(1)]),
  label: z.string(),
  active: z.boolean(),
  defaultLogin: z.string(),
  logins: z.array(loginType),
});
export type BankType = z.output<typeof bankType>;

export const bankGroup = z.object({
  group: z.string(),
  name: z.string(),
  defaultType: z.string(),
  types: z.array(bankType),
});
export type BankGroup = z.output<typeof bankGroup>;

export const contract = z.object({ contractId: z.string(), contractInfo: z.string() });
export type Contract = z.output<typeof contract>;

export const account = z.object({
  accountId: z.string(),
  accountInfo: z.string(),
  amount: z.number().nullish(),
});
export type Account = z.output<typeof account>;

export const validationBank = fieldBank.extend({
  type: smallInt.pipe(z.number().int().min(0).max(6)),
  value: z.string().nullish(),
  valueFromUser: z.string().nullish(),
});
export type ValidationBank = z.output<typeof validationBank>;

/* ---------- requests ---------- */

export const loginRequest = z.object({
  bankId: required('bankId', 64),
  userId: required('userId', 128),
  userSecret: required('userSecret', 128),
  userExtraField: optionalText(128),
});
export type LoginRequest = z.input<typeof loginRequest>;

const SECOND_LOGIN_TYPE = 'secondLoginType must be 1, 2 or 3';
export const secondLoginRequest = z.object({
  sessionId: required('sessionId', 128),
  secondLoginType: z
    .union([z.string().regex(/^[123]$/, SECOND_LOGIN_TYPE), z.literal(1), z.literal(2), z.literal(3)], {
      error: SECOND_LOGIN_TYPE,
    })
    .transform(String),
  valueFromUser: required('valueFromUser', 64),
});
export type SecondLoginRequest = z.input<typeof secondLoginRequest>;

export const accountsRequest = z.object({
  sessionId: required('sessionId', 128),
  contractId: optionalText(128),
});
export type AccountsRequest = z.input<typeof accountsRequest>;

export const transferInitRequest = z.object({
  sessionId: required('sessionId', 128),
  holderOrigin: optionalText(140),
  accountIdOrigin: required('accountIdOrigin', 128),
  amount: amountCents,
  subject: required('subject', 140),
  holderDestiny: required('holderDestiny', 140),
  accountDestiny: required('accountDestiny', 42),
});
export type TransferInitRequest = z.input<typeof transferInitRequest>;

/** A validation entry sent back to the bank: its descriptor with `valueFromUser` filled. */
export const validationAnswer = validationBank.partial().extend({
  label: z.string().nullish(),
  fieldId: required('fieldId', 64),
  type: smallInt.pipe(z.number().int().min(0).max(6)),
  valueFromUser: required('valueFromUser', 64),
});
export type ValidationAnswer = z.input<typeof validationAnswer>;

export const transferValidateRequest = z.object({
  sessionId: required('sessionId', 128),
  validations: z.array(validationAnswer).min(1, 'validations must hold at least one entry').max(10),
});
export type TransferValidateRequest = z.input<typeof transferValidateRequest>;

/* ---------- responses ---------- */

const base = { status: z.string(), description: z.string().nullish() };

/**
 * The login and second-login responses name their text `descripción`; both spellings are
 * accepted and exposed as `description`.
 */
function preferDescription(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const { descripción: d, ...rest } = value as Record<string, unknown>;
    return { ...rest, description: rest.description ?? d ?? null };
  }
  return value;
}

export const banksListResponse = z.object({ ...base, listBanks: z.array(bankGroup).nullish() });
export type BanksListResponse = z.output<typeof banksListResponse>;

export const loginResponse = z.preprocess(
  preferDescription,
  z.object({
    ...base,
    sessionId: z.string().nullish(),
    listContracts: z.array(contract).nullish(),
    secondLoginType: smallInt.pipe(z.number().int().min(1).max(3)).nullish(),
    secondLoginValue: z.string().nullish(),
    secondLoginField: fieldBank.nullish(),
  }),
);
export type LoginResponse = z.output<typeof loginResponse>;

export const secondLoginResponse = z.preprocess(
  preferDescription,
  z.object({
    ...base,
    sessionId: z.string().nullish(),
    listContracts: z.array(contract).nullish(),
  }),
);
export type SecondLoginResponse = z.output<typeof secondLoginResponse>;

export const accountsResponse = z.object({
  ...base,
  sessionId: z.string().nullish(),
  listAccounts: z.array(account).nullish(),
});
export type AccountsResponse = z.output<typeof accountsResponse>;

export const transferResponse = z.object({
  ...base,
  sessionId: z.string().nullish(),
  transactionId: z.string().nullish(),
  validations: z.array(validationBank).nullish(),
});
export type TransferResponse = z.output<typeof transferResponse>;
