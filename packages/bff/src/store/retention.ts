/**
 * What the store forgets, and when: delivered webhook events, Idempotency-Key records (the
 * checkout creations' keys and the other creations' replies), notifications that were applied
 * or ignored, and checkouts that ended, each once older than its cutoff. Deletes go in batches,
 * so no write waits long behind one. Pending, failed or unmatched rows and checkouts that have
 * not ended (or are `unknown`, waiting for the merchant) are never deleted.
 *
 * Leases: work that one instance of several does at a time (the periodic prune), taken for a
 * while by a holder and free again once it lapses.
 */
import { FINAL_STATES } from '@bank-checkout/contract';
import { checkoutFromRow } from './rows.js';
import type { Row, SqlValue } from './driver.js';
import type { CheckoutRecord, PruneCounts, PruneCutoffs, Store } from './types.js';

type Query = (sql: string, args?: SqlValue[]) => Promise<{ rows: Row[]; count: number }>;

/** Rows deleted per statement. */
const BATCH = 500;

const ENDED = FINAL_STATES.map((s) => `'${s}'`).join(', ');

/** A tombstone's document: what it did, never the raw result or its signature. */
const STRIPPED = `'{"dataReturn":"","signature":"","verified":true,"status":"","amount":0}'`;

/** Each kind of row: its table, its key, and which rows are old enough at `cutoff`. */
const KINDS = {
  events: { table: 'webhook_outbox', key: 'id', where: 'delivered_at IS NOT NULL AND delivered_at < ?' },
  idempotencyKeys: { table: 'idempotency_keys', key: 'idem_key', where: 'created_at < ?' },
  replies: { table: 'idempotent_replies', key: 'idem_key', where: 'created_at < ?' },
  // Past its retention a notification keeps its tombstone (no raw result, no signature): the
  // record that deduplicates a replay of it, kept as long as its checkout is (see `tombstones`).
  notifications: { table: 'notifications', key: 'id', where: "outcome IN ('applied', 'ignored') AND received_at < ? AND pruned_at IS NULL" },
  checkouts: { table: 'checkouts', key: 'id', where: `state IN (${ENDED}) AND updated_at < ?` },
} as const satisfies Record<keyof PruneCounts, { table: string; key: string; where: string }>;

/** Raises the floor of the feed's positions to the greatest a checkout holds (store migration 6). */
const KEEP_LAST_CHANGE =
  'UPDATE change_floor SET seq = (SELECT MAX(s) FROM (SELECT seq AS s FROM change_floor UNION ALL SELECT MAX(change_seq) AS s FROM checkouts) positions) WHERE id = 1';

const CUTOFF: Record<keyof PruneCounts, keyof PruneCutoffs> = {
  events: 'events',
  idempotencyKeys: 'idempotency',
  replies: 'idempotency',
  notifications: 'notifications',
  checkouts: 'checkouts',
};

export function retentionMethods(query: Query, forget: (checkoutId: string) => void): Pick<Store, 'prune' | 'claimLease' | 'useProofId' | 'forgetProofIds'> {
  return {
    async prune(cutoffs, opts = {}) {
      const counts: PruneCounts = { events: 0, idempotencyKeys: 0, replies: 0, notifications: 0, checkouts: 0 };
      for (const kind of Object.keys(KINDS) as (keyof PruneCounts)[]) {
        const { table, key, where } = KINDS[kind];
        const cutoff = cutoffs[CUTOFF[kind]];
        if (opts.dryRun) {
          const { rows } = await query(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, [cutoff]);
          counts[kind] = Number(rows[0]?.n ?? 0);
          continue;
        }
        if (kind === 'checkouts') {
          // Read, handed to `exportCheckouts` (written before anything is deleted), then deleted
          // unless changed meanwhile.
          for (;;) {
            const { rows } = await query(`SELECT * FROM checkouts WHERE ${where} ORDER BY updated_at, id LIMIT ?`, [cutoff, BATCH]);
            if (!rows.length) break;
            const batch: CheckoutRecord[] = rows.map(checkoutFromRow);
            await opts.exportCheckouts?.(batch);
            // The greatest position of a change is kept before its checkout may go: the embedded
            // engine gives the next change the position after it (SqlDriver `changeSeq`).
            await query(KEEP_LAST_CHANGE);
            const { count } = await query(`DELETE FROM checkouts WHERE id IN (${batch.map(() => '?').join(', ')}) AND ${where}`, [
              ...batch.map((r) => r.id),
              cutoff,
            ]);
            for (const r of batch) forget(r.id);
            counts.checkouts += count;
            if (rows.length < BATCH) break;
          }
          continue;
        }
        if (kind === 'notifications') {
          for (;;) {
            const { count } = await query(
              `UPDATE notifications SET pruned_at = ?, data = ${STRIPPED} WHERE id IN (SELECT id FROM notifications WHERE ${where} LIMIT ?) AND ${where}`,
              [cutoff, cutoff, BATCH, cutoff],
            );
            counts.notifications += count;
            if (count < BATCH) break;
          }
          // A tombstone goes with its checkout.
          await query(
            'DELETE FROM notifications WHERE pruned_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM checkouts WHERE checkouts.id = notifications.checkout_id)',
          );
          continue;
        }
        for (;;) {
          const { count } = await query(`DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE ${where} LIMIT ?) AND ${where}`, [
            cutoff,
            BATCH,
            cutoff,
          ]);
          counts[kind] += count;
          if (count < BATCH) break;
        }
      }
      // A tombstone goes with its checkout (after the checkouts that went now).
      if (!opts.dryRun)
        await query(
          'DELETE FROM notifications WHERE pruned_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM checkouts WHERE checkouts.id = notifications.checkout_id)',
        );
      return counts;
    },

    async claimLease(name, holder, now, ttlMs) {
      const { count } = await query(
        'INSERT INTO leases (name, holder, until_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_at = excluded.until_at WHERE leases.until_at < ? OR leases.holder = ?',
        [name, holder, now + ttlMs, now, holder],
      );
      return count === 1;
    },

    async useProofId(id, until, now) {
      // A row whose time is over counts as free: taken again rather than refused.
      const { count } = await query(
        'INSERT INTO proof_ids (id, until_at) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET until_at = excluded.until_at WHERE proof_ids.until_at < ?',
        [id, until, now],
      );
      return count === 1;
    },

    async forgetProofIds(now) {
      const { count } = await query('DELETE FROM proof_ids WHERE until_at < ?', [now]);
      return count;
    },
  };
}
