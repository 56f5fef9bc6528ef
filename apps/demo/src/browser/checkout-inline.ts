/**
 * The checkout and result pages with the checkout inline (`?embed=inline`): the whole kit in the
 * shop's page. Kept to show what the isolated mode protects against; not the recommended way.
 */
import '@bank-checkout/elements';
import './checkout-page.js';
