/**
 * No import circles among the sources (scripts/import-cycles.ts walks the TypeScript import
 * graph). None at run time; the type-only circles still there are listed, so that a new one
 * fails here and each one removed is struck from the list.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findCycles } from '../../scripts/import-cycles.js';

/** Type-only circles not yet undone (each vanishes from the JavaScript). */
const TYPE_ONLY = [
  'packages/elements/src/shared/bank-element.ts → packages/elements/src/shared/step-form.ts',
  'packages/elements/src/bank-challenge/bank-challenge.ts → packages/elements/src/bank-challenge/challenge-form.ts',
  'packages/elements/src/bank-periodic-form/bank-periodic-form.ts → packages/elements/src/bank-periodic-form/order-form.ts',
];

describe('import circles', () => {
  it('none at run time', () => {
    assert.deepEqual(
      findCycles().map((c) => c.join(' → ')),
      [],
    );
  });

  it('no type-only circle beyond the known ones (the routes and app.ts no longer import each other)', () => {
    const found = findCycles(true).map((c) => c.join(' → '));
    assert.deepEqual(
      found.filter((c) => !TYPE_ONLY.includes(c)),
      [],
    );
    assert.ok(!found.some((c) => c.includes('packages/bff/src/app.ts')));
  });
});
