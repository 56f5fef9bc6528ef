/**
 * `@bank-checkout/contract/schemas`: zod schemas of every checkout-API and merchant-API request
 * and response, and the provider signer bodies the merchant API takes. Servers import these;
 * browser code imports the types from the package root instead, so no zod reaches a bundle.
 */
export * from './checkout.js';
export * from './merchant.js';
export * from './links.js';
export * from './primitives.js';
