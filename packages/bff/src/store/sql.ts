/**
 * The store written once over a minimal SQL driver; the SQLite and PostgreSQL engines differ
 * only in their drivers. Indexed fields are real columns, everything else of a record is one
 * JSON document (`data`). Statements use `?` placeholders; a driver rewrites them if needed.
 *
 * The store writes what it is given and logs nothing.
 */
import { CHECKOUT_STATES, FINAL_STATES } from '@bank-checkout/contract';
import { isDeepStrictEqual } from 'node:util';
import type { CheckoutPatch, CheckoutRecord, NotificationSettle, OutboxEvent, Store } from './types.js';
import { replyMethods } from './replies.js';
import { outboxInsert, outboxMethods } from './outbox.js';
import { retentionMethods } from './retention.js';
import { migrationPlan } from './migrations.js';
import { StaleWrite, type Row, type SqlDriver, type SqlValue, type Statement } from './driver.js';
import { checkoutCache } from './cache.js';
import { sweepMethods } from './sweep.js';
import { CommitInDoubt, isStalled, isUnavailable, retrying } from './failure.js';
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

export { StaleWrite, type Row, type SqlDriver, type SqlValue, type Statement } from './driver.js';

/** The compare-and-set that settles a notification: it must still be in one of `from`. */
function settleStatement(s: NotificationSettle): Statement {
  return {
    sql: `UPDATE notifications SET outcome = ?, checkout_id = ? WHERE id = ? AND outcome IN (${s.from.map(() => '?').join(', ')})`,
    args: [s.to.outcome, s.to.checkoutId, s.id, ...s.from],
    expectChanges: 1,
  };
}

/** Largest page `listNotifications` returns, whatever the caller asks. */
export const MAX_PAGE = 500;

/** The patched record: fields the patch leaves undefined keep their value; identity never changes. */
function applyPatch(current: CheckoutRecord, patch: CheckoutPatch): CheckoutRecord {
  // A field set to undefined (as a patch may) keeps its value.
  const defined = Object.fromEntries(Object.entries(patch as Record<string, unknown>).filter(([, v]) => v !== undefined));
  return { ...current, ...defined, id: current.id, secretHash: current.secretHash, createdAt: current.createdAt, version: current.version + 1 };
}

/** A record as stored: what a JSON round trip keeps. */
const asStored = (r: CheckoutRecord): unknown => JSON.parse(JSON.stringify(r));

function pageSize(limit: number): number {
  return Number.isFinite(limit) ? Math.min(MAX_PAGE, Math.max(0, Math.floor(limit))) : MAX_PAGE;
}

/** How a store is made beside its driver. */
export interface SqlStoreOptions {
  /** Whether webhook events are written (a webhook is configured): migrations then write theirs. */
  webhookEvents?: boolean;
}

export function createSqlStore(driver: SqlDriver, opts: SqlStoreOptions = {}): Store {
  const cache = checkoutCache(driver.singleWriter);
  let ready: Promise<void> | null = null;
  const plan = () => migrationPlan(driver.jsonType, Date.now(), undefined, { engine: driver.engine, events: opts.webhookEvents ?? false });
  const init = (): Promise<void> =>
    (ready ??= driver.migrate(plan()).catch((err: unknown) => {
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
    // A read that stalls is not asked again (it would only wait as long again): the request answers 503.
    const row = await retrying(() => driver.first('SELECT * FROM checkouts WHERE id = ?', [next.id]), {
      tries: 5,
      baseMs: 100,
      retryable: (err) => isUnavailable(err) && !isStalled(err),
    });
    const stored = row ? checkoutFromRow(row) : null;
    if (stored?.version === next.version && isDeepStrictEqual(asStored(stored), asStored(next))) return 'written';
    return stored?.version === expectedVersion ? 'not-written' : 'stale';
  };

  async function updateCheckout(
    id: string,
    expectedVersion: number,
    patch: CheckoutPatch,
    events: OutboxEvent[] = [],
    settle?: NotificationSettle,
    again = true,
  ): Promise<CheckoutRecord | null> {
    const current = await getCheckout(id);
    if (!current || current.version !== expectedVersion) return null;
    const next = applyPatch(current, patch);
    try {
      return await writeCheckout(current, next, [...(settle ? [settleStatement(settle)] : []), ...[...events, ...(settle?.events ?? [])].map(outboxInsert)]);
    } catch (err) {
      if (!(err instanceof CommitInDoubt)) throw err;
      const verdict = await decide(next, expectedVersion);
      if (verdict === 'written') return cache.put(structuredClone(next));
      if (verdict === 'not-written' && again) return updateCheckout(id, expectedVersion, patch, events, settle, false);
      if (verdict === 'not-written') throw err;
      return null;
    }
  }

  /** The compare-and-set write of `next` over `current`, with the statements that go with it (its events, a settled notification). */
  async function writeCheckout(current: CheckoutRecord, next: CheckoutRecord, also: Statement[]): Promise<CheckoutRecord | null> {
    const id = current.id;
    const update = checkoutUpdate(current, next, driver.changeSeq);
    if (also.length) {
      // The change and what goes with it: all or nothing.
      if (!(await inTransaction([{ ...update, expectChanges: 1 }, ...also]))) {
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

    updateCheckout: (id, expectedVersion, patch, events, settle) => updateCheckout(id, expectedVersion, patch, events, settle),

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

    async settleNotification(settle) {
      return inTransaction([settleStatement(settle), ...settle.events.map(outboxInsert)]);
    },

    getNotification: (id) => one('SELECT * FROM notifications WHERE id = ?', [id], notificationFromRow),

    async notificationOutcomeIs(id, outcomes) {
      const row = await one('SELECT outcome FROM notifications WHERE id = ?', [id], (r) => String(r.outcome));
      return row !== null && (outcomes as readonly string[]).includes(row);
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
