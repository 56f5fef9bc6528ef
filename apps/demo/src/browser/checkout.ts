/**
 * The checkout and result pages, isolated (the shop's default): the thin host of
 * `@bank-checkout/elements/frame`, no Lit in the shop's page; the checkout itself runs in a frame
 * on the BFF's origin, where the shop's scripts cannot read what the payer types.
 */
import '@bank-checkout/elements/frame';
import './checkout-page.js';
