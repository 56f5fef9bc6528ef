/**
 * Replies kept for an Idempotency-Key: a merchant creation (a payment link, a periodic order or
 * its cancellation) claims its key before the provider is called and stores the answer after,
 * so a retry with the same key gets the same link instead of a second payable one.
 */
import type { Row, SqlValue } from './driver.js';
import type { ReplyRecord, Store } from './types.js';

function replyFromRow(row: Row): ReplyRecord {
  return {
    key: String(row.idem_key),
    fingerprint: String(row.fingerprint),
    status: row.status === null || row.status === undefined ? null : Number(row.status),
    body: typeof row.body === 'string' ? (JSON.parse(row.body) as unknown) : null,
    createdAt: Number(row.created_at),
  };
}

type Query = (sql: string, args?: SqlValue[]) => Promise<{ rows: Row[]; count: number }>;
type One = <T>(sql: string, args: SqlValue[], decode: (row: Row) => T) => Promise<T | null>;

export function replyMethods(query: Query, one: One): Pick<Store, 'claimReply' | 'completeReply' | 'releaseReply'> {
  return {
    async claimReply(claim) {
      const { count } = await query(
        'INSERT INTO idempotent_replies (idem_key, fingerprint, status, body, created_at) VALUES (?, ?, NULL, NULL, ?) ON CONFLICT (idem_key) DO NOTHING',
        [claim.key, claim.fingerprint, claim.createdAt],
      );
      if (count === 1) return { claimed: true };
      const existing = await one('SELECT * FROM idempotent_replies WHERE idem_key = ?', [claim.key], replyFromRow);
      if (!existing) throw new Error('store: idempotency key vanished after insert');
      return { claimed: false, existing };
    },
    async completeReply(key, status, body) {
      await query('UPDATE idempotent_replies SET status = ?, body = ? WHERE idem_key = ?', [status, JSON.stringify(body), key]);
    },
    async releaseReply(key) {
      await query('DELETE FROM idempotent_replies WHERE idem_key = ? AND status IS NULL', [key]);
    },
  };
}
