/**
 * The verifier of the frame's proofs of possession (checkout/proof.ts), on its own: the examples
 * of RFC 9449 that apply to it (an ES256 proof and its key's thumbprint, a proof with an access
 * token's hash), and each way a proof is refused. The proof's JWS is verified by `jose`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, webcrypto } from 'node:crypto';
import { createProofVerifier, jwkThumbprint, keyHashForProof, readJwk, PROOF_MAX_AGE_MS } from '../src/checkout/proof.js';
import { ApiError } from '../src/errors.js';
import { frameKeys } from './frame-proof.js';

/** RFC 9449, section 4.1 (Figure 3): a proof for a token request. */
const RFC_PROOF =
  'eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg';
/** RFC 9449, section 7.1 (Figure 13): a proof for a protected resource, with the access token's hash (`ath`). */
const RFC_RESOURCE_PROOF =
  'eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiJlMWozVl9iS2ljOC1MQUVCIiwiaHRtIjoiR0VUIiwiaHR1IjoiaHR0cHM6Ly9yZXNvdXJjZS5leGFtcGxlLm9yZy9wcm90ZWN0ZWRyZXNvdXJjZSIsImlhdCI6MTU2MjI2MjYxOCwiYXRoIjoiZlVIeU8ycjJaM0RaNTNFc05yV0JiMHhXWG9hTnk1OUlpS0NBcWtzbVFFbyJ9.2oW9RP35yRqzhrtNP86L-Ey71EOptxRimPPToA1plemAgR6pxHF8y6-yqyVnmcw6Fy1dqd-jfxSYoMxhAJpLjA';
/** The access token of Figure 13 (RFC 9449, section 7.1). */
const RFC_ACCESS_TOKEN = 'Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU';
/** The thumbprint of the examples' key (RFC 9449, section 6.1). */
const RFC_JKT = '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I';

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const refused = (why: RegExp) => (err: unknown) => err instanceof ApiError && err.status === 401 && why.test(err.message);

/** A proof signed by a fresh key pair with any header and claims (for the ways a proof goes wrong). */
async function signed(header: Record<string, unknown>, claims: Record<string, unknown>) {
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const { kty, crv, x, y, d } = await webcrypto.subtle.exportKey('jwk', pair.privateKey);
  const jwk = { kty, crv, x, y };
  const h = b64({ typ: 'dpop+jwt', alg: 'ES256', jwk, ...header });
  const p = b64(claims);
  const sig = await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, Buffer.from(`${h}.${p}`));
  return { proof: `${h}.${p}.${Buffer.from(sig).toString('base64url')}`, jwk, d };
}

describe('proofs of possession (DPoP)', () => {
  it("RFC 9449's token-request proof verifies at its time, and its key's thumbprint is the RFC's", async () => {
    const at = 1562262616 * 1000;
    const verifier = createProofVerifier(() => at);
    const { jkt } = await verifier.verify(RFC_PROOF, { method: 'POST', url: 'https://server.example.com/token' });
    assert.equal(jkt, RFC_JKT);
    const jwk = readJwk({ kty: 'EC', x: 'l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs', y: '9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA', crv: 'P-256' })!;
    assert.equal(await jwkThumbprint(jwk), RFC_JKT);
    // Checked against its key's thumbprint, as a bound frame key is.
    await createProofVerifier(() => at).verify(RFC_PROOF, { method: 'POST', url: 'https://server.example.com/token', jkt: RFC_JKT });
    // The same proof, for another call, later, or twice: refused.
    await assert.rejects(
      createProofVerifier(() => at).verify(RFC_PROOF, { method: 'GET', url: 'https://server.example.com/token' }),
      refused(/another method/),
    );
    await assert.rejects(
      createProofVerifier(() => at).verify(RFC_PROOF, { method: 'POST', url: 'https://server.example.com/other' }),
      refused(/another address/),
    );
    await assert.rejects(
      createProofVerifier(() => at + PROOF_MAX_AGE_MS + 1_000).verify(RFC_PROOF, { method: 'POST', url: 'https://server.example.com/token' }),
      refused(/too old/),
    );
    await assert.rejects(verifier.verify(RFC_PROOF, { method: 'POST', url: 'https://server.example.com/token' }), refused(/already used/));
  });

  it("RFC 9449's resource proof verifies with its access token's hash (ath), and not with another token", async () => {
    assert.equal(keyHashForProof(RFC_ACCESS_TOKEN), 'fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo');
    const at = 1562262618 * 1000;
    const check = { method: 'GET', url: 'https://resource.example.org/protectedresource', jkt: RFC_JKT };
    await createProofVerifier(() => at).verify(RFC_RESOURCE_PROOF, { ...check, key: RFC_ACCESS_TOKEN });
    await assert.rejects(createProofVerifier(() => at).verify(RFC_RESOURCE_PROOF, { ...check, key: 'another-token' }), refused(/another key/));
  });

  it('refuses a proof altered in any part, another algorithm, a private or foreign key, and claims that do not hold', async () => {
    const at = 1562262616 * 1000;
    const check = { method: 'POST', url: 'https://server.example.com/token' };
    const verify = (proof: string) => createProofVerifier(() => at).verify(proof, check);
    const [h, p, s] = RFC_PROOF.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    // The payload changed under the signature.
    await assert.rejects(verify(`${h}.${b64({ ...claims, jti: 'another-id-0123456' })}.${s}`), refused(/signature does not verify/));
    // Another algorithm named (the same signature): none, HS256, ES384.
    for (const alg of ['none', 'HS256', 'ES384', 'RS256'])
      await assert.rejects(verify(`${b64({ ...JSON.parse(Buffer.from(h, 'base64url').toString()), alg })}.${p}.${s}`), refused(/ES256/));
    await assert.rejects(verify(`${h}.${p}.`), refused(/compact JWT/));
    await assert.rejects(verify(`${h}.${p}`), refused(/compact JWT/));
    // A key of another kind, or one with its private part.
    const withPrivate = await signed({}, { ...claims, jti: 'private-key-proof-1' });
    await assert.rejects(
      verify(`${b64({ typ: 'dpop+jwt', alg: 'ES256', jwk: { ...withPrivate.jwk, d: withPrivate.d } })}.${withPrivate.proof.split('.').slice(1).join('.')}`),
      refused(/P-256 public key/),
    );
    await assert.rejects(verify((await signed({ jwk: { kty: 'EC', crv: 'P-384', x: 'a', y: 'b' } }, claims)).proof), refused(/P-256 public key/));
    await assert.rejects(verify((await signed({ typ: 'JWT' }, claims)).proof), refused(/dpop\+jwt/));
    // Coordinates of the right length that are no point of the curve: refused, never a 500.
    const offCurve = { kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'B'.repeat(43) };
    await assert.rejects(verify(`${b64({ typ: 'dpop+jwt', alg: 'ES256', jwk: offCurve })}.${p}.${s}`), refused(/P-256 public key/));
    // Claims: an id too short, no time, a time ahead, an expiry passed.
    await assert.rejects(verify((await signed({}, { ...claims, jti: 'short' })).proof), refused(/unique id/));
    await assert.rejects(verify((await signed({}, { ...claims, iat: undefined })).proof), refused(/too old, or from the future/));
    await assert.rejects(verify((await signed({}, { ...claims, iat: (claims.iat as number) + 60 })).proof), refused(/from the future/));
    await assert.rejects(verify((await signed({}, { ...claims, exp: (claims.iat as number) - 60 })).proof), refused(/claims do not hold/));
    // A good one of a fresh key: taken; for a checkout bound to the RFC's key: refused.
    assert.equal((await verify((await signed({}, { ...claims, jti: 'a-fresh-proof-id-1' })).proof)).jkt.length, 43);
    await assert.rejects(
      createProofVerifier(() => at).verify((await signed({}, { ...claims, jti: 'a-fresh-proof-id-2' })).proof, { ...check, jkt: RFC_JKT }),
      refused(/another key than the one this checkout is bound to/),
    );
  });

  it('keeps each id once for all instances (the store), a replay here refused without asking it', async () => {
    const frame = await frameKeys();
    const at = Date.now();
    const kept = new Map<string, number>();
    const asked: string[] = [];
    const store = async (id: string, until: number) => {
      asked.push(id);
      if ((kept.get(id) ?? 0) >= at) return false;
      kept.set(id, until);
      return true;
    };
    const one = createProofVerifier(() => at, store);
    const two = createProofVerifier(() => at, store);
    const proof = await frame.prove('GET', 'https://bff.test/v1/checkout', 'fk_key', at);
    const check = { method: 'GET', url: 'https://bff.test/v1/checkout', key: 'fk_key' };
    await one.verify(proof, check);
    assert.equal(asked.length, 1);
    // Kept as a hash, never the proof's own words, until the end of its window.
    assert.match(asked[0]!, /^[\w-]{43}$/);
    assert.ok(!proof.includes(asked[0]!));
    const iat = (JSON.parse(Buffer.from(proof.split('.')[1]!, 'base64url').toString()) as { iat: number }).iat;
    assert.equal(kept.get(asked[0]!), iat * 1000 + PROOF_MAX_AGE_MS);
    await assert.rejects(two.verify(proof, check), refused(/already used/), 'another instance');
    await assert.rejects(one.verify(proof, check), refused(/already used/), 'this instance');
    assert.equal(asked.length, 2, 'the replay to the first instance was refused from its memory');
    assert.equal(createHash('sha256').update('x').digest('base64url').length, 43);
  });
});
