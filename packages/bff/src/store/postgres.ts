/**
 * Shared engine: PostgreSQL through a `pg` pool, for several BFF instances on one database.
 * `schema` puts the tables in their own schema (created on init), which is how tests isolate
 * themselves; without it the server's default search_path applies. `pg` is an optional peer
 * dependency, loaded only when a PostgreSQL store is opened.
 */
import type pg from 'pg';
import { createSqlStore, StaleWrite, type SqlDriver, type Statement } from './sql.js';
import type { Store } from './types.js';
import { versionOf } from './migrations.js';

export interface PostgresStoreOptions {
  /** Schema holding the tables: lower-case letters, digits and underscores. */
  schema?: string;
  /** Most connections the pool opens (default 10). */
  max?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** `?` placeholders as PostgreSQL's `$1, $2, …`. */
const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** The `pg` module, with a clear message when the optional dependency is not installed. */
async function loadPg(): Promise<typeof pg> {
  try {
    return (await import('pg')).default;
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error('store: DATABASE_URL names PostgreSQL but the `pg` package is not installed (npm install pg)');
    }
    throw err;
  }
}

export function createPostgresStore(url: string, opts: PostgresStoreOptions = {}): Store {
  const { schema } = opts;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error('store: the PostgreSQL schema name must be lower-case letters, digits and underscores');
  }
  let opened: Promise<pg.Pool> | null = null;
  const open = () =>
    (opened ??= loadPg().then((driver) => {
      const pool = new driver.Pool({
        connectionString: url,
        max: opts.max ?? 10,
        ...(schema ? { options: `-c search_path=${schema}` } : {}),
      });
      // An idle connection the server drops is discarded by the pool; the next query reconnects.
      pool.on('error', () => {});
      return pool;
    }));
  let closed = false;

  async function inTransaction(work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    const client = await (await open()).connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      await work(client);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw err;
    } finally {
      client.release(broken);
    }
  }

  const driver: SqlDriver = {
    engine: 'postgres',
    jsonType: 'JSONB',
    singleWriter: false,
    async first(sql, args = []) {
      const r = await (await open()).query(numbered(sql), args);
      return r.rows[0] ?? null;
    },
    async query(sql, args = []) {
      const r = await (await open()).query(numbered(sql), args);
      return { rows: r.rows as Record<string, unknown>[], count: r.rowCount ?? 0 };
    },
    transaction: (statements: Statement[]) =>
      inTransaction(async (client) => {
        for (const s of statements) {
          const r = await client.query(numbered(s.sql), s.args);
          if (s.expectChanges !== undefined && (r.rowCount ?? 0) !== s.expectChanges) throw new StaleWrite();
        }
      }),
    migrate: (plan) =>
      inTransaction(async (client) => {
        // Instances booting together queue here; CREATE … IF NOT EXISTS alone races on the catalog.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`bank-checkout-store:${schema ?? ''}`]);
        if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
        for (const sql of plan.prepare) await client.query(sql);
        const { rows } = await client.query(plan.readVersion);
        for (const step of plan.steps(versionOf(rows[0]))) await client.query(numbered(step.sql), step.args);
      }),
    async close() {
      if (closed) return;
      closed = true;
      if (opened) await opened.then((pool) => pool.end(), () => {});
    },
  };
  return createSqlStore(driver);
}
