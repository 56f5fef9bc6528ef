/**
 * How long the store waits on its database: the defaults of the DATABASE_*_MS settings. A
 * database that stops answering (frozen, a network partition, a lock held) makes the store
 * unavailable within about a second and a half, so every API answers 503 with `Retry-After`
 * well within two seconds rather than holding the request. No imports: the configuration reads
 * them without loading an engine.
 */

/** PostgreSQL's (store/postgres.ts). */
export const DATABASE_DEFAULTS = {
  connectTimeoutMs: 1_000,
  statementTimeoutMs: 1_000,
  lockTimeoutMs: 500,
  idleInTransactionTimeoutMs: 5_000,
  idleTimeoutMs: 10_000,
  keepAliveMs: 10_000,
};

/**
 * How much longer than `statement_timeout` the client waits for an answer: a live server cancels
 * the statement itself first (the connection stays usable); a frozen one never answers, and the
 * connection is then given up.
 */
export const ANSWER_MARGIN_MS = 500;

/**
 * How long boot keeps trying a database that does not answer (down, starting, failing over,
 * busy with other instances starting) before the BFF gives up (`DATABASE_BOOT_WAIT_SECONDS`).
 */
export const BOOT_WAIT_SECONDS = 60;

/**
 * How long a write waits for another process's lock (`bank-checkout-bff prune`, a backup) before
 * the store counts as unavailable: within it, a request still answers 503 in time.
 */
export const BUSY_TIMEOUT_MS = 1_000;
