/**
 * The store DATABASE_URL names: `file:` paths and `:memory:` open the embedded SQLite engine,
 * `postgres://` and `postgresql://` URLs the PostgreSQL engine.
 */
import { createPostgresStore, type PostgresStoreOptions } from './postgres.js';
import { createSqliteStore } from './sqlite.js';
import type { Store } from './types.js';

export type * from './types.js';
export type { PostgresStoreOptions } from './postgres.js';
export { createPostgresStore, createSqliteStore };

export function createStore(databaseUrl: string, opts: PostgresStoreOptions = {}): Store {
  if (databaseUrl === ':memory:' || databaseUrl.startsWith('file:')) return createSqliteStore(databaseUrl);
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return createPostgresStore(databaseUrl, opts);
  // Only the scheme is named: the rest of a URL may hold a password.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(databaseUrl)?.[0] ?? 'none';
  throw new Error(`DATABASE_URL must be a file: path, :memory: or a postgres:// URL (scheme given: ${scheme})`);
}
