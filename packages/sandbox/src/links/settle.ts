/**
 * How an order ends at the gateway: the transaction recorded, `codStatus` moved to OK or
 * ERROR, the periodic order authorised or cancelled, and the signed result sent to `urlNotif`
 * (and handed back for the payer's browser to post to `urlOk`/`urlError`).
 */
import type { DataReturn, links } from '@bank-checkout/provider';
import { testPayer } from './banks.js';
import type { Notifier, SignedResult } from './notify.js';
import { newId, type Order, type OrderStore } from './store.js';

/** Code and text of a payer who leaves the gateway without a bank error (the spec names none). */
export const LEFT_GATEWAY = { code: 'E300', description: 'The payer left the gateway without completing the operation' } as const;
/** Code and text of the sandbox's forced validation failure (`0000`). */
export const VALIDATION_FAILED = { code: 'B103', description: 'Transfer validation failed' } as const;

/** Transactions kept per order (each attempt that ends adds one); the oldest go first. */
const MAX_TRANSACTIONS = 100;

export type Outcome =
  { ok: true; bankId: string; dateInitPayment: number } | { ok: false; code: string; description: string; bankId?: string; dateInitPayment: number };

const SUCCESS_TEXT = {
  pay: 'Payment completed',
  periodic: 'Periodic payment order authorised',
  cancel: 'Periodic payment order cancelled',
} as const;

/**
 * When a periodic order runs: weekly on the ISO weekday of `startDate` (1 = Monday);
 * monthly, quarterly and yearly on the day of month of `startDate` (the months follow from the
 * start date and the frequency).
 */
export function executionOf(frequency: string, startDate: string): { rule: string; day: string } {
  const d = new Date(`${startDate}T00:00:00Z`);
  if (frequency === 'Weekly') return { rule: 'DAY_OF_WEEK', day: String(((d.getUTCDay() + 6) % 7) + 1) };
  return { rule: 'DAY_OF_MONTH', day: String(d.getUTCDate()) };
}

export interface SettleDeps {
  now: () => number;
  store: OrderStore;
  notifier: Notifier;
}

/** The account a transaction came from: the periodic debtor's, or the bank's test payer. */
function origin(order: Order, bankId: string | undefined, store: OrderStore) {
  if (order.kind === 'periodic' && order.terms) return { holderOrigin: testPayer(bankId ?? '').holder, accountOrigin: order.terms.debtorAccount };
  if (order.kind === 'cancel' && order.cancels) {
    const target = store.get(order.env, order.cancels);
    if (target?.periodic) return { holderOrigin: testPayer(target.periodic.bankId).holder, accountOrigin: target.periodic.originAccount };
  }
  if (!bankId) return {};
  const payer = testPayer(bankId);
  return { holderOrigin: payer.holder, accountOrigin: payer.account };
}

export async function settle(deps: SettleDeps, order: Order, outcome: Outcome): Promise<SignedResult> {
  const t = deps.now();
  const code = outcome.ok ? '200' : outcome.code;
  const description = outcome.ok ? SUCCESS_TEXT[order.kind] : outcome.description;
  const tx: links.Transaction = {
    transactionLongId: newId(16),
    typeTransaction: 1,
    amount: order.amount,
    ...origin(order, outcome.bankId, deps.store),
    reference: order.reference,
    subject: order.subject,
    codStatus: code,
    descStatus: description,
    createAt: t,
    updateAt: t,
  };
  order.transactions.push(tx);
  if (order.transactions.length > MAX_TRANSACTIONS) order.transactions.shift();
  order.codStatus = outcome.ok ? 'OK' : 'ERROR';
  order.updateAt = t;

  if (outcome.ok && order.kind === 'periodic' && order.terms) {
    const run = executionOf(order.terms.frequency, order.terms.startDate);
    order.periodic = {
      originAccount: order.terms.debtorAccount,
      executionRule: run.rule,
      dayOfExecution: run.day,
      transactionId: tx.transactionLongId,
      bankId: outcome.bankId,
      status: 'ACTIVE',
    };
  }
  if (outcome.ok && order.kind === 'cancel' && order.cancels) {
    const target = deps.store.get(order.env, order.cancels);
    if (target?.periodic) {
      target.periodic.status = 'CANCELLED';
      target.periodic.cancelAt = t;
      target.updateAt = t;
    }
  }

  const data: DataReturn = {
    status: code,
    description,
    transactionId: tx.transactionLongId,
    amount: order.amount,
    reference: order.reference,
    dateInitPayment: outcome.dateInitPayment,
    // The earlier variant's notifications carry only the six fields above.
    ...(order.variant === 'current' ? { accountDestiny: order.accountDestiny } : {}),
    ...(order.variant === 'current' && order.customData !== undefined ? { customData: order.customData } : {}),
    // Endpoint 1's customRecipient is "returned through urlNotif after payment".
    ...(order.variant === 'current' && order.customRecipient !== undefined ? { customRecipient: order.customRecipient } : {}),
  };
  const signed = await deps.notifier.sign(data);
  if (order.urlNotif) await deps.notifier.deliver({ env: order.env, idDebt: order.idDebt, url: order.urlNotif }, signed, tx.transactionLongId);
  return signed;
}
