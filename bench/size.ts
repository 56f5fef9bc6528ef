/**
 * `npm run bench:size`: the size of `<bank-checkout>` as a page loads it — every step element,
 * Lit and @lit/context, the Spanish and English catalogues — built with the library's own vite
 * config, minified, in one file; prints minified and gzip -9 bytes. The whole kit (index, with
 * Catalan too) is printed for reference. Budget: 30 KB gzip for `<bank-checkout>`; exits 1 over it.
 */
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';
import { elementsLibrary } from '../vite.config.js';

const BUDGET_GZIP = 30 * 1024;

async function measure(name: string, entry: string): Promise<{ min: number; gzip: number; zod: boolean }> {
  const out = (await build({ ...elementsLibrary({ entries: { [name]: entry }, write: false }), configFile: false })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const chunks = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
  const code = chunks.map((c) => c.code).join('\n');
  return { min: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length, zod: /\bZodError\b|zod/.test(code) };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const checkout = await measure('bank-checkout', 'bank-checkout/bank-checkout.ts');
const kit = await measure('index', 'index.ts');

console.log(`<bank-checkout> (all steps, es + en): ${kb(checkout.min)} minified, ${kb(checkout.gzip)} gzip -9 (${checkout.gzip} bytes)`);
console.log(`whole kit (index, es + en + ca):      ${kb(kit.min)} minified, ${kb(kit.gzip)} gzip -9 (${kit.gzip} bytes)`);
console.log(`budget: ${kb(BUDGET_GZIP)} gzip for <bank-checkout> → ${checkout.gzip <= BUDGET_GZIP ? 'within' : 'OVER'}`);
if (checkout.zod || kit.zod) console.log('zod found in the bundle: the elements must import only types from the BFF');
process.exit(checkout.gzip <= BUDGET_GZIP && !checkout.zod && !kit.zod ? 0 : 1);
