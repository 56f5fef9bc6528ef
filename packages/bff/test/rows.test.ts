/**
 * How a checkout's change becomes an UPDATE: the version and the document always, an indexed
 * column only when its value changes, so that a write which keeps them (a lock taken or
 * released around a bank call) leaves the indexes alone.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkoutUpdate } from '../src/store/rows.js';
import { checkoutRecord } from './store-fixtures.js';

const setColumns = (sql: string) => [.../ SET (.*) WHERE /.exec(sql)![1]!.matchAll(/(\w+) = \?/g)].map((m) => m[1]);

describe('a checkout update', () => {
  const current = checkoutRecord({ version: 3 });

  it('of the document alone (a lock) sets the version and the document, and no indexed column', () => {
    const next = { ...current, version: 4, internal: { ...current.internal, busy: { op: 'transfer', since: 1, until: 2, holder: 'bff_x' } } } as typeof current;
    const { sql, args } = checkoutUpdate(current, next);
    assert.deepEqual(setColumns(sql), ['version', 'data']);
    assert.deepEqual(args.slice(-2), [current.id, 3], 'the id and the version it expects come last');
    assert.equal(JSON.parse(args[1] as string).internal.busy.op, 'transfer');
  });

  it('sets updated_at, state and expires_at each only when it changes', () => {
    const later = { ...current, version: 4, updatedAt: current.updatedAt + 1000 };
    assert.deepEqual(setColumns(checkoutUpdate(current, later).sql), ['version', 'data', 'updated_at']);
    const moved = { ...later, state: 'login' as const, expiresAt: current.expiresAt + 60_000 };
    const { sql, args } = checkoutUpdate(current, moved);
    assert.deepEqual(setColumns(sql), ['version', 'data', 'updated_at', 'state', 'expires_at']);
    assert.deepEqual(args.slice(2, 5), [moved.updatedAt, 'login', moved.expiresAt]);
  });
});
