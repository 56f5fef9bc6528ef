/**
 * The checkout and result pages of an order made inline (the cart's `embed=inline`): the whole kit in the
 * shop's page. Kept to show what the isolated mode protects against; not the recommended way.
 */
import '@bank-checkout/elements';
import './checkout-page.js';
