/**
 * Result-notification signatures (docs/provider.md, the payment-link service: the signature).
 *
 * How `dataReturn` travels: as the Base64 (standard alphabet, padded) encoding of the UTF-8
 * JSON object. The signature is HMAC-SHA256, keyed with the API key, over those Base64
 * characters exactly as sent; the digest is written as lowercase hex and that hex string is
 * Base64-encoded. A receiver given raw JSON instead takes it "as Base64-encoded" by encoding it
 * first, so both forms verify against the same signature.
 *
 * WebCrypto only, so this runs in Node, Deno, Bun and edge runtimes.
 */

const encoder = new TextEncoder();

export function base64Encode(text: string): string {
  const bytes = encoder.encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Any spelling of Base64 as the standard padded one: line breaks and other whitespace dropped
 * (MIME wraps lines at 76), the URL-safe alphabet (`-`, `_`) mapped back, missing padding added.
 */
export function normalizeBase64(text: string): string {
  const compact = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  const unpadded = compact.replace(/=+$/, '');
  return unpadded.length % 4 === 1 ? compact : unpadded + '='.repeat((4 - (unpadded.length % 4)) % 4);
}

/** The UTF-8 text a Base64 string (any spelling, see normalizeBase64) stands for; null if it is not Base64 of UTF-8. */
export function base64Decode(text: string): string | null {
  const b64 = normalizeBase64(text);
  if (!BASE64.test(b64)) return null;
  try {
    const binary = atob(b64);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function looksLikeJson(value: string): boolean {
  return value.trimStart().startsWith('{');
}

/** The Base64 form of a `dataReturn`, whether it was given as an object, raw JSON or Base64. */
export function encodeDataReturn(data: string | object): string {
  if (typeof data !== 'string') return base64Encode(JSON.stringify(data));
  return looksLikeJson(data) ? base64Encode(data) : data;
}

/** Parses a `dataReturn` given as Base64 JSON or raw JSON; null when it is neither. */
export function decodeDataReturn(data: string): unknown {
  const json = looksLikeJson(data) ? data : base64Decode(data.trim());
  if (json === null) return null;
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

const keyCache = new Map<string, Promise<CryptoKey>>();

function hmacKey(apiKey: string): Promise<CryptoKey> {
  let key = keyCache.get(apiKey);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(apiKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    if (keyCache.size > 16) keyCache.clear();
    keyCache.set(apiKey, key);
  }
  return key;
}

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Signature of a `dataReturn` (object, raw JSON or Base64): Base64(lowercase hex(HMAC-SHA256)). */
export async function signNotification(dataReturn: string | object, apiKey: string): Promise<string> {
  if (!apiKey) throw new TypeError('signNotification: apiKey is required');
  const message = encodeDataReturn(dataReturn);
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(apiKey), encoder.encode(message));
  return base64Encode(toHex(mac));
}

/**
 * Compares two strings in time that depends only on their lengths (a signature's length is
 * public: always 88 characters). UTF-16 code units are compared as they are, so strings that
 * only a UTF-8 encoder would make alike (lone surrogates) stay different.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const other = a.length === b.length ? b : a;
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ other.charCodeAt(i);
  return diff === 0;
}

/**
 * True when `signatureDataReturn` is the signature of `dataReturn` under `apiKey`. The
 * signature covers the characters as the provider sent them; a form post whose `+` arrived as
 * spaces (not percent-encoded) is checked as sent too.
 */
export async function verifyNotification(dataReturn: string, signatureDataReturn: string, apiKey: string): Promise<boolean> {
  if (typeof dataReturn !== 'string' || typeof signatureDataReturn !== 'string' || !apiKey) return false;
  if (!dataReturn || !signatureDataReturn || signatureDataReturn.length > 512) return false;
  const given = signatureDataReturn.trim().replace(/ /g, '+');
  const candidates = dataReturn.includes(' ') && !dataReturn.trimStart().startsWith('{') ? [dataReturn, dataReturn.replace(/ /g, '+')] : [dataReturn];
  let ok = false;
  for (const candidate of candidates) ok = timingSafeEqual(await signNotification(candidate, apiKey), given) || ok;
  return ok;
}
