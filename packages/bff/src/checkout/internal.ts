/**
 * The BFF-only data of a checkout (`CheckoutRecord.internal`): provider session and
 * transaction ids, the bank, a pending second login, contracts, accounts, validations and their
 * deadline, the lock of a call in flight, and the payment link's ids. Never a payer credential
 * or code.
 */
import type { BankType, FieldBank, ValidationBank } from '@bank-checkout/provider';

export interface SecondLoginInternal {
  type: 1 | 2 | 3;
  value: string | null;
  field: FieldBank;
}

export interface Internal {
  /** The merchant named the destination when creating the checkout (kept for its whole life). */
  explicitDestiny?: boolean;
  bank?: BankType;
  sessionId?: string;
  /** When the bank last answered a call on the session (a long quiet may have ended it). */
  sessionAt?: number;
  secondLogin?: SecondLoginInternal;
  contracts?: { contractId: string; contractInfo: string }[];
  contractId?: string;
  accounts?: { accountId: string; accountInfo: string; amount: number | null }[];
  accountId?: string;
  /** Accounts the bank refused a transfer from in this session (marked in the list). */
  refused?: string[];
  transactionId?: string;
  validations?: ValidationBank[];
  round?: number;
  deadline?: number;
  /** An upstream call in flight: no second one may start. */
  busy?: { op: string; since: number };
  /** Payment-link modes. */
  idDebt?: string;
  url?: string;
  /** The provider's transaction id from a result notification (periodic cancellation needs it). */
  linkTransactionId?: string;
  outcomeAt?: number;
  /** The periodic order the payer set up (told to the merchant with the outcome). */
  schedule?: { frequency: string; startDate: string; endDate?: string };
}

/** What a checkout keeps when the payer starts over with a bank: only the merchant's choices. */
export function merchantData(i: Internal): Internal {
  return i.explicitDestiny ? { explicitDestiny: true } : {};
}

/** Drops what a finished native session no longer needs. */
export function scrubSession(i: Internal): Internal {
  const { sessionId, sessionAt, secondLogin, validations, busy, ...rest } = i;
  return rest;
}

/** The data without the lock of a call in flight. */
export function unlocked(i: Internal): Internal {
  const { busy, ...rest } = i;
  return rest;
}
