/**
 * The size of the elements as a page loads them: an entry built with the library's own vite
 * config, minified, in memory, all its chunks together; minified and gzip -9 bytes.
 */
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { build as esbuild, type Metafile } from 'esbuild';
import { build, type Rollup } from 'vite';
import { elementsLibrary } from '../../vite.config.js';

/**
 * The budget of `<bank-checkout>` (every step, Lit, @lit/context, es + en), gzip -9: back to 26 KB
 * once the later steps' texts left the built-in catalogues (25.5 KB).
 */
export const BUNDLE_BUDGET_GZIP = 26 * 1024;

export interface BundleSize {
  min: number;
  gzip: number;
  /** zod found in the output (the elements must import only types from the BFF). */
  zod: boolean;
}

export async function measureBundle(name: string, entry: string): Promise<BundleSize> {
  const out = (await build({ ...elementsLibrary({ entries: { [name]: entry }, write: false }), configFile: false })) as
    Rollup.RollupOutput | Rollup.RollupOutput[];
  const chunks = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
  // What a page loads up front: the entry and its static imports. Chunks loaded on demand
  // (the languages other than English and Spanish) are not part of it.
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const loaded = new Set<Rollup.OutputChunk>();
  const visit = (c: Rollup.OutputChunk | undefined) => {
    if (!c || loaded.has(c)) return;
    loaded.add(c);
    for (const name of c.imports) visit(byName.get(name));
  };
  for (const c of chunks) if (c.isEntry) visit(c);
  const code = [...loaded].map((c) => c.code).join('\n');
  return { min: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length, zod: /\bZodError\b|zod/.test(code) };
}

/**
 * The budget of the isolated mode's thin host (`@bank-checkout/elements/frame`) as a page loads
 * it up front, gzip -9: 4 KB, what loads only on a failure (why the frame could not show, its
 * words in five languages, Try again, the developer's console lines) in a chunk of its own (about
 * 3.9 KB up front; 4.7 KB when that was in). 5 KB while it was; 3.5 KB since it redeems launch
 * tokens and reports refused theme values; 3.0 KB before.
 */
export const HOST_BUDGET_GZIP = 4 * 1024;

/**
 * `<bank-checkout>` alone, the whole kit (index: every element, es + en; ca, eu, gl on demand),
 * and the isolated mode's thin host (all it exports).
 */
export async function measureSizes(): Promise<{ checkout: BundleSize; kit: BundleSize; host: BundleSize }> {
  const checkout = await measureBundle('bank-checkout', 'bank-checkout/bank-checkout.ts');
  const kit = await measureBundle('index', 'index.ts');
  const host = await measureBundle('frame', 'frame/frame.ts');
  return { checkout, kit, host };
}

/**
 * The budget of the whole kit as a merchant's bundler builds it from the published package: the
 * entry and its static imports, each file compressed alone with gzip -9 (as the network sends
 * them), summed.
 */
export const KIT_BUDGET_GZIP = 28 * 1024;

const root = new URL('../../', import.meta.url).pathname;

/**
 * `import '@bank-checkout/elements'` (the whole kit: every element registered, en and es built
 * in, ca, eu and gl on demand) as a merchant's bundler makes it: the published package (`dist/`,
 * built as `npm run build` builds it unless `build` is false; the package's exports without the
 * `bank-checkout-source` condition) bundled by esbuild at its defaults with `bundle`, `minify`,
 * `format: 'esm'` and `splitting` (so the languages and the parts loaded on demand become chunks
 * of their own). The figure (`gzip`) is what travels: the entry and each chunk it imports
 * statically, every file compressed alone with gzip -9, summed; chunks only reached by `import()`
 * are left out. `joinedGzip` is the same files joined before compression (what one file would
 * weigh), `chunks` counts the files and `files` gives each one's name and gzip -9 bytes.
 */
export async function measureMerchantKit(
  opts: { build?: boolean } = {},
): Promise<BundleSize & { chunks: number; joinedGzip: number; files: { name: string; gzip: number }[] }> {
  if (opts.build ?? true) {
    execFileSync(process.execPath, [`${root}scripts/build-package.mjs`, 'elements'], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const result = await esbuild({
    entryPoints: ['@bank-checkout/elements'],
    absWorkingDir: root,
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    outdir: '/kit',
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const outputs = (result.metafile as Metafile).outputs;
  // Dynamic imports are entry points too in esbuild's metafile: the kit's is the one nothing imports.
  const imported = new Set(Object.values(outputs).flatMap((o) => o.imports.map((i) => i.path)));
  const entry = Object.keys(outputs).find((path) => outputs[path]!.entryPoint && !imported.has(path));
  if (!entry) throw new Error("the kit entry was not found in esbuild's output");
  const loaded = new Set<string>();
  const visit = (path: string) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    for (const i of outputs[path]!.imports) if (i.kind === 'import-statement') visit(i.path);
  };
  visit(entry);
  const name = (abs: string) => abs.replace(/^.*\/kit\//, '');
  const wanted = new Set([...loaded].map(name));
  const texts = result.outputFiles!.filter((f) => wanted.has(name(f.path)));
  const files = texts.map((f) => ({ name: name(f.path), gzip: gzipSync(f.text, { level: 9 }).length }));
  const code = texts.map((f) => f.text).join('\n');
  return {
    min: Buffer.byteLength(code),
    gzip: files.reduce((sum, f) => sum + f.gzip, 0),
    joinedGzip: gzipSync(code, { level: 9 }).length,
    zod: /\bZodError\b|zod/.test(code),
    chunks: loaded.size,
    files,
  };
}

export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
