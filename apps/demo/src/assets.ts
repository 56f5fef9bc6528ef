/**
 * The shop's browser code, bundled in memory with esbuild when the server starts (about a
 * tenth of a second): the elements (`@bank-checkout/elements`), the console's live feed, the
 * checkout page's glue and the two embedding examples. Chunks are shared (`splitting`), so a
 * page that loads several entries still runs one copy of Lit and registers each tag once.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** Entry points, served as `/assets/<name>.js`. */
export const ENTRIES = {
  elements: here('./browser/elements.ts'),
  frame: here('./browser/frame.ts'),
  checkout: here('./browser/checkout.ts'),
  'checkout-inline': here('./browser/checkout-inline.ts'),
  console: here('./browser/console.ts'),
  'plain-example': here('./browser/plain-example.ts'),
  'react-example': here('./browser/react-example.ts'),
} as const;

/** Files served as they are. */
const STATIC: Record<string, { file: string; type: string }> = {
  'demo.css': { file: here('./browser/demo.css'), type: 'text/css; charset=utf-8' },
  'favicon.svg': { file: here('./browser/favicon.svg'), type: 'image/svg+xml' },
};

export interface Asset {
  body: Uint8Array;
  type: string;
}

export interface Assets {
  files: Map<string, Asset>;
  /**
   * By entry (`checkout`, …): the chunks it imports, directly or through each other, as names
   * under /assets/. A page preloads them with the entry (`<link rel="modulepreload">`), so the
   * browser fetches them at once instead of after the entry.
   */
  imports: Map<string, string[]>;
}

export async function buildAssets(opts: { minify?: boolean } = {}): Promise<Assets> {
  const assets = new Map<string, Asset>();
  const result = await build({
    entryPoints: ENTRIES,
    bundle: true,
    format: 'esm',
    splitting: true,
    write: false,
    outdir: '/assets',
    chunkNames: 'chunks/[name]-[hash]',
    minify: opts.minify ?? true,
    target: 'es2022',
    platform: 'browser',
    // The kit's packages from their TypeScript sources (their `bank-checkout-source` export).
    conditions: ['bank-checkout-source'],
    legalComments: 'none',
    logLevel: 'silent',
    // The kit's decorators are TypeScript's legacy ones.
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
  });
  const name = (path: string) => path.replace(/^.*?\/?assets\//, '');
  for (const f of result.outputFiles) {
    assets.set(name(f.path), { body: f.contents, type: 'text/javascript; charset=utf-8' });
  }
  const outputs = result.metafile.outputs;
  const imports = new Map<string, string[]>();
  for (const entry of Object.keys(ENTRIES)) {
    const seen = new Set<string>();
    const visit = (path: string) => {
      for (const i of outputs[path]?.imports ?? []) {
        if (i.kind === 'import-statement' && !seen.has(i.path)) {
          seen.add(i.path);
          visit(i.path);
        }
      }
    };
    const out = Object.keys(outputs).find((p) => name(p) === `${entry}.js`);
    if (out) visit(out);
    imports.set(entry, [...seen].map(name));
  }
  await Promise.all(
    Object.entries(STATIC).map(async ([name, { file, type }]) => {
      assets.set(name, { body: new Uint8Array(await readFile(file)), type });
    }),
  );
  return { files: assets, imports };
}
