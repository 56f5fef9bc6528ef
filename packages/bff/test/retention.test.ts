/**
 * Retention on both engines: what each cutoff lets go and what it never touches, the dry run
 * that only counts, the export written before checkouts are deleted, the lease that lets one
 * instance prune at a time, the settings, and `bank-checkout-bff prune --dry-run`.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPostgresStore, createSqliteStore, type CheckoutRecord, type Store } from '../src/store/index.js';
import { checkoutRecord, dropSchemas, freshSchema, unique, withPostgres } from './store-fixtures.js';
import { loadConfig, ConfigError } from '../src/config.js';
import { checkoutExporter, startRetention } from '../src/retention.js';
import { createLogger } from '../src/log.js';
import { cliArgs } from '../../../test/support/cli.mjs';

const DAY = 86_400_000;
const NOW = Date.parse('2027-06-01T00:00:00Z');
const OLD = NOW - 500 * DAY;
const RECENT = NOW - DAY;
const cutoffs = { events: NOW - 30 * DAY, idempotency: NOW - 7 * DAY, notifications: NOW - 90 * DAY, checkouts: NOW - 400 * DAY };
/** A checkout in `state`, made and last changed at `at`. */
const checkout = (state: CheckoutRecord['state'], at: number) => checkoutRecord({ state, createdAt: at, expiresAt: at + 1000 });

/** One row of each kind that must go, and rows beside each that must stay. */
async function seed(store: Store) {
  const gone: string[] = [];
  const kept: string[] = [];
  for (const [state, at, goes] of [
    ['succeeded', OLD, true],
    ['expired', OLD, true],
    ['unknown', OLD, false],
    ['select-bank', OLD, false],
    ['succeeded', RECENT, false],
  ] as const) {
    const rec = checkout(state, at);
    await store.createCheckout(rec, { key: unique('key'), fingerprint: 'f', createdAt: at });
    (goes ? gone : kept).push(rec.id);
  }
  const host = checkout('failed', RECENT);
  await store.createCheckout(host);
  for (const [at, settle] of [
    [OLD, 'delivered'],
    [OLD, 'pending'],
    [OLD, 'failed'],
    [RECENT, 'delivered'],
  ] as const) {
    const id = unique('evt');
    const rec = (await store.getCheckout(host.id))!;
    await store.updateCheckout(host.id, rec.version, { updatedAt: RECENT }, [{ id, type: 'checkout.updated', createdAt: at, data: { n: id } }]);
    if (settle === 'delivered') await store.settleEvent(id, { deliveredAt: at });
    if (settle === 'failed') await store.settleEvent(id, { failedAt: at, lastError: 'x' });
  }
  for (const [outcome, at] of [
    ['applied', OLD],
    ['ignored', OLD],
    ['pending', OLD],
    ['unmatched', OLD],
    ['applied', RECENT],
  ] as const) {
    const id = unique('ntf');
    await store.insertNotification({
      id,
      dedupeKey: unique('d'),
      receivedAt: at,
      dataReturn: 'e30=',
      signature: 's',
      verified: true,
      status: '200',
      transactionId: 't',
      reference: 'r',
      amount: 1,
      checkoutId: null,
      outcome,
    });
  }
  for (const at of [OLD, RECENT]) await store.claimReply({ key: unique('reply'), fingerprint: 'f', createdAt: at });
  return { gone, kept };
}

const EXPECTED = { checkouts: 2, events: 1, notifications: 2, idempotencyKeys: 4, replies: 1 };

function suite(name: string, open: () => Store, teardown: () => Promise<void>) {
  describe(`retention: ${name}`, () => {
    after(teardown);

    test('a dry run counts what each cutoff lets go and deletes nothing; the prune deletes exactly that', async () => {
      const store = open();
      try {
        await store.init();
        const { gone, kept } = await seed(store);
        assert.deepEqual(await store.prune(cutoffs, { dryRun: true }), EXPECTED);
        assert.deepEqual(await store.prune(cutoffs, { dryRun: true }), EXPECTED, 'the dry run deleted nothing');
        const exported: CheckoutRecord[] = [];
        assert.deepEqual(await store.prune(cutoffs, { exportCheckouts: async (b) => void exported.push(...b) }), EXPECTED);
        assert.deepEqual(exported.map((r) => r.id).sort(), [...gone].sort());
        for (const id of gone) assert.equal(await store.getCheckout(id), null);
        for (const id of kept) assert.ok(await store.getCheckout(id), 'an unknown, open or recent checkout stays');
        assert.equal((await store.listEvents({ limit: 50 })).filter((e) => e.deliveredAt !== null && e.deliveredAt < cutoffs.events).length, 0);
        assert.equal((await store.listEvents({ status: 'pending', limit: 50 })).length >= 1, true, 'a pending event stays');
        assert.equal((await store.listEvents({ status: 'failed', limit: 50 })).length >= 1, true, 'a failed event stays');
        const outcomes = (await store.listNotifications({ limit: 50 })).map((n) => `${n.outcome}@${n.receivedAt === OLD ? 'old' : 'recent'}`).sort();
        assert.deepEqual(outcomes, ['applied@recent', 'pending@old', 'unmatched@old']);
        assert.deepEqual(await store.prune(cutoffs), { checkouts: 0, events: 0, notifications: 0, idempotencyKeys: 0, replies: 0 });
      } finally {
        await store.close();
      }
    });

    test('a failed export deletes none of its checkouts', async () => {
      const store = open();
      try {
        await store.init();
        const rec = checkout('cancelled', OLD - DAY);
        await store.createCheckout(rec);
        await assert.rejects(store.prune(cutoffs, { exportCheckouts: async () => Promise.reject(new Error('disk full')) }), /disk full/);
        assert.ok(await store.getCheckout(rec.id));
      } finally {
        await store.close();
      }
    });

    test('of several instances, one prunes per interval (a lease); another takes over once it lapses', async () => {
      const a = open();
      const b = open();
      try {
        await Promise.all([a.init(), b.init()]);
        let now = NOW;
        const retention = { eventsDays: 30, idempotencyDays: 7, notificationsDays: 90, checkoutsDays: 400, intervalMinutes: 0 };
        const logger = createLogger('silent');
        const ra = startRetention({ store: a, retention, logger, now: () => now });
        const rb = startRetention({ store: b, retention, logger, now: () => now });
        const [x, y] = await Promise.all([ra.runOnce(), rb.runOnce()]);
        assert.equal([x, y].filter((r) => r !== null).length, 1, 'exactly one pruned');
        const first = x ? ra : rb;
        const second = x ? rb : ra;
        assert.equal(await second.runOnce(), null, 'the lease is held');
        assert.notEqual(await first.runOnce(), null, 'its holder renews it');
        now += 61_000;
        assert.notEqual(await second.runOnce(), null, 'lapsed: the other takes it');
        await Promise.all([ra.stop(), rb.stop()]);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  });
}

/* ---------- engines ---------- */

const dir = mkdtempSync(join(tmpdir(), 'bff-retention-'));
after(() => rmSync(dir, { recursive: true, force: true }));
suite(
  'sqlite',
  () => createSqliteStore(`file:${join(dir, 'store.db')}`),
  async () => {},
);

withPostgres('retention', (url) => {
  const schema = freshSchema('retention_test');
  suite(
    'postgres',
    () => createPostgresStore(url, { schema }),
    () => dropSchemas(url, schema),
  );
});

/* ---------- settings, export, command ---------- */

describe('retention settings and command', () => {
  test('defaults, and a bad value names its variable', () => {
    assert.deepEqual(loadConfig({}).retention, { eventsDays: 30, idempotencyDays: 7, notificationsDays: 90, checkoutsDays: 400, intervalMinutes: 60 });
    assert.equal(loadConfig({ RETENTION_EXPORT_DIR: '/var/lib/bff/export' }).retention.exportDir, '/var/lib/bff/export');
    for (const name of [
      'RETENTION_EVENTS_DAYS',
      'RETENTION_IDEMPOTENCY_DAYS',
      'RETENTION_NOTIFICATIONS_DAYS',
      'RETENTION_CHECKOUTS_DAYS',
      'RETENTION_INTERVAL_MINUTES',
    ]) {
      assert.throws(
        () => loadConfig({ [name]: '-1' }),
        (err: Error) => err instanceof ConfigError && err.message.includes(name),
      );
    }
  });

  test('the export is one JSON line per checkout, without the secret hash', async () => {
    const out = join(dir, 'export');
    const rec = checkout('succeeded', OLD);
    await checkoutExporter(out, () => NOW)([rec]);
    const [file] = readdirSync(out);
    assert.equal(file, 'checkouts-2027-06-01.jsonl');
    const lines = readFileSync(join(out, file), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.id, rec.id);
    assert.equal('secretHash' in lines[0]!, false);
    assert.equal(statSync(join(out, file)).mode & 0o777, 0o600, "the file is readable by the BFF's user alone");
    // A file that was there before, world-readable, is narrowed at the next export.
    chmodSync(join(out, file), 0o644);
    await checkoutExporter(out, () => NOW)([checkout('failed', OLD)]);
    assert.equal(statSync(join(out, file)).mode & 0o777, 0o600);
    assert.equal(readFileSync(join(out, file), 'utf8').trim().split('\n').length, 2, 'appended');
  });

  test('`bank-checkout-bff prune --dry-run` says what would go and deletes nothing; `prune` deletes it', async () => {
    const file = join(dir, 'cli.db');
    const store = createSqliteStore(`file:${file}`);
    await store.init();
    const rec = checkout('failed', Date.now() - 401 * DAY);
    await store.createCheckout(rec);
    await store.close();
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, cliArgs('packages/bff/src/cli.ts', 'prune', ...args), {
        env: { ...process.env, DATABASE_URL: `file:${file}`, LOG_LEVEL: 'silent' },
      });
    const dry = await run(['--dry-run']);
    assert.match(dry.stdout, /would delete: 1 ended checkouts/);
    const done = await run([]);
    assert.match(done.stdout, /deleted: 1 ended checkouts/);
    await assert.rejects(run(['--force']), (err: { stderr: string }) => /prune takes only --dry-run/.test(err.stderr));
    const after = createSqliteStore(`file:${file}`);
    assert.equal(await after.getCheckout(rec.id), null);
    await after.close();
  });
});
