/**
 * The typed client of the BFF's checkout API. One method per endpoint; each checkout call
 * answers with the checkout view. The client secret travels only in the `X-Checkout-Secret`
 * header (never in a URL), no cookies are sent, and errors become `CheckoutApiError`.
 */
import type {
  BankChoiceBody,
  BanksResponse,
  CheckoutStart,
  CheckoutView,
  ContractBody,
  ErrorBody,
  HandoffAnswer,
  HandoffBody,
  LoginBody,
  ModeBody,
  PeriodicBody,
  SecondLoginBody,
  TransferBody,
  ValidateBody,
} from '@bank-checkout/contract';
import { ApiClientError } from '@bank-checkout/contract';

export type { ModeBody };

/** The value the validate call sends for a type-6 validation once the payer signed in the app. */
export { INDIRECT_SIGNED_VALUE } from '@bank-checkout/contract';

export interface CheckoutClientOptions {
  /** Base address of the BFF, such as `https://shop.example/bff` (a path like `/bff` works too). */
  api: string;
  /** The checkout's client secret. */
  secret: string;
  /** A fetch to use instead of the global one (tests, instrumentation). */
  fetch?: typeof fetch;
  /** Called with every view the BFF answers, before the call's promise resolves. */
  onView?: (view: CheckoutView) => void;
  /**
   * A proof of possession for each call (the isolated checkout's frame, whose key is bound to a
   * key pair of its browser): given the call's method and address (no query), a fresh `DPoP`
   * proof, sent in that header. Without it (an inline checkout), none is sent.
   */
  proof?: (method: 'GET' | 'POST', url: string) => Promise<string>;
}

export interface CheckoutClient {
  /** `GET /v1/banks`: the native bank groups. */
  banks(): Promise<BanksResponse>;
  /** `GET /v1/checkout`: the current view (read-only; safe to repeat). */
  checkout(): Promise<CheckoutView>;
  /**
   * `GET /v1/checkout/start`: the view and, when it opens on the native bank list, the list (the
   * first screen in one call). Optional in a client of your own: the element then reads the two.
   */
  start?(): Promise<CheckoutStart>;
  login(body: LoginBody): Promise<CheckoutView>;
  secondLogin(body: SecondLoginBody): Promise<CheckoutView>;
  contract(body: ContractBody): Promise<CheckoutView>;
  transfer(body: TransferBody): Promise<CheckoutView>;
  validate(body: ValidateBody): Promise<CheckoutView>;
  cancel(): Promise<CheckoutView>;
  /** `POST /v1/checkout/back`: one step back before the transfer (another bank, contract or account). */
  back(): Promise<CheckoutView>;
  /** `POST /v1/checkout/restart`: start again after a failure or a cancellation. */
  restart(): Promise<CheckoutView>;
  /** `POST /v1/checkout/redirect`: creates the signed gateway URL; the view's step holds it. */
  redirect(): Promise<CheckoutView>;
  /** `POST /v1/checkout/periodic`: creates the signed periodic URL; the view's step holds it. */
  periodic(body: PeriodicBody): Promise<CheckoutView>;
  /** `POST /v1/checkout/mode`: switches to another mode the merchant allowed. */
  mode(body: ModeBody): Promise<CheckoutView>;
  /**
   * `POST /v1/checkout/bank`: a bank the payer chose in the list that no sign-in will name (one in
   * maintenance), for the merchant's funnel; nothing is sent to the bank. Optional in a client of
   * your own.
   */
  chooseBank?(body: BankChoiceBody): Promise<CheckoutView>;
  /**
   * `POST /v1/checkout/handoff`: a single-use link to the bank's page for the payer's phone,
   * while the checkout waits there (its page in `locale`). Optional in a client of your own (no
   * QR code is offered then).
   */
  handoff?(body?: HandoffBody): Promise<HandoffAnswer>;
  /**
   * Whether the payer may confirm the payment now (the transfer, a validation). The isolated
   * frame's client answers false while the frame is not fully visible to the payer, and refuses
   * those calls meanwhile (`frame_hidden`, nothing sent); a step keeps what the payer typed then.
   * Optional: without it, always.
   */
  confirmable?(): Promise<boolean>;
}

export interface ApiIssue {
  path: string;
  message: string;
}

/**
 * A failed call: the one error class of the BFF's clients (`ApiClientError` of
 * `@bank-checkout/contract`), here named `CheckoutApiError`. `status` is the HTTP status (0 when
 * the BFF was not reached), `code` the BFF's error code (`validation_failed`, `invalid_state`,
 * `upstream`, …) or `network` / `invalid_response` when the answer was missing or not the
 * contract's.
 */
export { ApiClientError as CheckoutApiError };

const fail = (
  status: number,
  code: string,
  message: string,
  requestId: string | null = null,
  issues: readonly ApiIssue[] = [],
  view: CheckoutView | null = null,
) => new ApiClientError(status, code, message, requestId, issues, 'CheckoutApiError', view);

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function isCheckoutView(x: unknown): x is CheckoutView {
  return isObject(x) && typeof x.state === 'string' && isObject(x.step) && typeof x.amount === 'number' && isObject(x.payee);
}

function isBanksResponse(x: unknown): x is BanksResponse {
  return isObject(x) && Array.isArray(x.groups);
}

const invalidBody = () => fail(200, 'invalid_response', 'The checkout service answered with an unexpected body.');

function errorOf(status: number, body: unknown): ApiClientError {
  const e = isObject(body) && isObject((body as Partial<ErrorBody>).error) ? (body as ErrorBody).error : null;
  if (e && typeof e.code === 'string') {
    const view = (body as { view?: unknown }).view;
    return fail(
      status,
      e.code,
      typeof e.message === 'string' ? e.message : '',
      typeof e.requestId === 'string' ? e.requestId : null,
      Array.isArray(e.issues) ? e.issues : [],
      isCheckoutView(view) ? view : null,
    );
  }
  const code = status === 504 ? 'upstream_timeout' : status >= 500 ? 'upstream' : 'http_error';
  return fail(status, code, `HTTP ${status}`);
}

export function createCheckoutClient(options: CheckoutClientOptions): CheckoutClient {
  const base = options.api.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  /** `cache`: `no-store` for everything but the bank list, which the browser may keep if it asks each time (`no-cache`: a 304 then). */
  async function call(method: 'GET' | 'POST', path: string, body?: unknown, cache: RequestCache = 'no-store'): Promise<unknown> {
    let res: Response;
    const url = `${base}${path}`;
    try {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Checkout-Secret': options.secret };
      if (options.proof) headers.DPoP = await options.proof(method, url);
      res = await doFetch(url, {
        method,
        headers,
        credentials: 'omit',
        cache,
        ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
      });
    } catch {
      throw fail(0, 'network', 'The checkout service could not be reached.');
    }
    let data: unknown = null;
    try {
      data = await res.json();
    } catch {
      data = null;
    }
    if (!res.ok) throw errorOf(res.status, data);
    return data;
  }

  async function view(method: 'GET' | 'POST', path: string, body?: unknown): Promise<CheckoutView> {
    const data = await call(method, path, body);
    if (!isCheckoutView(data)) throw invalidBody();
    options.onView?.(data);
    return data;
  }

  return {
    async banks() {
      const data = await call('GET', '/v1/banks', undefined, 'no-cache');
      if (!isBanksResponse(data)) throw invalidBody();
      return data;
    },
    checkout: () => view('GET', '/v1/checkout'),
    async start() {
      const data = await call('GET', '/v1/checkout/start');
      if (!isObject(data) || !isCheckoutView(data.view) || !(data.banks === null || isBanksResponse(data.banks))) throw invalidBody();
      options.onView?.(data.view);
      return data as CheckoutStart;
    },
    login: (body) => view('POST', '/v1/checkout/login', body),
    secondLogin: (body) => view('POST', '/v1/checkout/second-login', body),
    contract: (body) => view('POST', '/v1/checkout/contract', body),
    transfer: (body) => view('POST', '/v1/checkout/transfer', body),
    validate: (body) => view('POST', '/v1/checkout/validate', body),
    cancel: () => view('POST', '/v1/checkout/cancel', {}),
    back: () => view('POST', '/v1/checkout/back', {}),
    restart: () => view('POST', '/v1/checkout/restart', {}),
    redirect: () => view('POST', '/v1/checkout/redirect', {}),
    periodic: (body) => view('POST', '/v1/checkout/periodic', body),
    mode: (body) => view('POST', '/v1/checkout/mode', body),
    chooseBank: (body) => view('POST', '/v1/checkout/bank', body),
    // Checked by its only reader (<bank-handoff>, loaded on demand).
    handoff: (body = {}) => call('POST', '/v1/checkout/handoff', body) as Promise<HandoffAnswer>,
  };
}
