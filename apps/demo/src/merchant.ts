/**
 * The shop server's client of the BFF's merchant API: `@bank-checkout/bff/client`, with every
 * call answering `{ok: true, data}` or `{ok: false, status, error}` (the BFF's error body
 * `{code, message, issues?}`), so pages can show the BFF's own messages next to the fields they
 * name. It runs only on the server: the bearer merchant secret never reaches a browser.
 */
import {
  createMerchantClient as createBffClient,
  MerchantApiError,
  type CancelPeriodicInput,
  type CreateCheckoutInput,
  type LinkBanksQuery,
  type LinkInput,
  type MerchantCheckout as BffCheckout,
  type NotificationsPage,
  type OrdersQuery as BffOrdersQuery,
  type PaymentOrdersPage,
  type PeriodicLinkInput,
  type SignedLink,
} from '@bank-checkout/bff/client';

export type { CreateCheckoutInput, SignedLink };
export type MerchantCheckout = BffCheckout & { clientSecret?: string };
export type OrdersPage = PaymentOrdersPage;
export type PaymentOrder = NonNullable<PaymentOrdersPage['paymentOrders']>[number];
export type StoredNotification = NotificationsPage['notifications'][number];

export interface ApiIssue {
  path: string;
  message: string;
}

export interface ApiErrorBody {
  code: string;
  message: string;
  requestId?: string;
  issues?: ApiIssue[];
}

export type Result<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: ApiErrorBody };

export interface OrdersQuery {
  page: number;
  /** As typed in the console: the BFF checks it. */
  pageSize: number | string;
  order: 'asc' | 'desc';
  dateFrom?: string;
  dateTo?: string;
}

export interface MerchantClientOptions {
  /** The BFF's address as the shop server reaches it. */
  bffUrl: string;
  merchantSecret: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export type MerchantClient = ReturnType<typeof createMerchantClient>;

/** A call's answer as a Result: the BFF's error as it came, an unreachable BFF as a 502. */
async function result<T>(call: Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, status: 200, data: await call };
  } catch (err) {
    if (!(err instanceof MerchantApiError)) throw err;
    if (err.status === 0) return { ok: false, status: 502, error: { code: 'bff_unreachable', message: 'The payment service (BFF) could not be reached.' } };
    const error: ApiErrorBody = {
      code: err.code,
      message: err.message,
      ...(err.requestId ? { requestId: err.requestId } : {}),
      ...(err.issues.length ? { issues: [...err.issues] } : {}),
    };
    return { ok: false, status: err.code === 'invalid_response' ? 502 : err.status, error };
  }
}

export function createMerchantClient(opts: MerchantClientOptions) {
  const bff = createBffClient({
    url: opts.bffUrl,
    secret: opts.merchantSecret,
    timeoutMs: opts.timeoutMs ?? 20_000,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  // Console forms pass what the merchant typed; the BFF validates it and names what is wrong.
  return {
    createCheckout: (input: CreateCheckoutInput, idempotencyKey: string) => result(bff.createCheckout(input, { idempotencyKey })),
    getCheckout: (checkoutId: string) => result<MerchantCheckout>(bff.getCheckout(checkoutId)),
    /** A fresh launch token for an isolated checkout's page: one for each time the page loads. */
    launchCheckout: (checkoutId: string) => result(bff.launchCheckout(checkoutId)),
    /** Checkouts left `unknown` (an upstream call timed out mid-payment): the merchant decides after asking the bank. */
    undecided: () => result(bff.listCheckouts({ state: 'unknown', limit: 50 })),
    /** The payers' funnel per bank, for checkouts created since `from` (ms). */
    funnel: (from: number) => result(bff.funnel({ from: String(from) })),
    /** The checkouts changed last (any state): the console offers to cancel the open ones. */
    recent: () => result(bff.listCheckouts({ limit: 20 })),
    /** Cancels an open checkout for good (a changed cart: then a new checkout for the same reference). */
    cancelCheckout: (checkoutId: string) => result<MerchantCheckout>(bff.cancelCheckout(checkoutId)),
    resolveCheckout: (checkoutId: string, outcome: 'succeeded' | 'failed', note?: string) =>
      result<MerchantCheckout>(bff.resolveCheckout(checkoutId, outcome, note)),
    createLink: (body: Record<string, unknown>) => result(bff.createLink(body as LinkInput)),
    createPeriodicLink: (body: Record<string, unknown>) => result(bff.createPeriodicLink(body as PeriodicLinkInput)),
    cancelPeriodic: (body: Record<string, unknown>) => result(bff.cancelPeriodicLink(body as CancelPeriodicInput)),
    orders: (q: OrdersQuery) => result(bff.listOrders(q as unknown as BffOrdersQuery)),
    setEnabled: (idDebt: string, enable: boolean) => result(enable ? bff.enableOrder(idDebt) : bff.disableOrder(idDebt)),
    notifications: (limit = 50) => result(bff.listNotifications({ limit })),
    linkBanks: (q: LinkBanksQuery = {}) => result(bff.linkBanks(q)),
  };
}
