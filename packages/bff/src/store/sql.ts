/**
 * The store written once over a minimal SQL driver; the SQLite and PostgreSQL engines differ
 * only in their drivers. Indexed fields are real columns, everything else of a record is one
 * JSON document (`data`). Statements use `?` placeholders; a driver rewrites them if needed.
 *
 * The store writes what it is given and logs nothing.
 */
import { CHECKOUT_STATES, FINAL_STATES } from '@bank-checkout/contract';
import { isDeepStrictEqual } from 'node:util';
import type { CheckoutPatch, CheckoutRecord, OutboxEvent, Store } from './types.js';
import { replyMethods } from './replies.js';
import { outboxInsert, outboxMethods } from './outbox.js';
import { retentionMethods } from './retention.js';
import { migrationPlan, type MigrationPlan } from './migrations.js';
import { checkoutCache } from './cache.js';
import { sweepMethods } from './sweep.js';
import { CommitInDoubt, retrying } from './failure.js';
import {
  CHECKOUT_COLUMNS,
  NOTIFICATION_COLUMNS,
  checkoutArgs,
  checkoutFromRow,
  checkoutUpdate,
  idempotencyFromRow,
  insertSql,
  notificationArgs,
  notificationFromRow,
} from './rows.js';

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
   * The SQL expression of a change's position (`change_seq`), evaluated in the statement that
   * writes the change, greater than the position of any change committed before it.
   */
  readonly changeSeq: string;
  /**
   * The SQL condition a change's position (`change_seq`) meets once no transaction still open
   * can commit a change at or before it (empty when commits follow the positions' order).
   */
  readonly settledChange: string;
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
  /**
   * Brings the schema up to date (migrations.ts): the plan's statements in one transaction,
   * under a lock that other instances booting at once wait for; all apply, or none does.
   */
  migrate(plan: MigrationPlan): Promise<void>;
  close(): Promise<void>;
}

/** Largest page `listNotifications` returns, whatever the caller asks. */
export const MAX_PAGE = 500;

/** The patched record: fields the patch leaves undefined keep their value; identity never changes. */
function applyPatch(current: CheckoutRecord, patch: CheckoutPatch): CheckoutRecord {
  const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  return { ...current, ...defined, id: current.id, secretHash: current.secretHash, createdAt: current.createdAt, version: current.version + 1 };
}

/** A record as stored: what a JSON round trip keeps. */
const asStored = (r: CheckoutRecord): unknown => JSON.parse(JSON.stringify(r));

function pageSize(limit: number): number {
  return Number.isFinite(limit) ? Math.min(MAX_PAGE, Math.max(0, Math.floor(limit))) : MAX_PAGE;
}

export function createSqlStore(driver: SqlDriver): Store {
  const cache = checkoutCache(driver.singleWriter);
  let ready: Promise<void> | null = null;
  const init = (): Promise<void> =>
    (ready ??= driver.migrate(migrationPlan(driver.jsonType, Date.now())).catch((err: unknown) => {
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

  /**
   * After a write of `next` whose commit is in doubt: the checkout as stored says whether it was
   * written (`next` is there), not written (the version it expected is still there: the
   * compare-and-set may run again) or overtaken by another writer.
   */
  const decide = async (next: CheckoutRecord, expectedVersion: number): Promise<'written' | 'not-written' | 'stale'> => {
    cache.forget(next.id);
    const row = await retrying(() => driver.first('SELECT * FROM checkouts WHERE id = ?', [next.id]), { tries: 5, baseMs: 100 });
    const stored = row ? checkoutFromRow(row) : null;
    if (stored?.version === next.version && isDeepStrictEqual(asStored(stored), asStored(next))) return 'written';
    return stored?.version === expectedVersion ? 'not-written' : 'stale';
  };

  async function updateCheckout(
    id: string,
    expectedVersion: number,
    patch: CheckoutPatch,
    events: OutboxEvent[] = [],
    again = true,
  ): Promise<CheckoutRecord | null> {
    const current = await getCheckout(id);
    if (!current || current.version !== expectedVersion) return null;
    const next = applyPatch(current, patch);
    try {
      return await writeCheckout(current, next, events);
    } catch (err) {
      if (!(err instanceof CommitInDoubt)) throw err;
      const verdict = await decide(next, expectedVersion);
      if (verdict === 'written') return cache.put(structuredClone(next));
      if (verdict === 'not-written' && again) return updateCheckout(id, expectedVersion, patch, events, false);
      if (verdict === 'not-written') throw err;
      return null;
    }
  }

  /** The compare-and-set write of `next` over `current`, with the events that report it. */
  async function writeCheckout(current: CheckoutRecord, next: CheckoutRecord, events: OutboxEvent[]): Promise<CheckoutRecord | null> {
    const id = current.id;
    const update = checkoutUpdate(current, next, driver.changeSeq);
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
  }

  // SQLite keeps a table in the order of its rowids, and a checkout's row grows while its payer
  // goes on (the pages split) and shrinks as it ends: rows placed in the order they were made
  // would leave every older page about a third full, since new rows only ever go to the last
  // page. A random rowid places each new row anywhere, in the room an ended checkout left: a
  // paid checkout takes about 30% fewer bytes on disk. Two rowids drawn alike among 2^62 would
  // fail the insert, and the merchant's retry would make it.
  const insertCheckout = insertSql('checkouts', CHECKOUT_COLUMNS, {
    ...(driver.engine === 'sqlite' ? { rowid: 'abs(random() >> 1)' } : {}),
    change_seq: driver.changeSeq,
  });
  const insertNotification = `${insertSql('notifications', NOTIFICATION_COLUMNS)} ON CONFLICT (dedupe_key) DO NOTHING`;

  return {
    engine: driver.engine,
    init,
    close: () => driver.close(),
    async ping() {
      await query('SELECT 1 AS ok');
    },

    async createCheckout(record, idempotency) {
      await init();
      const statements: Statement[] = [{ sql: insertCheckout, args: checkoutArgs(record) }];
      if (idempotency) {
        statements.push({
          sql: insertSql('idempotency_keys', ['idem_key', 'fingerprint', 'checkout_id', 'created_at']),
          args: [idempotency.key, idempotency.fingerprint, record.id, idempotency.createdAt],
        });
      }
      try {
        await driver.transaction(statements).catch(async (err: unknown) => {
          if (!(err instanceof CommitInDoubt)) throw err;
          // Written or not: the checkout's row says. Not written, the insert runs once more.
          if (await one('SELECT id FROM checkouts WHERE id = ?', [record.id], (r) => r)) return;
          await driver.transaction(statements);
        });
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
      const where = [...(opts.state !== undefined ? ['state = ?'] : []), ...(opts.before ? ['(updated_at, id) < (?, ?)'] : [])];
      const args: SqlValue[] = [
        ...(opts.state !== undefined ? [opts.state] : []),
        ...(opts.before ? [opts.before.at, opts.before.id] : []),
        pageSize(opts.limit),
      ];
      const { rows } = await query(
        `SELECT * FROM checkouts${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at DESC, id DESC LIMIT ?`,
        args,
      );
      return rows.map(checkoutFromRow);
    },

    async listChanges(opts) {
      const where = [...(opts.after ? ['(change_seq, id) > (?, ?)'] : []), ...(driver.settledChange ? [driver.settledChange] : [])];
      const { rows } = await query(`SELECT * FROM checkouts${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY change_seq, id LIMIT ?`, [
        ...(opts.after ? [opts.after.seq, opts.after.id] : []),
        pageSize(opts.limit),
      ]);
      return rows.map((row) => {
        const record = checkoutFromRow(row);
        return { record, position: { seq: Number(row.change_seq), id: record.id } };
      });
    },

    async listCheckoutsCreated(opts) {
      const { rows } = await query('SELECT * FROM checkouts WHERE created_at >= ? AND created_at < ? ORDER BY created_at, id LIMIT ?', [
        opts.from,
        opts.to,
        Math.max(1, Math.floor(opts.limit)),
      ]);
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

    updateCheckout: (id, expectedVersion, patch, events) => updateCheckout(id, expectedVersion, patch, events),

    getIdempotency,
    ...replyMethods(query, one),

    async insertNotification(record, events = []) {
      if (events.length) {
        const insert = {
          sql: insertNotification,
          args: notificationArgs(record),
          expectChanges: 1,
        };
        const inserted = await inTransaction([insert, ...events.map(outboxInsert)]);
        const stored = await one('SELECT * FROM notifications WHERE dedupe_key = ?', [record.dedupeKey], notificationFromRow);
        if (!stored) throw new Error('store: notification vanished after insert');
        return { inserted, record: stored };
      }
      const { count } = await query(insertNotification, notificationArgs(record));
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
    ...sweepMethods(driver.engine, query),
    ...retentionMethods(query, cache.forget),

    async listNotifications(opts) {
      const limit = pageSize(opts.limit);
      const { rows } = opts.before
        ? await query('SELECT * FROM notifications WHERE (received_at, id) < (?, ?) ORDER BY received_at DESC, id DESC LIMIT ?', [
            opts.before.at,
            opts.before.id,
            limit,
          ])
        : await query('SELECT * FROM notifications ORDER BY received_at DESC, id DESC LIMIT ?', [limit]);
      return rows.map(notificationFromRow);
    },
  };
}
