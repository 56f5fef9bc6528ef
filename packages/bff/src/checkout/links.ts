/**
 * The payment-link modes: switching mode, the bank's own page (a signed payment URL), a
 * periodic order (a signed mandate URL), and a verified result of the link service moving the
 * checkout forward (linkOutcome in the declaration, transitions.ts). The actions report
 * outcomes; the declaration says where they lead.
 */
import { ProviderError, UpstreamError, links as linkSchemas } from '@bank-checkout/provider';
import { isProviderErrorCode, type CheckoutMode, type PeriodicBankView, type PeriodicBody, type ViewError } from '@bank-checkout/contract';
import type { BffConfig } from '../config.js';
import { errors, zodIssues } from '../errors.js';
import type { CheckoutRecord } from '../store/types.js';
import { toApiError } from '../upstream.js';
import type { ChangeOptions, CheckoutEvent, Core } from './core.js';
import { merchantData, scrubSession } from './internal.js';
import type { ViewContext } from './view.js';
import { faultCode } from './native.js';
import { linkOutcome, viewError } from './transitions.js';

/** Where the provider sends results for a checkout: the BFF, which verifies and redirects. */
function returnUrls(config: BffConfig, rec: CheckoutRecord) {
  const q = `?c=${encodeURIComponent(rec.id)}`;
  return {
    urlOk: `${config.publicUrl}/v1/return/ok${q}`,
    urlError: `${config.publicUrl}/v1/return/error${q}`,
    urlNotif: `${config.publicUrl}/v1/notifications/provider${q}`,
  };
}

/**
 * The payment-link service ties the destination to the API client unless the integrator may
 * name one ("only for specific integrators"): the BFF sends it only when the merchant set it
 * explicitly on the checkout.
 */
function destinyForLinks(rec: CheckoutRecord) {
  return rec.internal.explicitDestiny ? { holderDestiny: rec.holderDestiny, accountDestiny: rec.accountDestiny } : {};
}

/**
 * The view's error for a failed payment-link result: the code, and a message for it. At the
 * bank's page an E300 is a payment not completed there (the payer left, or the gateway gave up),
 * not the bank failing an operation the payer can retry in minutes.
 */
function linkError(status: string): ViewError {
  // A status the product does not know is told as the generic error of the service.
  const code = isProviderErrorCode(status) ? status : 'E300';
  return code === 'E300' ? { code, message: 'error.linkNotCompleted' } : viewError(code);
}

export function linkActions(core: Core) {
  const { config, upstream, logger, now } = core;
  /** What a link made now lives: until the checkout expires. */
  const expireMinutes = (rec: CheckoutRecord) => Math.max(1, Math.ceil((rec.expiresAt - now()) / 60_000));

  async function periodicBankViews(): Promise<PeriodicBankView[]> {
    const banks = await upstream.periodicBanks();
    return banks
      .filter((b) => b.enabledPeriodicPayment === 1)
      .map((b) => ({
        bankId: b.bankId,
        name: b.name,
        enabled: b.enabled === 1,
        frequencies: b.frequencyPeriodicPayment ?? [],
        groupId: b.bankGroupId ?? null,
        groupName: b.bankGroupName ?? null,
      }));
  }

  const links = {
    /** The periodic bank list for a view; a provider fault is told, not hidden as an empty list. */
    periodicContext: async (): Promise<Pick<ViewContext, 'periodicBanks' | 'periodicBanksError'>> => {
      try {
        return { periodicBanks: await periodicBankViews() };
      } catch (err) {
        const code = faultCode(err);
        logger.log('warn', 'periodic.banks_unavailable', { code: err instanceof ProviderError ? err.code : code });
        return { periodicBanks: [], periodicBanksError: code };
      }
    },

    chooseMode: async (rec: CheckoutRecord, mode: CheckoutMode): Promise<CheckoutRecord> => {
      if (mode === 'redirect') return links.redirect(rec);
      return core.act(
        rec,
        'mode',
        async (_locked, i) => ({ outcome: mode === 'periodic' ? 'periodic-form' : 'bank-list', patch: { mode }, data: merchantData(i) }),
        mode,
      );
    },

    redirect: async (rec: CheckoutRecord): Promise<CheckoutRecord> => {
      if (rec.state === 'redirect' && rec.mode === 'redirect') return rec;
      return core.act(rec, 'redirect', async (_locked, i) => {
        const signedAt = now();
        try {
          const res = await upstream.links.signer({
            subject: rec.subject,
            amount: rec.amount,
            reference: rec.reference,
            ...returnUrls(config, rec),
            expireMinutes: expireMinutes(rec),
            ...(rec.customData ? { customData: rec.customData } : {}),
            ...destinyForLinks(rec),
          });
          if (!res.url) throw new UpstreamError('schema', 'url/signer');
          return {
            outcome: 'link-signed',
            patch: { mode: 'redirect' },
            data: { ...scrubSession(i), ...(res.idDebt ? { idDebt: res.idDebt } : {}), url: res.url, linkSignedAt: i.linkSignedAt ?? signedAt },
          };
        } catch (err) {
          return { outcome: 'unchanged', data: i, answer: toApiError(err) };
        }
      });
    },

    periodic: async (rec: CheckoutRecord, body: PeriodicBody): Promise<CheckoutRecord> => {
      return core.act(rec, 'periodic', async (_locked, i) => {
        const banks = await periodicBankViews().catch((err: unknown) => {
          throw toApiError(err);
        });
        const bank = banks.find((b) => b.bankId === body.bankId);
        if (!bank || !bank.enabled) throw errors.validation([{ path: 'bankId', message: 'is not a bank that offers periodic payments now' }]);
        if (!bank.frequencies.includes(body.frequency))
          throw errors.validation([{ path: 'frequency', message: `must be one of ${bank.frequencies.join(', ')}` }]);
        // The first payment within the merchant's window: a mandate that starts years away is no payment for an order.
        const latest = new Date(now() + config.periodicStartWithinDays * 86_400_000).toISOString().slice(0, 10);
        if (body.startDate > latest)
          throw errors.validation([{ path: 'startDate', message: `must be within ${config.periodicStartWithinDays} days (by ${latest})` }]);
        const request = {
          subject: rec.subject,
          amount: rec.amount,
          reference: rec.reference,
          frequency: body.frequency,
          debtorAccount: body.debtorAccount,
          startDate: body.startDate,
          ...(body.endDate ? { endDate: body.endDate } : {}),
          bankIdSelected: body.bankId,
          ...returnUrls(config, rec),
          expireMinutes: expireMinutes(rec),
          ...(rec.customData ? { customData: rec.customData } : {}),
          ...destinyForLinks(rec),
        };
        const checked = linkSchemas.createPeriodicSignerRequest({ now }).safeParse(request);
        if (!checked.success) {
          throw errors.validation(
            zodIssues(checked.error.issues).map((x) => ({ ...x, path: x.path === 'subject' ? 'subject (set by the merchant)' : x.path })),
          );
        }
        const signedAt = now();
        try {
          const res = await upstream.links.periodicSigner(request);
          if (!res.url) throw new UpstreamError('schema', 'url/periodic-payment-signer');
          const schedule = { frequency: body.frequency, startDate: body.startDate, ...(body.endDate ? { endDate: body.endDate } : {}) };
          return {
            outcome: 'link-signed',
            patch: { mode: 'periodic' },
            data: {
              ...scrubSession(i),
              ...(res.idDebt ? { idDebt: res.idDebt } : {}),
              url: res.url,
              linkSignedAt: i.linkSignedAt ?? signedAt,
              schedule,
              linkBank: { bankId: bank.bankId, label: bank.name },
            },
          };
        } catch (err) {
          return { outcome: 'unchanged', data: i, answer: toApiError(err) };
        }
      });
    },

    /**
     * A verified result of the payment-link service for this checkout: moves it forward only.
     * While a call is with the bank for it, nothing changes (`busy`): the stored result waits for
     * the sweeper. `settle` marks the stored result, in the same transaction.
     */
    applyLinkResult: async (
      rec: CheckoutRecord,
      status: string,
      transactionId: string | undefined,
      source: CheckoutEvent['source'],
      settle?: ChangeOptions['settle'],
    ) => {
      return core.change(
        rec,
        'link-result',
        (r) => {
          const next = linkOutcome(r.state, status);
          return next
            ? {
                state: next,
                error: next === 'failed' ? linkError(status) : null,
                internal: { ...r.internal, ...(transactionId ? { linkTransactionId: transactionId } : {}), outcomeAt: now() },
              }
            : null;
        },
        source,
        { whenBusy: 'skip', ...(settle ? { settle } : {}) },
      );
    },
  };
  return links;
}
