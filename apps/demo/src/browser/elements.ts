/**
 * `/assets/elements.js`: every element of the kit, bundled and served from the shop's own
 * origin (so `script-src 'self'` holds). Pages that embed the checkout load this one file.
 */
import '@bank-checkout/elements';
