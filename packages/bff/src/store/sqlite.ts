/**
 * Embedded engine: SQLite through libSQL, for a single BFF instance. `file:` URLs name a
 * database file (its directory is created); `:memory:` and `file::memory:` give a private
 * in-memory database, for tests. Relative paths resolve against the working directory; URL
 * parameters are not read.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient } from '@libsql/client';
import { createSqlStore, type SqlDriver } from './sql.js';
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

export function createSqliteStore(url: string): Store {
  const file = sqliteFilePath(url);
  if (file) mkdirSync(dirname(file), { recursive: true });
  const client = createClient({ url: file ? pathToFileURL(file).href : ':memory:', timeout: BUSY_TIMEOUT_MS });
  let closed = false;

  const driver: SqlDriver = {
    engine: 'sqlite',
    jsonType: 'TEXT',
    async query(sql, args = []) {
      const rs = await client.execute({ sql, args });
      return { rows: rs.rows as unknown as Record<string, unknown>[], count: rs.rowsAffected };
    },
    async transaction(statements) {
      await client.batch(statements, 'write');
    },
    async migrate(statements) {
      // WAL lets readers run beside the writer; the setting is stored in the file.
      if (file) await client.execute('PRAGMA journal_mode = WAL');
      await client.batch(statements, 'write');
    },
    async close() {
      if (closed) return;
      closed = true;
      client.close();
    },
  };
  return createSqlStore(driver);
}
