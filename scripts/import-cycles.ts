/**
 * Finds import circles among the repository's TypeScript sources (packages/x/src, apps/x/src):
 * a file that, through its static imports and re-exports, comes back to itself. Dynamic
 * `import()` is left out: a file loaded on demand is a split point, not a circle. Type-only
 * imports are counted only with `types` (`--types`): they vanish from the JavaScript. A test
 * keeps the list of runtime circles empty; `npx tsx scripts/import-cycles.ts [--types]` prints
 * any found.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Every source file under packages/x/src and apps/x/src. */
export function sourceFiles(): string[] {
  return ['packages', 'apps'].flatMap((top) =>
    readdirSync(join(root, top))
      .map((pkg) => join(root, top, pkg, 'src'))
      .filter((d) => existsSync(d))
      .flatMap((d) => sources(d)),
  );
}

/** The relative files a source imports or re-exports statically. */
export function importsOf(file: string, types = false, text = readFileSync(file, 'utf8')): string[] {
  // Comments out first, so an example in a comment is not an import.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const out: string[] = [];
  for (const m of code.matchAll(/(?:^|[;\n])\s*(?:import|export)\s([^'"`;]*?)from\s*['"](\.[^'"]+)['"]|(?:^|[;\n])\s*import\s*['"](\.[^'"]+)['"]/g)) {
    // `import type {…}`, or every name marked `type`: gone from the JavaScript.
    const names = m[1] ?? '';
    if (
      !types &&
      (/^type\s/.test(names) ||
        (/^\{[^}]*\}\s*$/.test(names.trim()) &&
          names
            .replace(/[{}\s]/g, '')
            .split(',')
            .filter(Boolean)
            .every((n) => n.startsWith('type'))))
    )
      continue;
    const spec = (m[2] ?? m[3])!;
    const base = resolve(dirname(file), spec.replace(/\.js$/, ''));
    const hit = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => existsSync(p));
    if (hit) out.push(hit);
  }
  return out;
}

/** Each circle once, as the files along it (relative to the repository), starting at its first file in sort order. */
export function findCycles(types = false, files = sourceFiles()): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f, types)]));
  const cycles = new Map<string, string[]>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const next of graph.get(f) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next)).map((p) => relative(root, p));
        const start = cycle.indexOf([...cycle].sort()[0]!);
        const norm = [...cycle.slice(start), ...cycle.slice(0, start)];
        cycles.set(norm.join(' → '), norm);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of [...graph.keys()].sort()) if (!state.has(f)) visit(f);
  return [...cycles.values()];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const cycles = findCycles(process.argv.includes('--types'));
  for (const c of cycles) console.log(`${[...c, c[0]].join(' → ')}`);
  console.log(`${cycles.length} import circle(s)`);
  process.exit(cycles.length ? 1 : 0);
}
