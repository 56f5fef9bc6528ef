/**
 * What `<bank-checkout>` adds beyond the steps, in one module fetched after the first screen:
 * the phone hand-off (QR code), the other rail (the bank's own page when the in-page flow cannot
 * go on at a bank), and the receipt of a payment. Each element is in its own file.
 */
import '../bank-handoff/bank-handoff.js';
import './rail-offer.js';
import '../bank-result/receipt.js';
