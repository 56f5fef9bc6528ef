/**
 * What the sweeper needs from the store (its lease is `claimLease`, retention.ts): the checkouts whose lock lapsed
 * (an instance stopped mid-call), and the notifications stored but not applied (a crash or a
 * database error between the two).
 */
import { CHECKOUT_STATES, FINAL_STATES } from '@bank-checkout/contract';
import type { Row, SqlValue } from './driver.js';
import type { Store } from './types.js';
import { checkoutFromRow, notificationFromRow } from './rows.js';

type Query = (sql: string, args?: SqlValue[]) => Promise<{ rows: Row[]; count: number }>;

/** A field of the checkout's data, as SQL (text), per engine. */
const field = {
  sqlite: (path: string) => `json_extract(data, '$.${path}')`,
  postgres: (path: string) => `(data #>> '{${path.split('.').join(',')}}')`,
} as const;

/** The lock's lease end (or, for a lock written without one, when it was taken), as SQL. */
const LOCK_END = {
  sqlite: "COALESCE(json_extract(data, '$.internal.busy.until'), json_extract(data, '$.internal.busy.since'))",
  postgres: "COALESCE((data->'internal'->'busy'->>'until')::BIGINT, (data->'internal'->'busy'->>'since')::BIGINT)",
} as const;

export function sweepMethods(engine: Store['engine'], query: Query): Pick<Store, 'findLapsedLocks' | 'listPendingNotifications' | 'findAwaitingLinkResult'> {
  const open = CHECKOUT_STATES.filter((st) => !FINAL_STATES.includes(st));
  const f = field[engine];
  // When a checkout waiting on a link's result was last asked about (or, never asked, when its link was signed).
  const lastAsked = `COALESCE(${f('internal.reconciliation.checkedAt')}, ${f('internal.linkSignedAt')}, CAST(created_at AS TEXT))`;
  return {
    async findAwaitingLinkResult(askedBefore, expiredSince, limit) {
      // At the bank's page (`redirect`), or ended by time before its result came (`expired`,
      // lately): a payment order of the provider (`idDebt`), no result yet, not given up on.
      const { rows } = await query(
        `SELECT * FROM checkouts WHERE ((state = 'redirect') OR (state = 'expired' AND expires_at >= ?))
          AND ${f('internal.idDebt')} IS NOT NULL AND ${f('internal.linkTransactionId')} IS NULL AND ${f('internal.reconciliation.done')} IS NULL
          AND CAST(${lastAsked} AS BIGINT) < ? ORDER BY updated_at LIMIT ?`,
        [expiredSince, askedBefore, Math.max(1, Math.floor(limit))],
      );
      return rows.map(checkoutFromRow);
    },
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
