/**
 * The store written once over a minimal SQL driver; the SQLite and PostgreSQL engines differ
 * only in their drivers. Indexed fields are real columns, everything else of a record is one
 * JSON document (`data`). Statements use `?` placeholders; a driver rewrites them if needed.
 *
 * The store writes what it is given and logs nothing.
 */
import { CHECKOUT_STATES, FINAL_STATES } from '@bank-checkout/contract';
import type { CheckoutPatch, CheckoutRecord, Store } from './types.js';
import { REPLY_SCHEMA, replyMethods } from './replies.js';
import { OUTBOX_SCHEMA, outboxInsert, outboxMethods } from './outbox.js';
import { checkoutCache } from './cache.js';
import { CHECKOUT_COLUMNS, NOTIFICATION_COLUMNS, checkoutArgs, checkoutFromRow, checkoutUpdate, idempotencyFromRow, insertSql, notificationArgs, notificationFromRow } from './rows.js';

export type SqlValue = string | number | null;
export type Row = Record<string, unknown>;
export interface Statement {
  sql: string;
  args: SqlValue[];
  /** The rows this statement must change; otherwise the transaction rolls back with StaleWrite. */
  expectChanges?: number;
}

/** A checked statement of a transaction changed another number of rows: nothing was written. */
export class StaleWrite extends Error {
  override readonly name = 'StaleWrite';
}

export interface SqlDriver {
  readonly engine: Store['engine'];
  /** Column type for the JSON documents. */
  readonly jsonType: string;
  /**
   * Only this process writes the database (the embedded engine): checkouts read back are kept
   * in memory, written through on every change, so a read by secret costs no query.
   */
  readonly singleWriter: boolean;
  /** One statement on its own; `count` is the number of rows it changed. */
  query(sql: string, args?: SqlValue[]): Promise<{ rows: Row[]; count: number }>;
  /** The first row of a read, or null. */
  first(sql: string, args?: SqlValue[]): Promise<Row | null>;
  /** All statements in one transaction: every one applies, or none does. */
  transaction(statements: Statement[]): Promise<void>;
  /** Runs the schema statements once, serialised against other instances booting at once. */
  migrate(statements: string[]): Promise<void>;
  close(): Promise<void>;
}

/** Largest page `listNotifications` returns, whatever the caller asks. */
export const MAX_PAGE = 500;


function schema(jsonType: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS checkouts (
      id TEXT PRIMARY KEY,
      secret_hash TEXT NOT NULL UNIQUE,
      state TEXT NOT NULL,
      reference TEXT NOT NULL,
      version INTEGER NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      data ${jsonType} NOT NULL
    )`,
    'CREATE INDEX IF NOT EXISTS checkouts_reference_idx ON checkouts (reference, created_at)',
    'CREATE INDEX IF NOT EXISTS checkouts_state_expires_idx ON checkouts (state, expires_at)',
    'CREATE INDEX IF NOT EXISTS checkouts_state_updated_idx ON checkouts (state, updated_at)',
    'CREATE INDEX IF NOT EXISTS checkouts_created_idx ON checkouts (created_at)',
    // No query orders checkouts by update time alone (listCheckouts has state_updated); an
    // index on it would only be rewritten by every write.
    'DROP INDEX IF EXISTS checkouts_updated_idx',
    `CREATE TABLE IF NOT EXISTS idempotency_keys (
      idem_key TEXT PRIMARY KEY,
      fingerprint TEXT NOT NULL,
      checkout_id TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE IF NOT EXISTS notifications (
      id TEXT PRIMARY KEY,
      dedupe_key TEXT NOT NULL UNIQUE,
      received_at BIGINT NOT NULL,
      reference TEXT NOT NULL,
      transaction_id TEXT NOT NULL,
      checkout_id TEXT,
      outcome TEXT NOT NULL,
      data ${jsonType} NOT NULL
    )`,
    'CREATE INDEX IF NOT EXISTS notifications_received_idx ON notifications (received_at, id)',
    'CREATE INDEX IF NOT EXISTS notifications_reference_idx ON notifications (reference)',
    ...REPLY_SCHEMA,
    ...OUTBOX_SCHEMA(jsonType),
  ];
}

/** The patched record: fields the patch leaves undefined keep their value; identity never changes. */
function applyPatch(current: CheckoutRecord, patch: CheckoutPatch): CheckoutRecord {
  const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  return { ...current, ...defined, id: current.id, secretHash: current.secretHash, createdAt: current.createdAt, version: current.version + 1 };
}

function pageSize(limit: number): number {
  return Number.isFinite(limit) ? Math.min(MAX_PAGE, Math.max(0, Math.floor(limit))) : MAX_PAGE;
}

export function createSqlStore(driver: SqlDriver): Store {
  const cache = checkoutCache(driver.singleWriter);
  let ready: Promise<void> | null = null;
  const init = (): Promise<void> =>
    (ready ??= driver.migrate(schema(driver.jsonType)).catch((err: unknown) => {
      ready = null;
      throw err;
    }));
  const query = async (sql: string, args: SqlValue[] = []) => {
    await init();
    return driver.query(sql, args);
  };
  const one = async <T>(sql: string, args: SqlValue[], decode: (row: Row) => T): Promise<T | null> => {
    await init();
    const row = await driver.first(sql, args);
    return row ? decode(row) : null;
  };

  const getCheckout = async (id: string) => cache.get(id) ?? cache.put(await one('SELECT * FROM checkouts WHERE id = ?', [id], checkoutFromRow));
  const getIdempotency = (key: string) => one('SELECT * FROM idempotency_keys WHERE idem_key = ?', [key], idempotencyFromRow);
  /** Statements in one transaction; false when a checked one found the data changed meanwhile. */
  const inTransaction = async (statements: Statement[]) => {
    await init();
    try {
      await driver.transaction(statements);
      return true;
    } catch (err) {
      if (err instanceof StaleWrite) return false;
      throw err;
    }
  };

  return {
    engine: driver.engine,
    init,
    close: () => driver.close(),
    async ping() {
      await query('SELECT 1 AS ok');
    },

    async createCheckout(record, idempotency) {
      await init();
      const statements: Statement[] = [{ sql: insertSql('checkouts', CHECKOUT_COLUMNS), args: checkoutArgs(record) }];
      if (idempotency) {
        statements.push({
          sql: insertSql('idempotency_keys', ['idem_key', 'fingerprint', 'checkout_id', 'created_at']),
          args: [idempotency.key, idempotency.fingerprint, record.id, idempotency.createdAt],
        });
      }
      try {
        await driver.transaction(statements);
      } catch (err) {
        // A key already used (possibly by a concurrent request that just won) rolls the
        // checkout back too; any other failure is the caller's to see.
        const existing = idempotency ? await getIdempotency(idempotency.key) : null;
        if (existing) return { created: false, existing };
        throw err;
      }
      // One copy, kept (frozen) by a single-writer store and handed back.
      return { created: true, record: cache.put(structuredClone(record))! };
    },

    getCheckout,

    getCheckoutBySecretHash: async (secretHash) =>
      cache.bySecret(secretHash) ?? cache.put(await one('SELECT * FROM checkouts WHERE secret_hash = ?', [secretHash], checkoutFromRow)),

    async listCheckouts(opts) {
      const args: SqlValue[] = [opts.state, ...(opts.before !== undefined ? [opts.before] : []), pageSize(opts.limit)];
      const { rows } = await query(`SELECT * FROM checkouts WHERE state = ?${opts.before !== undefined ? ' AND updated_at < ?' : ''} ORDER BY updated_at DESC, id DESC LIMIT ?`, args);
      return rows.map(checkoutFromRow);
    },

    async listCheckoutsCreated(opts) {
      const { rows } = await query('SELECT * FROM checkouts WHERE created_at >= ? AND created_at < ? ORDER BY created_at, id LIMIT ?', [opts.from, opts.to, Math.max(1, Math.floor(opts.limit))]);
      return rows.map(checkoutFromRow);
    },

    async findDue(now, limit) {
      const open = CHECKOUT_STATES.filter((st) => !FINAL_STATES.includes(st) && st !== 'unknown');
      const { rows } = await query(
        `SELECT * FROM checkouts WHERE state IN (${open.map(() => '?').join(', ')}) AND expires_at < ? ORDER BY expires_at LIMIT ?`,
        [...open, now, Math.max(1, Math.floor(limit))],
      );
      return rows.map(checkoutFromRow);
    },

    async findCheckoutsByReference(reference) {
      const { rows } = await query('SELECT * FROM checkouts WHERE reference = ? ORDER BY created_at DESC, id DESC', [reference]);
      return rows.map(checkoutFromRow);
    },

    async updateCheckout(id, expectedVersion, patch, events = []) {
      const current = await getCheckout(id);
      if (!current || current.version !== expectedVersion) return null;
      const next = applyPatch(current, patch);
      const update = checkoutUpdate(current, next);
      if (events.length) {
        // The change and the events that report it: both or neither.
        if (!(await inTransaction([{ ...update, expectChanges: 1 }, ...events.map(outboxInsert)]))) {
          cache.forget(id);
          return null;
        }
        return cache.put(structuredClone(next));
      }
      // The version in the WHERE clause makes the write a compare-and-set: of several
      // writers that read the same version, one changes the row and the rest change nothing.
      if (driver.singleWriter) {
        // Only this process writes: the row is what was just written, so it is not read back
        // (no RETURNING, no JSON parse of the document on every write).
        await init();
        const { count } = await driver.query(update.sql, update.args);
        if (count !== 1) {
          cache.forget(id);
          return null;
        }
        return cache.put(next);
      }
      const updated = await one(`${update.sql} RETURNING *`, update.args, checkoutFromRow);
      if (!updated) cache.forget(id);
      return cache.put(updated);
    },

    getIdempotency,
    ...replyMethods(query, one),

    async insertNotification(record, events = []) {
      if (events.length) {
        const insert = { sql: `${insertSql('notifications', NOTIFICATION_COLUMNS)} ON CONFLICT (dedupe_key) DO NOTHING`, args: notificationArgs(record), expectChanges: 1 };
        const inserted = await inTransaction([insert, ...events.map(outboxInsert)]);
        const stored = await one('SELECT * FROM notifications WHERE dedupe_key = ?', [record.dedupeKey], notificationFromRow);
        if (!stored) throw new Error('store: notification vanished after insert');
        return { inserted, record: stored };
      }
      const { count } = await query(
        `${insertSql('notifications', NOTIFICATION_COLUMNS)} ON CONFLICT (dedupe_key) DO NOTHING`,
        notificationArgs(record),
      );
      const stored = await one('SELECT * FROM notifications WHERE dedupe_key = ?', [record.dedupeKey], notificationFromRow);
      if (!stored) throw new Error('store: notification vanished after insert');
      return { inserted: count === 1, record: stored };
    },

    async updateNotification(id, patch, events = []) {
      const update = { sql: 'UPDATE notifications SET outcome = ?, checkout_id = ? WHERE id = ?', args: [patch.outcome, patch.checkoutId, id] };
      if (events.length) await inTransaction([update, ...events.map(outboxInsert)]);
      else await query(update.sql, update.args);
    },
    ...outboxMethods(query, one),

    async listNotifications(opts) {
      const limit = pageSize(opts.limit);
      const { rows } =
        opts.before === undefined
          ? await query('SELECT * FROM notifications ORDER BY received_at DESC, id DESC LIMIT ?', [limit])
          : await query('SELECT * FROM notifications WHERE received_at < ? ORDER BY received_at DESC, id DESC LIMIT ?', [opts.before, limit]);
      return rows.map(notificationFromRow);
    },
  };
}
