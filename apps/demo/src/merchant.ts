/**
 * The shop server's client of the BFF's merchant API. It runs only on the server: the bearer
 * merchant secret never reaches a browser. Every call answers `{ok: true, data}` or
 * `{ok: false, status, error}` with the BFF's error body (`{code, message, issues?}`), so pages
 * can show the BFF's own messages next to the fields they name.
 */
import type { CheckoutMode, CheckoutState } from '@bank-checkout/contract';

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

/** What the merchant API answers for a checkout (a subset of its fields). */
export interface MerchantCheckout {
  id: string;
  state: CheckoutState;
  mode: CheckoutMode;
  modes: CheckoutMode[];
  amount: number;
  subject: string;
  reference: string;
  expiresAt: string;
  error?: { code: string; message: string };
  clientSecret?: string;
}

export interface CreateCheckoutInput {
  amount: number;
  subject: string;
  reference: string;
  urlOk?: string;
  urlError?: string;
  modes?: CheckoutMode[];
  customData?: string;
}

export interface SignedLink {
  url?: string | null;
  idDebt?: string | null;
  status: string;
  description?: string | null;
}

export interface PaymentOrder {
  idDebt: string;
  enabled: boolean;
  amount: number;
  subject: string;
  reference?: string | null;
  holderDestiny?: string | null;
  accountDestiny?: string | null;
  customRecipient?: string | null;
  urlLong?: string | null;
  urlShort?: string | null;
  urlShortClicks?: number | null;
  codStatus: 'OK' | 'ERROR' | 'PENDING';
  periodicFrequency?: string | null;
  periodicStartDate?: string | null;
  periodicEndDate?: string | null;
  periodicOriginAccount?: string | null;
  /** Not in the spec: the simulator adds it once a periodic order is authorised. */
  periodicStatus?: string | null;
  createAt: number;
  expireAt?: number | null;
}

export interface OrdersPage {
  itemsReturned?: number | null;
  currentPage?: number | null;
  totalItems?: number | null;
  totalPages?: number | null;
  paymentOrders?: PaymentOrder[] | null;
}

export interface OrdersQuery {
  page: number;
  /** As typed in the console: the BFF checks it. */
  pageSize: number | string;
  order: 'asc' | 'desc';
  dateFrom?: string;
  dateTo?: string;
}

/** A verified result notification as the BFF lists it. */
export interface StoredNotification {
  id: string;
  receivedAt: string;
  verified: boolean;
  status: string;
  transactionId: string;
  reference: string;
  amount: number;
  checkoutId: string | null;
  outcome: 'pending' | 'applied' | 'ignored' | 'unmatched';
}

export interface LinkBank {
  bankId: string;
  name: string;
  enabled: 0 | 1;
  frequencyPeriodicPayment?: string[] | null;
  bankGroupName?: string | null;
}

export interface MerchantClientOptions {
  /** The BFF's address as the shop server reaches it. */
  bffUrl: string;
  merchantSecret: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export type MerchantClient = ReturnType<typeof createMerchantClient>;

export function createMerchantClient(opts: MerchantClientOptions) {
  const base = opts.bffUrl.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 20_000;

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Result<T>> {
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${opts.merchantSecret}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      return { ok: false, status: 502, error: { code: 'bff_unreachable', message: 'The payment service (BFF) could not be reached.' } };
    }
    let json: unknown = null;
    try {
      json = await res.json();
    } catch {
      json = null;
    }
    if (res.ok && json !== null && typeof json === 'object') return { ok: true, status: res.status, data: json as T };
    const error = (json as { error?: ApiErrorBody } | null)?.error;
    return {
      ok: false,
      status: res.ok ? 502 : res.status,
      error: error && typeof error.code === 'string' ? error : { code: 'bad_response', message: `The payment service answered HTTP ${res.status}.` },
    };
  }

  const qs = (q: Record<string, string | number | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') p.set(k, String(v));
    const s = p.toString();
    return s ? `?${s}` : '';
  };
  const id = (v: string) => encodeURIComponent(v);

  return {
    createCheckout: (input: CreateCheckoutInput, idempotencyKey: string) =>
      call<MerchantCheckout & { clientSecret: string }>('POST', '/v1/checkouts', input, { 'Idempotency-Key': idempotencyKey }),
    getCheckout: (checkoutId: string) => call<MerchantCheckout>('GET', `/v1/checkouts/${id(checkoutId)}`),
    createLink: (body: Record<string, unknown>) => call<SignedLink>('POST', '/v1/links', body),
    createPeriodicLink: (body: Record<string, unknown>) => call<SignedLink>('POST', '/v1/links/periodic', body),
    cancelPeriodic: (body: Record<string, unknown>) => call<SignedLink>('POST', '/v1/links/periodic/cancel', body),
    orders: (q: OrdersQuery) => call<OrdersPage>('GET', `/v1/orders${qs({ ...q })}`),
    setEnabled: (idDebt: string, enable: boolean) => call<{ status: string }>('POST', `/v1/orders/${id(idDebt)}/${enable ? 'enable' : 'disable'}`),
    notifications: (limit = 50) => call<{ notifications: StoredNotification[] }>('GET', `/v1/notifications${qs({ limit })}`),
    linkBanks: (q: { periodic?: '0' | '1'; enabled?: '0' | '1'; country?: string } = {}) =>
      call<{ data?: LinkBank[] | null }>('GET', `/v1/link-banks${qs(q)}`),
  };
}
