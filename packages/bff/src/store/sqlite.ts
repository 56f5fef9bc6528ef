/**
 * Embedded engine: SQLite through libSQL, for a single BFF instance. `file:` URLs name a
 * database file (its directory is created); `:memory:` and `file::memory:` give a private
 * in-memory database, for tests. Relative paths resolve against the working directory; URL
 * parameters are not read.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'libsql';
import { createSqlStore, StaleWrite, type SqlDriver, type SqlValue } from './sql.js';
import { versionOf } from './migrations.js';
import type { Store } from './types.js';
import { StoreUnavailable, asUnavailable, isStalled, isUnavailable, retrying } from './failure.js';
import { BUSY_TIMEOUT_MS } from './limits.js';

/** Why a second process may not use a file that a BFF holds. */
export class FileInUse extends Error {
  override readonly name = 'FileInUse';
}

/**
 * Holds the database file for this process alone, for as long as the store is open: an exclusive
 * lock (SQLite's own, on `<file>.lock`, released by the system if the process dies) that a second
 * BFF on the same file cannot take. The embedded engine keeps checkouts in memory and takes locks
 * in memory (one writer); a second process would silently fight it. Tools that open the file
 * without serving (`prune`, a backup) do not take it.
 */
function holdFile(file: string): { release(): void } {
  const lock = new Database(`${file}.lock`, { timeout: 0 });
  try {
    // A transaction never committed: its EXCLUSIVE lock stays until the connection closes.
    lock.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    lock.close();
    if (/SQLITE_BUSY|locked/i.test(`${(err as { code?: string }).code ?? ''} ${(err as Error).message}`))
      throw new FileInUse(
        `another BFF process already serves ${file}: one process per SQLite file (several instances need PostgreSQL, DATABASE_URL=postgres://…)`,
      );
    throw err;
  }
  return { release: () => lock.close() };
}

/** The file a `file:` URL names, or null for an in-memory database. */
export function sqliteFilePath(url: string): string | null {
  if (url === ':memory:' || url.startsWith('file::memory:')) return null;
  if (!url.startsWith('file:')) throw new Error('DATABASE_URL for SQLite must start with file: or be :memory:');
  if (url.startsWith('file://')) return fileURLToPath(url.split('?')[0]!);
  const path = decodeURIComponent(url.slice('file:'.length).split('?')[0]!);
  if (!path) throw new Error('DATABASE_URL names no file after file:');
  return resolve(path);
}

/**
 * Creates `dir` and its missing parents one level at a time (Node's recursive mkdir loops
 * forever under /proc, where every missing entry reads as not there yet).
 */
function makeDirectory(dir: string): void {
  if (existsSync(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) makeDirectory(parent);
  try {
    mkdirSync(dir);
  } catch (err) {
    if ((err as { code?: string }).code !== 'EEXIST') throw err;
  }
}

/** Statements that hand rows back; the rest report how many rows they changed. */
const returnsRows = (sql: string) => /^\s*SELECT\b|\bRETURNING\b/i.test(sql);

/** Statements that change nothing (no need to wait for the disk). */
const isRead = (sql: string) => /^\s*SELECT\b/i.test(sql);

export interface SqliteStoreOptions {
  /** Flushes the write-ahead log to disk (default: `FileHandle.sync`, fsync on the thread pool). */
  sync?: (wal: FileHandle) => Promise<void>;
  /** How long a write waits for another process's lock, in milliseconds (default BUSY_TIMEOUT_MS). */
  busyTimeoutMs?: number;
  /**
   * Serve the file from this process alone (the BFF does): a second store opened with this on
   * the same file, in any process, is refused with FileInUse until this one closes.
   */
  exclusive?: boolean;
  /** Whether webhook events are written (a webhook is configured): migrations then write theirs. */
  webhookEvents?: boolean;
}

/**
 * Group commit: a write is acknowledged once the write-ahead log holding it is on disk.
 * SQLite commits without waiting for the disk (`synchronous = NORMAL` in WAL mode), and every
 * writer then waits for an fsync of the log, run off the event loop; writers that commit while
 * one runs share the next. So an acknowledged change survives a crash of the machine, as with
 * `synchronous = FULL`, without one blocking fsync per commit.
 */
function groupCommit(walPath: string, sync: (wal: FileHandle) => Promise<void>) {
  let wal: Promise<FileHandle> | null = null;
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const flush = (): Promise<void> => {
    wal ??= open(walPath, 'r');
    return wal.then(sync);
  };
  /** Resolves once every commit made before the call is on disk. */
  const durable = (): Promise<void> => {
    if (!running) {
      running = flush().finally(() => {
        running = null;
      });
      return running;
    }
    // The flush under way may have started before this commit: the next one covers it.
    return (next ??= running.then(
      () => {
        next = null;
        return durable();
      },
      () => {
        next = null;
        return durable();
      },
    ));
  };
  const close = async () => {
    await Promise.allSettled([running, next]);
    if (wal) await (await wal).close().catch(() => {});
  };
  return { durable, close };
}

/**
 * libSQL's synchronous driver with one prepared statement per SQL text, kept for the life of
 * the connection: the store runs a handful of distinct statements, so preparing each once
 * takes most of the per-request cost off a read. Writes to a file are acknowledged by group
 * commit (above).
 */
export function createSqliteStore(url: string, opts: SqliteStoreOptions = {}): Store {
  return createSqlStore(createSqliteDriver(url, opts), { webhookEvents: opts.webhookEvents ?? false });
}

/**
 * The embedded engine's driver: statements on one SQLite file, each write acknowledged once on
 * disk (group commit). The store is built on it; the relay benchmark's journaling relay writes
 * through it too, so that the floor it measures has the BFF's own durability.
 */
export function createSqliteDriver(url: string, opts: Omit<SqliteStoreOptions, 'webhookEvents'> = {}): SqlDriver {
  const file = sqliteFilePath(url);
  if (file) makeDirectory(dirname(file));
  const held = file && opts.exclusive ? holdFile(file) : null;
  let db: InstanceType<typeof Database>;
  try {
    db = new Database(file ?? ':memory:', { timeout: opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS });
  } catch (err) {
    held?.release();
    throw err;
  }
  const commits = file ? groupCommit(`${file}-wal`, opts.sync ?? ((wal) => wal.sync())) : null;
  /**
   * After a write: waits until it is on disk (nothing to wait for in memory). A failed flush
   * (the disk is full or failing) leaves the write applied but not known to be durable: the
   * caller is told the store is unavailable, and reads back what is stored when it tries again.
   */
  const durable = async <T>(out: T): Promise<T> => {
    if (commits) {
      await commits.durable().catch((err: unknown) => {
        throw new StoreUnavailable(
          `The store could not flush a write to disk${(err as { code?: string }).code ? ` (${(err as { code?: string }).code})` : ''}.`,
          { cause: err },
        );
      });
    }
    return out;
  };
  /** Runs a synchronous database call, its busy, I/O and disk-full errors as StoreUnavailable. */
  const guarded = <T>(work: () => T): T => {
    try {
      return work();
    } catch (err) {
      throw asUnavailable(err);
    }
  };
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
    return { rows: [], count: stmt.run(args).changes };
  };
  let closed = false;

  const driver: SqlDriver = {
    engine: 'sqlite',
    jsonType: 'TEXT',
    // One writer at a time, each transaction whole: a change takes the position after the
    // greatest (or after the floor retention keeps, store/retention.ts), and commits in that order.
    changeSeq: '(SELECT MAX(s) + 1 FROM (SELECT MAX(change_seq) AS s FROM checkouts UNION ALL SELECT seq AS s FROM change_floor) positions)',
    settledChange: '',
    singleWriter: true,
    async query(sql, args = []) {
      const out = guarded(() => run(sql, args));
      return isRead(sql) ? out : durable(out);
    },
    async first(sql, args = []) {
      const row = guarded(() => (statement(sql).get(args) as Record<string, unknown> | undefined) ?? null);
      return isRead(sql) ? row : durable(row);
    },
    async transaction(statements) {
      // A transaction that could not start or failed on a busy or failing file rolled back: it
      // is tried again a few times (jittered) before the store counts as unavailable.
      // Not after the busy timeout: another process held the file that long already.
      await retrying(
        async () =>
          guarded(() =>
            db
              .transaction(() => {
                for (const s of statements) {
                  const { count } = run(s.sql, s.args);
                  if (s.expectChanges !== undefined && count !== s.expectChanges) throw new StaleWrite();
                }
              })
              .immediate(),
          ),
        { retryable: (err) => isUnavailable(err) && !isStalled(err) },
      );
      await durable(undefined);
    },
    async migrate(plan) {
      // WAL lets readers run beside the writer; the setting is stored in the file. Commits do
      // not wait for the disk; writers wait for the group commit's fsync instead.
      if (file) db.exec('PRAGMA journal_mode = WAL');
      if (file) db.exec('PRAGMA synchronous = NORMAL');
      // One immediate transaction, run without yielding: it takes the write lock first, so
      // another process migrating the same file waits (busy timeout), then finds the version.
      db.transaction(() => {
        for (const sql of plan.prepare) db.exec(sql);
        for (const step of plan.steps(versionOf(db.prepare(plan.readVersion).get([]) as Record<string, unknown> | undefined)))
          db.prepare(step.sql).run(step.args);
      }).immediate();
    },
    async close() {
      if (closed) return;
      closed = true;
      await commits?.close();
      prepared.clear();
      db.close();
      held?.release();
    },
  };
  return driver;
}
