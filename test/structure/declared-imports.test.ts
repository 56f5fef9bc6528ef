/**
 * Every package a workspace's sources import is declared in its own package.json (dependencies,
 * peer or dev): a workspace that leans on what another one brought into node_modules installs
 * and runs only inside this repository.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const workspaces = ['packages', 'apps'].flatMap((d) => readdirSync(join(root, d)).map((w) => join(root, d, w)));

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts)$/.test(name) ? [path] : [];
  });
}

/** The package a bare specifier names (`@scope/name` or `name`), or null for a relative or built-in one. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The specifiers a file imports: static imports and exports at the start of a line, and dynamic imports. */
function specifiers(text: string): string[] {
  const found = [
    ...text.matchAll(/^(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?'([^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ];
  return found.map((m) => m[1]!);
}

describe('declared imports', () => {
  for (const dir of workspaces) {
    const src = join(dir, 'src');
    if (!statSync(join(dir, 'package.json'), { throwIfNoEntry: false }) || !statSync(src, { throwIfNoEntry: false })) continue;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | string | undefined>;
    const declared = new Set([
      pkg.name as string,
      ...['dependencies', 'peerDependencies', 'devDependencies', 'optionalDependencies'].flatMap((k) =>
        Object.keys((pkg[k] as Record<string, string> | undefined) ?? {}),
      ),
    ]);
    it(`${relative(root, dir)}: its sources import only what its package.json declares`, () => {
      const missing = new Set<string>();
      for (const file of sources(src))
        for (const s of specifiers(readFileSync(file, 'utf8'))) {
          const name = packageOf(s);
          if (name && !declared.has(name)) missing.add(`${name} (${relative(root, file)})`);
        }
      assert.deepEqual([...missing], []);
    });
  }
});
