/**
 * The isolated checkout's proof of possession, in the manner of OAuth DPoP (RFC 9449): the frame
 * signs each call of the checkout API with its key pair (ECDSA P-256, the private half never
 * extractable: frame/keys.ts), so that its frame key is useless to anyone who copies it without
 * that key pair. A proof is a compact JWT (ES256) naming the call's method and address, when it
 * was made, a unique id, and the hash of the frame key it goes with (`ath`; none at redemption).
 *
 * Pure WebCrypto: no library, nothing of it in the merchant's page (only the frame's page
 * imports it).
 */

/** The public half of the key pair, as the proofs' header carries it (public members only). */
export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

const text = new TextEncoder();

/** base64url without padding (RFC 7515), of bytes or of a string's UTF-8. */
export function base64url(data: ArrayBuffer | Uint8Array | string): string {
  const bytes = typeof data === 'string' ? text.encode(data) : data instanceof Uint8Array ? data : new Uint8Array(data);
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url(SHA-256(value)): a frame key's hash as a proof names it (`ath`). */
export async function sha256(value: string): Promise<string> {
  return base64url(await crypto.subtle.digest('SHA-256', text.encode(value)));
}

/** A unique id for one proof (128 random bits). */
const uniqueId = () => base64url(crypto.getRandomValues(new Uint8Array(16)));

export interface Prover {
  /** The public half, as sent. */
  readonly jwk: PublicJwk;
  /**
   * A proof for one call: its method, its address (made absolute, without query or fragment),
   * and the frame key it carries (none at redemption). `now` is the time to state, in ms.
   */
  prove(method: string, url: string, key?: string, now?: number): Promise<string>;
}

/** The prover of a key pair: its public half read once, then a fresh proof per call. */
export async function createProver(pair: CryptoKeyPair): Promise<Prover> {
  const { x, y } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  if (!x || !y) throw new Error('the key pair has no EC public key');
  const jwk: PublicJwk = { kty: 'EC', crv: 'P-256', x, y };
  const header = base64url(JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk }));
  /** The hash of each frame key, made once. */
  const hashes = new Map<string, Promise<string>>();
  return {
    jwk,
    async prove(method, url, key, now = Date.now()) {
      const at = new URL(url, (globalThis as { location?: Location }).location?.href);
      let ath: string | undefined;
      if (key) {
        let hash = hashes.get(key);
        if (!hash) hashes.set(key, (hash = sha256(key)));
        ath = await hash;
      }
      const claims = { jti: uniqueId(), htm: method, htu: `${at.origin}${at.pathname}`, iat: Math.floor(now / 1000), ...(ath ? { ath } : {}) };
      const signed = `${header}.${base64url(JSON.stringify(claims))}`;
      // WebCrypto's ECDSA signature is already the JWS form (r and s, 32 bytes each).
      const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, text.encode(signed));
      return `${signed}.${base64url(signature)}`;
    },
  };
}
