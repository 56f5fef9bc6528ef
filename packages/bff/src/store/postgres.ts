/**
 * Shared engine: PostgreSQL through a `pg` pool, for several BFF instances on one database.
 * `schema` puts the tables in their own schema (created on init), which is how tests isolate
 * themselves; without it the server's default search_path applies. `pg` is an optional peer
 * dependency, loaded only when a PostgreSQL store is opened.
 */
import type pg from 'pg';
import { createSqlStore, StaleWrite, type Row, type SqlDriver, type Statement } from './sql.js';
import type { Store } from './types.js';
import { CommitInDoubt, asUnavailable, cancelledByServer, isStalled, isUnavailable, retrying } from './failure.js';
import { versionOf } from './migrations.js';
import { ANSWER_MARGIN_MS, DATABASE_DEFAULTS } from './limits.js';

export interface PostgresStoreOptions {
  /** Schema holding the tables: lower-case letters, digits and underscores. */
  schema?: string;
  /** Most connections the pool opens (default 10). */
  max?: number;
  /**
   * Milliseconds to get a connection (a free one of the pool, or a new one opened) before the
   * store counts as unavailable (default DATABASE_DEFAULTS.connectTimeoutMs).
   */
  connectTimeoutMs?: number;
  /** The server cancels a statement that runs longer (`statement_timeout`); the client gives up on its answer a little later. */
  statementTimeoutMs?: number;
  /** The server cancels a statement that waits longer for a lock (`lock_timeout`). */
  lockTimeoutMs?: number;
  /** The server ends a session left idle inside a transaction this long (`idle_in_transaction_session_timeout`). */
  idleInTransactionTimeoutMs?: number;
  /** A pooled connection unused this long is closed. */
  idleTimeoutMs?: number;
  /** TCP keepalive probes start after a connection has been silent this long. */
  keepAliveMs?: number;
  /** Told of each connection error (the connection is then discarded and replaced). */
  onError?: (err: Error) => void;
  /** Whether webhook events are written (a webhook is configured): migrations then write theirs. */
  webhookEvents?: boolean;
}

/** Migrations at boot may rebuild an index or wait for another instance migrating: their own, longer bounds. */
const MIGRATION_TIMEOUT_MS = 30_000;

/**
 * A change's position: the id of the transaction that writes it (xid8: 64 bits, never
 * wrapping). Transactions commit in another order than their ids were given, so a change is
 * read only once every transaction that could still commit a lower id has ended: below the
 * oldest transaction still running when the reading statement took its snapshot (its xmin).
 * Any transaction that writes later gets a greater id, so a reader that goes on from the last
 * position it got misses nothing; a transaction left open holds the feed back until it ends.
 */
export const PG_CHANGE_SEQ = 'pg_current_xact_id()::text::bigint';
export const PG_SETTLED_CHANGE = 'change_seq < pg_snapshot_xmin(pg_current_snapshot())::text::bigint';

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
  return createSqlStore(createPostgresDriver(url, opts), { webhookEvents: opts.webhookEvents ?? false });
}

/**
 * The shared engine's driver: statements through a `pg` pool with the store's bounds. The store is
 * built on it; the relay benchmark's journaling relay writes through it too.
 */
export function createPostgresDriver(url: string, opts: Omit<PostgresStoreOptions, 'webhookEvents'> = {}): SqlDriver {
  const { schema } = opts;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error('store: the PostgreSQL schema name must be lower-case letters, digits and underscores');
  }
  const limits = {
    connectTimeoutMs: opts.connectTimeoutMs ?? DATABASE_DEFAULTS.connectTimeoutMs,
    statementTimeoutMs: opts.statementTimeoutMs ?? DATABASE_DEFAULTS.statementTimeoutMs,
    lockTimeoutMs: opts.lockTimeoutMs ?? DATABASE_DEFAULTS.lockTimeoutMs,
    idleInTransactionTimeoutMs: opts.idleInTransactionTimeoutMs ?? DATABASE_DEFAULTS.idleInTransactionTimeoutMs,
    idleTimeoutMs: opts.idleTimeoutMs ?? DATABASE_DEFAULTS.idleTimeoutMs,
    keepAliveMs: opts.keepAliveMs ?? DATABASE_DEFAULTS.keepAliveMs,
  };
  let opened: Promise<pg.Pool> | null = null;
  const told = (err: Error) => opts.onError?.(err);
  const open = () =>
    (opened ??= loadPg().then((driver) => {
      const pool = new driver.Pool({
        connectionString: url,
        max: opts.max ?? 10,
        connectionTimeoutMillis: limits.connectTimeoutMs,
        idleTimeoutMillis: limits.idleTimeoutMs,
        keepAlive: true,
        keepAliveInitialDelayMillis: limits.keepAliveMs,
        statement_timeout: limits.statementTimeoutMs,
        lock_timeout: limits.lockTimeoutMs,
        idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs,
        query_timeout: limits.statementTimeoutMs + ANSWER_MARGIN_MS,
        ...(schema ? { options: `-c search_path=${schema}` } : {}),
      });
      // A connection the server drops (a failover, a restart, pg_terminate_backend) emits
      // 'error' on its client, idle or checked out; unheard, that event would end the process.
      // Heard, the broken client is discarded (released with its error) and the pool opens a new
      // one for the next query.
      pool.on('error', told);
      pool.on('connect', (client) => client.on('error', told));
      return pool;
    }));
  let closed = false;

  /** A query on its own. Reads are tried again on a fresh connection; a write that broke may have been applied. */
  async function single(sql: string, args: unknown[]): Promise<pg.QueryResult> {
    const read = /^\s*SELECT\b/i.test(sql);
    try {
      return await retrying(async () => (await open()).query(numbered(sql), args), { retryable: (err) => read && isUnavailable(err) && !isStalled(err) });
    } catch (err) {
      // The server cancelled it (a statement or lock timeout): not applied. Anything else that
      // broke a write, the client giving up on its answer included, may have been.
      if (!read && isUnavailable(err) && !cancelledByServer(err)) throw new CommitInDoubt('The store did not confirm a write.', { cause: err });
      throw asUnavailable(err);
    }
  }

  /**
   * BEGIN, the work, COMMIT on one connection. A connection that breaks before COMMIT is sent
   * rolled the transaction back: it is discarded and the transaction runs again on a fresh
   * one (a few times, jittered). One that breaks while COMMIT is under way leaves the outcome
   * unknown: CommitInDoubt, for the caller to read back and decide.
   */
  async function inTransaction(work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    const phase = { committing: false };
    try {
      await retrying(
        async () => {
          const client = await (await open()).connect();
          let broken: Error | undefined;
          try {
            await client.query('BEGIN');
            await work(client);
            phase.committing = true;
            await client.query('COMMIT');
          } catch (err) {
            if (phase.committing || isUnavailable(err)) {
              broken = err instanceof Error ? err : new Error('connection broken');
              throw err;
            }
            await client.query('ROLLBACK').catch((e: unknown) => {
              broken = e instanceof Error ? e : new Error('rollback failed');
            });
            throw err;
          } finally {
            // A broken connection is closed, not handed back to the pool.
            client.release(broken);
          }
        },
        // A stalled server is not asked again: the request answers 503 now, not after every try.
        { retryable: (err) => !phase.committing && isUnavailable(err) && !isStalled(err) },
      );
    } catch (err) {
      if (phase.committing && isUnavailable(err)) throw new CommitInDoubt('The store did not confirm a commit.', { cause: err });
      throw asUnavailable(err);
    }
  }

  const driver: SqlDriver = {
    engine: 'postgres',
    jsonType: 'JSONB',
    changeSeq: PG_CHANGE_SEQ,
    settledChange: PG_SETTLED_CHANGE,
    singleWriter: false,
    async first(sql, args = []) {
      const r = await single(sql, args);
      return (r.rows as Row[])[0] ?? null;
    },
    async query(sql, args = []) {
      const r = await single(sql, args);
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
        // Migrations may take longer than a request's statements (an index built, another
        // instance's migration waited for): bounds of their own, for this transaction only.
        // (`query_timeout` per query is the client's own option; its types leave it out.)
        const long = (text: string, values?: unknown[]) =>
          client.query({ text, ...(values ? { values } : {}), query_timeout: MIGRATION_TIMEOUT_MS + ANSWER_MARGIN_MS } as pg.QueryConfig);
        await long(`SET LOCAL statement_timeout = ${MIGRATION_TIMEOUT_MS}`);
        await long(`SET LOCAL lock_timeout = ${MIGRATION_TIMEOUT_MS}`);
        // Instances booting together queue here; CREATE … IF NOT EXISTS alone races on the catalog.
        await long('SELECT pg_advisory_xact_lock(hashtext($1))', [`bank-checkout-store:${schema ?? ''}`]);
        if (schema) await long(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
        for (const sql of plan.prepare) await long(sql);
        const { rows } = await long(plan.readVersion);
        for (const step of plan.steps(versionOf((rows as Row[])[0]))) await long(numbered(step.sql), step.args);
      }),
    async close() {
      if (closed) return;
      closed = true;
      if (opened)
        await opened.then(
          (pool) => pool.end(),
          () => {},
        );
    },
  };
  return driver;
}
