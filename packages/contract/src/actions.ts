/**
 * The payer's actions: one per checkout-API call that changes a checkout. A view lists the
 * actions the payer may take now (`actions`), read from the BFF's transition table; the
 * elements offer exactly those.
 */
export const CHECKOUT_ACTIONS = [
  'login',
  'second-login',
  'contract',
  'transfer',
  'validate',
  'cancel',
  'mode',
  'redirect',
  'periodic',
  'back',
  'restart',
] as const;
export type CheckoutAction = (typeof CHECKOUT_ACTIONS)[number];

/** The merchant's actions on a checkout (merchant API). */
export const MERCHANT_ACTIONS = ['create', 'resolve'] as const;
export type MerchantAction = (typeof MERCHANT_ACTIONS)[number];
