/**
 * The pieces the simulated banks of the catalogue are built from: the behaviour a bank has
 * beyond what `banks/list` shows, and builders of fields, login types, accounts and
 * validations with the rules the contract states.
 */
import type { BankType, Contract, FieldBank, LoginType, NativeErrorCode } from '@bank-checkout/provider';
import { cifControlDigit, ibanCheckDigits } from '@bank-checkout/contract';

/* ---------- behaviour types ---------- */

export type RefusalCode = Extract<NativeErrorCode, 'B101' | 'B106' | 'B107'>;

export interface SimAccount {
  accountId: string;
  name: string;
  iban: string;
  /** Balance in cents (like transfer amounts); null when the bank does not give it. */
  balance: number | null;
  /** Set for the accounts of a multi-contract bank. */
  contractId?: string;
  /** transfer/init from this account answers this code. */
  refusal?: RefusalCode;
}

export type ValidationKind = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** A validation a bank asks for; types 2, 3 and 5 get their position, value and test value when issued. */
export interface ValidationSpec {
  type: ValidationKind;
  fieldId: string;
  label: string;
  min: number;
  max: number;
  valueType: 'numeric' | 'alfanumeric';
  password: boolean;
  /** Shown to the payer (a phone hint, an instruction); null when the type needs none. */
  value: string | null;
  /** The accepted value, for the types whose value does not depend on a position. */
  testValue: string | null;
}

export interface SecondLoginSpec {
  type: 1 | 2 | 3;
  /** `secondLoginValue` for types 1 and 3; type 2 asks a card position instead. */
  value: string | null;
  field: FieldBank;
}

export interface SimBank {
  bank: BankType;
  secondLogin?: SecondLoginSpec;
  /** Present for multi-contract banks: login returns them and accounts/list needs one. */
  contracts?: Contract[];
  accounts: SimAccount[];
  /** Validation rounds of a transfer: each round is answered in one transfer/validate call. */
  rounds: ValidationSpec[][];
}

/* ---------- builders ---------- */

interface Rules {
  min: number;
  max: number;
  numeric?: boolean;
  password?: boolean;
  specificType?: 'DNI_NIE' | 'CIF';
}

export function field(fieldId: string, label: string, r: Rules, testValue: string): FieldBank {
  return {
    fieldId,
    min: r.min,
    max: r.max,
    valueType: r.numeric ? 'numeric' : 'alfanumeric',
    specificType: r.specificType ?? null,
    password: r.password ?? false,
    label,
    testValue,
  };
}

export const dniField = (testValue: string, label = 'DNI / NIE') => field('userId', label, { min: 9, max: 9, specificType: 'DNI_NIE' }, testValue);
export const cifField = (testValue: string) => field('userId', 'CIF de la empresa', { min: 9, max: 9, specificType: 'CIF' }, testValue);
export const pinField = (testValue: string, min = 4, max = 8) => field('userSecret', 'Clave de acceso', { min, max, numeric: true, password: true }, testValue);
export const passwordField = (testValue: string, min = 6, max = 20) => field('userSecret', 'Contraseña', { min, max, password: true }, testValue);

export function login(loginId: string, label: string, fields: FieldBank[], active = true): LoginType {
  return { loginId, label, active, fields };
}

export function bank(bankId: string, type: 0 | 1, label: string, logins: LoginType[], active = true): BankType {
  return { bankId, type, label, active, defaultLogin: logins[0]!.loginId, logins };
}

/** A Spanish IBAN from its 20-digit national part, with the ISO 13616 check digits. */
function esIban(bban: string): string {
  return `ES${ibanCheckDigits('ES', bban)}${bban}`;
}

export function account(accountId: string, name: string, bban: string, balance: number | null, extra: Partial<SimAccount> = {}): SimAccount {
  return { accountId, name, iban: esIban(bban), balance, ...extra };
}

export function cif(org: string, digits: string): string {
  return `${org}${digits}${cifControlDigit(digits)}`;
}

type Numeric = { numeric?: boolean; min?: number; max?: number; password?: boolean };
export function validation(
  type: ValidationKind,
  fieldId: string,
  label: string,
  testValue: string | null,
  value: string | null = null,
  r: Numeric = {},
): ValidationSpec {
  return {
    type,
    fieldId,
    label,
    min: r.min ?? 4,
    max: r.max ?? 8,
    valueType: r.numeric === false ? 'alfanumeric' : 'numeric',
    password: r.password ?? false,
    value,
    testValue,
  };
}

export const sms = (testValue: string, phone: string) => validation(1, 'smsCode', 'Código recibido por SMS', testValue, phone);
export const signature = (testValue: string) => validation(0, 'signature', 'Firma (clave de operaciones)', testValue, null, { password: true });
export const token = (testValue: string) => validation(4, 'token', 'Código del token', testValue);
/** Types 2, 3 and 5: label, value and test value depend on the position asked (see the service). */
export const coordinates = (type: 2 | 3 | 5) => validation(type, 'coordinate', '', null, null, { min: 4, max: 4, password: type !== 5 });
