/**
 * A browser's isolated frame, for tests in Node: its key pair (made with WebCrypto, the private
 * half not extractable, as the frame makes it), the proofs of possession it signs for each call
 * (`DPoP`, ES256), and the headers its browser adds to a redemption (`Origin`, `Sec-Fetch-Site`).
 * Frame keys are remembered with the key pair they were bound to, so that a test's call with a
 * frame key carries its proof as the frame's would.
 */
import { createHash, randomBytes, webcrypto } from 'node:crypto';

export interface FrameKeys {
  /** The public half, as sent at redemption. */
  jwk: webcrypto.JsonWebKey;
  /** A proof for one call: its method and address (no query), and the frame key it goes with. */
  prove(method: string, url: string, key?: string, at?: number): Promise<string>;
}

const b64 = (v: Uint8Array | string) => Buffer.from(v).toString('base64url');

/** A new key pair, as a browser's frame makes one. */
export async function frameKeys(): Promise<FrameKeys> {
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const { kty, crv, x, y } = await webcrypto.subtle.exportKey('jwk', pair.publicKey);
  const jwk = { kty, crv, x, y };
  return {
    jwk,
    async prove(method, url, key, at = Date.now()) {
      const header = b64(JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk }));
      const claims = {
        jti: randomBytes(16).toString('base64url'),
        htm: method,
        htu: url,
        iat: Math.floor(at / 1000),
        ...(key ? { ath: createHash('sha256').update(key).digest('base64url') } : {}),
      };
      const payload = b64(JSON.stringify(claims));
      const signature = await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, Buffer.from(`${header}.${payload}`));
      return `${header}.${payload}.${b64(new Uint8Array(signature))}`;
    },
  };
}

/** The key pair each frame key was given to. */
const bound = new Map<string, FrameKeys>();

/** Remembers that `key` was given to the frame holding `keys`. */
export function bind(key: string, keys: FrameKeys): void {
  bound.set(key, keys);
}

/** The key pair a frame key was given to, if a test's frame redeemed it. */
export const keysOf = (key: string): FrameKeys | undefined => bound.get(key);

/**
 * The headers of a call with `secret` as its frame would send them: the proof (`DPoP`) when the
 * secret is a frame key this process redeemed. `at` is the time the proof is made (the BFF's clock).
 */
export async function proofHeaders(secret: string, method: string, url: string, at?: number): Promise<Record<string, string>> {
  const keys = bound.get(secret);
  if (!keys) return {};
  const u = new URL(url);
  return { DPoP: await keys.prove(method, `${u.origin}${u.pathname}`, secret, at) };
}

/** The headers a browser adds to the frame's redemption, at `origin` (the BFF's own). */
export const frameOrigin = (origin: string) => ({ Origin: origin, 'Sec-Fetch-Site': 'same-origin' });

/** `init` with the proof its frame key's frame would add (when the secret is one a test's frame redeemed and no proof is given). */
export async function proved(url: string, init: RequestInit = {}, at?: number): Promise<RequestInit> {
  const given = new Headers(init.headers);
  const secret = given.get('X-Checkout-Secret');
  if (!secret || given.has('DPoP')) return init;
  const proof = await proofHeaders(secret, init.method ?? 'GET', url, at);
  return proof.DPoP ? { ...init, headers: { ...Object.fromEntries(given), ...proof } } : init;
}
