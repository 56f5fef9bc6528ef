/**
 * `npm run bench:size`: the size of `<bank-checkout>` as a page loads it — every step element,
 * Lit and @lit/context, the Spanish and English catalogues — built with the library's own vite
 * config, minified, in one file; prints minified and gzip -9 bytes. The whole kit (index, with
 * Catalan, Basque and Galician too) is printed for reference, and the whole kit as a merchant's
 * bundler makes it from the published package (`import '@bank-checkout/elements'`, esbuild on
 * the built `dist/`; each file gzip -9 alone, summed, as the network sends them). Budgets: 26 KB
 * gzip for `<bank-checkout>`, 28 KB gzip for the merchant's kit; exits 1 over either.
 */
import { BUNDLE_BUDGET_GZIP, KIT_BUDGET_GZIP, kb, measureMerchantKit, measureSizes } from './lib/size.js';

const { checkout, kit } = await measureSizes();
const merchant = await measureMerchantKit();
console.log(`<bank-checkout> (es + en; some steps on demand): ${kb(checkout.min)} minified, ${kb(checkout.gzip)} gzip -9 (${checkout.gzip} bytes)`);
console.log(`whole kit (index; ca, eu, gl on demand):${kb(kit.min)} minified, ${kb(kit.gzip)} gzip -9 (${kit.gzip} bytes)`);
console.log(
  `whole kit, merchant's esbuild on the published dist (${merchant.chunks} files up front): ${kb(merchant.min)} minified, ${kb(merchant.gzip)} gzip -9 per file, summed (${merchant.gzip} bytes; joined before gzip ${kb(merchant.joinedGzip)})`,
);
for (const f of merchant.files) console.log(`  ${f.name.padEnd(28)} ${f.gzip} B gzip -9`);
console.log(`budget: ${kb(BUNDLE_BUDGET_GZIP)} gzip for <bank-checkout> → ${checkout.gzip <= BUNDLE_BUDGET_GZIP ? 'within' : 'OVER'}`);
console.log(`budget: ${kb(KIT_BUDGET_GZIP)} gzip (per-file sum) for the merchant's kit → ${merchant.gzip <= KIT_BUDGET_GZIP ? 'within' : 'OVER'}`);
const zod = checkout.zod || kit.zod || merchant.zod;
if (zod) console.log('zod found in the bundle: the elements must import only types from the BFF');
process.exit(checkout.gzip <= BUNDLE_BUDGET_GZIP && merchant.gzip <= KIT_BUDGET_GZIP && !zod ? 0 : 1);
