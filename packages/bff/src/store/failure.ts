/**
 * When the database cannot answer. Both engines turn the errors that say so (a dropped or
 * refused connection, a server shutting down, SQLite's busy, I/O and disk-full errors) into
 * `StoreUnavailable`, which the HTTP layer answers with 503 `store_unavailable` and a
 * `Retry-After`, and which never ends the process. A write whose commit may or may not have
 * happened (the connection dropped while it was being committed) is a `CommitInDoubt`: the
 * store reads back what is stored and decides, it never repeats the write blindly.
 */

export class StoreUnavailable extends Error {
  override readonly name: string = 'StoreUnavailable';
  constructor(message = 'The store is not available.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The connection broke while a write was being committed: it may or may not have been applied. */
export class CommitInDoubt extends StoreUnavailable {
  override readonly name = 'CommitInDoubt';
}

/** Seconds a client is asked to wait before trying again while the store is unavailable. */
export const STORE_RETRY_AFTER_S = 2;

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOSPC',
  'EIO',
  'EROFS',
]);
/**
 * PostgreSQL SQLSTATEs that say the server or the connection is going, or that the database took
 * too long, not that the statement is wrong: connection exceptions (08), shutdowns (57P01-03),
 * too many connections (53300), out of memory or disk (53100, 58), a statement cancelled by
 * statement_timeout (57014) or lock_timeout (55P03), a session ended for idling in a transaction
 * (25P03).
 */
const PG_STATES = /^(08|57P0[1-3]|53300|53100|58|57014|55P03|25P03)/;
const PG_MESSAGES =
  /connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Connection ended|the database system is (starting up|shutting down|in recovery)|terminating connection|Query read timeout/i;
/** The server cancelled the statement for its time (statement_timeout, lock_timeout): nothing of it applied. */
const PG_CANCELLED = /^(57014|55P03)$/;
/** Messages of the `pg` client giving up on the server: a connection or an answer that did not come in time. */
const PG_CLIENT_TIMEOUTS = /timeout exceeded when trying to connect|Connection terminated due to connection timeout|Query read timeout/i;

/** The root of a StoreUnavailable's causes, the driver's own error. */
const rootOf = (err: unknown): unknown => {
  let e = err;
  while (e instanceof StoreUnavailable && e.cause !== undefined) e = e.cause;
  return e;
};

/**
 * True when `err` says the database is stalled rather than gone: it took longer than its bounds
 * (a connection, an answer, a statement or a lock wait; SQLite's busy timeout, another process
 * holding the file). Asking again would only wait as long again: the request answers 503 at
 * once instead.
 */
export function isStalled(err: unknown): boolean {
  const e = rootOf(err);
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  return (typeof code === 'string' && (PG_CANCELLED.test(code) || /^SQLITE_BUSY/.test(code))) || PG_CLIENT_TIMEOUTS.test(e.message);
}

/** True when the server itself cancelled the statement for its time: nothing of it was applied. */
export function cancelledByServer(err: unknown): boolean {
  const code = (rootOf(err) as { code?: unknown } | null)?.code;
  return typeof code === 'string' && PG_CANCELLED.test(code);
}
/** SQLite: another writer holds the file, or the disk failed, is full or is gone. */
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|NOMEM|PROTOCOL|READONLY_DBMOVED)/;

/** True when `err` says the database could not answer (rather than that a statement was wrong). */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof StoreUnavailable) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || PG_STATES.test(code) || SQLITE_CODES.test(code))) return true;
  return PG_MESSAGES.test(err.message);
}

/**
 * Which bound or fault made the store unavailable, for the log line of a 503 and its figures:
 * `pool` (no free connection of the pool in time), `connect` (a new connection not opened in
 * time), `statement` (a statement or its answer past its time), `lock` (a lock waited for past
 * its time), `commit` (a commit whose outcome the connection took with it), `busy` (SQLite:
 * another process held the file), `network` (a connection refused, reset or cut), `server` (the
 * server shutting down, starting, out of connections or memory), `disk` (full, gone or failing).
 */
export type UnavailableCause = 'pool' | 'connect' | 'statement' | 'lock' | 'commit' | 'busy' | 'network' | 'server' | 'disk' | 'other';

export function unavailableCause(err: unknown): UnavailableCause {
  if (err instanceof CommitInDoubt) return 'commit';
  const e = rootOf(err);
  if (!(e instanceof Error)) return 'other';
  const raw = (e as { code?: unknown }).code;
  const code = typeof raw === 'string' ? raw : '';
  const message = e.message;
  if (/timeout exceeded when trying to connect/i.test(message)) return 'pool';
  if (/connection timeout/i.test(message)) return 'connect';
  if (code === '57014' || /Query read timeout/i.test(message)) return 'statement';
  if (code === '55P03') return 'lock';
  if (/^SQLITE_(BUSY|LOCKED)/.test(code)) return 'busy';
  if (/^SQLITE_(IOERR|FULL|CANTOPEN|READONLY)/.test(code) || ['ENOSPC', 'EIO', 'EROFS'].includes(code)) return 'disk';
  if (/^(57P0[1-3]|53300|53100|58)/.test(code) || /the database system is/i.test(message)) return 'server';
  if (NETWORK_CODES.has(code) || /^08/.test(code) || /connection terminated|Connection ended|terminating connection|not queryable/i.test(message))
    return 'network';
  return 'other';
}

/** `err` as a StoreUnavailable when it is one in substance; otherwise `err` itself. */
export function asUnavailable(err: unknown): unknown {
  if (err instanceof StoreUnavailable || !isUnavailable(err)) return err;
  const code = (err as { code?: unknown }).code;
  // The driver's message is kept out: it may name the host, the user or the file.
  return new StoreUnavailable(`The store is not available${typeof code === 'string' ? ` (${code})` : ''}.`, { cause: err });
}

export interface RetryOptions {
  /** Tries in all, the first included (default 3). */
  tries?: number;
  /** The first wait; each next one doubles, each with up to half of it added at random (default 50 ms). */
  baseMs?: number;
  /** Whether a failure may be tried again (default: the store was unavailable). */
  retryable?: (err: unknown) => boolean;
  /**
   * No try starts later than this after the first (default RETRY_WITHIN_MS): a request meets its
   * answer, 503 included, within about two seconds however its connections are being cut.
   */
  withinMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** How long after its first try a store operation may still start another. */
export const RETRY_WITHIN_MS = 500;

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs `work` until it succeeds or fails in a way that cannot be retried, at most `tries` times
 * and only while `withinMs` of the first try have not passed, waiting a growing, jittered delay
 * between tries (several instances that lost their connections together do not come back
 * together).
 */
export async function retrying<T>(work: (attempt: number) => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const tries = opts.tries ?? 3;
  const base = opts.baseMs ?? 50;
  const retryable = opts.retryable ?? isUnavailable;
  const now = opts.now ?? (() => performance.now());
  const started = now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (err) {
      if (attempt >= tries || !retryable(err)) throw err;
      const delay = base * 2 ** (attempt - 1);
      const jittered = delay + Math.random() * delay * 0.5;
      if (now() - started + jittered > (opts.withinMs ?? RETRY_WITHIN_MS)) throw err;
      await (opts.sleep ?? wait)(jittered);
    }
  }
}
