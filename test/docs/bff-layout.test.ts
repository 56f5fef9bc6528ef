/**
 * The layout block of packages/bff/README.md is the package's: every `src/…` it names exists,
 * every folder of src/routes is an area it names, with its declarations, handlers and mounting
 * (`<area>.routes.ts`, `<area>.handlers.ts`, `<area>.index.ts`), and no route module lies beside
 * the areas but the two the block names.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const BFF = new URL('../../packages/bff/', import.meta.url).pathname;

function layoutBlock(): string {
  const doc = readFileSync(join(BFF, 'README.md'), 'utf8');
  const block = /<!-- checked: test\/docs\/bff-layout\.test\.ts -->\n```\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(block, 'packages/bff/README.md has the layout block, marked as checked by this test');
  return block;
}

describe('the BFF README’s layout', () => {
  const block = layoutBlock();
  const routes = join(BFF, 'src/routes');

  it('names only paths that exist', () => {
    const named = [...block.matchAll(/^(src\/[^\s<]*)/gm)].map((m) => m[1]!);
    assert.ok(named.length >= 6, `found ${named.length} paths`);
    for (const path of named) assert.ok(existsSync(join(BFF, path)), `${path} exists`);
  });

  it('names every area of the routes, each declared, handled and mounted in its own three files', () => {
    const areas = readdirSync(routes).filter((name) => statSync(join(routes, name)).isDirectory());
    const listed = /areas: ([\s\S]*?)\n\S/.exec(block)?.[1] ?? '';
    for (const area of areas) {
      assert.match(listed, new RegExp(`\\b${area}\\b`), `the area ${area} is named`);
      for (const part of ['routes', 'handlers', 'index']) assert.ok(existsSync(join(routes, area, `${area}.${part}.ts`)), `${area}/${area}.${part}.ts`);
    }
  });

  it('has no route module beside the areas but those it names', () => {
    const loose = readdirSync(routes).filter((name) => name.endsWith('.ts'));
    for (const name of loose) assert.match(block, new RegExp(`src/routes/${name.replace('.', '\\.')}\\b`), `src/routes/${name} is named`);
  });
});
