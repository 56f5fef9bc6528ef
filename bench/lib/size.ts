/**
 * The size of the elements as a page loads them: an entry built with the library's own vite
 * config, minified, in memory, all its chunks together; minified and gzip -9 bytes.
 */
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';
import { elementsLibrary } from '../../vite.config.js';

/** The budget of `<bank-checkout>` (every step, Lit, @lit/context, es + en), gzip -9. */
export const BUNDLE_BUDGET_GZIP = 26 * 1024;

export interface BundleSize {
  min: number;
  gzip: number;
  /** zod found in the output (the elements must import only types from the BFF). */
  zod: boolean;
}

export async function measureBundle(name: string, entry: string): Promise<BundleSize> {
  const out = (await build({ ...elementsLibrary({ entries: { [name]: entry }, write: false }), configFile: false })) as Rollup.RollupOutput | Rollup.RollupOutput[];
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

/** The budget of the isolated mode's thin host (`@bank-checkout/elements/frame`), gzip -9. */
export const HOST_BUDGET_GZIP = 3 * 1024;

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

export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
