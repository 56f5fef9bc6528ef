/**
 * One door for every change of a checkout: only the engine (packages/bff/src/checkout/core.ts:
 * its door, door.ts, the payer's actions, act.ts, and their lock's lease, lease.ts) writes a checkout, through the store's
 * compare-and-set; only the store's row builder writes
 * the row, and no other SQL changes it. Each change the engine writes is checked against the
 * declaration (packages/bff/test/lease.test.ts and transitions.test.ts test that side).
 *
 * The exceptions, each with its reason:
 * - the store's own code (it is the door's other side);
 * - the creation of a checkout (service.ts), in the state its declaration starts it in;
 * - retention's deletion of ended checkouts (store/retention.ts), which changes no state;
 * - migration 4 (store/migrations.ts), which ended duplicate open checkouts once, when the rule
 *   of one open checkout per reference came in, before any code of this kind ran on the data.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name === 'test') continue;
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.(ts|mjs|js)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const files = [...sources(join(ROOT, 'packages')), ...sources(join(ROOT, 'apps')), ...sources(join(ROOT, 'scripts')), ...sources(join(ROOT, 'bench'))].map(
  (f) => ({ path: relative(ROOT, f), text: readFileSync(f, 'utf8') }),
);

/** The files in which `pattern` occurs. */
const where = (pattern: RegExp) =>
  files
    .filter((f) => pattern.test(f.text))
    .map((f) => f.path)
    .sort();

describe('one door for every change of a checkout', () => {
  it('only the engine calls the store’s updateCheckout', () => {
    assert.deepEqual(where(/\.updateCheckout\(/), [
      'packages/bff/src/checkout/act.ts',
      'packages/bff/src/checkout/door.ts',
      'packages/bff/src/checkout/lease.ts',
    ]);
  });

  it('only the row builder writes a checkout’s row; no other SQL updates it', () => {
    assert.deepEqual(where(/UPDATE checkouts\b/i), ['packages/bff/src/store/migrations.ts', 'packages/bff/src/store/rows.ts']);
    assert.deepEqual(where(/(INSERT INTO|DELETE FROM) checkouts\b/i), ['packages/bff/src/store/retention.ts']);
  });

  it('a checkout is created in one place only, in the state its declaration starts it in', () => {
    assert.deepEqual(where(/store\.createCheckout\(/), ['packages/bff/src/checkout/create.ts']);
    const create = files.find((f) => f.path === 'packages/bff/src/checkout/create.ts')!.text;
    assert.match(create, /state: initialState\(modes\)/);
  });

  it('the store’s updateCheckout is called nowhere under another name (no alias of the method escapes the engine)', () => {
    assert.deepEqual(where(/['"`]updateCheckout['"`]|\bupdateCheckout\s*[:=]/), ['packages/bff/src/store/sql.ts']);
  });
});
