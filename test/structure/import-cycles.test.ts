/**
 * No import circles among the sources (scripts/import-cycles.ts walks the TypeScript import
 * graph). None at run time, and none with type-only imports counted: a form in a file of its
 * own is known to its element only as a StepForm, and the host it reads is declared with the
 * element's base.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findCycles } from '../../scripts/import-cycles.js';

describe('import circles', () => {
  it('none at run time', () => {
    assert.deepEqual(
      findCycles().map((c) => c.join(' → ')),
      [],
    );
  });

  it('none with type-only imports counted too', () => {
    assert.deepEqual(
      findCycles(true).map((c) => c.join(' → ')),
      [],
    );
  });
});
