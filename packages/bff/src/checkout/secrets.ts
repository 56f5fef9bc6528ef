/**
 * Checkout ids and client secrets. The id carries 128 random bits; the client secret is an
 * HMAC of the id under a key derived from the merchant secret (256 bits), so an idempotent
 * replay can hand the same secret back while the store keeps only its SHA-256.
 */
import { createHash, randomBytes } from 'node:crypto';

const encoder = new TextEncoder();

function base64url(bytes: ArrayBuffer | Uint8Array): string {
  const arr = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let s = '';
  for (const b of arr) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}

export async function hmac(key: string, message: string): Promise<ArrayBuffer> {
  const k = await crypto.subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return crypto.subtle.sign('HMAC', k, encoder.encode(message));
}

export async function hmacHex(key: string, message: string): Promise<string> {
  return Array.from(new Uint8Array(await hmac(key, message)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function clientSecretFor(merchantSecret: string, checkoutId: string): Promise<string> {
  return `cs_${base64url(await hmac(`checkout-secret:${merchantSecret}`, checkoutId))}`;
}

/**
 * SHA-256 in hex. Synchronous (node:crypto, also offered by Bun, Deno and edge runtimes with
 * Node compatibility): it runs on every checkout request, and WebCrypto's digest would send
 * each one through the thread pool.
 */
export async function sha256Hex(text: string): Promise<string> {
  return createHash('sha256').update(text).digest('hex');
}

export const hashSecret = sha256Hex;
