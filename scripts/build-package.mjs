#!/usr/bin/env node
// Builds one package for publishing (its `prepack`), after the workspace packages it depends on:
// TypeScript compiled to JavaScript with `.d.ts` beside it in `dist/`, the licence copied in,
// and for the elements (compiled by scripts/compile-elements.ts) the one-file build and the
// editor data. Usage:
//   node scripts/build-package.mjs <contract|provider|sandbox|bff|elements|create-bank-checkout>…   (none: all)
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const ORDER = ['contract', 'provider', 'sandbox', 'bff', 'elements', 'create-bank-checkout'];
/** The published name: the kit's packages are scoped; the starter, as `npm create` needs, is not. */
const scoped = (name) => (name.startsWith('create-') ? name : `@bank-checkout/${name}`);
const manifest = (name) => JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));

/** The package and the workspace packages it needs, dependencies first. */
function withDependencies(name, seen = new Set()) {
  if (seen.has(name)) return [];
  seen.add(name);
  const deps = Object.keys(manifest(name).dependencies ?? {})
    .filter((d) => d.startsWith('@bank-checkout/'))
    .map((d) => d.slice('@bank-checkout/'.length));
  return [...deps.flatMap((d) => withDependencies(d, seen)), name];
}

function run(cmd, args, cwd = root) {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } });
  if (r.status !== 0) {
    console.error(`build-package: ${cmd} ${args.join(' ')} failed`);
    process.exit(r.status ?? 1);
  }
}

const asked = process.argv.slice(2);
for (const name of asked) if (!ORDER.includes(name)) throw new Error(`unknown package ${name}`);
const names = ORDER.filter((n) => (asked.length ? asked.flatMap((a) => withDependencies(a)) : ORDER).includes(n));

for (const name of names) {
  const dir = join(root, 'packages', name);
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  // The elements: tsc's output with Lit's decorators made vanilla and the templates minified.
  if (name === 'elements') run(process.execPath, ['--import', 'tsx', join(root, 'scripts/compile-elements.ts')]);
  else run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], dir);
  copyFileSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));
  if (name === 'elements') run(process.execPath, ['--import', 'tsx', join(root, 'scripts/build-elements.ts')]);
  console.log(`build-package: ${scoped(name)} built`);
}
