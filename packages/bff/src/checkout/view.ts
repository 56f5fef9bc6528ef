/**
 * How a checkout record becomes the browser's view, and the rules on payer input. No I/O
 * here. The state machine itself (where each action's outcomes lead, what time does) is the
 * declaration in declaration.ts.
 */
import { createHash } from 'node:crypto';
import type { FieldBank, BankType } from '@bank-checkout/provider';
import type { CheckoutRecord } from '../store/types.js';
import {
  fieldProblem,
  type HandoffState,
  type BankView,
  type CheckoutView,
  type FieldView,
  type PeriodicBankView,
  type StepView,
} from '@bank-checkout/contract';
import type { Issue } from '../errors.js';
import { actionsFor, backLeadsTo, isFinal, viewError } from './transitions.js';

export { isFinal, viewError };

/* ---------- views ---------- */

/** A hand-off link as the desktop sees it: still open, used by the phone, or expired. */
function handoffView(h: NonNullable<CheckoutRecord['internal']['handoff']>, now: number): { state: HandoffState; expiresAt: string } {
  return { state: h.used ? 'used' : now >= h.expiresAt ? 'expired' : 'open', expiresAt: new Date(h.expiresAt).toISOString() };
}

/**
 * The payer's receipt reference of a payment: the first 60 bits of the SHA-256 of the provider's
 * operation id, in 12 letters and digits (`7KQ2-M9XD-4HTA`). It names the payment without
 * being the provider's id, which stays in the BFF; the merchant's view carries the same code.
 */
export function receiptReference(providerId: string): string {
  const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = createHash('sha256').update(providerId).digest();
  let bits = 0n;
  for (const b of bytes.subarray(0, 8)) bits = (bits << 8n) | BigInt(b);
  let code = '';
  for (let k = 0; k < 12; k++) code += ALPHABET.charAt(Number((bits >> BigInt(64 - 5 * (k + 1))) & 31n));
  return code.match(/.{4}/g)!.join('-');
}

export function fieldView(f: FieldBank, sandbox: boolean): FieldView {
  return {
    fieldId: f.fieldId,
    label: f.label,
    min: f.min ?? null,
    max: f.max ?? null,
    valueType: f.valueType,
    specificType: f.specificType ?? null,
    password: f.password ?? false,
    ...(sandbox && f.testValue ? { testValue: f.testValue } : {}),
  };
}

export function bankView(b: BankType, sandbox: boolean): BankView {
  return {
    bankId: b.bankId,
    type: b.type,
    label: b.label,
    active: b.active,
    defaultLogin: b.defaultLogin,
    logins: b.logins.map((l) => ({
      loginId: l.loginId,
      label: l.label,
      active: l.active,
      fields: l.fields.map((f) => fieldView(f, sandbox)),
    })),
  };
}

export interface ViewContext {
  sandbox: boolean;
  payeeName: string;
  /** The clock (a restart is offered only before the checkout expires). */
  now?: number;
  periodicBanks?: PeriodicBankView[];
  /** Why the periodic bank list is missing, when the provider could not give it. */
  periodicBanksError?: 'upstream' | 'upstream_timeout';
  /** The login description of a bank, from the cached bank list (the checkout keeps only its id and name). */
  bankInfo?: (bankId: string) => BankType | undefined;
}

function step(rec: CheckoutRecord, ctx: ViewContext): StepView {
  const i = rec.internal;
  const bank = i.bank ? { bankId: i.bank.bankId, label: i.bank.label } : { bankId: '', label: '' };
  switch (rec.state) {
    case 'login': {
      // Without the bank's description (the list cannot be read now, or no longer has it) the
      // payer chooses the bank again.
      const described = i.bank && ctx.bankInfo?.(i.bank.bankId);
      return described ? { state: 'login', bank: bankView(described, ctx.sandbox) } : { state: 'select-bank' };
    }
    case 'second-login': {
      const s = i.secondLogin!;
      return { state: 'second-login', bank, type: s.type, value: s.value, field: fieldView(s.field, ctx.sandbox) };
    }
    case 'select-contract':
      return {
        state: 'select-contract',
        bank,
        contracts: (i.contracts ?? []).map((c) => ({ contractId: c.contractId, info: c.contractInfo })),
      };
    case 'select-account':
      return {
        state: 'select-account',
        bank,
        accounts: (i.accounts ?? []).map((a) => ({
          accountId: a.accountId,
          info: a.accountInfo,
          balance: a.amount ?? null,
          ...(i.refused?.includes(a.accountId) ? { refused: true } : {}),
        })),
        back: backLeadsTo(rec) === 'select-contract' ? 'select-contract' : 'login',
        // The account of a transfer that did not go through in time stays chosen (not one the bank refused).
        ...(i.accountId && !i.refused?.includes(i.accountId) && i.accounts?.some((a) => a.accountId === i.accountId) ? { chosen: i.accountId } : {}),
      };
    case 'validate':
      return {
        state: 'validate',
        bank,
        round: i.round ?? 1,
        deadline: new Date(i.deadline ?? 0).toISOString(),
        validations: (i.validations ?? []).map((v) => ({ ...fieldView(v, ctx.sandbox), type: v.type, value: v.value ?? null })),
      };
    case 'redirect':
      return { state: 'redirect', url: i.url ?? '', ...(i.handoff ? { handoff: handoffView(i.handoff, ctx.now ?? Date.now()) } : {}) };
    case 'succeeded': {
      // The payer's receipt: when, at which bank, from which account (masked), and the provider's
      // reference as a code made from its id (the id itself never leaves the BFF). Nothing on it
      // opens anything: no checkout id, no address.
      const reference = i.transactionId ?? i.linkTransactionId;
      const payingBank = i.bank?.label ?? i.linkBank?.label;
      return {
        state: 'succeeded',
        ...(i.outcomeAt ? { paidAt: new Date(i.outcomeAt).toISOString() } : {}),
        ...(payingBank ? { payingBank } : {}),
        ...(i.paidFrom ? { account: i.paidFrom } : {}),
        ...(reference ? { bankReference: receiptReference(reference) } : {}),
      };
    }
    case 'periodic':
      return { state: 'periodic', banks: ctx.periodicBanks ?? [], ...(ctx.periodicBanksError ? { banksError: ctx.periodicBanksError } : {}) };
    default:
      return { state: rec.state };
  }
}

export function toView(rec: CheckoutRecord, ctx: ViewContext): CheckoutView {
  return {
    id: rec.id,
    state: rec.state,
    mode: rec.mode,
    modes: [...rec.modes],
    amount: rec.amount,
    currency: 'EUR',
    subject: rec.subject,
    reference: rec.reference,
    payee: { name: rec.holderDestiny || ctx.payeeName, iban: rec.accountDestiny || null },
    expiresAt: new Date(rec.expiresAt).toISOString(),
    sandbox: ctx.sandbox,
    attemptsLeft: rec.attemptsLeft,
    actions: actionsFor(rec, ctx.now),
    step: step(rec, ctx),
    ...(rec.error ? { error: rec.error } : {}),
  };
}

/* ---------- payer input ---------- */

/**
 * Checks a value against a field's rules (the contract's: required, digits, length); returns a
 * message or null. The `specificType` is left to the bank, as it always was.
 */
export function checkField(field: Pick<FieldBank, 'min' | 'max' | 'valueType'>, value: string | undefined): string | null {
  const problem = fieldProblem(field, value, { specificType: false });
  switch (problem?.rule) {
    case undefined:
    case 'specificType':
      return null;
    case 'required':
      return 'is required';
    case 'digits':
      return 'must contain digits only';
    case 'exact':
      return `must have exactly ${problem.length} characters`;
    case 'min':
      return `must have at least ${problem.min} characters`;
    case 'max':
      return `must have at most ${problem.max} characters`;
  }
}

/** Checks a map of values against the fields asked for; unknown or missing fields are issues. */
export function checkFields(fields: FieldBank[], values: Record<string, string>, prefix: string, skip: (f: FieldBank) => boolean = () => false): Issue[] {
  const issues: Issue[] = [];
  const known = new Set(fields.map((f) => f.fieldId));
  for (const key of Object.keys(values)) if (!known.has(key)) issues.push({ path: `${prefix}.${key}`, message: 'is not a field of this step' });
  for (const f of fields) {
    if (skip(f)) continue;
    const msg = checkField(f, values[f.fieldId]);
    if (msg) issues.push({ path: `${prefix}.${f.fieldId}`, message: msg });
  }
  return issues;
}

const LOGIN_SLOTS = ['userId', 'userSecret', 'userExtraField'] as const;

/**
 * A login type's fields stand for the login call's userId, userSecret and userExtraField, in
 * that order; a field named after a slot goes to that slot.
 */
export function loginCredentials(fields: FieldBank[], values: Record<string, string>) {
  const out: { userId?: string; userSecret?: string; userExtraField?: string } = {};
  fields.forEach((f, index) => {
    const slot = (LOGIN_SLOTS as readonly string[]).includes(f.fieldId) ? (f.fieldId as (typeof LOGIN_SLOTS)[number]) : LOGIN_SLOTS[index];
    const v = values[f.fieldId];
    if (slot && v !== undefined && v !== '') out[slot] = v;
  });
  return out;
}
