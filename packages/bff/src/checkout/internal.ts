/**
 * The BFF-only data of a checkout (`CheckoutRecord.internal`): provider session and
 * transaction ids, the bank, a pending second login, contracts, accounts, validations and their
 * deadline, the lock of a call in flight, and the payment link's ids. Never a payer credential
 * or code.
 */
import type { FieldBank, ValidationBank } from '@bank-checkout/provider';
import type { FunnelStep, KitLocale } from '@bank-checkout/contract';

export interface SecondLoginInternal {
  type: 1 | 2 | 3;
  value: string | null;
  field: FieldBank;
}

/**
 * The bank the payer chose: its id and name. Its login description (every login type and field)
 * is not copied into the checkout: the login view reads it from the cached bank list.
 */
export interface BankRef {
  bankId: string;
  label: string;
}

export interface Internal {
  /** The merchant named the destination when creating the checkout (kept for its whole life). */
  explicitDestiny?: boolean;
  bank?: BankRef;
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
  /**
   * An upstream call in flight: no second one may start. A lease: `holder` (the instance) renews
   * `until` while the call runs; past it, the holder is taken to have stopped.
   */
  busy?: Lock;
  /** A transfer's or validation's lock that lapsed (the checkout became `unknown`): its holder may still come back with the bank's answer. */
  lapsed?: Lock & { at: number };
  /**
   * The provider's order query asked about this checkout's link result (no signed result came):
   * when last, and `done` once it found the outcome or gave up.
   */
  reconciliation?: { checkedAt: number; done?: 'found' | 'gave-up'; codStatus?: string };
  /** Why the outcome is not known (`unknown`): the call, when, and whether it timed out, failed or its lease lapsed. */
  doubt?: { op: string; at: number; why: 'timeout' | 'fault' | 'lease' };
  /** When a payment link was first signed for this checkout: a link result counts only for a payment begun after it (kept for its whole life). */
  linkSignedAt?: number;
  /** Payment-link modes. */
  idDebt?: string;
  url?: string;
  /** The provider's transaction id from a result notification (periodic cancellation needs it). */
  linkTransactionId?: string;
  outcomeAt?: number;
  /** The periodic order the payer set up (told to the merchant with the outcome). */
  schedule?: { frequency: string; startDate: string; endDate?: string };
  /** The merchant's decision on a checkout left `unknown` (what the bank confirmed). */
  resolution?: { outcome: 'succeeded' | 'failed'; at: number; note?: string };
  /** The bank a periodic order was set up at (the payment-link service's bank). */
  linkBank?: { bankId: string; label: string };
  /** The furthest funnel step the checkout reached, with its bank (for the merchant's funnel; kept for its whole life). */
  funnel?: FunnelMark;
  /**
   * A hand-off to the payer's phone: the SHA-256 of its single-use token, until when it holds,
   * whether it was used, and the language of the page it opens.
   */
  handoff?: { hash: string; expiresAt: number; used: boolean; locale?: KitLocale };
  /** The account a payment was made from, masked (`ES •••• 2345`), for the payer's receipt. */
  paidFrom?: string;
}

/**
 * An upstream call in flight, as a lease: its holder (an instance) renews `until` while the
 * call runs. `token` names this one lock, so that its holder can tell its own lease from a
 * later one.
 */
export interface Lock {
  op: string;
  since: number;
  until?: number;
  holder?: string;
  token?: string;
  /**
   * When a transfer's or validation's lease was first found lapsed: its holder was given one
   * more lease to come back (alive, but kept from the store by an outage, say) before the
   * call is taken for lost. The holder's next renewal clears it.
   */
  overdueSince?: number;
}

export interface FunnelMark {
  step: FunnelStep;
  bankId?: string;
  bank?: string;
}

/** What a checkout keeps when the payer starts over with a bank: only the merchant's choices. */
export function merchantData(i: Internal): Internal {
  return {
    ...(i.explicitDestiny ? { explicitDestiny: true } : {}),
    ...(i.funnel ? { funnel: i.funnel } : {}),
    ...(i.linkSignedAt !== undefined ? { linkSignedAt: i.linkSignedAt } : {}),
  };
}

/** Drops what a finished native session no longer needs. */
export function scrubSession(i: Internal): Internal {
  const { sessionId, sessionAt, secondLogin, validations, busy, ...rest } = i;
  return rest;
}

/**
 * What a finished checkout keeps: the merchant's choices, which bank, the account it was paid
 * from (masked) and which provider transaction (for reconciliation), the payment link's ids and
 * a periodic order's schedule. The session, the payer's contracts and accounts, the challenge
 * and the signed URL go.
 */
const KEPT = [
  'explicitDestiny',
  'bank',
  'paidFrom',
  'transactionId',
  'idDebt',
  'linkTransactionId',
  'outcomeAt',
  'schedule',
  'resolution',
  'funnel',
  'linkBank',
  'handoff',
  'linkSignedAt',
  'reconciliation',
] as const satisfies readonly (keyof Internal)[];

/** A finished checkout's data: KEPT, the bank by its id and name only, the account paid from masked. */
export function finished(i: Internal): Internal {
  const paidFrom = i.paidFrom ?? maskedAccount(i.accounts?.find((a) => a.accountId === i.accountId)?.accountInfo);
  const from: Internal = { ...i, bank: i.bank && { bankId: i.bank.bankId, label: i.bank.label }, paidFrom };
  return Object.fromEntries(KEPT.map((key) => [key, from[key]]).filter(([, v]) => v !== undefined)) as Internal;
}

/**
 * An account as a receipt shows it: the country of its IBAN and its last four digits
 * (`ES •••• 2345`), or the last four digits the bank's text has; nothing more of it.
 */
export function maskedAccount(info: string | undefined): string | undefined {
  if (!info) return undefined;
  const iban = /\b([A-Z]{2})\d{2}(?:\s?[A-Z0-9]){11,30}\b/.exec(info);
  const digits = (iban ? iban[0] : info).replace(/\D/g, '');
  if (digits.length < 4) return undefined;
  return `${iban ? `${iban[1]} ` : ''}•••• ${digits.slice(-4)}`;
}

/** The data without the lock of a call in flight. */
export function unlocked(i: Internal): Internal {
  const { busy, ...rest } = i;
  return rest;
}
