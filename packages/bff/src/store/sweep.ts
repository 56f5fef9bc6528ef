/**
 * What the sweeper needs from the store: a named lease that one instance at a time holds (the
 * sweeper runs on every instance, and only the holder sweeps), the checkouts whose lock lapsed
 * (an instance stopped mid-call), and the notifications stored but not applied (a crash or a
 * database error between the two).
 */
import { CHECKOUT_STATES, FINAL_STATES } from '@bank-checkout/contract';
import type { Row, SqlValue } from './sql.js';
import type { Store } from './types.js';
import { checkoutFromRow, notificationFromRow } from './rows.js';

export const SWEEP_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    lease_until BIGINT NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS notifications_outcome_idx ON notifications (outcome, received_at)',
];

type Query = (sql: string, args?: SqlValue[]) => Promise<{ rows: Row[]; count: number }>;

/** The lock's lease end (or, for a lock written without one, when it was taken), as SQL. */
const LOCK_END = {
  sqlite: "COALESCE(json_extract(data, '$.internal.busy.until'), json_extract(data, '$.internal.busy.since'))",
  postgres: "COALESCE((data->'internal'->'busy'->>'until')::BIGINT, (data->'internal'->'busy'->>'since')::BIGINT)",
} as const;

export function sweepMethods(engine: Store['engine'], query: Query): Pick<Store, 'claimLease' | 'findLapsedLocks' | 'listPendingNotifications'> {
  const open = CHECKOUT_STATES.filter((st) => !FINAL_STATES.includes(st));
  return {
    async claimLease(name, holder, now, leaseMs) {
      // Taken when free, lapsed or already ours; a concurrent claim changes nothing.
      const { count } = await query(
        'INSERT INTO leases (name, holder, lease_until) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until WHERE leases.lease_until < ? OR leases.holder = excluded.holder',
        [name, holder, now + leaseMs, now],
      );
      return count === 1;
    },
    async findLapsedLocks(now, limit) {
      const { rows } = await query(
        `SELECT * FROM checkouts WHERE state IN (${open.map(() => '?').join(', ')}) AND ${LOCK_END[engine]} < ? ORDER BY updated_at LIMIT ?`,
        [...open, now, Math.max(1, Math.floor(limit))],
      );
      return rows.map(checkoutFromRow);
    },
    async listPendingNotifications(before, limit) {
      const { rows } = await query("SELECT * FROM notifications WHERE outcome = 'pending' AND received_at < ? ORDER BY received_at, id LIMIT ?", [before, Math.max(1, Math.floor(limit))]);
      return rows.map(notificationFromRow);
    },
  };
}
