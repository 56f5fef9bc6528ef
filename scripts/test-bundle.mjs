// Compiles the node test files to JavaScript before `node --test` runs them, so that no test
// process loads a TypeScript loader: with `--import tsx`, each process paid about a second of
// CPU for the loader before its first test, and about another for compiling the packages it
// imports, for each of some ninety files on a two-core machine.
//
// One esbuild build, every test file an entry point, code splitting on: each file becomes one
// module, and what several import (the BFF, the simulator, the test support) becomes shared
// chunks, compiled once. The packages are taken from their TypeScript sources (the
// `bank-checkout-source` condition); every other package stays outside, imported from
// node_modules at run time, as before. `import.meta.url`, `.dirname` and `.filename` are
// replaced by the source file's own, so that a test or a module finds the files beside it.
// Class and function names are kept. Source maps point a failure back at the `.ts` line.
//
// The runner adds the programs that tests start as processes (test/support/cli.mjs: the CLIs,
// and the servers of the socket drills and the browser suites' journeys) as entry points too;
// any other process a test starts runs TypeScript with `--import tsx`.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Where the compiled files go (ignored by git): a folder per run, removed when the run ends. Not
 * under node_modules: from Node 22 on, `node --test` takes its arguments as patterns and skips
 * whatever lies under a node_modules folder.
 */
const CACHE_DIR = '.tmp/bank-checkout-tests';

const ownFile = /\.(ts|mjs|js)$/;

/** Gives each module of the repository its own `import.meta` values, and leaves other packages outside. */
const sourcePlugin = {
  name: 'test-sources',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@bank-checkout/') ? undefined : { path: args.path, external: true }));
    b.onLoad({ filter: ownFile }, async (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      let text = await readFile(args.path, 'utf8');
      if (text.includes('import.meta.')) {
        text = text
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path));
      }
      return { contents: text, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
};

/** A new folder under the test cache named `<prefix>…` (absolute), and how to remove it. */
export function scratchDir(root, prefix) {
  mkdirSync(join(root, CACHE_DIR), { recursive: true });
  const dir = mkdtempSync(join(root, CACHE_DIR, prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Compiles `files` (paths relative to `root`) into a new folder under CACHE_DIR and answers,
 * for each, the compiled file's path relative to `root` (a `.test.ts` becomes a `.test.mjs`
 * at the same place in that folder), and `remove()`, which deletes the folder.
 */
export async function bundleTests(root, files) {
  const { dir: outdir, remove } = scratchDir(root, 'run-');
  try {
    await compile(root, files, outdir);
  } catch (err) {
    remove();
    throw err;
  }
  const at = relative(root, outdir);
  return { compiled: new Map(files.map((f) => [f, join(at, f.replace(/\.ts$/, '.mjs'))])), dir: at, remove };
}

/**
 * Writes `<dir>/<name><suffix>`, a test file that imports the files `members` (paths relative
 * to `root`: compiled ones as `bundleTests` answers them, or browser test sources) one after
 * the other, so that their tests run in one process or page, in that order, loading what they
 * share once; `preamble` comes first.
 */
export function groupTests(root, dir, name, members, suffix = '.test.mjs', preamble = '') {
  const file = join(dir, `${name}${suffix}`);
  const lines = [...(preamble ? [preamble] : []), ...members.map((m) => `import ${JSON.stringify(`./${relative(dir, m)}`)};`)];
  writeFileSync(join(root, file), `${lines.join('\n')}\n`);
  return file;
}

function compile(root, files, outdir) {
  return build({
    absWorkingDir: root,
    entryPoints: files,
    outdir,
    outbase: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['bank-checkout-source'],
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    keepNames: true,
    plugins: [sourcePlugin],
    logLevel: 'error',
  });
}
