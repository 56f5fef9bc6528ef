import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deepFreeze } from '@bank-checkout/provider';

describe('deepFreeze', () => {
  it('freezes nested objects and arrays, and returns the same value', () => {
    const value = { a: { b: [1, { c: 2 }] }, d: 'x' };
    const frozen = deepFreeze(value);
    assert.equal(frozen, value);
    assert.throws(() => {
      (value.a.b[1] as { c: number }).c = 3;
    }, TypeError);
    assert.throws(() => {
      value.a.b.push(4);
    }, TypeError);
    assert.ok(Object.isFrozen(value.a));
  });

  it('ends on cycles and passes primitives and null through', () => {
    const loop: { self?: unknown; list: unknown[] } = { list: [] };
    loop.self = loop;
    loop.list.push(loop);
    assert.equal(deepFreeze(loop), loop);
    assert.ok(Object.isFrozen(loop.list));
    assert.equal(deepFreeze(null), null);
    assert.equal(deepFreeze(5), 5);
  });
});
