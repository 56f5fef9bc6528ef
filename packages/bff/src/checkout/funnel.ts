/**
 * The merchant's funnel, from the store alone: each write of a checkout keeps the furthest step
 * it reached with its bank (`internal.funnel`, carried over every change), and the merchant API
 * counts them per bank. No payer data: a bank id and its name.
 */
import { FUNNEL_STEPS, funnelStepOf, isFurther, type FunnelRow, type FunnelStep } from '@bank-checkout/contract';
import type { CheckoutPatch, CheckoutRecord } from '../store/types.js';
import type { FunnelMark, Internal } from './internal.js';

/** The bank a checkout is at: the native bank signed in to, or the periodic order's bank. */
function bankOf(i: Internal): { bankId: string; bank: string } | null {
  if (i.bank) return { bankId: i.bank.bankId, bank: i.bank.label };
  if (i.linkBank) return { bankId: i.linkBank.bankId, bank: i.linkBank.label };
  return null;
}

/**
 * The funnel mark after `patch` is applied to `from`: the furthest step so far, and the bank of
 * the latest step that reached it (a payer who tried a second bank at the same step counts at
 * that one).
 */
export function funnelAfter(from: CheckoutRecord, patch: CheckoutPatch): FunnelMark {
  let before: FunnelMark = from.internal.funnel ?? { step: 'started' };
  // A mark the action set itself (a bank tried, though the checkout went back to the list).
  const given = patch.internal?.funnel;
  if (given && given !== before && !isFurther(before.step, given.step)) before = given;
  const step = funnelStepOf(patch.state ?? from.state);
  if (!step || isFurther(before.step, step)) return before;
  const bank = bankOf(patch.internal ?? from.internal);
  return { ...before, step, ...(bank ?? {}) };
}

/** The mark of a login tried at the bank of `i`: the bank counts as chosen even when it refused the payer at once. */
export const bankTried = (from: CheckoutRecord, i: Internal): FunnelMark => funnelAfter(from, { state: 'login', internal: i });

/** The patch with the funnel mark carried over (and moved on); unchanged when nothing moved and the internal data stays. */
export function withFunnel(from: CheckoutRecord, patch: CheckoutPatch): CheckoutPatch {
  const mark = funnelAfter(from, patch);
  const same = from.internal.funnel && mark === from.internal.funnel;
  if (same && !patch.internal) return patch;
  return { ...patch, internal: { ...(patch.internal ?? from.internal), funnel: mark } };
}

type Counts = Pick<FunnelRow, 'started' | 'bankChosen' | 'signedIn' | 'confirmed' | 'paid'>;
const KEY: Record<FunnelStep, keyof Counts> = { started: 'started', bank: 'bankChosen', 'signed-in': 'signedIn', confirmed: 'confirmed', paid: 'paid' };
const UNPAID_ENDINGS: readonly string[] = ['failed', 'cancelled', 'expired'];

function emptyRow(bankId: string | null, bank: string | null): FunnelRow {
  return {
    bankId,
    bank,
    started: 0,
    bankChosen: 0,
    signedIn: 0,
    confirmed: 0,
    paid: 0,
    left: { started: 0, bankChosen: 0, signedIn: 0, confirmed: 0 },
    open: 0,
  };
}

/** Adds one checkout to a row: at every step up to its furthest, and where it left if it ended unpaid. */
function count(row: FunnelRow, rec: CheckoutRecord): void {
  const mark = rec.internal.funnel ?? { step: 'started' as const };
  const reached = FUNNEL_STEPS.indexOf(mark.step);
  for (let k = 0; k <= reached; k++) row[KEY[FUNNEL_STEPS[k]!]]++;
  if (UNPAID_ENDINGS.includes(rec.state) && mark.step !== 'paid') row.left[KEY[mark.step] as keyof FunnelRow['left']]++;
  else if (rec.state !== 'succeeded' && !UNPAID_ENDINGS.includes(rec.state)) row.open++;
}

/**
 * A bank's name as the provider's two services are compared by: without accents, case, marks
 * and the word for personal banking (the payment-link service's "Banco Aurora" is the native
 * service's "Banco Aurora · Particulares"; "· Empresas" stays another bank).
 */
export function bankNameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[·|,;:()\-–—]/g, ' ')
    .replace(/\b(particulares|particular|personas|personal)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * One row per bank: a mark that names a bank of the payment-link service (a periodic order's, or
 * one learnt after a payment at the bank's page) counts under the native bank of the same name,
 * when there is one; any other mark stays as it is.
 */
export function oneRowPerBank(nativeBanks: readonly { bankId: string; label: string }[]): (mark: FunnelMark | undefined) => FunnelMark | undefined {
  const ids = new Set(nativeBanks.map((b) => b.bankId));
  const byName = new Map(nativeBanks.map((b) => [bankNameKey(b.label), b] as const));
  return (mark) => {
    if (!mark?.bankId || ids.has(mark.bankId) || !mark.bank) return mark;
    const same = byName.get(bankNameKey(mark.bank));
    return same ? { ...mark, bankId: same.bankId, bank: same.label } : mark;
  };
}

/**
 * The funnel of these checkouts: the total, and one row per bank (the most started first; no bank
 * last). `sameBank` names each mark's bank as its row (oneRowPerBank).
 */
export function countFunnel(
  records: readonly CheckoutRecord[],
  sameBank: (mark: FunnelMark | undefined) => FunnelMark | undefined = (m) => m,
): { total: FunnelRow; banks: FunnelRow[] } {
  const total = emptyRow(null, null);
  const byBank = new Map<string, FunnelRow>();
  for (const rec of records) {
    const mark = sameBank(rec.internal.funnel);
    const key = mark?.bankId ?? '';
    let row = byBank.get(key);
    if (!row) byBank.set(key, (row = emptyRow(mark?.bankId ?? null, mark?.bank ?? null)));
    count(row, rec);
    count(total, rec);
  }
  const banks = [...byBank.values()].sort(
    (a, b) => Number(a.bankId === null) - Number(b.bankId === null) || b.started - a.started || (a.bank ?? '').localeCompare(b.bank ?? ''),
  );
  return { total, banks };
}
