/**
 * The native steps after the bank list, in one module that `<bank-checkout>` fetches once the
 * checkout is on screen: the login form, the second login, contracts, accounts and validation
 * (with the validation's form, a file of its own for pages that use the kit's elements alone),
 * and what a bank in maintenance offers instead; with them, how `<bank-checkout>` draws those
 * steps (session.ts).
 * One file for the five (they are always needed together) is one request for the page, and for
 * a merchant's bundler of the whole kit one split point instead of five.
 */
import '../bank-login-form/bank-login-form.js';
import '../bank-second-login/bank-second-login.js';
import '../bank-contract-picker/bank-contract-picker.js';
import '../bank-account-picker/bank-account-picker.js';
import '../bank-challenge/bank-challenge.js';
import '../bank-challenge/challenge-form.js';
import '../bank-maintenance/bank-maintenance.js';
export { backTemplate, bankLine, chosen, sessionStep, waitLine } from './session.js';
