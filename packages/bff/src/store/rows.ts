/** Records as rows and back: indexed fields are columns, the rest one JSON document (`data`). */
import type { CheckoutState } from '@bank-checkout/contract';
import type { Row, SqlValue } from './driver.js';
import type { CheckoutRecord, IdempotencyRecord, NotificationRecord } from './types.js';

/** The fields of a checkout stored as columns of their own, and their columns; the rest is the document. */
const COLUMN_OF = {
  id: 'id',
  secretHash: 'secret_hash',
  state: 'state',
  reference: 'reference',
  version: 'version',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  expiresAt: 'expires_at',
} as const satisfies Partial<Record<keyof CheckoutRecord, string>>;
type ColumnField = keyof typeof COLUMN_OF;
const COLUMN_FIELDS = Object.keys(COLUMN_OF) as ColumnField[];
const IS_COLUMN: ReadonlySet<string> = new Set(COLUMN_FIELDS);

export const CHECKOUT_COLUMNS = [...Object.values(COLUMN_OF), 'data'];
export const NOTIFICATION_COLUMNS = ['id', 'dedupe_key', 'received_at', 'reference', 'transaction_id', 'checkout_id', 'outcome', 'data'];

/** An INSERT of `columns` as parameters, and of `computed` columns as the SQL expressions given. */
export const insertSql = (table: string, columns: string[], computed: Record<string, string> = {}) =>
  `INSERT INTO ${table} (${[...Object.keys(computed), ...columns].join(', ')}) VALUES (${[...Object.values(computed), ...columns.map(() => '?')].join(', ')})`;

/** SQLite hands JSON back as text, PostgreSQL's jsonb as a parsed value. */
const json = (v: unknown): Record<string, unknown> => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>;
/** PostgreSQL hands BIGINT back as a string. */
const num = (v: unknown): number => Number(v);
const str = (v: unknown): string => String(v);

export function checkoutArgs(r: CheckoutRecord): SqlValue[] {
  return [...COLUMN_FIELDS.map((k) => r[k]), checkoutData(r)];
}

/** The top-level fields of a checkout that may be null. */
type NullableField = { [K in keyof CheckoutRecord]-?: null extends CheckoutRecord[K] ? K : never }[keyof CheckoutRecord];
/**
 * Each nullable field, left out of the stored document while it is null and null again when
 * read (most checkouts carry no custom data, return URLs or error: about 55 bytes a row).
 */
const NULL_UNLESS_STORED: { readonly [K in NullableField]: null } = { customData: null, urlOk: null, urlError: null, error: null };
const NULLABLE: ReadonlySet<string> = new Set(Object.keys(NULL_UNLESS_STORED));

/**
 * The JSON document of a checkout: everything but its columns, and no null field. Built field
 * by field into a new object (a `delete` would turn the object into a dictionary, which
 * JSON.stringify serialises on its slow path).
 */
function checkoutData(r: CheckoutRecord): string {
  const doc: Record<string, unknown> = {};
  for (const k in r) {
    const v = r[k as keyof CheckoutRecord];
    if (!IS_COLUMN.has(k) && !(v === null && NULLABLE.has(k))) doc[k] = v;
  }
  return JSON.stringify(doc);
}

/**
 * Whether `next` differs from `current` by its lock alone (`internal.busy`, and the version):
 * a lock taken, renewed or released, which is no change of the checkout. The store's records
 * are patched by spreading (sql.ts `applyPatch`), so what a write keeps is the same value.
 */
export function lockOnly(current: CheckoutRecord, next: CheckoutRecord): boolean {
  for (const k in next) {
    const key = k as keyof CheckoutRecord;
    if (key !== 'version' && key !== 'internal' && next[key] !== current[key]) return false;
  }
  const [a, b] = [current.internal as Record<string, unknown>, next.internal as Record<string, unknown>];
  if (a === b) return true;
  for (const k in a) if (k !== 'busy' && a[k] !== b[k]) return false;
  for (const k in b) if (k !== 'busy' && !(k in a)) return false;
  return true;
}

/**
 * The compare-and-set update of `current` to `next`: it sets the version and the document, and
 * an indexed column only when its value changes (`updated_at`, `state`, `reference`,
 * `expires_at`), so a write that keeps them leaves their indexes alone: a lock taken or
 * released before and after a bank call keeps the update time, and rewrites the row alone
 * (about an eighth less of the store's time per payment). Any other write is a change, and
 * takes a new position in the feed of changes (`change_seq`, from the engine's `changeSeq`
 * expression). The id and the version it expects are its last two arguments. At most
 * thirty-two statement texts, each prepared once.
 */
/** The record's fields kept in columns of their own as well as in `data`: each is written only when it changed. */
const COLUMNS_OF_FIELDS = [
  ['updated_at', 'updatedAt'],
  ['state', 'state'],
  ['reference', 'reference'],
  ['expires_at', 'expiresAt'],
] as const;

export function checkoutUpdate(current: CheckoutRecord, next: CheckoutRecord, changeSeq: string): { sql: string; args: SqlValue[] } {
  const sets = ['version = ?', 'data = ?'];
  const args: SqlValue[] = [next.version, checkoutData(next)];
  if (!lockOnly(current, next)) sets.push(`change_seq = ${changeSeq}`);
  for (const [column, key] of COLUMNS_OF_FIELDS) {
    if (next[key] === current[key]) continue;
    sets.push(`${column} = ?`);
    args.push(next[key]);
  }
  args.push(current.id, current.version);
  return { sql: `UPDATE checkouts SET ${sets.join(', ')} WHERE id = ? AND version = ?`, args };
}

export function checkoutFromRow(row: Row): CheckoutRecord {
  return {
    ...NULL_UNLESS_STORED,
    ...(json(row.data) as Omit<CheckoutRecord, 'id'>),
    id: str(row.id),
    secretHash: str(row.secret_hash),
    state: str(row.state) as CheckoutState,
    reference: str(row.reference),
    version: num(row.version),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    expiresAt: num(row.expires_at),
  };
}

export function notificationArgs(n: NotificationRecord): SqlValue[] {
  const { id, dedupeKey, receivedAt, reference, transactionId, checkoutId, outcome, ...rest } = n;
  return [id, dedupeKey, receivedAt, reference, transactionId, checkoutId, outcome, JSON.stringify(rest)];
}

export function notificationFromRow(row: Row): NotificationRecord {
  return {
    ...(json(row.data) as Omit<NotificationRecord, 'id'>),
    id: str(row.id),
    dedupeKey: str(row.dedupe_key),
    receivedAt: num(row.received_at),
    reference: str(row.reference),
    transactionId: str(row.transaction_id),
    checkoutId: row.checkout_id === null || row.checkout_id === undefined ? null : str(row.checkout_id),
    outcome: str(row.outcome) as NotificationRecord['outcome'],
  };
}

export function idempotencyFromRow(row: Row): IdempotencyRecord {
  return { key: str(row.idem_key), fingerprint: str(row.fingerprint), checkoutId: str(row.checkout_id), createdAt: num(row.created_at) };
}
