/**
 * The feed of changes on PostgreSQL, where transactions commit in another order than their
 * positions were given: a change committed while an earlier transaction is still open waits
 * for it (a reader that did not wait would move past the earlier one and never read it), and
 * with writers committing in random order while a reader follows the feed, every change is
 * read once and the last of each checkout is never missed. The positions are the store's own
 * (PG_CHANGE_SEQ); the writers hold their transactions open as a slow instance of the BFF would.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createPostgresStore, createSqliteStore, type Store } from '../src/store/index.js';
import { until } from './until.js';
import { PG_CHANGE_SEQ } from '../src/store/postgres.js';
import type { ChangePosition } from '../src/store/types.js';
import { checkoutRecord, dropSchemas, freshSchema, withPostgres } from './store-fixtures.js';
import { opened } from '../../../test/support/opened.js';

/** Waits until `check` holds (other suites' transactions on the same server may hold the feed back for a moment). */
async function settled<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
  const found = await until(
    async () => {
      const value = await read();
      return check(value) ? { value } : null;
    },
    what,
    15_000,
  );
  return found.value;
}

/** A pseudo-random sequence from a seed (printed when a run fails, to replay it). */
function random(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

const after_ = (a: ChangePosition, b: ChangePosition) => a.seq > b.seq || (a.seq === b.seq && a.id > b.id);

describe('the feed of changes after retention (embedded engine)', () => {
  test('a change after retention deleted the checkout changed last still comes after every position given', async () => {
    const store = createSqliteStore(':memory:');
    try {
      const old = checkoutRecord({ state: 'expired', createdAt: 1_000, updatedAt: 1_000 });
      const kept = checkoutRecord({ state: 'select-bank', createdAt: 1_000, updatedAt: 1_000 });
      await store.createCheckout(kept);
      await store.createCheckout(old);
      const [, last] = await store.listChanges({ after: null, limit: 10 });
      assert.equal(last?.record.id, old.id, 'the ended one changed last');
      const counts = await store.prune({ checkouts: 2_000, events: 0, idempotency: 0, notifications: 0 });
      assert.equal(counts.checkouts, 1);
      assert.equal(await store.getCheckout(old.id), null);
      // An id that sorts before the deleted one's: its position alone must put it after.
      const next = checkoutRecord({ id: 'chk_0_after_retention' });
      await store.createCheckout(next);
      const read = await store.listChanges({ after: last.position, limit: 10 });
      assert.deepEqual(
        read.map((r) => r.record.id),
        [next.id],
      );
      assert.ok(after_(read[0]!.position, last.position));
    } finally {
      await store.close();
    }
  });
});

withPostgres('the feed of changes with concurrent writers', (url) => {
  describe('the feed of changes on PostgreSQL, with writers committing out of order', () => {
    const schema = freshSchema('feed');
    let store: Store;
    let pool: pg.Pool;
    before(async () => {
      store = createPostgresStore(url, { schema });
      await store.init();
      pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}`, max: 12 });
    });
    after(async () => {
      await opened(store)?.close();
      await opened(pool)?.end();
      await dropSchemas(url, schema);
    });

    /** A change of checkout `id` written in a transaction left open until `end(commit)`. */
    async function openChange(id: string) {
      const client = await pool.connect();
      await client.query('BEGIN');
      const { rows } = await client.query<{ change_seq: string }>(
        `UPDATE checkouts SET change_seq = ${PG_CHANGE_SEQ}, version = version + 1 WHERE id = $1 RETURNING change_seq`,
        [id],
      );
      return {
        position: { seq: Number(rows[0]!.change_seq), id },
        async end(commit = true) {
          await client.query(commit ? 'COMMIT' : 'ROLLBACK');
          client.release();
        },
      };
    }

    /** Where the feed ends now. */
    async function end(): Promise<ChangePosition | null> {
      let at: ChangePosition | null = null;
      for (;;) {
        const page = await store.listChanges({ after: at, limit: 200 });
        if (!page.length) return at;
        at = page.at(-1)!.position;
      }
    }

    test('a change committed while an earlier transaction is open waits for it; a reader that did not wait would skip the earlier one', async () => {
      const [x, y] = [checkoutRecord(), checkoutRecord()];
      await store.createCheckout(x);
      await store.createCheckout(y);
      const from = (await settled(end, (at) => at?.id === y.id || at?.id === x.id, 'both creations readable'))!;

      const slow = await openChange(x.id); // takes its position first
      await store.updateCheckout(y.id, 1, { state: 'login' }); // commits first, at a greater position
      assert.deepEqual(await store.listChanges({ after: from, limit: 10 }), [], 'the later change waits behind the open transaction');

      // What a reader that took what was committed would do: read y, move past x's position, and never read x.
      const hasty = async (at: ChangePosition) =>
        (
          await pool.query<{ id: string; change_seq: string }>(
            'SELECT id, change_seq FROM checkouts WHERE (change_seq, id) > ($1, $2) ORDER BY change_seq, id',
            [at.seq, at.id],
          )
        ).rows;
      const taken = await hasty(from);
      assert.deepEqual(
        taken.map((r) => r.id),
        [y.id],
      );
      await slow.end();
      const missed = await hasty({ seq: Number(taken[0]!.change_seq), id: y.id });
      assert.deepEqual(missed, [], 'without waiting, x would never be read');

      const read = await settled(
        () => store.listChanges({ after: from, limit: 10 }),
        (rows) => rows.length === 2,
        'both changes readable once the transaction ended',
      );
      assert.deepEqual(
        read.map((r) => [r.record.id, r.position.seq]),
        [
          [x.id, slow.position.seq],
          [y.id, read[1]!.position.seq],
        ],
      );
      assert.ok(after_(read[1]!.position, read[0]!.position));
    });

    test('eight writers committing (or rolling back) in random order while a reader follows the feed: each change read once, none missed', async () => {
      const seed = Number(process.env.FEED_SEED ?? Date.now() % 1_000_000);
      const rand = random(seed);
      const records = Array.from({ length: 12 }, () => checkoutRecord());
      for (const r of records) await store.createCheckout(r);
      // From the last creation on: a creation read after `from` would be a change no writer made.
      const from = await settled(end, (at) => at?.id === records.at(-1)!.id, 'the creations readable');

      const committed = new Map<string, number[]>(records.map((r) => [r.id, []]));
      const reads: ChangePosition[] = [];
      let writing = true;
      // A function called, not one run in place: TypeScript would read `writing` in it as the
      // `true` it holds here, when the writers set it to false while the reader waits.
      const readAll = async () => {
        let at: ChangePosition | null = from;
        for (;;) {
          const stillWriting = writing;
          const page = await store.listChanges({ after: at, limit: 4 });
          for (const r of page) reads.push(r.position);
          if (page.length) at = page.at(-1)!.position;
          // Done once the writers were done before a read that found nothing more.
          else if (!stillWriting) return at;
          else await new Promise((r) => setImmediate(r));
        }
      };
      const reader = readAll();
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = 0; i < 12; i++) {
            const id = records[Math.floor(rand() * records.length)]!.id;
            const change = await openChange(id);
            // Held open for a random number of turns of the event loop, while the other writers' statements come and go.
            for (let turns = Math.floor(rand() * 4) * 8; turns > 0; turns--) await new Promise((r) => setImmediate(r));
            const commit = rand() > 1 / 6;
            await change.end(commit);
            if (commit) committed.get(id)!.push(change.position.seq);
          }
        }),
      );
      writing = false;
      // Other suites' open transactions may hold the last changes back for a moment: the reader
      // stops at an empty read, so it is run again until the last change of each was read.
      let at = await reader;
      // Each checkout's last change: the position it is stored at now. Not the greatest its
      // writers were given: a writer given an earlier position can still commit after one given a
      // later (its update of the row waited for the other's, then went on with its own
      // position), and the later position, overwritten, is then never read, nor has to be.
      const { rows: stored } = await pool.query<{ id: string; change_seq: string }>('SELECT id, change_seq FROM checkouts WHERE id = ANY($1)', [
        records.map((r) => r.id),
      ]);
      const now = new Map(stored.map((r) => [r.id, Number(r.change_seq)]));
      const lastOf = (id: string) => (committed.get(id)!.length ? now.get(id)! : -1);
      const readOf = (id: string) => reads.filter((p) => p.id === id).map((p) => p.seq);
      await settled(
        async () => {
          const page = await store.listChanges({ after: at, limit: 200 });
          for (const r of page) reads.push(r.position);
          if (page.length) at = page.at(-1)!.position;
          return records.filter((r) => lastOf(r.id) >= 0 && !readOf(r.id).includes(lastOf(r.id))).length;
        },
        (missing) => missing === 0,
        `seed ${seed}: the last change of each checkout read`,
      );

      const context = `seed ${seed} (FEED_SEED=${seed} replays it)`;
      assert.ok(
        reads.every((p, i) => i === 0 || after_(p, reads[i - 1]!)),
        `${context}: in order, never the same position twice`,
      );
      for (const r of records) {
        const seqs = readOf(r.id);
        for (const s of seqs) assert.ok(committed.get(r.id)!.includes(s), `${context}: ${r.id} read at ${s}, a change that was committed`);
        if (lastOf(r.id) >= 0) {
          assert.ok(committed.get(r.id)!.includes(lastOf(r.id)), `${context}: ${r.id} is stored at a position a writer committed`);
          assert.equal(seqs.at(-1), lastOf(r.id), `${context}: ${r.id}'s last change read`);
        }
      }
      assert.ok([...committed.values()].reduce((n, s) => n + s.length, 0) > 40, 'most of the 96 changes were committed');
    });
  });
});
