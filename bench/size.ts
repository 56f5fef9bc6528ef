/**
 * `npm run bench:size`: the size of `<bank-checkout>` as a page loads it — every step element,
 * Lit and @lit/context, the Spanish and English catalogues — built with the library's own vite
 * config, minified, in one file; prints minified and gzip -9 bytes. The whole kit (index, with
 * Catalan, Basque and Galician too) is printed for reference. Budget: 26 KB gzip for `<bank-checkout>`; exits 1 over it.
 */
import { BUNDLE_BUDGET_GZIP, kb, measureSizes } from './lib/size.js';

const { checkout, kit } = await measureSizes();
console.log(`<bank-checkout> (es + en; some steps on demand): ${kb(checkout.min)} minified, ${kb(checkout.gzip)} gzip -9 (${checkout.gzip} bytes)`);
console.log(`whole kit (index; ca, eu, gl on demand):${kb(kit.min)} minified, ${kb(kit.gzip)} gzip -9 (${kit.gzip} bytes)`);
console.log(`budget: ${kb(BUNDLE_BUDGET_GZIP)} gzip for <bank-checkout> → ${checkout.gzip <= BUNDLE_BUDGET_GZIP ? 'within' : 'OVER'}`);
if (checkout.zod || kit.zod) console.log('zod found in the bundle: the elements must import only types from the BFF');
process.exit(checkout.gzip <= BUNDLE_BUDGET_GZIP && !checkout.zod && !kit.zod ? 0 : 1);
