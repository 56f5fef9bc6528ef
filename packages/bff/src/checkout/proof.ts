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
 *
 * The JWS, the key's import and its thumbprint are `jose`'s (ES256 only); the claims are checked
 * here. The frame signs with a few lines of WebCrypto of its own (elements' frame/proof.ts):
 * `jose`'s signer would add about 4.6 KB gzip to the frame's first screen (5.3 KB against 0.7).
 */
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, errors as jose, importJWK, jwtVerify, type CryptoKey } from 'jose';
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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The public key of a JWK, only if it is exactly an EC P-256 public key (never a private member). */
export function readJwk(v: unknown): ProofJwk | null {
  if (!isObject(v) || v.kty !== 'EC' || v.crv !== 'P-256' || typeof v.x !== 'string' || typeof v.y !== 'string') return null;
  if (!COORD.test(v.x) || !COORD.test(v.y) || 'd' in v) return null;
  return { kty: 'EC', crv: 'P-256', x: v.x, y: v.y };
}

/** The JWK thumbprint (RFC 7638): SHA-256 of its required members in order, base64url. */
export const jwkThumbprint = (jwk: ProofJwk): Promise<string> => calculateJwkThumbprint(jwk, 'sha256');

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

/**
 * Where the ids of accepted proofs are kept for every instance (the store): true when `id` was
 * not seen before (it is then kept until `until`), false when it was.
 */
export type ProofIds = (id: string, until: number) => Promise<boolean>;

const refuse = (why: string) => errors.unauthorized(`Missing or invalid proof of possession (DPoP): ${why}.`);

/** A claim set's or header's JSON, or null when it is none (jose's decoders throw on garbage). */
function decoded<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/**
 * The verifier of proofs (the JWS is verified by `jose`: ES256 only, the key the proof carries):
 * checks each and remembers the ids of those it accepted for as long as they could be accepted (a
 * proof sent twice is refused), in this process first (a replay here costs no write) and in
 * `seenElsewhere`, the store, which every instance shares (a proof seen by one instance is
 * refused by another). Imported keys are kept by thumbprint.
 */
export function createProofVerifier(now: () => number, seenElsewhere?: ProofIds) {
  const seen = new Map<string, number>();
  /** Each public key met, by its coordinates: its thumbprint and the key imported for verifying. */
  const keys = new Map<string, Promise<{ jkt: string; key: CryptoKey }>>();
  let swept = 0;
  const forget = (at: number) => {
    if (at - swept < 10_000 && seen.size < 100_000) return;
    swept = at;
    for (const [jti, until] of seen) if (until < at) seen.delete(jti);
    if (keys.size > 10_000) keys.clear();
  };
  const keyOf = (jwk: ProofJwk) => {
    const coordinates = `${jwk.x}.${jwk.y}`;
    let known = keys.get(coordinates);
    if (!known) {
      known = Promise.all([jwkThumbprint(jwk), importJWK(jwk, 'ES256')]).then(([jkt, key]) => {
        // An EC JWK always imports as a key (bytes are for symmetric ones).
        if (key instanceof Uint8Array) throw new TypeError('not an EC key');
        return { jkt, key };
      });
      // A key that does not import (not a point of the curve) is not kept.
      known.catch(() => keys.delete(coordinates));
      keys.set(coordinates, known);
    }
    return known;
  };

  /** The proof's key thumbprint, once the proof holds for `check`; 401 otherwise. */
  async function verify(proof: string | undefined, check: ProofCheck): Promise<{ jkt: string; jwk: ProofJwk }> {
    if (!proof) throw refuse('none was sent');
    if (proof.length > MAX_PROOF) throw refuse('too long');
    const parts = proof.split('.');
    if (parts.length !== 3 || !parts.every((p) => B64URL.test(p))) throw refuse('not a compact JWT');
    // What the proof says is read first, unverified, and checked before any signature is (each costs an ECDSA verification).
    const header = decoded(() => decodeProtectedHeader(proof));
    if (!isObject(header) || header.typ !== 'dpop+jwt' || header.alg !== 'ES256') throw refuse('not a dpop+jwt signed with ES256');
    const jwk = readJwk(header.jwk);
    if (!jwk) throw refuse('no P-256 public key');
    let known: { jkt: string; key: CryptoKey };
    try {
      known = await keyOf(jwk);
    } catch {
      throw refuse('no P-256 public key');
    }
    const { jkt } = known;
    if (check.jkt !== undefined && jkt !== check.jkt) throw refuse('signed with another key than the one this checkout is bound to');
    const payload = decoded(() => decodeJwt(proof));
    if (!isObject(payload)) throw refuse('no claims');
    const { jti, htm, htu, iat, ath } = payload;
    if (typeof jti !== 'string' || jti.length < 16 || jti.length > 128) throw refuse('no unique id');
    if (htm !== check.method) throw refuse('made for another method');
    if (htu !== check.url) throw refuse('made for another address');
    const at = now();
    if (typeof iat !== 'number' || !Number.isFinite(iat) || iat * 1000 < at - PROOF_MAX_AGE_MS || iat * 1000 > at + PROOF_MAX_AHEAD_MS)
      throw refuse('too old, or from the future');
    if (check.key !== undefined && ath !== keyHashForProof(check.key)) throw refuse('made for another key');
    try {
      // The same bytes, verified: ES256 only, a dpop+jwt, any `exp` or `nbf` it carries respected.
      await jwtVerify(proof, known.key, { algorithms: ['ES256'], typ: 'dpop+jwt', currentDate: new Date(at), clockTolerance: PROOF_MAX_AHEAD_MS / 1000 });
    } catch (err) {
      throw refuse(err instanceof jose.JWSSignatureVerificationFailed ? 'the signature does not verify' : 'its claims do not hold');
    }
    forget(at);
    const id = `${jkt}.${jti}`;
    if (seen.has(id)) throw refuse('already used');
    const until = iat * 1000 + PROOF_MAX_AGE_MS;
    seen.set(id, until);
    // Kept for every instance by a hash (the proof's own text is the frame's, never stored).
    if (seenElsewhere && !(await seenElsewhere(createHash('sha256').update(id).digest('base64url'), until))) throw refuse('already used');
    return { jkt, jwk };
  }

  return { verify };
}

export type ProofVerifier = ReturnType<typeof createProofVerifier>;
