/**
 * Embedded engine: SQLite through libSQL, for a single BFF instance. `file:` URLs name a
 * database file (its directory is created); `:memory:` and `file::memory:` give a private
 * in-memory database, for tests. Relative paths resolve against the working directory; URL
 * parameters are not read.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'libsql';
import { createSqlStore, StaleWrite, type SqlDriver, type SqlValue } from './sql.js';
import type { Store } from './types.js';

/** How long a write waits for another process's lock before failing. */
const BUSY_TIMEOUT_MS = 5000;

/** The file a `file:` URL names, or null for an in-memory database. */
export function sqliteFilePath(url: string): string | null {
  if (url === ':memory:' || url.startsWith('file::memory:')) return null;
  if (!url.startsWith('file:')) throw new Error('DATABASE_URL for SQLite must start with file: or be :memory:');
  if (url.startsWith('file://')) return fileURLToPath(url.split('?')[0]!);
  const path = decodeURIComponent(url.slice('file:'.length).split('?')[0]!);
  if (!path) throw new Error('DATABASE_URL names no file after file:');
  return resolve(path);
}

/** Statements that hand rows back; the rest report how many rows they changed. */
const returnsRows = (sql: string) => /^\s*SELECT\b|\bRETURNING\b/i.test(sql);

/**
 * libSQL's synchronous driver with one prepared statement per SQL text, kept for the life of
 * the connection: the store runs a handful of distinct statements, so preparing each once
 * takes most of the per-request cost off a read.
 */
export function createSqliteStore(url: string): Store {
  const file = sqliteFilePath(url);
  if (file) mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file ?? ':memory:', { timeout: BUSY_TIMEOUT_MS });
  const prepared = new Map<string, ReturnType<typeof db.prepare>>();
  const statement = (sql: string) => {
    let stmt = prepared.get(sql);
    if (!stmt) prepared.set(sql, (stmt = db.prepare(sql)));
    return stmt;
  };
  const run = (sql: string, args: SqlValue[]) => {
    const stmt = statement(sql);
    if (returnsRows(sql)) {
      const rows = stmt.all(args) as Record<string, unknown>[];
      return { rows, count: rows.length };
    }
    return { rows: [], count: Number(stmt.run(args).changes) };
  };
  let closed = false;

  const driver: SqlDriver = {
    engine: 'sqlite',
    jsonType: 'TEXT',
    singleWriter: true,
    async query(sql, args = []) {
      return run(sql, args);
    },
    async first(sql, args = []) {
      return (statement(sql).get(args) as Record<string, unknown> | undefined) ?? null;
    },
    async transaction(statements) {
      db.transaction(() => {
        for (const s of statements) {
          const { count } = run(s.sql, s.args);
          if (s.expectChanges !== undefined && count !== s.expectChanges) throw new StaleWrite();
        }
      }).immediate();
    },
    async migrate(statements) {
      // WAL lets readers run beside the writer; the setting is stored in the file.
      if (file) db.exec('PRAGMA journal_mode = WAL');
      db.transaction(() => {
        for (const s of statements) db.exec(s);
      }).immediate();
    },
    async close() {
      if (closed) return;
      closed = true;
      prepared.clear();
      db.close();
    },
  };
  return createSqlStore(driver);
}
