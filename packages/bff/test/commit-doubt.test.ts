/**
 * A write whose commit is in doubt (the connection broke while COMMIT was under way) is never
 * repeated blindly: the store reads the checkout back and decides. Here a driver over an
 * in-memory SQLite database breaks on demand, after applying the transaction (committed, the
 * answer lost) or before (nothing applied).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'libsql';
import { createSqlStore, StaleWrite, type SqlDriver } from '../src/store/sql.js';
import { CommitInDoubt } from '../src/store/failure.js';
import { checkoutRecord } from './store-fixtures.js';

function doubtfulDriver() {
  const db = new Database(':memory:');
  const state = { doubt: null as null | 'after-commit' | 'before-commit', writes: 0 };
  const run = (sql: string, args: (string | number | null)[]) => {
    const stmt = db.prepare(sql);
    if (/^\s*SELECT\b|\bRETURNING\b/i.test(sql)) {
      const rows = stmt.all(args) as Record<string, unknown>[];
      return { rows, count: rows.length };
    }
    return { rows: [], count: stmt.run(args).changes };
  };
  /** Runs a write, breaking as set: after it applied, or before. */
  const write = <T>(apply: () => T): T => {
    const doubt = state.doubt;
    state.doubt = null;
    if (doubt === 'before-commit') throw new CommitInDoubt('lost before the commit');
    const out = apply();
    state.writes++;
    if (doubt === 'after-commit') throw new CommitInDoubt('lost after the commit');
    return out;
  };
  const driver: SqlDriver = {
    engine: 'postgres',
    jsonType: 'TEXT',
    singleWriter: false,
    changeSeq: '(SELECT MAX(s) + 1 FROM (SELECT MAX(change_seq) AS s FROM checkouts UNION ALL SELECT seq AS s FROM change_floor) positions)',
    settledChange: '',
    async query(sql, args = []) {
      return /^\s*SELECT\b/i.test(sql) ? run(sql, args) : write(() => run(sql, args));
    },
    async first(sql, args = []) {
      return /^\s*SELECT\b/i.test(sql) ? (run(sql, args).rows[0] ?? null) : write(() => run(sql, args).rows[0] ?? null);
    },
    async transaction(statements) {
      write(() =>
        db.transaction(() => {
          for (const s of statements) {
            const { count } = run(s.sql, s.args);
            if (s.expectChanges !== undefined && count !== s.expectChanges) throw new StaleWrite();
          }
        })(),
      );
    },
    async migrate(plan) {
      for (const sql of plan.prepare) db.exec(sql);
      const row = db.prepare(plan.readVersion).get([]) as Record<string, unknown> | undefined;
      for (const step of plan.steps(row?.version === null || row?.version === undefined ? null : Number(row.version))) db.prepare(step.sql).run(step.args);
    },
    async close() {
      db.close();
    },
  };
  return { store: createSqlStore(driver), state };
}

const record = (id: string) => checkoutRecord({ id, createdAt: 1, expiresAt: 10_000 });

describe('a commit in doubt', () => {
  it('that did commit is read back as written, not repeated', async () => {
    const { store, state } = doubtfulDriver();
    await store.init();
    await store.createCheckout(record('chk_a'));
    state.doubt = 'after-commit';
    const before = state.writes;
    const written = await store.updateCheckout('chk_a', 1, { state: 'login', updatedAt: 2 });
    assert.equal(written?.version, 2);
    assert.equal(written.state, 'login');
    assert.equal(state.writes - before, 1, 'written once');
    assert.equal((await store.getCheckout('chk_a'))?.version, 2);
  });

  it('that did not commit runs again, once, and is written', async () => {
    const { store, state } = doubtfulDriver();
    await store.init();
    await store.createCheckout(record('chk_b'));
    state.doubt = 'before-commit';
    const written = await store.updateCheckout('chk_b', 1, { state: 'login', updatedAt: 2 }, [
      { id: 'evt_1', type: 'checkout.updated', createdAt: 2, data: {} },
    ]);
    assert.equal(written?.version, 2);
    assert.equal((await store.listEvents({ limit: 10 })).length, 1, 'its event once');
  });

  it('a creation in doubt that committed is not inserted twice', async () => {
    const { store, state } = doubtfulDriver();
    await store.init();
    state.doubt = 'after-commit';
    const created = await store.createCheckout(record('chk_c'), { key: 'idem-1', fingerprint: 'f', createdAt: 1 });
    assert.ok(created.created);
    assert.equal((await store.getCheckout('chk_c'))?.version, 1);
  });
});
