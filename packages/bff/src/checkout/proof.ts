/**
 * Proof of possession for the isolated checkout's frame, in the manner of OAuth DPoP (RFC 9449).
 *
 * The frame makes an ECDSA P-256 key pair that cannot be exported (WebCrypto), keeps it in its
 * origin's IndexedDB, and sends the public half with its redemption of a launch token; the frame
 * key it gets is bound to that public key's thumbprint (RFC 7638). Every call of the checkout API
 * with a frame key then carries a `DPoP` header: a JWT signed with the private key, naming the
 * method and the address of the call, when it was made, a unique id, and the hash of the frame
 * key it goes with. A frame key copied out of the frame is useless without the private key, and a
 * proof seen on the wire is useless for another call, later, or twice.
 *
 * The same key pair lets the same browser resume after a reload, Back or a second tab (its new
 * launch redeemed with the same public key keeps the checkout where it was); no other browser can
 * produce its proofs.
 */
import { createHash, webcrypto } from 'node:crypto';
import { errors } from '../errors.js';

/** An ECDSA P-256 public key as a JWK. */
export interface ProofJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

/** How old a proof may be, and how far ahead of our clock its time may be. */
export const PROOF_MAX_AGE_MS = 60_000;
const PROOF_MAX_AHEAD_MS = 5_000;
/** Proofs longer than this are refused unread. */
const MAX_PROOF = 2_048;
const B64URL = /^[A-Za-z0-9_-]+$/;
const COORD = /^[A-Za-z0-9_-]{43}$/;

const b64 = (s: string) => Buffer.from(s, 'base64url');
const json = (s: string): unknown => {
  try {
    return JSON.parse(b64(s).toString('utf8')) as unknown;
  } catch {
    return null;
  }
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The public key of a JWK, only if it is exactly an EC P-256 public key (never a private member). */
export function readJwk(v: unknown): ProofJwk | null {
  if (!isObject(v) || v.kty !== 'EC' || v.crv !== 'P-256' || typeof v.x !== 'string' || typeof v.y !== 'string') return null;
  if (!COORD.test(v.x) || !COORD.test(v.y) || 'd' in v) return null;
  return { kty: 'EC', crv: 'P-256', x: v.x, y: v.y };
}

/** The JWK thumbprint (RFC 7638): SHA-256 of its required members in order, base64url. */
export function jwkThumbprint(jwk: ProofJwk): string {
  return createHash('sha256').update(`{"crv":"P-256","kty":"EC","x":"${jwk.x}","y":"${jwk.y}"}`).digest('base64url');
}

/** The hash of a frame key that a proof names (`ath`, as an access token's in DPoP). */
export const keyHashForProof = (key: string) => createHash('sha256').update(key).digest('base64url');

export interface ProofCheck {
  method: string;
  /** The call's address without query or fragment. */
  url: string;
  /** The frame key the call carries (its hash must be the proof's `ath`); absent at redemption. */
  key?: string;
  /** The thumbprint the key is bound to (absent at redemption: any key is taken, then bound). */
  jkt?: string;
}

const refuse = (why: string) => errors.unauthorized(`Missing or invalid proof of possession (DPoP): ${why}.`);

/**
 * The verifier of proofs: checks each and remembers the ids of those it accepted for as long as
 * they could be accepted (a proof sent twice is refused). Imported keys are kept by thumbprint.
 */
export function createProofVerifier(now: () => number) {
  const seen = new Map<string, number>();
  const keys = new Map<string, Promise<webcrypto.CryptoKey>>();
  let swept = 0;
  const forget = (at: number) => {
    if (at - swept < 10_000 && seen.size < 100_000) return;
    swept = at;
    for (const [jti, until] of seen) if (until < at) seen.delete(jti);
    if (keys.size > 10_000) keys.clear();
  };
  const importKey = (jkt: string, jwk: ProofJwk) => {
    let key = keys.get(jkt);
    if (!key) {
      key = webcrypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
      keys.set(jkt, key);
    }
    return key;
  };

  /** The proof's key thumbprint, once the proof holds for `check`; 401 otherwise. */
  async function verify(proof: string | undefined, check: ProofCheck): Promise<{ jkt: string; jwk: ProofJwk }> {
    if (!proof) throw refuse('none was sent');
    if (proof.length > MAX_PROOF) throw refuse('too long');
    const parts = proof.split('.');
    if (parts.length !== 3 || !parts.every((p) => B64URL.test(p))) throw refuse('not a compact JWT');
    const [h, p, s] = parts as [string, string, string];
    const header = json(h);
    const payload = json(p);
    if (!isObject(header) || header.typ !== 'dpop+jwt' || header.alg !== 'ES256') throw refuse('not a dpop+jwt signed with ES256');
    const jwk = readJwk(header.jwk);
    if (!jwk) throw refuse('no P-256 public key');
    const jkt = jwkThumbprint(jwk);
    if (check.jkt !== undefined && jkt !== check.jkt) throw refuse('signed with another key than the one this checkout is bound to');
    if (!isObject(payload)) throw refuse('no claims');
    const { jti, htm, htu, iat, ath } = payload;
    if (typeof jti !== 'string' || jti.length < 16 || jti.length > 128) throw refuse('no unique id');
    if (htm !== check.method) throw refuse('made for another method');
    if (htu !== check.url) throw refuse('made for another address');
    const at = now();
    if (typeof iat !== 'number' || !Number.isFinite(iat) || iat * 1000 < at - PROOF_MAX_AGE_MS || iat * 1000 > at + PROOF_MAX_AHEAD_MS)
      throw refuse('too old, or from the future');
    if (check.key !== undefined && ath !== keyHashForProof(check.key)) throw refuse('made for another key');
    const signature = b64(s);
    if (signature.length !== 64) throw refuse('not an ES256 signature');
    const valid = await webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, await importKey(jkt, jwk), signature, Buffer.from(`${h}.${p}`));
    if (!valid) throw refuse('the signature does not verify');
    forget(at);
    const key = `${jkt}.${jti}`;
    if (seen.has(key)) throw refuse('already used');
    seen.set(key, iat * 1000 + PROOF_MAX_AGE_MS);
    return { jkt, jwk };
  }

  return { verify };
}

export type ProofVerifier = ReturnType<typeof createProofVerifier>;
