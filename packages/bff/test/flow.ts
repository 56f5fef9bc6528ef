/** Walks a checkout through the native flow with the simulator's test values. */
import type { BankView, CheckoutView, ValidationView } from '@bank-checkout/contract';
import { SANDBOX_DEFAULTS, SIM_BANKS } from '@bank-checkout/sandbox/testing';
import type { Harness } from './harness.js';

export async function bankOf(h: Pick<Harness, 'api'>, secret: string, bankId: string): Promise<BankView> {
  const { groups } = await h.api(secret).banks();
  const bank = groups.flatMap((g) => g.types).find((b) => b.bankId === bankId);
  if (!bank) throw new Error(`bank ${bankId} not listed`);
  return bank;
}

export function testFields(bank: BankView, loginId = bank.defaultLogin): Record<string, string> {
  const login = bank.logins.find((l) => l.loginId === loginId)!;
  return Object.fromEntries(login.fields.map((f) => [f.fieldId, f.testValue ?? '']));
}

/** An account of the bank that the simulator lets pay the merchant. */
export function payingAccount(bankId: string, offered: { accountId: string }[]): string {
  const sim = SIM_BANKS.get(bankId);
  const good = sim?.accounts.find((a) => !a.refusal && a.iban !== SANDBOX_DEFAULTS.merchantIban && offered.some((o) => o.accountId === a.accountId));
  return good?.accountId ?? offered[0]!.accountId;
}

export interface WalkOptions {
  /** Value given to a validation; default its test value (`SIGNED` for type 6). */
  answer?: (v: ValidationView, round: number) => string;
  /** Stop when the checkout reaches this state. */
  stopAt?: CheckoutView['state'];
  /** Go on from the checkout's current state instead of logging in. */
  resumeOnly?: boolean;
}

/** Logs in with the default login's test values and answers every step until a final state. */
export async function walk(h: Pick<Harness, 'api'>, secret: string, bankId: string, opts: WalkOptions = {}): Promise<CheckoutView> {
  // The page's typed client: a route or a schema that changes breaks every walk at compile time.
  const api = h.api(secret);
  let v: CheckoutView;
  if (opts.resumeOnly) {
    v = await api.checkout();
  } else {
    const bank = await bankOf(h, secret, bankId);
    v = await api.login({ bankId, loginId: bank.defaultLogin, fields: testFields(bank) });
  }
  for (let guard = 0; guard < 12; guard++) {
    if (opts.stopAt && v.state === opts.stopAt) return v;
    const s = v.step;
    switch (s.state) {
      case 'second-login':
        v = await api.secondLogin({ value: s.field.testValue ?? '' });
        break;
      case 'select-contract':
        v = await api.contract({ contractId: s.contracts[0]!.contractId });
        break;
      case 'select-account':
        v = await api.transfer({ accountId: payingAccount(bankId, s.accounts) });
        break;
      case 'validate': {
        const values = Object.fromEntries(s.validations.map((x) => [x.fieldId, opts.answer?.(x, s.round) ?? (x.type === 6 ? 'SIGNED' : (x.testValue ?? ''))]));
        v = await api.validate({ values });
        break;
      }
      default:
        return v;
    }
  }
  throw new Error(`walk: no final state, last ${v.state}`);
}
