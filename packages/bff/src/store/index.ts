/**
 * The store DATABASE_URL names: `file:` paths and `:memory:` open the embedded SQLite engine,
 * `postgres://` and `postgresql://` URLs the PostgreSQL engine.
 */
import { createPostgresDriver, createPostgresStore, type PostgresStoreOptions } from './postgres.js';
import { createSqliteDriver, createSqliteStore, type SqliteStoreOptions } from './sqlite.js';
import type { Store } from './types.js';

export type * from './types.js';
export type { PostgresStoreOptions } from './postgres.js';
export type { SqliteStoreOptions } from './sqlite.js';
export { createPostgresStore, createSqliteStore, createPostgresDriver, createSqliteDriver };
export type { SqlDriver } from './driver.js';

/** Each engine's options: those of the one DATABASE_URL names apply. */
export type StoreOptions = PostgresStoreOptions & Pick<SqliteStoreOptions, 'busyTimeoutMs' | 'exclusive' | 'webhookEvents'>;

export function createStore(databaseUrl: string, opts: StoreOptions = {}): Store {
  if (databaseUrl === ':memory:' || databaseUrl.startsWith('file:'))
    return createSqliteStore(databaseUrl, {
      ...(opts.busyTimeoutMs !== undefined ? { busyTimeoutMs: opts.busyTimeoutMs } : {}),
      ...(opts.exclusive !== undefined ? { exclusive: opts.exclusive } : {}),
      ...(opts.webhookEvents !== undefined ? { webhookEvents: opts.webhookEvents } : {}),
    });
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return createPostgresStore(databaseUrl, opts);
  // Only the scheme is named: the rest of a URL may hold a password.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(databaseUrl)?.[0] ?? 'none';
  throw new Error(`DATABASE_URL must be a file: path, :memory: or a postgres:// URL (scheme given: ${scheme})`);
}
