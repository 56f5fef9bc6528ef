/**
 * Payment orders of the payment-link service, kept in memory, separately per environment
 * (`san`, `pro`). Each order belongs to the API client that created it: queries and
 * enable/disable see only that client's orders, while the signed URL and the short URL work
 * for anyone who holds them (they are what the payer receives).
 */
import { randomBytes } from 'node:crypto';
import type { CodStatus, Debt, links, PaymentOrder } from '@bank-checkout/provider';
import type { SignerVariant } from '../context.js';

export const LINK_ENVS = ['san', 'pro'] as const;
export type LinkEnv = (typeof LINK_ENVS)[number];

/** `pay`: a single payment; `periodic`: a periodic order's authorisation; `cancel`: its cancellation. */
export type OrderKind = 'pay' | 'periodic' | 'cancel';

/** What the periodic signer fixed: the payer authorises exactly these terms. */
export interface PeriodicTerms {
  frequency: string;
  debtorAccount: string;
  startDate: string;
  endDate?: string;
  /** `bankIdSelected` of the request; the payer picks a bank at the gateway when absent. */
  bankId?: string;
}

/** Set when the payer authorised the periodic order. */
export interface PeriodicAuthorisation {
  originAccount: string;
  executionRule: string;
  dayOfExecution: string;
  /** The authorisation's transaction: the id `url/cancel-periodic-payment-signer` takes. */
  transactionId: string;
  /** The bank the payer authorised at; the cancellation is authorised there too. */
  bankId: string;
  status: 'ACTIVE' | 'CANCELLED';
  cancelAt?: number;
}

export interface Order {
  seq: number;
  env: LinkEnv;
  /** API key of the client that created the order. */
  owner: string;
  kind: OrderKind;
  /** The signer variant that created it: earlier-variant orders notify fewer fields. */
  variant: SignerVariant;
  idDebt: string;
  enabled: boolean;
  amount: number;
  subject: string;
  reference: string;
  holderDestiny: string;
  accountDestiny: string;
  customRecipient?: string;
  customData?: string;
  partnerId?: string;
  urlOk?: string;
  urlError?: string;
  urlNotif?: string;
  /** Validity given at creation; enabling an expired order grants it again from that moment. */
  validityMs: number;
  createAt: number;
  updateAt: number;
  expireAt: number;
  codStatus: CodStatus;
  urlLong: string;
  short: { name: string; url: string; clicks: number; createAt: number; updateAt: number };
  transactions: links.Transaction[];
  terms?: PeriodicTerms;
  periodic?: PeriodicAuthorisation;
  /** For a cancellation order: the periodic order it cancels. */
  cancels?: string;
}

export type OrderDraft = Omit<
  Order,
  'seq' | 'idDebt' | 'urlLong' | 'short' | 'transactions' | 'codStatus' | 'enabled' | 'createAt' | 'updateAt' | 'expireAt' | 'validityMs'
>;

/** Most orders kept per environment; the oldest goes first beyond it. */
export const MAX_ORDERS_PER_ENV = 20_000;

const SHORT_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function shortName(): string {
  const bytes = randomBytes(10);
  return Array.from(bytes, (b) => SHORT_ALPHABET[b % SHORT_ALPHABET.length]).join('');
}

export const newId = (bytes = 12) => randomBytes(bytes).toString('hex');

export interface OrderStoreOptions {
  now: () => number;
  /** Builds the signed URL of an order. */
  urlLong: (env: LinkEnv, kind: OrderKind, idDebt: string) => string;
  /** Base of the short URLs: `{base}/<env>/?s=<urlShortName>`. */
  shortUrlBase: string;
}

export interface OrdersPage<T> {
  itemsReturned: number;
  currentPage: number;
  totalItems: number;
  totalPages: number;
  items: T[];
}

/** One page of `items`; a page beyond the last is empty (with the totals still given). */
export function paginate<T>(items: T[], page: number, size: number): OrdersPage<T> {
  const slice = items.slice((page - 1) * size, page * size);
  return { itemsReturned: slice.length, currentPage: page, totalItems: items.length, totalPages: Math.ceil(items.length / size), items: slice };
}

export function createOrderStore(opts: OrderStoreOptions) {
  const orders = { san: new Map<string, Order>(), pro: new Map<string, Order>() } satisfies Record<LinkEnv, Map<string, Order>>;
  const shorts = { san: new Map<string, Order>(), pro: new Map<string, Order>() } satisfies Record<LinkEnv, Map<string, Order>>;
  let seq = 0;

  function evictOldest(env: LinkEnv) {
    const oldest = orders[env].values().next().value;
    if (!oldest) return;
    orders[env].delete(oldest.idDebt);
    shorts[env].delete(oldest.short.name);
  }

  return {
    add(draft: OrderDraft, validityMs: number): Order {
      const { env } = draft;
      while (orders[env].size >= MAX_ORDERS_PER_ENV) evictOldest(env);
      const t = opts.now();
      let idDebt = newId();
      while (orders[env].has(idDebt)) idDebt = newId();
      let name = shortName();
      while (shorts[env].has(name)) name = shortName();
      const order: Order = {
        ...draft,
        validityMs,
        seq: ++seq,
        idDebt,
        enabled: true,
        codStatus: 'PENDING',
        createAt: t,
        updateAt: t,
        expireAt: t + validityMs,
        urlLong: opts.urlLong(env, draft.kind, idDebt),
        short: { name, url: `${opts.shortUrlBase}/${env}/?s=${name}`, clicks: 0, createAt: t, updateAt: t },
        transactions: [],
      };
      orders[env].set(idDebt, order);
      shorts[env].set(name, order);
      return order;
    },
    get(env: LinkEnv, idDebt: string): Order | undefined {
      return orders[env].get(idDebt);
    },
    /** The order when it exists and belongs to `owner`. */
    owned(env: LinkEnv, owner: string, idDebt: string): Order | undefined {
      const o = orders[env].get(idDebt);
      return o && o.owner === owner ? o : undefined;
    },
    byShortName(env: LinkEnv, name: string): Order | undefined {
      return shorts[env].get(name);
    },
    /** The owner's orders created within [from, to], by creation time. */
    list(env: LinkEnv, owner: string, from: number, to: number, ascending: boolean): Order[] {
      const found = [...orders[env].values()].filter((o) => o.owner === owner && o.createAt >= from && o.createAt <= to);
      found.sort((a, b) => a.createAt - b.createAt || a.seq - b.seq);
      return ascending ? found : found.reverse();
    },
    /** The owner's authorised periodic order whose authorisation has this transaction id. */
    periodicByTransaction(env: LinkEnv, owner: string, transactionId: string): Order | undefined {
      for (const o of orders[env].values()) {
        if (o.owner === owner && o.kind === 'periodic' && o.periodic?.transactionId === transactionId) return o;
      }
      return undefined;
    },
  };
}

export type OrderStore = ReturnType<typeof createOrderStore>;

export const isExpired = (o: Order, now: number) => now >= o.expireAt;

/** Enables or disables an order; enabling an expired order gives it its validity again from now. */
export function setEnabled(o: Order, enable: boolean, now: number): void {
  o.enabled = enable;
  if (enable && isExpired(o, now)) o.expireAt = now + o.validityMs;
  o.updateAt = now;
}

/** The order as `info/payment-orders` returns it. */
export function toPaymentOrder(o: Order): PaymentOrder & { periodicStatus?: string; periodicCancelAt?: number } {
  const p = o.periodic;
  return {
    idDebt: o.idDebt,
    enabled: o.enabled,
    amount: o.amount,
    subject: o.subject,
    reference: o.reference,
    holderDestiny: o.holderDestiny,
    accountDestiny: o.accountDestiny,
    ...(o.customRecipient !== undefined ? { customRecipient: o.customRecipient } : {}),
    ...(o.customData !== undefined ? { customData: o.customData } : {}),
    urlLong: o.urlLong,
    urlShort: o.short.url,
    urlShortClicks: o.short.clicks,
    codStatus: o.codStatus,
    ...(p && o.terms
      ? {
          periodicOriginAccount: p.originAccount,
          periodicFrequency: o.terms.frequency,
          periodicStartDate: o.terms.startDate,
          ...(o.terms.endDate !== undefined ? { periodicEndDate: o.terms.endDate } : {}),
          periodicExecutionRule: p.executionRule,
          periodicDayOfExecution: p.dayOfExecution,
          periodicStatus: p.status,
          ...(p.cancelAt !== undefined ? { periodicCancelAt: p.cancelAt } : {}),
        }
      : {}),
    createAt: o.createAt,
    updateAt: o.updateAt,
    expireAt: o.expireAt,
  };
}

/** The order as the earlier variant's `info/debts` returns it. */
export function toDebt(o: Order): Debt {
  return {
    debtLongId: o.idDebt,
    createAt: o.createAt,
    updateAt: o.updateAt,
    expireAt: o.expireAt,
    enabled: o.enabled,
    partialsEnabled: false,
    amount: o.amount,
    subject: o.subject,
    ...(o.customRecipient !== undefined ? { customRecipient: o.customRecipient } : {}),
    customReference: o.reference,
    holderDestiny: o.holderDestiny,
    accountDestiny: o.accountDestiny,
    ...(o.customData !== undefined ? { customData: o.customData } : {}),
    urlLong: o.urlLong,
    listUrlShort: [{ urlShortName: o.short.name, clicks: o.short.clicks, createAt: o.short.createAt, updateAt: o.short.updateAt }],
    listTransactions: o.transactions.map((t) => ({ ...t })),
  };
}
