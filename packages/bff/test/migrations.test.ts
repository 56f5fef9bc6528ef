/**
 * Schema migrations on both engines: a database written by 0.1.0 (its own statements, rows in
 * every table) is adopted and keeps its data; instances booting at once migrate once; a
 * database newer than the code is refused. PostgreSQL runs in a schema of its own
 * (TEST_DATABASE_URL), dropped at the end.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import Database from 'libsql';
import { createPostgresStore, createSqliteStore, type Store } from '../src/store/index.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../src/store/migrations.js';
import { dropSchemas, freshSchema, withPostgres } from './store-fixtures.js';

/** The statements 0.1.0 ran at boot, as it wrote them (its store's schema, outbox and replies). */
function schema010(jsonType: string): string[] {
  return [
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
  ];
}

const T = 1_700_000_000_000;
/** One row in each table, as 0.1.0 wrote them (a checkout whose data held the whole bank). */
const ROWS: [string, (string | number | null)[]][] = [
  [
    'INSERT INTO checkouts (id, secret_hash, state, reference, version, created_at, updated_at, expires_at, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      'chk_old',
      'a'.repeat(64),
      'login',
      'ORDER-010',
      3,
      T,
      T + 1000,
      T + 1_800_000,
      JSON.stringify({
        mode: 'native',
        amount: 4250,
        subject: 'Order 010',
        holderDestiny: 'Shop S.L.',
        accountDestiny: 'ES9121000418450200051332',
        customData: null,
        urlOk: null,
        urlError: null,
        modes: ['native', 'redirect'],
        attemptsLeft: 2,
        internal: { explicitDestiny: false, bank: { bankId: 'aurora', type: 0, label: 'Banco Aurora', active: true, defaultLogin: 'l1', logins: [] } },
        error: { code: 'B100', message: 'error.B100' },
      }),
    ],
  ],
  ['INSERT INTO idempotency_keys (idem_key, fingerprint, checkout_id, created_at) VALUES (?, ?, ?, ?)', ['key-010', 'f'.repeat(64), 'chk_old', T]],
  [
    'INSERT INTO notifications (id, dedupe_key, received_at, reference, transaction_id, checkout_id, outcome, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [
      'ntf_old',
      'd'.repeat(64),
      T + 2000,
      'ORDER-010',
      'tx-1',
      'chk_old',
      'applied',
      JSON.stringify({ dataReturn: 'e30=', signature: 'c2ln', verified: true, status: '200', amount: 4250 }),
    ],
  ],
  [
    'INSERT INTO idempotent_replies (idem_key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?)',
    ['reply-010', 'e'.repeat(64), 201, JSON.stringify({ url: 'https://x' }), T],
  ],
  [
    'INSERT INTO webhook_outbox (id, type, created_at, data, attempts, next_attempt_at, lease_until, delivered_at, failed_at, last_error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ['evt_old', 'checkout.updated', T + 3000, JSON.stringify({ checkoutId: 'chk_old' }), 1, T + 3000, null, T + 4000, null, null],
  ],
];

interface Engine {
  name: string;
  /** Runs statements on the raw database, outside the store. */
  raw(statements: [string, (string | number | null)[]][]): Promise<Record<string, unknown>[][]>;
  open(opts?: { webhookEvents?: boolean }): Store;
}

async function keepsData(engine: Engine) {
  const jsonType = engine.name === 'postgres' ? 'JSONB' : 'TEXT';
  await engine.raw([...schema010(jsonType).map((sql): [string, []] => [sql, []]), ...ROWS]);
  const store = engine.open();
  try {
    await store.init();
    const rec = await store.getCheckout('chk_old');
    assert.equal(rec?.state, 'login');
    assert.equal(rec.version, 3);
    assert.equal(rec.amount, 4250);
    assert.equal(rec.internal.bank?.bankId, 'aurora');
    assert.deepEqual(rec.error, { code: 'B100', message: 'error.B100' });
    assert.equal((await store.getIdempotency('key-010'))?.checkoutId, 'chk_old');
    const [n] = await store.listNotifications({ limit: 5 });
    assert.equal(n?.id, 'ntf_old');
    assert.equal(n.outcome, 'applied');
    assert.equal(n.amount, 4250);
    assert.deepEqual(await store.claimReply({ key: 'reply-010', fingerprint: 'x', createdAt: T }), {
      claimed: false,
      existing: { key: 'reply-010', fingerprint: 'e'.repeat(64), status: 201, body: { url: 'https://x' }, createdAt: T },
    });
    assert.equal((await store.getEvent('evt_old'))?.deliveredAt, T + 4000);
    // The adopted database is written as any other.
    assert.equal((await store.updateCheckout('chk_old', 3, { state: 'select-bank' }))?.version, 4);
    const [versions] = await engine.raw([['SELECT version FROM schema_migrations ORDER BY version', []]]);
    assert.deepEqual(
      versions!.map((r) => Number(r.version)),
      MIGRATIONS.map((m) => m.version),
    );
  } finally {
    await store.close();
  }
}

async function migratesOnce(engine: Engine) {
  const stores = [engine.open(), engine.open(), engine.open()];
  try {
    await Promise.all(stores.map((s) => s.init()));
    const again = engine.open();
    await again.init();
    await again.close();
    const [versions] = await engine.raw([['SELECT version, name FROM schema_migrations ORDER BY version', []]]);
    assert.deepEqual(
      versions!.map((r) => [Number(r.version), r.name]),
      MIGRATIONS.map((m) => [m.version, m.name]),
    );
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
}

async function refusesNewer(engine: Engine) {
  const store = engine.open();
  try {
    await store.init();
    await engine.raw([['INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [SCHEMA_VERSION + 1, 'from a newer BFF', T]]]);
    const older = engine.open();
    await assert.rejects(older.init(), new RegExp(`schema is at version ${SCHEMA_VERSION + 1}, newer than this BFF knows \\(${SCHEMA_VERSION}\\)`));
    await older.close();
  } finally {
    await store.close();
  }
}

/**
 * A database from before migration 4 holding two open checkouts of one reference (and one of
 * another): migrating ends the older as `expired`, and, when the store writes webhook events,
 * writes its `checkout.updated` event, due now, as the engine does for any expiry.
 */
async function expiresWithEvents(engine: Engine, events: boolean) {
  const jsonType = engine.name === 'postgres' ? 'JSONB' : 'TEXT';
  const insert = ROWS[0]![0];
  const row = (id: string, reference: string, createdAt: number, state: string, mode: string) => [
    id,
    id.padEnd(64, 'h'),
    state,
    reference,
    1,
    createdAt,
    createdAt,
    createdAt + 1_800_000,
    JSON.stringify({ ...JSON.parse(ROWS[0]![1][8] as string), mode, amount: 1000 + createdAt - T }),
  ];
  await engine.raw([
    ...schema010(jsonType).map((sql): [string, []] => [sql, []]),
    [insert, row('chk_older', 'ORDER-DUP', T, 'select-account', 'native')],
    [insert, row('chk_newer', 'ORDER-DUP', T + 60_000, 'redirect', 'redirect')],
    [insert, row('chk_alone', 'ORDER-ONE', T, 'login', 'native')],
  ]);
  const started = Date.now();
  const store = engine.open({ webhookEvents: events });
  try {
    await store.init();
    assert.equal((await store.getCheckout('chk_older'))?.state, 'expired');
    assert.equal((await store.getCheckout('chk_newer'))?.state, 'redirect');
    assert.equal((await store.getCheckout('chk_alone'))?.state, 'login');
    const written = await store.listEvents({ limit: 10 });
    if (!events) {
      assert.deepEqual(written, []);
      return;
    }
    assert.equal(written.length, 1);
    const [e] = written;
    assert.match(e!.id, /^evt_[0-9a-f]{32}$/);
    assert.equal(e!.type, 'checkout.updated');
    assert.deepEqual(e!.data, {
      checkoutId: 'chk_older',
      reference: 'ORDER-DUP',
      amount: 1000,
      state: 'expired',
      previousState: 'select-account',
      source: 'time',
      mode: 'native',
    });
    assert.ok(e!.createdAt >= started && e!.nextAttemptAt === e!.createdAt, 'due at once');
    assert.equal(e!.deliveredAt, null);
    // The dispatcher takes it as any other event.
    assert.deepEqual(
      (await store.claimDueEvents(Date.now(), 60_000, 10)).map((x) => x.id),
      [e!.id],
    );
  } finally {
    await store.close();
  }
}

function suite(name: string, fresh: () => Engine) {
  describe(`migrations: ${name}`, () => {
    test('a database written by 0.1.0 is adopted as version 1, migrated, and keeps its data', () => keepsData(fresh()));
    test('instances booting at once migrate once; a later boot finds nothing to do', () => migratesOnce(fresh()));
    test('a database newer than this code is refused with one line naming both versions', () => refusesNewer(fresh()));
    test("migration 4's expiries of superseded open checkouts have their webhook events, when the store writes events", async () => {
      await expiresWithEvents(fresh(), true);
      await expiresWithEvents(fresh(), false);
    });
  });
}

/* ---------- SQLite ---------- */

const dir = mkdtempSync(join(tmpdir(), 'bff-migrations-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
suite('sqlite', () => {
  const path = join(dir, `db-${++files}.db`);
  return {
    name: 'sqlite',
    async raw(statements) {
      const db = new Database(path);
      try {
        return statements.map(([sql, args]) =>
          /^\s*SELECT/i.test(sql) ? (db.prepare(sql).all(args) as Record<string, unknown>[]) : (db.prepare(sql).run(args), []),
        );
      } finally {
        db.close();
      }
    },
    open: (opts = {}) => createSqliteStore(`file:${path}`, opts),
  };
});

/* ---------- PostgreSQL ---------- */

withPostgres('migrations', (url) => {
  const schemas: string[] = [];
  after(() => dropSchemas(url, ...schemas));
  suite('postgres', () => {
    const schema = freshSchema('migrations_test');
    schemas.push(schema);
    return {
      name: 'postgres',
      async raw(statements) {
        const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
        await client.connect();
        try {
          await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
          const out: Record<string, unknown>[][] = [];
          for (const [sql, args] of statements) {
            let n = 0;
            out.push(
              (
                await client.query(
                  sql.replace(/\?/g, () => `$${++n}`),
                  args,
                )
              ).rows,
            );
          }
          return out;
        } finally {
          await client.end();
        }
      },
      open: (opts = {}) => createPostgresStore(url, { schema, ...opts }),
    };
  });
});
