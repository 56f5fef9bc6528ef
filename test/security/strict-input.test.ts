/**
 * Strict input: a typo or a stray byte is refused with a 422 naming the field, before anything
 * is sent to the provider or the bank, instead of being silently dropped or passed on.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckoutView } from '@bank-checkout/contract';
import { testCredentials } from '@bank-checkout/sandbox/testing';
import { createRig, json, type Rig } from './lib/rig.js';
import { bankOf } from './lib/journeys.js';

describe('strict input', () => {
  let rig: Rig;
  before(async () => {
    rig = await createRig({ env: { PROVIDER_LEGACY_VARIANT: 'commerce' } });
  });
  after(() => rig.close());

  /** Sends a merchant body, expects 422 naming `field`, and that nothing went upstream. */
  async function refused(path: string, body: unknown, field: string) {
    const calls = rig.upstream.length;
    const res = await rig.merchant(path, { body });
    const text = await res.text();
    assert.equal(res.status, 422, `${path} ${JSON.stringify(body).slice(0, 80)}: ${text}`);
    assert.ok(
      (JSON.parse(text).error.issues as { path: string }[]).some((i) => i.path === field || i.path.startsWith(field)),
      `${field} named in ${text}`,
    );
    assert.equal(rig.upstream.length, calls, 'nothing sent upstream');
  }

  const link = { amount: 1999, subject: 'Order 1', reference: 'STRICT-1' };

  it('refuses unknown fields on every merchant creation, the earlier variant included', async () => {
    await refused('/v1/links', { ...link, expireMinute: 60 }, 'expireMinute');
    await refused('/v1/legacy/links', { ...link, expireMinutes: 60 }, 'expireMinutes');
    await refused('/v1/legacy/links', { ...link, customRecipient: 'x' }, 'customRecipient');
    await refused('/v1/checkouts', { ...link, expiresInMinute: 5 }, 'expiresInMinute');
  });

  it('refuses empty or blank text, control characters, absurd amounts and URLs with line breaks', async () => {
    await refused('/v1/links', { ...link, subject: '   ' }, 'subject');
    await refused('/v1/checkouts', { ...link, reference: '\t ' }, 'reference');
    await refused('/v1/links', { ...link, subject: 'Order\u0000' }, 'subject');
    await refused('/v1/links', { ...link, amount: 9007199254740991 }, 'amount');
    await refused('/v1/checkouts', { ...link, amount: 100_000_001 }, 'amount');
    await refused('/v1/links', { ...link, urlOk: 'https://shop.example/ok\r\nSet-Cookie: x=1' }, 'urlOk');
    await refused('/v1/checkouts', { ...link, urlOk: 'https://shop.example/o k' }, 'urlOk');
    // Text is trimmed, not refused, when there is something left.
    const ok = await json<Record<string, unknown>>(await rig.merchant('/v1/checkouts', { body: { ...link, subject: '  Order 2  ' } }), 201);
    assert.equal(ok.subject, 'Order 2');
  });

  it('refuses a credential holding a NUL or bytes that were not UTF-8 before it reaches the bank, and the payer keeps every attempt', async () => {
    const c = await rig.createCheckout();
    const bank = await bankOf(rig, c.clientSecret, 'aurora');
    const loginId = bank.defaultLogin;
    const good = testCredentials('aurora', loginId) as Record<string, string>;
    const fields = Object.fromEntries(bank.logins.find((l) => l.loginId === loginId)!.fields.map((f) => [f.fieldId, good[f.fieldId] ?? '']));
    const [first] = Object.keys(fields);
    const before = await json<CheckoutView>(await rig.checkout(c.clientSecret, '/v1/checkout'));
    const calls = rig.upstream.filter((u) => u.url.includes('/login')).length;
    for (const bad of [`${fields[first!]}\u0000`, `${fields[first!]}\uFFFD`, `${fields[first!]}\uD800`]) {
      const res = await rig.checkout(c.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId, fields: { ...fields, [first!]: bad } });
      assert.equal(res.status, 422);
    }
    // Raw bytes that are not UTF-8 in the body.
    const raw = Buffer.concat([Buffer.from(`{"bankId":"aurora","loginId":"${loginId}","fields":{"${first}":"`), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]);
    const bytes = await rig.call('/v1/checkout/login', {
      method: 'POST',
      headers: { 'X-Checkout-Secret': c.clientSecret, 'Content-Type': 'application/json' },
      body: raw,
    });
    assert.equal(bytes.status, 422);
    assert.equal(rig.upstream.filter((u) => u.url.includes('/login')).length, calls, 'the bank saw none of them');
    const after = await json<CheckoutView>(await rig.checkout(c.clientSecret, '/v1/checkout'));
    assert.equal(after.attemptsLeft, before.attemptsLeft);
  });
});
