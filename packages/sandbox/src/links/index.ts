/**
 * The simulated payment-link service (docs/provider.md, the payment-link service) under `/san/...` and
 * `/pro/...` (data kept apart per environment, and per API client), with its hosted gateway
 * pages (`/gateway/...`), its short URLs (`/s/<env>/?s=...`) and, for tests, the log of
 * notification attempts (`GET /__sandbox/notifications`). README.links.md documents every
 * choice made where the spec is silent.
 */
import { Hono, type Context } from 'hono';
import { links, normalizeIban } from '@bank-checkout/provider';
import { answer, describeIssues, readJsonObject, requireClient, SANDBOX_DEFAULTS, type ApiClient, type Env, type SandboxConfig } from '../context.js';
import { createGateway, createUrlSigner } from '../gateway/index.js';
import { filterLinkBanks, periodicBankIssue } from './banks.js';
import { createNotifier, type NotificationAttempt } from './notify.js';
import { createOrderStore, LINK_ENVS, paginate, setEnabled, toDebt, toPaymentOrder, type LinkEnv, type Order, type OrderDraft } from './store.js';

export { LINK_BANKS, LINK_BANK_LOGIN_KEY, PERIODIC_FREQUENCIES, asksLoginKey, filterLinkBanks, findLinkBank, testPayer } from './banks.js';
export { DEFAULT_RETRY_DELAYS_MS, DEFAULT_NOTIFY_TIMEOUT_MS, type NotificationAttempt } from './notify.js';
export { LEFT_GATEWAY, VALIDATION_FAILED, executionOf } from './settle.js';
export { LINK_ENVS, MAX_ORDERS_PER_ENV, type LinkEnv } from './store.js';
export { GATEWAY_FAIL_CODE, GATEWAY_SESSION_TTL_MS, formatAmount } from '../gateway/index.js';

/** Validity of an earlier-variant 1 ("Commerce") URL. */
const COMMERCE_VALIDITY_MINUTES = links.LIMITS.legacyCommerceValidityMinutes;
/** Largest `pageSize` of `info/debts` (the spec states none for the earlier variant). */
export const DEBTS_PAGE_SIZE_MAX = 1000;
/** Holder of the API client's own account: the destination when a request names none. */
export const DEFAULT_HOLDER = 'Demo Shop S.L.';
/** Fields of endpoint 1 that the earlier variant 1 does not take. */
const NOT_IN_COMMERCE = ['expireMinutes', 'customRecipient', 'customData', 'holderDestiny', 'accountDestiny'] as const;

export interface LinksServiceOptions {
  /** Delays before each retry of a failed notification. Default 2 s, 10 s, 60 s. */
  notifyRetryDelaysMs?: readonly number[];
  /** Time a notification receiver has to answer. Default 5 s. */
  notifyTimeoutMs?: number;
}

interface Schema<T> {
  safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** `info/payment-orders` and `info/debts` bodies once parsed. */
interface OrdersQuery {
  dateFrom: number;
  dateTo?: number;
  pageRequest: number;
  pageSize?: number;
  orderAsc?: boolean;
}

const OK = 'OK';
const minutes = (m: number) => m * 60_000;

export function createLinksService(config: SandboxConfig, options: LinksServiceOptions = {}) {
  const signer = createUrlSigner(config.publicUrl);
  const store = createOrderStore({ now: config.now, urlLong: signer.url, shortUrlBase: `${config.publicUrl}/s` });
  const notifier = createNotifier({
    fetch: config.fetch,
    apiKey: config.apiKey,
    allowLocal: config.allowLocalNotif,
    now: config.now,
    ...(options.notifyRetryDelaysMs ? { retryDelaysMs: options.notifyRetryDelaysMs } : {}),
    ...(options.notifyTimeoutMs !== undefined ? { timeoutMs: options.notifyTimeoutMs } : {}),
  });
  const validated = new Set(config.validatedAccounts.map(normalizeIban));
  const ownAccount = config.validatedAccounts[0] ? normalizeIban(config.validatedAccounts[0]) : SANDBOX_DEFAULTS.merchantIban;
  const periodicSchema = links.createPeriodicSignerRequest({ timeZone: config.timeZone, now: config.now });

  const e301 = (c: Context, description: string) => answer(c, 'E301', description);

  /** The JSON body parsed by `schema`, or the E301 answer naming each field and rule broken. */
  async function parse<T>(c: Context, schema: Schema<T>): Promise<{ raw: Record<string, unknown>; data: T } | Response> {
    const raw = await readJsonObject(c);
    if (raw instanceof Response) return raw;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) return e301(c, describeIssues(parsed.error.issues));
    return { raw, data: parsed.data };
  }

  /** Where the money goes: a pre-validated IBAN, or the client's own account when none is named. */
  function destination(accountDestiny: string | undefined, holderDestiny: string | undefined): { accountDestiny: string; holderDestiny: string } | string {
    if (accountDestiny === undefined) return { accountDestiny: ownAccount, holderDestiny: holderDestiny || DEFAULT_HOLDER };
    if (!validated.has(accountDestiny)) {
      return `accountDestiny: ${accountDestiny} has not been validated in the provider dashboard; only pre-validated accounts are accepted`;
    }
    return { accountDestiny, holderDestiny: holderDestiny || DEFAULT_HOLDER };
  }

  type Common = Pick<OrderDraft, 'urlOk' | 'urlError' | 'urlNotif' | 'customData' | 'partnerId'>;
  /** The optional fields every signer shares, only those given. */
  function common(b: Partial<Record<keyof Common, string>>): Common {
    const out: Common = {};
    for (const k of ['urlOk', 'urlError', 'urlNotif', 'customData', 'partnerId'] as const) if (b[k] !== undefined) out[k] = b[k];
    return out;
  }

  function routes(env: LinkEnv) {
    const base = `/${env}`;
    const draft = (client: ApiClient, fields: Omit<OrderDraft, 'env' | 'owner'>): OrderDraft => ({ env, owner: client.apiKey, ...fields });

    /* ---------- 1. url/signer (and the earlier variants, by API client) ---------- */

    app.post(`${base}/url/signer`, async (c) => {
      const client = c.get('client');

      if (client.variant === 'commerce') {
        const req = await parse(c, links.legacyCommerceSignerRequest);
        if (req instanceof Response) return req;
        const extra = NOT_IN_COMMERCE.filter((k) => req.raw[k] !== undefined);
        if (extra.length) {
          return e301(c, extra.map((k) => `${k}: not accepted by this API client's signer (earlier variant 1, fixed destination account)`).join('; '));
        }
        const b = req.data;
        const order = store.add(
          draft(client, {
            kind: 'pay',
            variant: 'commerce',
            amount: b.amount,
            subject: b.subject,
            reference: b.reference,
            accountDestiny: ownAccount,
            holderDestiny: DEFAULT_HOLDER,
            ...common(b),
          }),
          minutes(COMMERCE_VALIDITY_MINUTES),
        );
        return answer(c, '200', OK, { url: order.urlLong });
      }

      if (client.variant === 'business') {
        const req = await parse(c, links.legacyBusinessSignerRequest);
        if (req instanceof Response) return req;
        const b = req.data;
        const dest = destination(b.accountDestiny, b.holderDestiny);
        if (typeof dest === 'string') return e301(c, dest);
        const order = store.add(
          draft(client, {
            kind: 'pay',
            variant: 'business',
            amount: b.amount,
            subject: b.subject,
            reference: b.reference,
            customRecipient: b.customRecipient,
            ...dest,
            ...common(b),
          }),
          minutes(b.expireMinutes ?? links.LIMITS.legacyBusinessExpireMinutesDefault),
        );
        return answer(c, '200', OK, { url: order.urlLong });
      }

      const req = await parse(c, links.signerRequest);
      if (req instanceof Response) return req;
      const b = req.data;
      const dest = destination(b.accountDestiny, b.holderDestiny);
      if (typeof dest === 'string') return e301(c, dest);
      const order = store.add(
        draft(client, {
          kind: 'pay',
          variant: 'current',
          amount: b.amount,
          subject: b.subject,
          reference: b.reference,
          ...(b.customRecipient !== undefined ? { customRecipient: b.customRecipient } : {}),
          ...dest,
          ...common(b),
        }),
        minutes(b.expireMinutes ?? links.LIMITS.expireMinutesDefault),
      );
      return answer(c, '200', OK, { url: order.urlLong, idDebt: order.idDebt });
    });

    /* ---------- 2. banks ---------- */

    app.get(`${base}/banks`, (c) => {
      const q = links.banksQuery.safeParse(c.req.query());
      if (!q.success) return e301(c, describeIssues(q.error.issues));
      const data = filterLinkBanks(q.data);
      return answer(c, '200', OK, { total: data.length, data });
    });

    /* ---------- 3. url/periodic-payment-signer ---------- */

    app.post(`${base}/url/periodic-payment-signer`, async (c) => {
      const req = await parse(c, periodicSchema);
      if (req instanceof Response) return req;
      const b = req.data;
      const bankIssue = periodicBankIssue(b.bankIdSelected, b.frequency);
      if (bankIssue) return e301(c, `${bankIssue.field}: ${bankIssue.message}`);
      const dest = destination(b.accountDestiny, b.holderDestiny);
      if (typeof dest === 'string') return e301(c, dest);
      if (dest.accountDestiny === b.debtorAccount) return e301(c, 'debtorAccount: must differ from the beneficiary account (accountDestiny)');
      const order = store.add(
        draft(c.get('client'), {
          kind: 'periodic',
          variant: 'current',
          amount: b.amount,
          subject: b.subject,
          reference: b.reference,
          ...dest,
          ...common(b),
          terms: {
            frequency: b.frequency,
            debtorAccount: b.debtorAccount,
            startDate: b.startDate,
            ...(b.endDate !== undefined ? { endDate: b.endDate } : {}),
            ...(b.bankIdSelected !== undefined ? { bankId: b.bankIdSelected } : {}),
          },
        }),
        minutes(b.expireMinutes ?? links.LIMITS.expireMinutesDefault),
      );
      return answer(c, '200', OK, { url: order.urlLong, idDebt: order.idDebt });
    });

    /* ---------- 4. url/cancel-periodic-payment-signer ---------- */

    app.post(`${base}/url/cancel-periodic-payment-signer`, async (c) => {
      const req = await parse(c, links.cancelPeriodicRequest);
      if (req instanceof Response) return req;
      const b = req.data;
      const client = c.get('client');
      const target = store.periodicByTransaction(env, client.apiKey, b.transactionId);
      if (!target) return e301(c, 'transactionId: no authorised periodic payment order has this transactionId');
      if (target.periodic?.status === 'CANCELLED') return e301(c, 'transactionId: this periodic payment order is already cancelled');
      const order = store.add(
        draft(client, {
          kind: 'cancel',
          variant: 'current',
          amount: target.amount,
          subject: target.subject,
          reference: b.reference,
          accountDestiny: target.accountDestiny,
          holderDestiny: target.holderDestiny,
          cancels: target.idDebt,
          ...common(b),
        }),
        minutes(b.expireMinutes ?? links.LIMITS.expireMinutesDefault),
      );
      return answer(c, '200', OK, { url: order.urlLong, idDebt: order.idDebt });
    });

    /* ---------- 6. info/payment-orders and 8. info/debts ---------- */

    function query(schema: Schema<OrdersQuery>, listField: string, view: (o: Order) => unknown, maxPageSize: number) {
      return async (c: Context<Env>) => {
        const req = await parse(c, schema);
        if (req instanceof Response) return req;
        const q = req.data;
        if (q.pageSize !== undefined && q.pageSize > maxPageSize) return e301(c, `pageSize: at most ${maxPageSize}`);
        if (q.dateTo !== undefined && q.dateTo < q.dateFrom) return e301(c, 'dateTo: must not be before dateFrom');
        const to = q.dateTo ?? config.now();
        const found = store.list(env, c.get('client').apiKey, q.dateFrom, to, q.orderAsc === true);
        const { items, ...page } = paginate(found, q.pageRequest, q.pageSize ?? links.LIMITS.pageSizeDefault);
        return answer(c, '200', OK, { ...page, [listField]: items.map(view) });
      };
    }
    app.post(`${base}/info/payment-orders`, query(links.paymentOrdersQuery, 'paymentOrders', toPaymentOrder, links.LIMITS.pageSizeMax));
    app.post(`${base}/info/debts`, query(links.debtsQuery, 'listDebts', toDebt, DEBTS_PAGE_SIZE_MAX));

    /* ---------- 7. and 8. enable/disable ---------- */

    function toggle(idOf: (b: Record<string, unknown>) => string, schema: Schema<{ enable: boolean }>, field: string) {
      return async (c: Context<Env>) => {
        const req = await parse(c, schema);
        if (req instanceof Response) return req;
        const order = store.owned(env, c.get('client').apiKey, idOf(req.data));
        if (!order) return e301(c, `${field}: no payment order with this id`);
        setEnabled(order, req.data.enable, config.now());
        return answer(c, '200', req.data.enable ? 'Payment order enabled' : 'Payment order disabled');
      };
    }
    app.post(
      `${base}/update/enable-disable-payment-order`,
      toggle((b) => String(b.idDebt), links.enableDisableRequest, 'idDebt'),
    );
    app.post(
      `${base}/update/enable-disable-url`,
      toggle((b) => String(b.idProvider), links.legacyEnableDisableRequest, 'idProvider'),
    );
  }

  const app = new Hono<Env>();
  for (const env of LINK_ENVS) {
    app.use(`/${env}/*`, requireClient(config));
    routes(env);
  }
  app.route('/', createGateway({ now: config.now, store, notifier, signer }));
  app.get('/__sandbox/notifications', (c) => {
    const idDebt = c.req.query('idDebt');
    const all = notifier.log();
    return c.json({ notifications: idDebt ? all.filter((n) => n.idDebt === idDebt) : all });
  });

  return {
    app,
    /** Notification attempts so far, and a promise that settles when none is pending. */
    notifications: { list: (): NotificationAttempt[] => notifier.log(), idle: () => notifier.idle() },
    /** Cancels the scheduled notification retries. */
    stop: () => notifier.stop(),
  };
}

export type LinksService = ReturnType<typeof createLinksService>;
