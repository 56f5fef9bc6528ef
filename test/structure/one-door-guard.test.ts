/**
 * One door for every change of a checkout: only the engine (packages/bff/src/checkout/core.ts:
 * its door, door.ts, the payer's actions, act.ts, and their lock's lease, lease.ts) writes a checkout, through the store's
 * compare-and-set; only the store's row builder writes
 * the row, and no other SQL changes it. Each change the engine writes is checked against the
 * declaration (packages/bff/test/lease.test.ts and transitions.test.ts test that side).
 *
 * The exceptions, each with its reason:
 * - the store's own code (it is the door's other side);
 * - the creation of a checkout (checkout/create.ts), in the state its declaration starts it in;
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

/** A source's text without its comments, so that only code is searched (a comment may name anything). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const files = [...sources(join(ROOT, 'packages')), ...sources(join(ROOT, 'apps')), ...sources(join(ROOT, 'scripts')), ...sources(join(ROOT, 'bench'))].map(
  (f) => ({ path: relative(ROOT, f), text: code(readFileSync(f, 'utf8')) }),
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

  it('only the engine and the store name updateCheckout at all (no alias, no destructuring, no call by name or through call, apply or bind)', () => {
    assert.deepEqual(where(/\bupdateCheckout\b/), [
      'packages/bff/src/checkout/act.ts',
      'packages/bff/src/checkout/door.ts',
      'packages/bff/src/checkout/lease.ts',
      'packages/bff/src/store/sql.ts',
      'packages/bff/src/store/types.ts',
    ]);
  });

  it('only the row builder writes a checkout’s row; no other SQL updates it', () => {
    // However it is spelled: any case, any white space, the table's name quoted.
    assert.deepEqual(where(/\bUPDATE\s+["`]?checkouts\b/i), ['packages/bff/src/store/migrations.ts', 'packages/bff/src/store/rows.ts']);
    assert.deepEqual(where(/\b(INSERT\s+INTO|DELETE\s+FROM)\s+["`]?checkouts\b/i), ['packages/bff/src/store/retention.ts']);
  });

  it('a checkout is created in one place only, in the state its declaration starts it in', () => {
    // In the BFF (the merchant client's createCheckout is an HTTP call, the store's own code its other side).
    const inBff = (f: string) => f.startsWith('packages/bff/src/') && f !== 'packages/bff/src/merchant-client.ts' && !f.startsWith('packages/bff/src/store/');
    // The merchant API's handler of the same name (h.createCheckout) is its route's, not the store's:
    // a route cannot reach the store's writes at all (one-writer-types.test.ts proves it by types).
    assert.deepEqual(where(/(?<!\bh)\.createCheckout\(/).filter(inBff), ['packages/bff/src/checkout/create.ts']);
    const create = files.find((f) => f.path === 'packages/bff/src/checkout/create.ts')!.text;
    assert.match(create, /state: initialState\(modes\)/);
  });

  it('the store’s updateCheckout is called nowhere under another name (no alias of the method escapes the engine)', () => {
    assert.deepEqual(where(/['"`]updateCheckout['"`]|\bupdateCheckout\s*[:=]/), ['packages/bff/src/store/sql.ts']);
  });
});
