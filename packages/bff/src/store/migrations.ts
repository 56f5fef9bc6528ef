/**
 * The store's schema as numbered migrations, applied in order at boot; the `schema_migrations`
 * table holds a row for each one applied, so the highest is the database's version. Each engine
 * applies them in one transaction under a lock (PostgreSQL: an advisory lock; SQLite: an
 * immediate transaction), so instances that boot together migrate once: the first applies what
 * is missing, the others then find nothing to do.
 *
 * A migration, once released, never changes the schema it makes: a change of the schema is a
 * new migration at the end of the list. Migration 1 is the schema 0.1.0 created, word for word (`CREATE … IF NOT
 * EXISTS`), so a database 0.1.0 wrote is adopted as version 1 with its data as it is.
 */
import { FINAL_STATES } from '@bank-checkout/contract';
import type { MigrationPlan, Row } from './driver.js';

export type { MigrationPlan };

export interface Migration {
  version: number;
  name: string;
  /** The statements, for the engine's JSON column type (`TEXT` or `JSONB`) and what else it is run with. */
  up(jsonType: string, ctx: MigrationContext): string[];
}

/** What a migration may need beside the JSON column type. */
export interface MigrationContext {
  engine: 'sqlite' | 'postgres';
  /** When it runs (unix ms). */
  now: number;
  /** Whether the store writes webhook events (a webhook is configured): changes a migration makes to checkouts then have theirs. */
  events: boolean;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'the schema of 0.1.0',
    up: (jsonType) => [
      `CREATE TABLE IF NOT EXISTS checkouts (
      id TEXT PRIMARY KEY,
      secret_hash TEXT NOT NULL UNIQUE,
      state TEXT NOT NULL,
      reference TEXT NOT NULL,
      version INTEGER NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      data ${jsonType} NOT NULL
    )`,
      'CREATE INDEX IF NOT EXISTS checkouts_reference_idx ON checkouts (reference, created_at)',
      'CREATE INDEX IF NOT EXISTS checkouts_state_expires_idx ON checkouts (state, expires_at)',
      'CREATE INDEX IF NOT EXISTS checkouts_state_updated_idx ON checkouts (state, updated_at)',
      // No query orders checkouts by update time alone (listCheckouts has state_updated); an
      // index on it would only be rewritten by every write.
      'DROP INDEX IF EXISTS checkouts_updated_idx',
      `CREATE TABLE IF NOT EXISTS idempotency_keys (
      idem_key TEXT PRIMARY KEY,
      fingerprint TEXT NOT NULL,
      checkout_id TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
      `CREATE TABLE IF NOT EXISTS notifications (
      id TEXT PRIMARY KEY,
      dedupe_key TEXT NOT NULL UNIQUE,
      received_at BIGINT NOT NULL,
      reference TEXT NOT NULL,
      transaction_id TEXT NOT NULL,
      checkout_id TEXT,
      outcome TEXT NOT NULL,
      data ${jsonType} NOT NULL
    )`,
      'CREATE INDEX IF NOT EXISTS notifications_received_idx ON notifications (received_at, id)',
      'CREATE INDEX IF NOT EXISTS notifications_reference_idx ON notifications (reference)',
      `CREATE TABLE IF NOT EXISTS idempotent_replies (
    idem_key TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    status INTEGER,
    body TEXT,
    created_at BIGINT NOT NULL
  )`,
      `CREATE TABLE IF NOT EXISTS webhook_outbox (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    data ${jsonType} NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at BIGINT NOT NULL,
    lease_until BIGINT,
    delivered_at BIGINT,
    failed_at BIGINT,
    last_error TEXT
  )`,
      'CREATE INDEX IF NOT EXISTS webhook_outbox_due_idx ON webhook_outbox (delivered_at, failed_at, next_attempt_at)',
      'CREATE INDEX IF NOT EXISTS webhook_outbox_created_idx ON webhook_outbox (created_at, id)',
    ],
  },
  {
    version: 2,
    name: 'retention: ages of idempotency keys and replies indexed, leases for the periodic prune',
    up: () => [
      'CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)',
      'CREATE INDEX idempotent_replies_created_idx ON idempotent_replies (created_at)',
      // Work that one instance of several does at a time, taken for a while and then free again.
      `CREATE TABLE leases (
      name TEXT PRIMARY KEY,
      holder TEXT NOT NULL,
      until_at BIGINT NOT NULL
    )`,
    ],
  },
  {
    version: 3,
    name: 'sweeper: notifications found by outcome (those stored but not applied)',
    up: () => ['CREATE INDEX notifications_outcome_idx ON notifications (outcome, received_at)'],
  },
  {
    version: 4,
    name: 'one open checkout per merchant reference',
    up: (_jsonType, ctx) => [...(ctx.events ? [expiryEvents(ctx)] : []), ...OPEN_REFERENCE_SCHEMA],
  },
  {
    version: 5,
    name: "the merchant's funnel: checkouts found by creation time",
    up: () => ['CREATE INDEX checkouts_created_idx ON checkouts (created_at)'],
  },
  {
    version: 6,
    name: 'a result notification past its retention is kept as a small tombstone while its checkout is, so a replay of it is refused',
    up: () => ['ALTER TABLE notifications ADD COLUMN pruned_at BIGINT'],
  },
  {
    version: 7,
    name: "the feed of changes: the position of each checkout's last change",
    // Checkouts written before the feed stand first, at position 0, in the order of their ids.
    // The floor keeps the greatest position of a checkout that retention deleted.
    up: () => [
      'ALTER TABLE checkouts ADD COLUMN change_seq BIGINT NOT NULL DEFAULT 0',
      'CREATE INDEX checkouts_change_idx ON checkouts (change_seq, id)',
      'CREATE TABLE change_floor (id INTEGER PRIMARY KEY, seq BIGINT NOT NULL)',
      'INSERT INTO change_floor (id, seq) VALUES (1, 0)',
    ],
  },
  {
    version: 8,
    name: 'the ids of proofs of possession (DPoP) each instance accepted, until their time is over: a proof is used once across instances',
    up: () => ['CREATE TABLE proof_ids (id TEXT PRIMARY KEY, until_at BIGINT NOT NULL)', 'CREATE INDEX proof_ids_until_idx ON proof_ids (until_at)'],
  },
];

/**
 * One open checkout per merchant reference, held by the database itself so several instances
 * cannot both open one: a unique index over the references of checkouts not in an outcome
 * (`unknown` is open: it may still have been paid). A database from before the rule may hold
 * several open checkouts of one reference: all but the newest are ended as `expired` first,
 * each with its `checkout.updated` event in the outbox (expiryEvents), as any expiry has: the
 * merchant learns that those earlier attempts of one order ended.
 */
const OUTCOME_LIST = FINAL_STATES.map((st) => `'${st}'`).join(', ');
/** The open checkouts of a reference that a newer open one holds. */
const SUPERSEDED = `state NOT IN (${OUTCOME_LIST}) AND EXISTS (
    SELECT 1 FROM checkouts newer WHERE newer.reference = checkouts.reference AND newer.state NOT IN (${OUTCOME_LIST})
      AND (newer.created_at > checkouts.created_at OR (newer.created_at = checkouts.created_at AND newer.id > checkouts.id)))`;
const OPEN_REFERENCE_SCHEMA: string[] = [
  `UPDATE checkouts SET state = 'expired' WHERE ${SUPERSEDED}`,
  `CREATE UNIQUE INDEX checkouts_open_reference_idx ON checkouts (reference) WHERE state NOT IN (${OUTCOME_LIST})`,
];

/**
 * The outbox rows of the expiries above, written before them in the same transaction: the event
 * the engine writes when time ends a checkout (`checkout.updated`, source `time`), due now. Ids
 * are made by the database (`evt_` and 32 hex digits).
 */
function expiryEvents(ctx: MigrationContext): string {
  const now = Math.floor(ctx.now);
  const [id, data] =
    ctx.engine === 'postgres'
      ? [
          `'evt_' || md5(random()::text || clock_timestamp()::text || id)`,
          `jsonb_build_object('checkoutId', id, 'reference', reference, 'amount', data->'amount', 'state', 'expired', 'previousState', state, 'source', 'time', 'mode', COALESCE(data->>'mode', 'native'))`,
        ]
      : [
          `'evt_' || lower(hex(randomblob(16)))`,
          `json_object('checkoutId', id, 'reference', reference, 'amount', json_extract(data, '$.amount'), 'state', 'expired', 'previousState', state, 'source', 'time', 'mode', COALESCE(json_extract(data, '$.mode'), 'native'))`,
        ];
  return `INSERT INTO webhook_outbox (id, type, created_at, data, attempts, next_attempt_at)
    SELECT ${id}, 'checkout.updated', ${now}, ${data}, 0, ${now} FROM checkouts WHERE ${SUPERSEDED}`;
}

/** The version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

const VERSION_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at BIGINT NOT NULL
)`;

export function migrationPlan(
  jsonType: string,
  now: number,
  migrations: readonly Migration[] = MIGRATIONS,
  ctx: Omit<MigrationContext, 'now'> = { engine: jsonType === 'JSONB' ? 'postgres' : 'sqlite', events: false },
): MigrationPlan {
  const latest = migrations.at(-1)?.version ?? 0;
  return {
    prepare: [VERSION_TABLE],
    readVersion: 'SELECT MAX(version) AS version FROM schema_migrations',
    steps(version) {
      const from = version ?? 0;
      if (from > latest) throw new Error(`store: the database's schema is at version ${from}, newer than this BFF knows (${latest}); run the newer BFF`);
      return migrations
        .filter((m) => m.version > from)
        .flatMap((m) => [
          ...m.up(jsonType, { ...ctx, now }).map((sql) => ({ sql, args: [] })),
          { sql: 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', args: [m.version, m.name, now] },
        ]);
    },
  };
}

/** The version a driver read (SQLite gives a number, PostgreSQL may give a string). */
export const versionOf = (row: Row | null | undefined): number | null => (row?.version === null || row?.version === undefined ? null : Number(row.version));
