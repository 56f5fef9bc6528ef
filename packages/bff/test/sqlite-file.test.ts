/**
 * The embedded store's file: one BFF process serves it (a second one is refused, naming the
 * file and PostgreSQL as the way to several instances), tools that do not serve it (`prune`, a
 * backup) still open it, and another process holding its write lock makes writes answer 503
 * within the busy timeout while reads go on.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { createBff, createStore, loadConfig } from '../src/index.js';
import { createSqliteStore } from '../src/store/sqlite.js';
import { isStalled } from '../src/store/failure.js';

const SECRET = 'test-merchant-secret-0123456789';

function tempFile(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'bff-sqlite-file-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'bff.db');
}

describe('one process per SQLite file', () => {
  it('a second BFF on the file is refused, with one line naming it and PostgreSQL; once the first closes, the file is free', async (t) => {
    const file = tempFile(t);
    const config = loadConfig({ DATABASE_URL: `file:${file}`, LOG_LEVEL: 'silent' });
    const first = createBff(config, { frame: null, sweepMs: 0 });
    await first.ready;
    let message = '';
    assert.throws(
      () => createBff(config, { frame: null, sweepMs: 0 }),
      (err: Error) => ((message = err.message), err.name === 'FileInUse'),
    );
    assert.equal(message.split('\n').length, 1);
    assert.ok(message.includes(file), message);
    assert.match(message, /one process per SQLite file .*PostgreSQL/);
    // What does not serve the file still opens it: `bank-checkout-bff prune`, a backup's reader.
    const tool = createSqliteStore(`file:${file}`);
    assert.deepEqual(await tool.listCheckouts({ limit: 1 }), []);
    await tool.close();
    await first.close();
    const next = createBff(config, { frame: null, sweepMs: 0 });
    await next.ready;
    await next.close();
  });

  it('a write waits for another process holding the file at most the busy timeout, then answers 503; reads go on', async (t) => {
    const file = tempFile(t);
    const bff = createBff(loadConfig({ DATABASE_URL: `file:${file}`, LOG_LEVEL: 'silent', BFF_MERCHANT_SECRET: SECRET, DATABASE_BUSY_TIMEOUT_MS: '400' }), {
      frame: null,
      sweepMs: 0,
    });
    await bff.ready;
    const create = (reference: string) =>
      bff.request('/v1/checkouts', {
        method: 'POST',
        headers: { Authorization: `Bearer ${SECRET}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ amount: 100, subject: 'Busy', reference, isolation: 'inline' }),
      });
    const made = (await (await create('BUSY-0')).json()) as { id: string };
    // Another process's writer (as a tool writing the file would), holding the write lock.
    const other = new Database(file, { timeout: 0 });
    other.exec('BEGIN IMMEDIATE');
    // Each try to begin a write waits the busy timeout (400 ms) for the lock.
    const tries = t.mock.method(Database.prototype, 'exec');
    const begun = () => tries.mock.calls.filter((c) => c.arguments[0] === 'BEGIN IMMEDIATE').length;
    try {
      const refused = await create('BUSY-1');
      assert.equal(refused.status, 503);
      assert.ok(Number(refused.headers.get('Retry-After')) > 0);
      // One wait of the busy timeout, not one per try of the store's retries (three: 1.2 s).
      assert.equal(begun(), 1, 'one try to begin the write');
      const read = await bff.request(`/v1/checkouts/${made.id}`, { headers: { Authorization: `Bearer ${SECRET}` } });
      assert.equal(read.status, 200);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    assert.equal((await create('BUSY-2')).status, 201);
    await bff.close();
  });

  it('the store options reach the engine DATABASE_URL names, and a stall is not tried again', () => {
    assert.ok(isStalled(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })));
    for (const code of ['57014', '55P03']) assert.ok(isStalled(Object.assign(new Error('canceling statement'), { code })), code);
    for (const message of ['Query read timeout', 'timeout exceeded when trying to connect', 'Connection terminated due to connection timeout'])
      assert.ok(isStalled(new Error(message)), message);
    assert.ok(!isStalled(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })), 'a dropped connection is tried again');
    const memory = createStore(':memory:', { busyTimeoutMs: 10, exclusive: true });
    assert.equal(memory.engine, 'sqlite');
    void memory.close();
  });
});
