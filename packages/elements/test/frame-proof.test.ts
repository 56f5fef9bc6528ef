/**
 * The isolated frame's proofs of possession (frame/proof.ts), checked as the BFF checks them
 * (RFC 9449; bff/src/checkout/proof.ts, whose end-to-end journeys take the frame's own): a compact
 * JWT signed with ES256 by a key pair whose private half cannot be read out, its public half in
 * the header (public members only), naming the call's method and address without query, the time
 * in seconds, a unique id, and the frame key's hash.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, webcrypto } from 'node:crypto';
import { base64url, createProver } from '../src/frame/proof.js';

const BFF = 'https://pay.shop.example';
const KEY = 'fk_chk_1.0123456789abcdef0123456789abcdef0123456789a';

const framePair = () => webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']) as Promise<CryptoKeyPair>;
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

/** The proof's parts, once its signature verifies with the public key its header carries. */
async function verified(proof: string): Promise<{ header: Record<string, unknown>; claims: Record<string, unknown> }> {
  const [h, p, s] = proof.split('.') as [string, string, string];
  assert.match(proof, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'compact, base64url without padding');
  const header = decode(h);
  const key = await webcrypto.subtle.importKey('jwk', header.jwk as JsonWebKey, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  const signature = Buffer.from(s, 'base64url');
  assert.equal(signature.length, 64, 'r and s, as JWS has them');
  assert.ok(await webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature, Buffer.from(`${h}.${p}`)), 'the signature verifies');
  return { header, claims: decode(p) };
}

describe("the frame's proofs of possession", () => {
  it('at redemption: its method and address, the time in seconds, a unique id, the public key only', async () => {
    const pair = await framePair();
    await assert.rejects(webcrypto.subtle.exportKey('jwk', pair.privateKey), 'the private half cannot be read out');
    const prover = await createProver(pair);
    const now = Date.parse('2026-11-20T10:00:00.900Z');
    const { header, claims } = await verified(await prover.prove('POST', `${BFF}/v1/frame/launch`, undefined, now));
    assert.deepEqual(header, { typ: 'dpop+jwt', alg: 'ES256', jwk: { kty: 'EC', crv: 'P-256', x: prover.jwk.x, y: prover.jwk.y } });
    assert.match(prover.jwk.x, /^[\w-]{43}$/);
    assert.deepEqual(Object.keys(claims).sort(), ['htm', 'htu', 'iat', 'jti'], 'no key hash at redemption');
    assert.equal(claims.htm, 'POST');
    assert.equal(claims.htu, `${BFF}/v1/frame/launch`);
    assert.equal(claims.iat, Math.floor(now / 1000));
    assert.match(String(claims.jti), /^[\w-]{16,128}$/);
  });

  it('for a call: its address without query or fragment, the frame key’s hash, a new id each time', async () => {
    const prover = await createProver(await framePair());
    const first = await verified(await prover.prove('GET', `${BFF}/v1/checkout?x=1#y`, KEY));
    const second = await verified(await prover.prove('GET', `${BFF}/v1/checkout`, KEY));
    assert.equal(first.claims.htu, `${BFF}/v1/checkout`);
    assert.equal(first.claims.ath, createHash('sha256').update(KEY).digest('base64url'));
    assert.notEqual(first.claims.jti, second.claims.jti);
    assert.equal(base64url(new Uint8Array([251, 255])), '-_8', 'base64url, no padding');
  });
});
