/**
 * One contract suite for the store, run against both engines: SQLite on a file in a temporary
 * directory, and PostgreSQL (TEST_DATABASE_URL) in a fresh schema dropped at the end.
 */
import { until } from './until.js';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { createPostgresStore, createSqliteStore, createStore, type CheckoutRecord, type NotificationRecord, type Store } from '../src/store/index.js';
import type { ChangePosition } from '../src/store/types.js';
import { RECORD_AT, checkoutRecord, dropSchemas, freshSchema, sha256, unique, withPostgres } from './store-fixtures.js';
import { opened } from '../../../test/support/opened.js';

function notification(overrides: Partial<NotificationRecord> = {}): NotificationRecord {
  const id = unique('ntf');
  return {
    id,
    dedupeKey: sha256(`data-${id}`),
    receivedAt: 1_700_000_000_000,
    dataReturn: Buffer.from(JSON.stringify({ id })).toString('base64'),
    signature: 'c2lnbmF0dXJl',
    verified: true,
    status: 'OK',
    transactionId: unique('tx'),
    reference: unique('ref'),
    amount: 1250,
    checkoutId: null,
    outcome: 'pending',
    ...overrides,
  };
}

interface Engine {
  /** A new store on the same database, not yet initialised. */
  open(): Store;
  teardown(): Promise<void>;
}

function contract(name: string, makeEngine: () => Engine) {
  describe(`store contract: ${name}`, () => {
    let engine: Engine;
    let store: Store;
    before(() => {
      engine = makeEngine();
      store = engine.open();
    });
    after(async () => {
      await opened(store)?.close();
      await opened(engine)?.teardown();
    });

    test('init is safe when several instances boot at once, and when repeated', async () => {
      const others = [engine.open(), engine.open()];
      try {
        await Promise.all([store.init(), ...others.map((s) => s.init())]);
        await store.init();
        const rec = checkoutRecord();
        await others[1]!.createCheckout(rec);
        assert.deepEqual(await store.getCheckout(rec.id), rec);
      } finally {
        await Promise.all(others.map((s) => s.close()));
      }
    });

    test('creates a checkout and finds it by id, secret hash and reference', async () => {
      const reference = unique('ref');
      // One open checkout per reference: the older ones have ended.
      const [a, b, c] = [1000, 3000, 2000].map((t) => checkoutRecord({ reference, createdAt: t, updatedAt: t, state: t === 3000 ? 'select-bank' : 'expired' }));
      for (const rec of [a!, b!, c!]) assert.deepEqual(await store.createCheckout(rec), { created: true, record: rec });
      assert.deepEqual(await store.getCheckout(a!.id), a);
      assert.deepEqual(await store.getCheckoutBySecretHash(b!.secretHash), b);
      assert.deepEqual(
        (await store.findCheckoutsByReference(reference)).map((r) => r.id),
        [b!.id, c!.id, a!.id],
      );
      assert.equal(await store.getCheckout('missing'), null);
      assert.equal(await store.getCheckoutBySecretHash(sha256('missing')), null);
      assert.deepEqual(await store.findCheckoutsByReference(unique('ref')), []);
    });

    test('holds one open checkout per reference: a second open one is refused, an ended one makes way', async () => {
      const reference = unique('ref');
      const open = checkoutRecord({ reference });
      await store.createCheckout(open);
      await assert.rejects(store.createCheckout(checkoutRecord({ reference })));
      assert.deepEqual(
        (await store.findCheckoutsByReference(reference)).map((r) => r.id),
        [open.id],
      );
      const ended = await store.updateCheckout(open.id, open.version, { state: 'cancelled' });
      assert.equal(ended?.state, 'cancelled');
      const next = checkoutRecord({ reference });
      assert.deepEqual(await store.createCheckout(next), { created: true, record: next });
      // Reopening the ended one while the next is open is refused too.
      await assert.rejects(store.updateCheckout(open.id, ended.version, { state: 'select-bank' }));
    });

    test('rejects a second checkout with the same id or secret hash', async () => {
      const rec = checkoutRecord();
      await store.createCheckout(rec);
      await assert.rejects(store.createCheckout({ ...checkoutRecord(), id: rec.id }));
      const twin = checkoutRecord({ secretHash: rec.secretHash });
      await assert.rejects(store.createCheckout(twin));
      assert.equal(await store.getCheckout(twin.id), null);
      assert.deepEqual(await store.getCheckout(rec.id), rec);
    });

    test('round-trips internal, error, modes and nullable fields', async () => {
      // Stored as opaque JSON: any nesting, any text, survives the round trip.
      const internal = {
        sessionId: 'sess-1',
        bank: { id: 'b1', name: 'Banco Ñandú' },
        accounts: [{ iban: 'ES7620770024003102575766', balance: 12.5, tags: [] }],
        nested: { list: [1, 'two', null, true, { deep: { deeper: 'yes' } }] },
        text: 'quotes " \' backslash \\ emoji 😀 newline \n',
        deadline: 1_700_000_123_456,
      } as unknown as CheckoutRecord['internal'];
      const rec = checkoutRecord({
        mode: 'periodic',
        modes: ['periodic', 'native'],
        customData: '{"order":42}',
        urlOk: null,
        urlError: 'https://shop.example/ko',
        internal,
        error: { code: 'B101', message: 'error.B101' },
      });
      await store.createCheckout(rec);
      assert.deepEqual(await store.getCheckout(rec.id), rec);

      const next = await store.updateCheckout(rec.id, rec.version, { internal: {}, error: null, modes: ['redirect'] });
      assert.deepEqual(next, { ...rec, internal: {}, error: null, modes: ['redirect'], version: rec.version + 1 });
      assert.deepEqual(await store.getCheckout(rec.id), next);
    });

    test('an update writes the indexed columns it changes and keeps the others, as another instance reads them', async () => {
      const rec = checkoutRecord({ state: 'login', expiresAt: 1_700_000_100_000 });
      await store.createCheckout(rec);
      const kept = await store.updateCheckout(rec.id, rec.version, { internal: { sessionId: 's-1' }, updatedAt: 1_700_000_000_100 });
      const reference = unique('ref');
      const moved = await store.updateCheckout(rec.id, kept!.version, {
        state: 'validate',
        reference,
        expiresAt: 1_700_000_200_000,
        updatedAt: 1_700_000_000_200,
      });
      assert.ok(kept && moved);
      const other = engine.open();
      try {
        assert.deepEqual(await other.getCheckout(rec.id), moved);
        assert.deepEqual(
          (await other.findCheckoutsByReference(reference)).map((r) => r.id),
          [rec.id],
        );
        assert.deepEqual(await other.findCheckoutsByReference(rec.reference), []);
        assert.ok((await other.listCheckouts({ state: 'validate', limit: 500 })).some((r) => r.id === rec.id));
        assert.ok(!(await other.listCheckouts({ state: 'login', limit: 500 })).some((r) => r.id === rec.id));
        assert.ok((await other.findDue(1_700_000_200_001, 500)).some((r) => r.id === rec.id));
        assert.ok(!(await other.findDue(1_700_000_150_000, 500)).some((r) => r.id === rec.id));
      } finally {
        await other.close();
      }
    });

    test('idempotency: a second create with the same key returns the first and writes nothing', async () => {
      const key = unique('idem');
      const first = checkoutRecord();
      const idem = { key, fingerprint: sha256('body-1'), createdAt: 1_700_000_000_500 };
      assert.deepEqual(await store.createCheckout(first, idem), { created: true, record: first });
      const expected = { ...idem, checkoutId: first.id };
      assert.deepEqual(await store.getIdempotency(key), expected);

      const second = checkoutRecord();
      const again = await store.createCheckout(second, { key, fingerprint: sha256('body-2'), createdAt: 1_700_000_009_000 });
      assert.deepEqual(again, { created: false, existing: expected });
      assert.equal(await store.getCheckout(second.id), null);
      assert.equal(await store.getIdempotency(unique('idem')), null);
    });

    test('idempotency: the checkout and its key are written both or neither', async () => {
      const taken = checkoutRecord();
      await store.createCheckout(taken);
      const key = unique('idem');
      const clash = checkoutRecord({ secretHash: taken.secretHash });
      await assert.rejects(store.createCheckout(clash, { key, fingerprint: sha256('b'), createdAt: 1 }));
      assert.equal(await store.getIdempotency(key), null);
      assert.equal(await store.getCheckout(clash.id), null);

      const ok = checkoutRecord();
      assert.equal((await store.createCheckout(ok, { key, fingerprint: sha256('b'), createdAt: 2 })).created, true);
      assert.equal((await store.getIdempotency(key))?.checkoutId, ok.id);
    });

    test('idempotency: concurrent creates with one key create exactly one checkout', async () => {
      const key = unique('idem');
      const records = Array.from({ length: 5 }, () => checkoutRecord());
      const results = await Promise.all(records.map((r) => store.createCheckout(r, { key, fingerprint: sha256('same'), createdAt: 3 })));
      const winners = results.filter((r) => r.created);
      assert.equal(winners.length, 1);
      const winnerId = winners[0]!.record.id;
      for (const r of results) if (!r.created) assert.equal(r.existing.checkoutId, winnerId);
      const stored = await Promise.all(records.map((r) => store.getCheckout(r.id)));
      assert.deepEqual(
        stored.filter((r) => r !== null).map((r) => r.id),
        [winnerId],
      );
    });

    test('updateCheckout applies a patch with the current version and bumps it', async () => {
      const rec = checkoutRecord({ internal: { sessionId: 's1' } });
      await store.createCheckout(rec);
      const patch = { state: 'login' as const, updatedAt: rec.updatedAt + 5000, attemptsLeft: 2, internal: { sessionId: 's1', bankId: 'b' } };
      const next = await store.updateCheckout(rec.id, 1, patch);
      assert.deepEqual(next, { ...rec, ...patch, version: 2 });
      assert.deepEqual(await store.getCheckout(rec.id), next);
      const byState = await store.updateCheckout(rec.id, 2, { customData: undefined, reference: 'moved' });
      assert.equal(byState?.customData, rec.customData, 'an undefined patch field keeps its value');
      assert.deepEqual(await store.findCheckoutsByReference('moved').then((r) => r.map((x) => x.id)), [rec.id]);
    });

    test('updateCheckout with a stale version or unknown id changes nothing and returns null', async () => {
      const rec = checkoutRecord();
      await store.createCheckout(rec);
      const next = await store.updateCheckout(rec.id, 1, { state: 'login' });
      assert.equal(next?.version, 2);
      assert.equal(await store.updateCheckout(rec.id, 1, { state: 'failed' }), null);
      assert.equal(await store.updateCheckout(rec.id, 3, { state: 'failed' }), null);
      assert.equal(await store.updateCheckout('missing', 1, { state: 'failed' }), null);
      assert.deepEqual(await store.getCheckout(rec.id), next);
    });

    test('of 10 concurrent updates naming the same version exactly one succeeds', async () => {
      const rec = checkoutRecord();
      await store.createCheckout(rec);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.updateCheckout(rec.id, 1, { attemptsLeft: i, updatedAt: rec.updatedAt + i })),
      );
      const winners = results.filter((r) => r !== null);
      assert.equal(winners.length, 1);
      const stored = await store.getCheckout(rec.id);
      assert.equal(stored?.version, 2);
      assert.deepEqual(stored, winners[0]);
    });

    test('insertNotification stores one notification per dedupeKey', async () => {
      const first = notification();
      assert.deepEqual(await store.insertNotification(first), { inserted: true, record: first });
      const repeat = notification({ dedupeKey: first.dedupeKey, receivedAt: first.receivedAt + 10 });
      assert.deepEqual(await store.insertNotification(repeat), { inserted: false, record: first });
    });

    test('10 concurrent inserts of one dedupeKey store exactly one', async () => {
      const dedupeKey = sha256(unique('data'));
      const results = await Promise.all(Array.from({ length: 10 }, () => store.insertNotification(notification({ dedupeKey }))));
      assert.equal(results.filter((r) => r.inserted).length, 1);
      const storedId = results.find((r) => r.inserted)!.record.id;
      for (const r of results) assert.equal(r.record.id, storedId);
    });

    test('an Idempotency-Key reply is claimed by one of several racers, completed, and released only while open', async () => {
      const key = unique('links:key');
      const claims = await Promise.all(Array.from({ length: 8 }, () => store.claimReply({ key, fingerprint: 'f1', createdAt: 1 })));
      assert.equal(claims.filter((c) => c.claimed).length, 1);
      for (const c of claims) if (!c.claimed) assert.deepEqual(c.existing, { key, fingerprint: 'f1', status: null, body: null, createdAt: 1 });
      await store.completeReply(key, 201, { url: 'https://gw.example/1', idDebt: 'D1' });
      await store.releaseReply(key); // a completed reply stays
      const again = await store.claimReply({ key, fingerprint: 'f1', createdAt: 2 });
      assert.deepEqual(again, {
        claimed: false,
        existing: { key, fingerprint: 'f1', status: 201, body: { url: 'https://gw.example/1', idDebt: 'D1' }, createdAt: 1 },
      });
      const open = unique('links:open');
      assert.equal((await store.claimReply({ key: open, fingerprint: 'f', createdAt: 3 })).claimed, true);
      await store.releaseReply(open);
      assert.equal((await store.claimReply({ key: open, fingerprint: 'g', createdAt: 4 })).claimed, true, 'a released key can be claimed again');
    });

    test('a proof id is used once by all instances at once, free again once its time is over, and forgotten then', async () => {
      const other = engine.open();
      try {
        await other.init();
        const id = unique('proof');
        const now = 1_000_000;
        // Several instances see the same proof at once: one takes it.
        const taken = await Promise.all([store, other, store, other].map((s) => s.useProofId(id, now + 65_000, now)));
        assert.deepEqual(taken.filter(Boolean).length, 1);
        assert.equal(await other.useProofId(id, now + 70_000, now + 60_000), false, 'still in its window');
        assert.equal(await store.useProofId(id, now + 200_000, now + 66_000), true, 'its window over: a new proof may use it');
        const old = unique('proof');
        await store.useProofId(old, now + 1_000, now);
        assert.ok((await other.forgetProofIds(now + 100_000)) >= 1);
        assert.equal(await store.useProofId(id, now + 300_000, now + 100_000), false, 'the one still in its window is kept');
      } finally {
        await other.close();
      }
    });

    test('an outbox event written with its change is leased to one of several instances at a time', async () => {
      const rec = checkoutRecord();
      await store.createCheckout(rec);
      const event = { id: unique('evt'), type: 'checkout.updated' as const, createdAt: 5_000_000_000_000, data: { checkoutId: rec.id } };
      const written = await store.updateCheckout(rec.id, rec.version, { state: 'cancelled' }, [event]);
      assert.equal(written?.state, 'cancelled');
      // A stale write writes neither the change nor its event.
      assert.equal(await store.updateCheckout(rec.id, rec.version, { state: 'failed' }, [{ ...event, id: unique('evt') }]), null);
      const others = [engine.open(), engine.open()];
      try {
        const now = 5_000_000_000_000;
        const claims = await Promise.all([store, ...others].map((s) => s.claimDueEvents(now, 60_000, 50)));
        const mine = claims.flat().filter((e) => e.id === event.id);
        assert.equal(mine.length, 1, 'one instance holds it');
        assert.deepEqual(mine[0]!.data, { checkoutId: rec.id });
        assert.equal((await store.claimDueEvents(now + 1_000, 60_000, 50)).filter((e) => e.id === event.id).length, 0, 'leased');
        await store.settleEvent(event.id, { nextAttemptAt: now + 10_000, lastError: 'HTTP 500' });
        assert.equal((await others[0]!.claimDueEvents(now + 10_000, 60_000, 50)).filter((e) => e.id === event.id).length, 1, 'due again after its delay');
        await store.settleEvent(event.id, { deliveredAt: now + 10_001 });
        const [delivered] = (await store.listEvents({ status: 'delivered', limit: 500 })).filter((e) => e.id === event.id);
        assert.deepEqual([delivered?.attempts, delivered?.deliveredAt], [2, now + 10_001]);
      } finally {
        await Promise.all(others.map((s) => s.close()));
      }
    });

    test('listNotifications returns the most recent first, paged by limit and before', async () => {
      // Later than anything else this suite stores, so these five are the newest.
      const base = 4_000_000_000_000;
      const made = [3, 0, 4, 1, 2].map((i) => notification({ receivedAt: base + i * 1000 }));
      for (const n of made) await store.insertNotification(n);
      const newestFirst = [...made].sort((a, b) => b.receivedAt - a.receivedAt).map((n) => n.id);

      const page1 = await store.listNotifications({ limit: 2 });
      assert.deepEqual(
        page1.map((n) => n.id),
        newestFirst.slice(0, 2),
      );
      assert.deepEqual(page1[0], made[2]);
      const page2 = await store.listNotifications({ limit: 2, before: { at: page1.at(-1)!.receivedAt, id: page1.at(-1)!.id } });
      assert.deepEqual(
        page2.map((n) => n.id),
        newestFirst.slice(2, 4),
      );
      const page3 = await store.listNotifications({ limit: 2, before: { at: page2.at(-1)!.receivedAt, id: page2.at(-1)!.id } });
      assert.equal(page3[0]?.id, newestFirst[4]);
      assert.ok(page3.every((n) => n.receivedAt < base + 1000));
      assert.deepEqual(await store.listNotifications({ limit: 0 }), []);
    });

    test('settleNotification is a compare-and-set on the outcome: of two settlings from pending, one writes (with its events)', async () => {
      const n = notification();
      await store.insertNotification(n);
      const event = { id: unique('evt'), type: 'notification.received' as const, createdAt: RECORD_AT, data: { n: n.id } };
      const other = { ...event, id: unique('evt') };
      const [a, b] = await Promise.all([
        store.settleNotification({ id: n.id, from: ['pending'], to: { outcome: 'applied', checkoutId: 'chk_1' }, events: [event] }),
        store.settleNotification({ id: n.id, from: ['pending'], to: { outcome: 'ignored', checkoutId: 'chk_1' }, events: [other] }),
      ]);
      assert.deepEqual([a, b].sort(), [false, true]);
      const { record } = await store.insertNotification(notification({ dedupeKey: n.dedupeKey }));
      assert.equal(record.outcome, a ? 'applied' : 'ignored');
      assert.deepEqual((await store.getNotification(n.id))?.outcome, record.outcome);
      const written = [await store.getEvent(event.id), await store.getEvent(other.id)].filter(Boolean);
      assert.equal(written.length, 1, 'only the settling that held wrote its event');
      assert.equal(await store.notificationOutcomeIs(n.id, ['pending']), false);
      assert.equal(await store.notificationOutcomeIs(n.id, [record.outcome]), true);
      assert.equal(await store.settleNotification({ id: 'missing', from: ['pending'], to: { outcome: 'ignored', checkoutId: null }, events: [] }), false);
      assert.equal(await store.getNotification('missing'), null);
    });

    test('listCheckouts pages by update time and id: 40 checkouts changed in the same millisecond, each listed once at limits 1, 3 and 7', async () => {
      // Later than anything else this suite stores, so these forty are the most recently changed.
      const at = 4_100_000_000_000;
      const made = Array.from({ length: 40 }, () => checkoutRecord({ createdAt: at, updatedAt: at }));
      for (const rec of made) await store.createCheckout(rec);
      const expected = made.map((r) => r.id).sort((a, b) => (a < b ? 1 : -1));
      for (const limit of [1, 3, 7]) {
        const seen: string[] = [];
        let before: { at: number; id: string } | undefined;
        while (seen.length < 40) {
          const page = await store.listCheckouts({ limit, ...(before ? { before } : {}) });
          assert.ok(page.length > 0 && page.length <= limit);
          seen.push(...page.map((r) => r.id));
          before = { at: page.at(-1)!.updatedAt, id: page.at(-1)!.id };
        }
        assert.deepEqual(seen.slice(0, 40), expected, `limit ${limit}: each once, newest first, ties by id`);
        const rest = await store.listCheckouts({ limit: 500, before: { at, id: expected.at(-1)! } });
        assert.ok(
          rest.every((r) => r.updatedAt < at),
          `limit ${limit}: nothing of the forty after the last`,
        );
      }
      // In one state too (its own index).
      const page = await store.listCheckouts({ state: 'select-bank', limit: 5, before: { at, id: expected[9]! } });
      assert.deepEqual(
        page.map((r) => r.id),
        expected.slice(10, 15),
      );
    });

    test('listChanges gives each change once, in order, after the position given; a lock is no change', async () => {
      /** Everything the feed gives from `after` on, read `limit` at a time. */
      const drain = async (after: ChangePosition | null, limit = 3) => {
        const out: { id: string; state: string; position: ChangePosition }[] = [];
        for (;;) {
          const page = await store.listChanges({ after, limit });
          out.push(...page.map((r) => ({ id: r.record.id, state: r.record.state, position: r.position })));
          if (page.length < limit) return { out };
          after = page.at(-1)!.position;
        }
      };
      // Where the feed stands now, after what earlier tests wrote.
      const everything = await drain(null, 500);
      let from = everything.out.at(-1)?.position ?? null;
      const [a, b, c] = [checkoutRecord(), checkoutRecord(), checkoutRecord()];
      for (const rec of [a, b, c]) await store.createCheckout(rec);
      // A change is read once no transaction that could commit an earlier one is open (on a
      // shared PostgreSQL server, another database's too): waited for, not assumed.
      const settled = async (after: ChangePosition | null, count: number, limit?: number) =>
        until(async () => {
          const d = await drain(after, limit);
          return d.out.length >= count ? d : null;
        }, `${count} changes to be read`);
      const created = await settled(from, 3);
      assert.deepEqual(
        created.out.map((r) => r.id),
        [a.id, b.id, c.id],
        'in the order they were written',
      );
      from = created.out.at(-1)!.position;
      // A lock taken and released: nothing to read.
      const locked = await store.updateCheckout(a.id, 1, { internal: { busy: { op: 'login', since: 1 } } });
      await store.updateCheckout(a.id, locked!.version, { internal: {} });
      assert.deepEqual((await drain(from)).out, []);
      // Two changes of b, one of a, in the same millisecond as their creation: b once, at its last change, then a.
      await store.updateCheckout(b.id, 1, { state: 'login' });
      await store.updateCheckout(b.id, 2, { state: 'select-account', internal: { accounts: [] } });
      await store.updateCheckout(a.id, 3, { state: 'cancelled', error: { code: 'cancelled', message: 'error.cancelled' } });
      const changed = await settled(from, 2, 1);
      assert.deepEqual(
        changed.out.map((r) => [r.id, r.state]),
        [
          [b.id, 'select-account'],
          [a.id, 'cancelled'],
        ],
      );
      assert.ok(changed.out.every((r, i) => i === 0 || r.position.seq > changed.out[i - 1]!.position.seq || r.position.id > changed.out[i - 1]!.position.id));
      assert.deepEqual((await drain(changed.out.at(-1)!.position)).out, [], 'read to the end: nothing again');
    });

    test('data survives closing the store and opening a new one', async () => {
      const rec = checkoutRecord({ internal: { sessionId: 'kept' } });
      const key = unique('idem');
      await store.createCheckout(rec, { key, fingerprint: sha256('x'), createdAt: 9 });
      const n = notification();
      await store.insertNotification(n);
      await store.close();
      await store.close();

      store = engine.open();
      await store.init();
      assert.deepEqual(await store.getCheckout(rec.id), rec);
      assert.equal((await store.getIdempotency(key))?.checkoutId, rec.id);
      assert.deepEqual((await store.insertNotification(notification({ dedupeKey: n.dedupeKey }))).record, n);
      assert.equal((await store.updateCheckout(rec.id, 1, { state: 'login' }))?.version, 2);
    });
  });
}

/* ---------- SQLite ---------- */

let sqliteDir = '';
let sqliteUrl = '';
contract('sqlite', () => {
  sqliteDir = mkdtempSync(join(tmpdir(), 'bff-store-'));
  sqliteUrl = `file:${join(sqliteDir, 'nested', 'dir', 'bff.db')}`;
  return {
    open: () => createSqliteStore(sqliteUrl),
    teardown: async () => rmSync(sqliteDir, { recursive: true, force: true }),
  };
});

describe('sqlite engine', () => {
  test('creates the parent directory and uses WAL journaling', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bff-store-'));
    try {
      const path = join(dir, 'a', 'b', 'c.db');
      const store = createSqliteStore(`file:${path}`);
      await store.init();
      await store.close();
      assert.ok(existsSync(path));
      const db = new Database(path);
      const mode = db.prepare('PRAGMA journal_mode').get([]) as { journal_mode: string };
      db.close();
      assert.equal(mode.journal_mode, 'wal');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('acknowledges a write only after an fsync of the log that began after its commit, one fsync for many writers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bff-store-'));
    let started = 0;
    let doneUpTo = 0;
    // The first fsync is held until the other writers have committed behind it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const store = createSqliteStore(`file:${join(dir, 'bff.db')}`, {
      sync: async (wal) => {
        const n = ++started;
        await wal.sync();
        if (n === 1) await held;
        doneUpTo = Math.max(doneUpTo, n);
      },
    });
    try {
      await store.init();
      // The schema's own writes, flushed by init, are not counted.
      [started, doneUpTo] = [0, 0];
      const records = Array.from({ length: 20 }, () => checkoutRecord());
      const ack = (rec: CheckoutRecord) => store.createCheckout(rec).then(() => doneUpTo);
      const first = ack(records[0]!);
      await until(() => started === 1, 'the first fsync to start');
      const rest = records.slice(1).map(ack);
      // Reads wait for no fsync: every later write is committed, and waits on the disk.
      await until(async () => (await Promise.all(records.map((rec) => store.getCheckout(rec.id)))).every(Boolean), 'the writes to commit');
      assert.equal(doneUpTo, 0, 'nothing acknowledged while the first fsync runs');
      release();
      assert.equal(await first, 1);
      // Committed while the first fsync ran: acknowledged only after the second, which began after their commit.
      assert.deepEqual(await Promise.all(rest), Array<number>(19).fill(2));
      assert.equal(started, 2, 'one fsync for the 19 writes that committed during the first');
      for (const rec of records) assert.deepEqual(await store.getCheckout(rec.id), rec);
      // Reads wait for no fsync.
      const before = started;
      await store.listCheckouts({ state: 'select-bank', limit: 5 });
      assert.equal(started, before);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('keeps its pages full while checkouts grow during their flow and shrink as they end; a null field is not stored', async () => {
    // Rows placed in the order they were made would leave the older pages a third full: each
    // grows as its payer goes on (split pages), then shrinks as it ends, and new rows only ever
    // go to the last page. Placed at random, a new row fills the room an ended one left.
    const dir = mkdtempSync(join(tmpdir(), 'bff-store-'));
    const path = join(dir, 'bff.db');
    const store = createSqliteStore(`file:${path}`);
    /** A checkout with none of the nullable fields set. */
    const bare = () => checkoutRecord({ customData: null, urlOk: null, urlError: null, error: null });
    const accounts = Array.from({ length: 12 }, (_, i) => ({
      accountId: `acc-${i}`,
      accountInfo: `ES12 3456 7890 1234 5678 ${String(i).padStart(4, '0')}`,
      amount: 1000 * i,
    }));
    try {
      await store.init();
      for (let batch = 0; batch < 16; batch++) {
        const records = Array.from({ length: 16 }, bare);
        for (const rec of records) await store.createCheckout(rec);
        for (const rec of records) assert.ok(await store.updateCheckout(rec.id, 1, { state: 'select-account', internal: { accounts } }));
        for (const rec of records) assert.ok(await store.updateCheckout(rec.id, 2, { state: 'succeeded', internal: {} }));
      }
      const last = bare();
      await store.createCheckout(last);
      await store.close();
      const db = new Database(path);
      try {
        db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
        const { bytes, unused } = db.prepare("SELECT sum(pgsize) AS bytes, sum(unused) AS unused FROM dbstat WHERE name = 'checkouts'").get([]) as Record<
          string,
          number
        >;
        // In the order they were made: about 69% unused here; at random: about 37%.
        assert.ok(unused! / bytes! < 0.5, `${((100 * unused!) / bytes!).toFixed(0)}% of the checkouts' pages unused`);
        const { data } = db.prepare('SELECT data FROM checkouts WHERE id = ?').get([last.id]) as { data: string };
        assert.doesNotMatch(data, /customData|urlOk|urlError|"error"/);
      } finally {
        db.close();
      }
      const reopened = createSqliteStore(`file:${path}`);
      assert.deepEqual(await reopened.getCheckout(last.id), last, 'the null fields read back as null');
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const url of [':memory:', 'file::memory:']) {
    test(`${url} gives a working private database`, async () => {
      const store = createStore(url);
      assert.equal(store.engine, 'sqlite');
      const rec = checkoutRecord();
      await store.createCheckout(rec);
      assert.deepEqual(await store.getCheckout(rec.id), rec);
      const other = createStore(url);
      assert.equal(await other.getCheckout(rec.id), null);
      await Promise.all([store.close(), other.close()]);
    });
  }
});

/* ---------- choosing an engine ---------- */

describe('createStore', () => {
  test('chooses the engine by the URL scheme', async () => {
    for (const url of ['postgres://u:p@127.0.0.1:1/db', 'postgresql://u:p@127.0.0.1:1/db']) {
      const store = createStore(url);
      assert.equal(store.engine, 'postgres');
      await store.close();
    }
  });

  test('rejects another scheme naming DATABASE_URL without echoing the URL', () => {
    assert.throws(
      () => createStore('mysql://user:hunter2@db/x'),
      (err: Error) => /DATABASE_URL/.test(err.message) && /mysql:/.test(err.message) && !err.message.includes('hunter2'),
    );
    assert.throws(() => createStore('data/bff.db'), /DATABASE_URL/);
  });

  test('rejects a PostgreSQL schema name that is not a plain identifier', () => {
    assert.throws(() => createPostgresStore('postgres://u@127.0.0.1:1/db', { schema: 'x; DROP TABLE y' }), /schema/);
  });
});

/* ---------- PostgreSQL ---------- */

withPostgres('store contract', (url) => {
  const schema = freshSchema('store_test');
  contract('postgres', () => ({ open: () => createPostgresStore(url, { schema, max: 12 }), teardown: () => dropSchemas(url, schema) }));
});
