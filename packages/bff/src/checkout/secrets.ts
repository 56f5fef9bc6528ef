/**
 * Checkout ids and client secrets. The id carries 128 random bits; the client secret is an
 * HMAC of the id under a key derived from the merchant secret (256 bits), so an idempotent
 * replay can hand the same secret back while the store keeps only its SHA-256.
 */
import * as crypto from 'node:crypto';

const { createHash, createHmac, randomBytes } = crypto;
/** `crypto.hash` (Node 20.12 and later): a digest in one call, without a Hash object. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}

/**
 * A new secret for BFF_MERCHANT_SECRET or MERCHANT_WEBHOOK_SECRET (`npx bank-checkout-bff
 * secret`): 256 random bits in Standard Webhooks' form, `whsec_` and the key in base64.
 */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * HMAC-SHA256, synchronous (node:crypto): a new checkout's client secret and each webhook's
 * signature. WebCrypto imported the key and sent each signature through the thread pool.
 */
export async function hmac(key: string, message: string): Promise<Buffer> {
  return createHmac('sha256', key).update(message).digest();
}

export async function hmacHex(key: string, message: string): Promise<string> {
  return createHmac('sha256', key).update(message).digest('hex');
}

export async function clientSecretFor(merchantSecret: string, checkoutId: string): Promise<string> {
  return `cs_${(await hmac(`checkout-secret:${merchantSecret}`, checkoutId)).toString('base64url')}`;
}

/**
 * SHA-256 in hex. Synchronous (node:crypto, also offered by Bun, Deno and edge runtimes with
 * Node compatibility): it runs on every checkout request, and WebCrypto's digest would send
 * each one through the thread pool.
 */
export async function sha256Hex(text: string): Promise<string> {
  return oneShot ? oneShot('sha256', text, 'hex') : createHash('sha256').update(text).digest('hex');
}

export const hashSecret = sha256Hex;
