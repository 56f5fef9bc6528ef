/**
 * How a checkout's change becomes an UPDATE: the version and the document always, an indexed
 * column only when its value changes, so that a write which keeps them (a lock taken or
 * released around a bank call) leaves the indexes alone.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkoutUpdate, lockOnly } from '../src/store/rows.js';
import { checkoutRecord } from './store-fixtures.js';

const setColumns = (sql: string) => [.../ SET (.*) WHERE /.exec(sql)![1]!.matchAll(/(\w+) = (?:\?|NEXT)/g)].map((m) => m[1]);
/** The engine's expression of a change's position, as the tests spell it. */
const SEQ = 'NEXT';

describe('a checkout update', () => {
  const current = checkoutRecord({ version: 3 });

  it('of the document alone (a lock) sets the version and the document, and no indexed column', () => {
    const next = { ...current, version: 4, internal: { ...current.internal, busy: { op: 'transfer', since: 1, until: 2, holder: 'bff_x' } } } as typeof current;
    const { sql, args } = checkoutUpdate(current, next, SEQ);
    assert.deepEqual(setColumns(sql), ['version', 'data'], 'a lock is no change: no new position in the feed either');
    assert.deepEqual(args.slice(-2), [current.id, 3], 'the id and the version it expects come last');
    assert.equal(lockOnly(next, { ...next, version: 5, internal: current.internal }), true, 'released');
    assert.equal(JSON.parse(args[1] as string).internal.busy.op, 'transfer');
  });

  it('sets updated_at, state and expires_at each only when it changes', () => {
    const later = { ...current, version: 4, updatedAt: current.updatedAt + 1000 };
    assert.deepEqual(setColumns(checkoutUpdate(current, later, SEQ).sql), ['version', 'data', 'change_seq', 'updated_at']);
    const moved = { ...later, state: 'login' as const, expiresAt: current.expiresAt + 60_000 };
    const { sql, args } = checkoutUpdate(current, moved, SEQ);
    assert.deepEqual(setColumns(sql), ['version', 'data', 'change_seq', 'updated_at', 'state', 'expires_at']);
    assert.deepEqual(args.slice(2, 5), [moved.updatedAt, 'login', moved.expiresAt]);
  });

  it('takes a new position in the feed for any change but a lock, in the same millisecond too', () => {
    const changes: (typeof current)[] = [
      { ...current, version: 4, error: { code: 'B100', message: 'error.B100' } },
      { ...current, version: 4, attemptsLeft: current.attemptsLeft - 1 },
      { ...current, version: 4, internal: { ...current.internal, accountId: 'AUR-0001' } },
      { ...current, version: 4, internal: { ...current.internal, busy: { op: 'login', since: 1 }, bank: { bankId: 'aurora', label: 'Aurora' } } },
    ];
    for (const next of changes) {
      assert.equal(lockOnly(current, next), false);
      assert.ok(setColumns(checkoutUpdate(current, next, SEQ).sql).includes('change_seq'));
    }
    const withKey = { ...current, internal: { ...current.internal, funnel: undefined } };
    assert.equal(lockOnly(current, { ...withKey, version: 4 }), false, 'a key added, even undefined, is a change');
  });
});
