/**
 * Packages meet only through their published names. A test, benchmark, app or package that
 * reaches into another package's sources by relative path (`../../packages/bff/src/…`,
 * `../../sandbox/src/…`) would pass here and break for anyone using the published packages,
 * where only the `exports` of each package.json exist. Tests of a package may import that
 * same package's own sources.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const SKIP = new Set(['node_modules', 'dist', 'data', 'coverage']);

/** Every relative module specifier of a source text: static, side-effect, re-export and dynamic imports. */
export function relativeSpecifiers(text: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const re of patterns) for (const m of text.matchAll(re)) if (m[1]!.startsWith('.')) found.push(m[1]!);
  return found;
}

/** `packages/<name>` or `apps/<name>` holding a repository path, if any. */
function packageOf(path: string): string | undefined {
  const m = /^(packages|apps)\/([^/]+)\//.exec(path);
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/**
 * Why importing `specifier` from the file at repository path `from` reaches into another
 * package's sources, or null when it does not.
 */
export function crossing(from: string, specifier: string): string | null {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  const owner = packageOf(target);
  if (!owner || !target.startsWith(`${owner}/src/`)) return null;
  if (packageOf(from) === owner) return null;
  return `${from} imports ${specifier} (${target}); import @bank-checkout/${owner.split('/')[1]} by name instead`;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(relative(root, p).split(sep).join('/'));
  }
  return out;
}

function checkedFiles(): string[] {
  const dirs = ['test', 'bench'];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group))) {
      for (const sub of ['src', 'test']) {
        const d = join(group, name, sub);
        try {
          if (statSync(join(root, d)).isDirectory()) dirs.push(d);
        } catch {
          /* a package without tests */
        }
      }
    }
  }
  return dirs.flatMap((d) => walk(join(root, d)));
}

describe('imports between packages', () => {
  it('finds the relative specifiers of every kind of import', () => {
    // `P/` stands for `../../packages/`, so that this file does not import what it describes.
    const text = [
      "import { a } from 'P/bff/src/index.js';",
      "import type { B } from '../x.js';",
      "import 'P/elements/src/index.js';",
      "export { c } from './c.js';",
      "const d = await import('../d.js');",
      "import { e } from '@bank-checkout/sandbox/testing';",
      "import { f } from 'node:fs';",
    ]
      .join('\n')
      .replaceAll('P/', '../../packages/');
    assert.deepEqual(relativeSpecifiers(text).sort(), ['../../packages/bff/src/index.js', '../../packages/elements/src/index.js', '../d.js', '../x.js', './c.js']);
  });

  it("tells another package's sources from a package's own and from test helpers", () => {
    assert.match(crossing('test/security/rig.ts', '../../packages/bff/src/index.js')!, /@bank-checkout\/bff/);
    assert.match(crossing('packages/bff/test/flow.ts', '../../sandbox/src/native/catalogue.js')!, /@bank-checkout\/sandbox/);
    assert.match(crossing('apps/demo/test/demo.test.ts', '../../../packages/contract/src/index.js')!, /@bank-checkout\/contract/);
    assert.equal(crossing('packages/bff/test/flow.ts', '../src/app.js'), null);
    assert.equal(crossing('packages/sandbox/src/native/index.ts', '../context.js'), null);
    assert.equal(crossing('test/faults/support.ts', '../../packages/bff/test/harness.js'), null);
    assert.equal(crossing('bench/lib/size.ts', '../../vite.config.js'), null);
  });

  it("no test, benchmark, app or package imports another package's sources by relative path", () => {
    const files = checkedFiles();
    assert.ok(files.some((f) => f.startsWith('test/')) && files.some((f) => f.startsWith('packages/')), 'the walk found the repository');
    const problems = files.flatMap((f) => relativeSpecifiers(readFileSync(join(root, f), 'utf8')).flatMap((s) => crossing(f, s) ?? []));
    assert.deepEqual(problems, []);
  });
});
