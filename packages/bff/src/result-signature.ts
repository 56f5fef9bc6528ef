/**
 * Whether a payment-link result (a notification, or the payer's return carrying the same
 * fields) is signed by the provider: HMAC-SHA256 of `dataReturn` with the API key, or with the
 * earlier signer variant's own key when that variant is on.
 */
import { verifyNotification } from '@bank-checkout/provider';
import type { BffConfig } from './config.js';

/** The keys a result may be signed with: the API key, and the earlier variant's when it is on. */
export function resultKeys(provider: BffConfig['provider']): string[] {
  return provider.legacy ? [provider.apiKey, provider.legacy.apiKey] : [provider.apiKey];
}

/** Whether `signature` is the provider's over `dataReturn` (every key is tried: constant work). */
export async function verifiesResult(provider: BffConfig['provider'], dataReturn: string, signature: string): Promise<boolean> {
  let verified = false;
  for (const key of resultKeys(provider)) verified = (await verifyNotification(dataReturn, signature, key)) || verified;
  return verified;
}
