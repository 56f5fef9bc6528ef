/**
 * The console's order logic, without HTML: the orders filter as the query string holds it, the
 * query rebuilt from known keys only, which periodic orders are active or cancelled, and the
 * references of new links. Pure functions.
 */
import type { FieldDef, FormValues } from './form-defs.js';
import type { OrdersQuery, PaymentOrder, StoredNotification } from './merchant.js';

export const ORDER_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
export const DEFAULT_PAGE_SIZE = 10;
const MAX_CANCELLATIONS = 1000;

/** The orders filter, as the console's query string holds it. */
export const FILTER_FIELDS: FieldDef[] = [
  { name: 'pageSize', label: 'Orders per page', kind: 'integer', min: 1, max: 300 },
  {
    name: 'order',
    label: 'Order',
    kind: 'select',
    options: [
      { value: 'desc', label: 'Newest first' },
      { value: 'asc', label: 'Oldest first' },
    ],
  },
  { name: 'dateFrom', label: 'Created from', kind: 'date' },
  { name: 'dateTo', label: 'Created until', kind: 'date' },
];

const pageOf = (raw: string | null | undefined) => (/^\d{1,6}$/.test(raw ?? '') ? Math.max(1, Number(raw)) : 1);

export function filterOf(q: Record<string, string>): { values: FormValues; query: OrdersQuery } {
  const values: FormValues = {
    pageSize: q.pageSize ?? String(DEFAULT_PAGE_SIZE),
    order: q.order ?? 'desc',
    dateFrom: q.dateFrom ?? '',
    dateTo: q.dateTo ?? '',
  };
  return {
    values,
    query: {
      page: pageOf(q.page),
      // Passed on as typed: the BFF checks them and its messages go next to the fields.
      pageSize: values.pageSize ?? '',
      order: values.order as 'asc' | 'desc',
      ...(values.dateFrom ? { dateFrom: values.dateFrom } : {}),
      ...(values.dateTo ? { dateTo: values.dateTo } : {}),
    },
  };
}

/** The console's own query string, rebuilt from known keys only. */
export function consoleQuery(values: FormValues, pageNo: number): string {
  const p = new URLSearchParams();
  for (const f of FILTER_FIELDS) if (values[f.name]) p.set(f.name, values[f.name]!);
  if (pageNo > 1) p.set('page', String(pageNo));
  return p.toString();
}

/** The console address to go back to, from the `back` query a form carried along. */
export function backTo(back: string | undefined): string {
  const params = new URLSearchParams(back ?? '');
  const { values } = filterOf(Object.fromEntries(params));
  const q = consoleQuery(values, pageOf(params.get('page')));
  return `/console${q ? `?${q}` : ''}`;
}

/** The day after `now` in `timeZone`, as `YYYY-MM-DD`. */
export const tomorrowIn = (timeZone: string, now: number) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(now + 24 * 3600_000));

/** A reference for a new link: `LINK-20260110-3FA2C1`. */
export const newReference = (prefix: string, now: number, random: string) =>
  `${prefix}-${new Date(now).toISOString().slice(0, 10).replaceAll('-', '')}-${random.toUpperCase()}`;

/** ACTIVE or CANCELLED: the provider's own field when it sends one, else what the notifications tell. */
export function periodicState(o: PaymentOrder, cancelled: Set<string>): string | null {
  return o.periodicStatus ?? (!o.periodicFrequency || o.codStatus !== 'OK' ? null : cancelled.has(o.idDebt) ? 'CANCELLED' : 'ACTIVE');
}

/**
 * Cancellations created here: their reference, and the periodic order each one cancels. The
 * payment-orders query has no field for a periodic order's state (the spec leaves the query of
 * periodic payments unpublished), so an order counts as cancelled once a successful
 * notification with one of its cancellations' references has arrived.
 */
export function createCancellations() {
  const byReference = new Map<string, string>();
  return {
    remember(reference: string, order: string): void {
      byReference.set(reference, order);
      if (byReference.size > MAX_CANCELLATIONS) byReference.delete(byReference.keys().next().value!);
    },
    /**
     * What the successful notifications tell: the transaction id of each authorised order by
     * reference (its cancellation needs it), and the orders cancelled.
     */
    read(notifications: readonly StoredNotification[]): { authorisations: Map<string, string>; cancelled: Set<string> } {
      const authorisations = new Map<string, string>();
      const cancelled = new Set<string>();
      for (const n of [...notifications].reverse()) {
        if (n.status !== '200') continue;
        authorisations.set(n.reference, n.transactionId);
        const order = byReference.get(n.reference);
        if (order) cancelled.add(order);
      }
      return { authorisations, cancelled };
    },
  };
}
