/**
 * The isolated checkout's files, built with esbuild from the kit's sources:
 * - the frame page's modules (`packages/elements/src/frame/page.ts`, which loads the whole kit at
 *   once, split, with the languages and later steps as chunks), content-hashed for the BFF to serve with
 *   long-lived caching and integrity (`GET /v1/frame/assets/*`);
 * - the thin host as one file (`bank-checkout-frame.min.js`: `@bank-checkout/elements/frame`).
 *
 * `npm start` and the journeys build them in memory; `scripts/build-elements.ts` writes them
 * into the package's `dist/` for the published BFF to find.
 */
import { build, type BuildOptions, type Metafile } from 'esbuild';
import type { FrameBundle } from '../packages/bff/src/frame.js';

const src = (p: string) => new URL(`../packages/elements/src/${p}`, import.meta.url).pathname;

const common: BuildOptions & { write: false } = {
  bundle: true,
  format: 'esm',
  write: false,
  minify: true,
  target: 'es2022',
  platform: 'browser',
  conditions: ['bank-checkout-source'],
  legalComments: 'none',
  logLevel: 'silent',
  // The kit's decorators are TypeScript's legacy ones.
  tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
};

/** The frame page's modules: its entry, the chunks the entry imports (to preload), every file. */
export async function buildFramePage(): Promise<FrameBundle> {
  const result = await build({
    ...common,
    entryPoints: { 'frame-page': src('frame/page.ts') },
    splitting: true,
    metafile: true,
    outdir: '/out',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
  });
  const name = (path: string) => path.replace(/^.*?\/?out\//, '');
  const outputs = (result.metafile as Metafile).outputs;
  // Dynamic imports are entry points too in esbuild's metafile: the page's is the one from
  // page.ts, its kit the one from page-checkout.ts (imported at once by the page).
  const entryOf = (source: string) => Object.keys(outputs).find((p) => outputs[p]!.entryPoint?.endsWith(source))!;
  const entryPath = entryOf('frame/page.ts');
  const kitPath = entryOf('frame/page-checkout.ts');
  // What the page loads up front, in the order it needs it: the modules the page's own script
  // imports, then the kit and every module it imports (the chunks import each other).
  const preload: string[] = [];
  const visit = (path: string) => {
    for (const i of outputs[path]!.imports)
      if (i.kind === 'import-statement' && !preload.includes(name(i.path))) {
        preload.push(name(i.path));
        visit(i.path);
      }
  };
  visit(entryPath);
  preload.push(name(kitPath));
  visit(kitPath);
  return {
    entry: name(entryPath),
    preload,
    files: result.outputFiles!.map((f) => ({ name: name(f.path), body: f.contents, type: 'text/javascript; charset=utf-8' })),
  };
}

/** The thin host in one file (no Lit). */
export async function buildFrameHost(): Promise<Uint8Array> {
  const result = await build({ ...common, entryPoints: [src('frame/frame.ts')], outfile: '/out/bank-checkout-frame.min.js' });
  return result.outputFiles![0]!.contents;
}
