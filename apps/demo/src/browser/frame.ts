/**
 * `/assets/frame.js`: the isolated checkout's thin host (`@bank-checkout/elements/frame`), served
 * from the shop's own origin. No Lit: the checkout runs in a frame on the BFF's origin.
 */
import '@bank-checkout/elements/frame';
