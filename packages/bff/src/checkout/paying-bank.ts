/**
 * The bank a payment at the bank's page was made from. The payer chooses the bank on the
 * provider's gateway (the signed link names none), and the result says nothing of it: the
 * provider's record of the payment does, by the account it came from, whose IBAN carries the
 * bank's code. Once a checkout paid at the bank's page (redirect, and so the phone hand-off too)
 * succeeded, that record is read (read-only: `info/debts`, the earlier variant's listing, whose
 * orders carry their transactions) and the bank kept as the checkout's `linkBank`, for the
 * payer's receipt and the merchant's funnel. A bank the checkout already knows (chosen in the
 * page before going to the bank's page) is kept as it is. Nothing is learnt when the provider
 * cannot be read: the payment stands, its bank unknown.
 */
import type { LinkBank } from '@bank-checkout/provider';
import type { CheckoutRecord } from '../store/types.js';
import type { Core } from './core.js';

/** How far around the checkout's life its order is looked for, and how many pages at most. */
const LOOK_AROUND_MS = 5 * 60_000;
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

/** The bank code an IBAN carries (Spain, Portugal: the four digits after the check digits); null for another. */
export function ibanBankCode(iban: string | null | undefined): string | null {
  const compact = (iban ?? '').replace(/\s+/g, '').toUpperCase();
  return /^(ES|PT)\d{2}(\d{4})/.exec(compact)?.[2] ?? null;
}

/** The bank of the payment-link service whose codes include the one the account's IBAN carries. */
export function bankOfAccount(iban: string | null | undefined, banks: readonly LinkBank[]): LinkBank | null {
  const code = ibanBankCode(iban);
  const country = (iban ?? '').trim().slice(0, 2).toUpperCase();
  if (!code) return null;
  return banks.find((b) => b.bankCodes?.includes(code) && (!b.country || b.country === country)) ?? null;
}

export function payingBankActions(core: Core) {
  const { upstream, logger } = core;

  /** The account the order's successful transaction came from; null when the provider's listing does not have it. */
  async function accountOf(rec: CheckoutRecord): Promise<string | null> {
    const i = rec.internal;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const res = await upstream.readOnly(() =>
        upstream.links.debts({
          dateFrom: rec.createdAt - LOOK_AROUND_MS,
          dateTo: (i.outcomeAt ?? rec.updatedAt) + LOOK_AROUND_MS,
          pageRequest: page,
          pageSize: PAGE_SIZE,
        }),
      );
      const debt = res.listDebts?.find((d) => d.debtLongId === i.idDebt);
      if (debt) {
        const paid = debt.listTransactions?.filter((t) => t.codStatus === '200') ?? [];
        return (paid.find((t) => t.transactionLongId === i.linkTransactionId) ?? paid.at(-1))?.accountOrigin ?? null;
      }
      if (page >= (res.totalPages ?? 1)) break;
    }
    return null;
  }

  return {
    /** Learns and keeps the bank a paid checkout was paid from at the bank's page (see above); never throws. */
    async learn(rec: CheckoutRecord): Promise<void> {
      const i = rec.internal;
      if (rec.state !== 'succeeded' || rec.mode !== 'redirect' || i.bank || i.linkBank || !i.idDebt) return;
      try {
        const bank = bankOfAccount(await accountOf(rec), await upstream.linkBanks());
        if (!bank) return;
        await core.change(
          rec,
          'paying-bank',
          (r) => (r.internal.linkBank || r.internal.bank ? null : { internal: { ...r.internal, linkBank: { bankId: bank.bankId, label: bank.name } } }),
          'notification',
          { whenBusy: 'allow' },
        );
      } catch (err) {
        logger.log('warn', 'checkout.paying_bank_unknown', { checkoutId: rec.id, reason: err instanceof Error ? err.message : 'error' });
      }
    },
  };
}
