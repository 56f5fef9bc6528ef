/**
 * What the sweeper needs from the store (its lease is `claimLease`, retention.ts): the checkouts whose lock lapsed
 * (an instance stopped mid-call), and the notifications stored but not applied (a crash or a
 * database error between the two).
 */
import { CHECKOUT_STATES, FINAL_STATES } from '@bank-checkout/contract';
import type { Row, SqlValue } from './sql.js';
import type { Store } from './types.js';
import { checkoutFromRow, notificationFromRow } from './rows.js';

type Query = (sql: string, args?: SqlValue[]) => Promise<{ rows: Row[]; count: number }>;

/** The lock's lease end (or, for a lock written without one, when it was taken), as SQL. */
const LOCK_END = {
  sqlite: "COALESCE(json_extract(data, '$.internal.busy.until'), json_extract(data, '$.internal.busy.since'))",
  postgres: "COALESCE((data->'internal'->'busy'->>'until')::BIGINT, (data->'internal'->'busy'->>'since')::BIGINT)",
} as const;

export function sweepMethods(engine: Store['engine'], query: Query): Pick<Store, 'findLapsedLocks' | 'listPendingNotifications'> {
  const open = CHECKOUT_STATES.filter((st) => !FINAL_STATES.includes(st));
  return {
    async findLapsedLocks(now, limit) {
      const { rows } = await query(
        `SELECT * FROM checkouts WHERE state IN (${open.map(() => '?').join(', ')}) AND ${LOCK_END[engine]} < ? ORDER BY updated_at LIMIT ?`,
        [...open, now, Math.max(1, Math.floor(limit))],
      );
      return rows.map(checkoutFromRow);
    },
    async listPendingNotifications(before, limit) {
      const { rows } = await query("SELECT * FROM notifications WHERE outcome = 'pending' AND received_at < ? ORDER BY received_at, id LIMIT ?", [
        before,
        Math.max(1, Math.floor(limit)),
      ]);
      return rows.map(notificationFromRow);
    },
  };
}
