/** Typed client of the payment-link service: one method per endpoint, no retries. */
import type { z } from 'zod';
import { checkRequest, createTransport, type CallOptions, type ClientOptions } from './http.js';
import * as l from './links.js';

export interface LinksClientOptions extends ClientOptions {
  /** Clock and time zone of the periodic signer's date rules. */
  dateRules?: l.DateRuleOptions;
}

const OK = ['200'] as const;

/** The orders queries type dateFrom, pageRequest and pageSize as String and dateTo as Number. */
function ordersBody(q: z.output<typeof l.paymentOrdersQuery>) {
  return {
    dateFrom: String(q.dateFrom),
    ...(q.dateTo !== undefined ? { dateTo: q.dateTo } : {}),
    pageRequest: String(q.pageRequest),
    ...(q.pageSize !== undefined ? { pageSize: String(q.pageSize) } : {}),
    ...(q.orderAsc !== undefined ? { orderAsc: q.orderAsc } : {}),
  };
}

export function createLinksClient(opts: LinksClientOptions) {
  const t = createTransport('links', opts);
  const periodicSchema = l.createPeriodicSignerRequest(opts.dateRules);
  const post = <S extends Parameters<typeof t.call>[0]['schema']>(endpoint: string, schema: S, body: unknown, call?: CallOptions) =>
    t.call({ endpoint, method: 'POST', path: `/${endpoint}`, body, schema, okCodes: OK, signal: call?.signal });

  return {
    /** 1. `url/signer`: a signed URL for a single payment, with its `idDebt`. */
    signer: async (req: l.SignerRequest, call?: CallOptions) => post('url/signer', l.signerResponse, checkRequest(l.signerRequest, 'url/signer', req), call),
    /** 2. `banks`, with the optional `enabled`, `enabledPeriodicPayment` and `country` filters. */
    banks: async (query: l.BanksQuery = {}, call?: CallOptions) =>
      t.call({
        endpoint: 'banks',
        method: 'GET',
        path: '/banks',
        query: checkRequest(l.banksQuery, 'banks', query),
        schema: l.banksResponse,
        okCodes: OK,
        signal: call?.signal,
      }),
    /** 3. `url/periodic-payment-signer`. */
    periodicSigner: async (req: l.PeriodicSignerRequest, call?: CallOptions) =>
      post('url/periodic-payment-signer', l.signerResponse, checkRequest(periodicSchema, 'url/periodic-payment-signer', req), call),
    /** 4. `url/cancel-periodic-payment-signer`. */
    cancelPeriodic: async (req: l.CancelPeriodicRequest, call?: CallOptions) =>
      post('url/cancel-periodic-payment-signer', l.signerResponse, checkRequest(l.cancelPeriodicRequest, 'url/cancel-periodic-payment-signer', req), call),
    /** 6. `info/payment-orders`. */
    paymentOrders: async (query: l.PaymentOrdersQuery, call?: CallOptions) =>
      post('info/payment-orders', l.paymentOrdersResponse, ordersBody(checkRequest(l.paymentOrdersQuery, 'info/payment-orders', query)), call),
    /** 7. `update/enable-disable-payment-order`. */
    enableDisable: async (req: l.EnableDisableRequest, call?: CallOptions) =>
      post('update/enable-disable-payment-order', l.statusResponse, checkRequest(l.enableDisableRequest, 'update/enable-disable-payment-order', req), call),
    /** Earlier signer, variant 1 ("Commerce", fixed destination) or 2 ("Business"). */
    legacySigner: async (
      req: { variant: 'commerce'; body: l.LegacyCommerceSignerRequest } | { variant: 'business'; body: l.LegacyBusinessSignerRequest },
      call?: CallOptions,
    ) =>
      post(
        'url/signer',
        l.signerResponse,
        req.variant === 'commerce'
          ? checkRequest(l.legacyCommerceSignerRequest, 'url/signer', req.body)
          : checkRequest(l.legacyBusinessSignerRequest, 'url/signer', req.body),
        call,
      ),
    /** 8. `info/debts` (earlier variant of the orders query). */
    debts: async (query: l.DebtsQuery, call?: CallOptions) =>
      post('info/debts', l.debtsResponse, ordersBody(checkRequest(l.debtsQuery, 'info/debts', query)), call),
    /** 8. `update/enable-disable-url` (earlier variant of enable/disable). */
    legacyEnableDisable: async (req: l.LegacyEnableDisableRequest, call?: CallOptions) =>
      post('update/enable-disable-url', l.statusResponse, checkRequest(l.legacyEnableDisableRequest, 'update/enable-disable-url', req), call),
  };
}

export type LinksClient = ReturnType<typeof createLinksClient>;
