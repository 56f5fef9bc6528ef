/**
 * The webhook outbox: each event for the merchant is a row written in the same transaction as
 * the change it reports, so an acknowledged change always has its event, across crashes and
 * restarts. Instances take due events with a lease (one delivers, the others skip them until
 * the lease lapses) and record each delivery's outcome.
 */
import type { Row, SqlValue, Statement } from './driver.js';
import type { OutboxEvent, OutboxRecord, Store } from './types.js';

/** The statement that adds an event, due now. */
export function outboxInsert(e: OutboxEvent): Statement {
  return {
    sql: 'INSERT INTO webhook_outbox (id, type, created_at, data, attempts, next_attempt_at) VALUES (?, ?, ?, ?, 0, ?)',
    args: [e.id, e.type, e.createdAt, JSON.stringify(e.data), e.createdAt],
  };
}

const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function eventFromRow(row: Row): OutboxRecord {
  return {
    id: String(row.id),
    type: String(row.type) as OutboxRecord['type'],
    createdAt: Number(row.created_at),
    data: typeof row.data === 'string' ? (JSON.parse(row.data) as unknown) : row.data,
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    deliveredAt: numOrNull(row.delivered_at),
    failedAt: numOrNull(row.failed_at),
    lastError: typeof row.last_error === 'string' ? row.last_error : null,
  };
}

type Query = (sql: string, args?: SqlValue[]) => Promise<{ rows: Row[]; count: number }>;
type One = <T>(sql: string, args: SqlValue[], decode: (row: Row) => T) => Promise<T | null>;

const STATUS_WHERE = {
  pending: 'delivered_at IS NULL AND failed_at IS NULL',
  delivered: 'delivered_at IS NOT NULL',
  failed: 'failed_at IS NOT NULL',
} as const;

export function outboxMethods(query: Query, one: One): Pick<Store, 'claimDueEvents' | 'settleEvent' | 'listEvents' | 'getEvent' | 'redeliverEvent'> {
  return {
    async claimDueEvents(now, leaseMs, limit) {
      const free = `${STATUS_WHERE.pending} AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)`;
      // The outer condition is checked again on each row a concurrent instance just took.
      const { rows } = await query(
        `UPDATE webhook_outbox SET lease_until = ? WHERE id IN (SELECT id FROM webhook_outbox WHERE ${free} ORDER BY next_attempt_at, id LIMIT ?) AND ${free} RETURNING *`,
        [now + leaseMs, now, now, Math.max(1, Math.floor(limit)), now, now],
      );
      return rows.map(eventFromRow).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.id.localeCompare(b.id));
    },
    async settleEvent(id, outcome) {
      if ('deliveredAt' in outcome) {
        await query('UPDATE webhook_outbox SET delivered_at = ?, attempts = attempts + 1, lease_until = NULL, last_error = NULL WHERE id = ?', [
          outcome.deliveredAt,
          id,
        ]);
      } else if ('failedAt' in outcome) {
        await query('UPDATE webhook_outbox SET failed_at = ?, attempts = attempts + 1, lease_until = NULL, last_error = ? WHERE id = ?', [
          outcome.failedAt,
          outcome.lastError,
          id,
        ]);
      } else {
        await query('UPDATE webhook_outbox SET next_attempt_at = ?, attempts = attempts + 1, lease_until = NULL, last_error = ? WHERE id = ?', [
          outcome.nextAttemptAt,
          outcome.lastError,
          id,
        ]);
      }
    },
    async listEvents(opts) {
      const where = [opts.status ? STATUS_WHERE[opts.status] : '1 = 1', ...(opts.before ? ['(created_at, id) < (?, ?)'] : [])].join(' AND ');
      const { rows } = await query(`SELECT * FROM webhook_outbox WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ?`, [
        ...(opts.before ? [opts.before.at, opts.before.id] : []),
        Math.min(500, Math.max(1, Math.floor(opts.limit))),
      ]);
      return rows.map(eventFromRow);
    },
    getEvent: (id) => one('SELECT * FROM webhook_outbox WHERE id = ?', [id], eventFromRow),
    async redeliverEvent(id, now) {
      const { count } = await query(
        'UPDATE webhook_outbox SET delivered_at = NULL, failed_at = NULL, lease_until = NULL, next_attempt_at = ?, attempts = 0 WHERE id = ?',
        [now, id],
      );
      return count === 1 ? one('SELECT * FROM webhook_outbox WHERE id = ?', [id], eventFromRow) : null;
    },
  };
}
