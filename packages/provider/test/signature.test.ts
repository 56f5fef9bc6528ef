import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { base64Decode, base64Encode, decodeDataReturn, encodeDataReturn, signNotification, timingSafeEqual, verifyNotification } from '@bank-checkout/provider';

// Known-answer vector, computed independently with
//   printf %s "$DATA" | openssl dgst -sha256 -hmac sandbox-api-key -hex | … | base64
const KEY = 'sandbox-api-key';
const DATA =
  'eyJzdGF0dXMiOiIyMDAiLCJkZXNjcmlwdGlvbiI6Ik9LIiwidHJhbnNhY3Rpb25JZCI6IlQxIiwiYW1vdW50IjoxMjUwLCJyZWZlcmVuY2UiOiJPUkRFUi0xIiwiZGF0ZUluaXRQYXltZW50IjoxNzY3MjI1NjAwMDAwfQ==';
const SIGNATURE = 'OTQzOTE1MWM5OWVkZjNlMmExMzczZjZkM2JlZjFjNzRlNzBiMjRmOGVhYmEyOWJmNjU4NTE1MWJhNzg0MWVjYw==';
const RAW = Buffer.from(DATA, 'base64').toString('utf8');

/** The spec's steps done with node:crypto: HMAC over the Base64 text, lowercase hex, Base64. */
function reference(dataReturnBase64: string, apiKey: string): string {
  const hex = createHmac('sha256', Buffer.from(apiKey, 'utf8')).update(dataReturnBase64, 'utf8').digest('hex');
  return Buffer.from(hex, 'utf8').toString('base64');
}

describe('signNotification', () => {
  test('known-answer vector (openssl)', async () => {
    assert.equal(await signNotification(DATA, KEY), SIGNATURE);
    assert.equal(reference(DATA, KEY), SIGNATURE, 'the node:crypto reference agrees with openssl');
  });

  test('non-ASCII data and key (ñ, €) match node:crypto', async () => {
    const json = JSON.stringify({
      status: '200',
      description: 'Operación realizada: 12,50 €',
      transactionId: 'T-ñ-2',
      amount: 1250,
      reference: 'PEDIDO-Ñ-1',
      dateInitPayment: 1767225600000,
      customData: '{"tienda":"Añil & Cía","total":"12,50 €"}',
    });
    const b64 = Buffer.from(json, 'utf8').toString('base64');
    for (const key of [KEY, 'clave-señal-€']) {
      const expected = reference(b64, key);
      assert.equal(await signNotification(b64, key), expected);
      assert.equal(await signNotification(json, key), expected, 'raw JSON is taken as its Base64');
      assert.equal(await signNotification(JSON.parse(json), key), expected, 'an object is serialised, then Base64');
      assert.equal(await verifyNotification(b64, expected, key), true);
    }
  });

  test('the signature is Base64 of 64 lowercase hex characters (88 characters)', async () => {
    const sig = await signNotification(DATA, KEY);
    assert.equal(sig.length, 88);
    assert.match(Buffer.from(sig, 'base64').toString('utf8'), /^[0-9a-f]{64}$/);
  });

  test('an empty key is refused', async () => {
    await assert.rejects(signNotification(DATA, ''), TypeError);
  });
});

describe('verifyNotification', () => {
  test('accepts the Base64 form and the raw JSON form of the same data', async () => {
    assert.equal(await verifyNotification(DATA, SIGNATURE, KEY), true);
    assert.equal(await verifyNotification(RAW, SIGNATURE, KEY), true);
    assert.equal(await verifyNotification(DATA, `${SIGNATURE}\n`, KEY), true, 'trailing newline of a form field');
  });

  test('rejects altered data', async () => {
    const altered = Buffer.from(RAW.replace('1250', '1251'), 'utf8').toString('base64');
    assert.equal(await verifyNotification(altered, SIGNATURE, KEY), false);
    assert.equal(await verifyNotification(RAW.replace('1250', '1251'), SIGNATURE, KEY), false);
    assert.equal(await verifyNotification(RAW.replace('{', '{ '), SIGNATURE, KEY), false, 'a re-serialisation is other data');
  });

  test('rejects an altered signature, a wrong key, empty and oversized inputs', async () => {
    const flipped = (SIGNATURE[0] === 'O' ? 'P' : 'O') + SIGNATURE.slice(1);
    assert.equal(await verifyNotification(DATA, flipped, KEY), false);
    assert.equal(await verifyNotification(DATA, SIGNATURE.slice(0, -2), KEY), false);
    assert.equal(await verifyNotification(DATA, SIGNATURE.toLowerCase(), KEY), false);
    assert.equal(await verifyNotification(DATA, SIGNATURE, 'other-key'), false);
    assert.equal(await verifyNotification('', SIGNATURE, KEY), false);
    assert.equal(await verifyNotification(DATA, '', KEY), false);
    assert.equal(await verifyNotification(DATA, SIGNATURE, ''), false);
    assert.equal(await verifyNotification(DATA, SIGNATURE + 'A'.repeat(100_000), KEY), false);
    assert.equal(await verifyNotification(undefined as unknown as string, SIGNATURE, KEY), false);
    assert.equal(await verifyNotification(DATA, 42 as unknown as string, KEY), false);
  });

  test('a signature is checked against what was signed, for any data and key', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 200 }), fc.string({ minLength: 1, maxLength: 40 }), async (text, key) => {
        const b64 = Buffer.from(text, 'utf8').toString('base64');
        const sig = await signNotification(b64, key);
        assert.equal(sig, reference(b64, key));
        assert.equal(await verifyNotification(b64, sig, key), true);
        assert.equal(await verifyNotification(b64, sig, `${key}x`), false);
      }),
      { numRuns: 50 },
    );
  });
});

describe('dataReturn encoding', () => {
  test('decodeDataReturn reads Base64 JSON and raw JSON', () => {
    const expected = { status: '200', description: 'OK', transactionId: 'T1', amount: 1250, reference: 'ORDER-1', dateInitPayment: 1767225600000 };
    assert.deepEqual(decodeDataReturn(DATA), expected);
    assert.deepEqual(decodeDataReturn(`  ${DATA}\n`), expected);
    assert.deepEqual(decodeDataReturn(RAW), expected);
    const text = { reference: 'Ñ-€' };
    assert.deepEqual(decodeDataReturn(Buffer.from(JSON.stringify(text)).toString('base64')), text);
  });

  test('decodeDataReturn gives null for garbage, arrays, non-objects and broken UTF-8', () => {
    const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
    for (const bad of [
      '',
      'not base64 at all!',
      'eyJzdGF0dXMi',
      b64('not json'),
      b64('[1,2,3]'),
      b64('null'),
      b64('"text"'),
      b64('42'),
      b64(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])),
      '[{"status":"200"}]',
      '{"status":',
      'ABC',
    ]) {
      assert.equal(decodeDataReturn(bad), null, JSON.stringify(bad));
    }
  });

  test('encodeDataReturn: object and raw JSON become Base64; Base64 passes through', () => {
    assert.equal(encodeDataReturn(RAW), DATA);
    assert.equal(encodeDataReturn(DATA), DATA);
    assert.equal(encodeDataReturn(JSON.parse(RAW) as object), DATA);
  });

  test('base64Encode and base64Decode round-trip UTF-8, and refuse bad Base64', () => {
    const long = 'ñ€𝄞'.repeat(40_000);
    assert.equal(base64Encode(long), Buffer.from(long, 'utf8').toString('base64'));
    assert.equal(base64Decode(base64Encode(long)), long);
    assert.equal(base64Decode('a=b='), null);
    assert.equal(base64Decode('abc'), null);
  });
});

describe('timingSafeEqual', () => {
  test('equal strings only', () => {
    assert.equal(timingSafeEqual(SIGNATURE, SIGNATURE), true);
    assert.equal(timingSafeEqual('', ''), true);
    assert.equal(timingSafeEqual('ñ€', 'ñ€'), true);
    assert.equal(timingSafeEqual(SIGNATURE, SIGNATURE.slice(0, -1) + 'A'), false);
    assert.equal(timingSafeEqual(SIGNATURE, SIGNATURE.slice(0, -1)), false, 'a prefix');
    assert.equal(timingSafeEqual('', 'a'), false);
    assert.equal(timingSafeEqual('a', ''), false);
    assert.equal(timingSafeEqual('abc', 'abd'), false);
    assert.equal(timingSafeEqual('e\u0301', '\u00e9'), false, 'no Unicode normalisation');
    assert.equal(timingSafeEqual('\uD800', '\uDC00'), false, 'lone surrogates are not alike');
    assert.equal(timingSafeEqual('a\uD800', 'a\uFFFD'), false);
  });

  test('agrees with === on any pair of strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        assert.equal(timingSafeEqual(a, b), a === b);
        assert.equal(timingSafeEqual(a, a), true);
      }),
      { numRuns: 500 },
    );
  });
});
