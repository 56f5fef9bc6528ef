/**
 * The isolated checkout's files, built with esbuild from the kit's sources:
 * - the frame page's modules (`packages/elements/src/frame/page.ts`, written into the page by the
 *   BFF, which loads the whole kit at once, split, with the languages and later steps as chunks),
 *   content-hashed for the BFF to serve with long-lived caching and integrity
 *   (`GET /v1/frame/assets/*`);
 * - the first screen as HTML (`packages/elements/src/frame/first-screen.ts`), a module for the BFF
 *   to run (never sent to a browser), which writes the bank list into the frame's page;
 * - the thin host as one file (`bank-checkout-frame.min.js`: `@bank-checkout/elements/frame`).
 *
 * `npm start` and the journeys build them in memory; `scripts/build-elements.ts` writes them
 * into the package's `dist/` for the published BFF to find.
 */
import { readFile } from 'node:fs/promises';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { minifyTemplates } from './template-minify.js';
import type { FrameBundle } from '../packages/bff/src/frame.js';

const src = (p: string) => new URL(`../packages/elements/src/${p}`, import.meta.url).pathname;

/** The kit's `css` and `html` templates minified, as in the published `dist/` (scripts/template-minify.ts). */
const minifiedTemplates: Plugin = {
  name: 'bank-checkout:minify-templates',
  setup(b) {
    b.onLoad({ filter: /\/packages\/elements\/src\/.*\.ts$/ }, async (args) => ({
      contents: minifyTemplates(await readFile(args.path, 'utf8'), args.path),
      loader: 'ts',
    }));
  },
};

const common: BuildOptions & { write: false } = {
  plugins: [minifiedTemplates],
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

/** The bare name the page's script imports its kit by (the page's import map says where it is). */
export const KIT_SPECIFIER = 'bank-checkout-frame-kit';

/**
 * The frame page's modules, in two builds:
 * - its own script (frame/page.ts: it says `ready`, takes the host's `init` and redeems the
 *   launch token) in one file that imports nothing, for the BFF to write into the page itself,
 *   so that the redemption starts as soon as the page is read; it imports the kit by a bare
 *   name (KIT_SPECIFIER) that the page's import map resolves;
 * - the kit (frame/page-checkout.ts, the whole checkout), split, with the languages and later
 *   steps as chunks, preloaded by the page (the kit and what it imports, largest first).
 */
export async function buildFramePage(): Promise<FrameBundle> {
  const kit = await build({
    ...common,
    entryPoints: { kit: src('frame/page-checkout.ts') },
    splitting: true,
    metafile: true,
    outdir: '/out',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
  });
  const page = await build({
    ...common,
    plugins: [
      minifiedTemplates,
      { name: 'bank-checkout:frame-kit', setup: (b) => b.onResolve({ filter: /\/page-checkout\.js$/ }, () => ({ path: KIT_SPECIFIER, external: true })) },
    ],
    entryPoints: { 'frame-page': src('frame/page.ts') },
    outdir: '/out',
    entryNames: '[name]-[hash]',
  });
  const name = (path: string) => path.replace(/^.*?\/?out\//, '');
  const outputs = (kit.metafile as Metafile).outputs;
  const kitPath = Object.keys(outputs).find((p) => outputs[p]!.entryPoint?.endsWith('frame/page-checkout.ts'))!;
  // The kit and every module it imports (the chunks import each other).
  const preload = [name(kitPath)];
  const visit = (path: string) => {
    for (const i of outputs[path]!.imports)
      if (i.kind === 'import-statement' && !preload.includes(name(i.path))) {
        preload.push(name(i.path));
        visit(i.path);
      }
  };
  visit(kitPath);
  // Largest first: over HTTP/1.1 a browser opens six connections to the BFF, and the largest
  // files, which take the link longest, should not wait for one behind the small ones.
  const bytes = new Map(kit.outputFiles!.map((f) => [name(f.path), f.contents.length]));
  preload.sort((a, b) => bytes.get(b)! - bytes.get(a)!);
  const entry = page.outputFiles![0]!;
  // The first screen as HTML (frame/first-screen.ts), for the BFF to run: one module for Node
  // that imports nothing, its styles minified as the kit's are.
  const first = await build({
    ...common,
    platform: 'node',
    entryPoints: { 'first-screen': src('frame/first-screen.ts') },
    outdir: '/out',
    entryNames: '[name]-[hash]',
  });
  const firstFile = first.outputFiles![0]!;
  return {
    entry: name(entry.path),
    preload,
    imports: { [KIT_SPECIFIER]: name(kitPath) },
    files: [entry, ...kit.outputFiles!].map((f) => ({ name: name(f.path), body: f.contents, type: 'text/javascript; charset=utf-8' })),
    firstScreen: { name: name(firstFile.path), body: firstFile.contents, type: 'text/javascript; charset=utf-8' },
  };
}

/** The thin host in one file (no Lit). */
export async function buildFrameHost(): Promise<Uint8Array> {
  const result = await build({ ...common, entryPoints: [src('frame/frame.ts')], outfile: '/out/bank-checkout-frame.min.js' });
  return result.outputFiles![0]!.contents;
}
