/**
 * From the desktop to the phone: a single-use, short-lived link that the BFF answers once with
 * a redirect to the checkout's bank page, and that opens nothing else.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, view, BFF_HOST, type Harness } from './harness.js';
import { HANDOFF_TTL_MS } from '../src/checkout/handoff.js';

describe('hand-off to the phone', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());

  const atBank = async () => {
    const c = await h.createCheckout();
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout/redirect', {}));
    assert.ok(v.step.state === 'redirect');
    return { ...c, bankUrl: v.step.url };
  };
  const link = async (secret: string) => {
    const res = await h.checkout(secret, '/v1/checkout/handoff', {});
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as { url: string; expiresAt: string };
  };
  const open = (url: string) => h.bff.request(url, { redirect: 'manual' });

  it("answers the link once with the checkout's bank page, and never logs it", async () => {
    const c = await atBank();
    const l = await link(c.clientSecret);
    assert.ok(l.url.startsWith(`${BFF_HOST}/v1/handoff/${c.id}.`), l.url);
    assert.ok(!l.url.includes(c.clientSecret));
    assert.equal(Date.parse(l.expiresAt), h.clock.now + HANDOFF_TTL_MS);
    const first = await open(l.url);
    assert.equal(first.status, 303);
    assert.equal(first.headers.get('Location'), c.bankUrl);
    assert.equal(first.headers.get('Cache-Control'), 'no-store');
    const again = await open(l.url);
    assert.equal(again.status, 410);
    assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'handoff_expired');
    const token = l.url.split('/').at(-1)!;
    assert.ok(!h.logs.some((line) => line.includes(token.split('.')[1]!)), 'the token is in no log line');
    // The checkout itself goes on: the desktop still reads it.
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'redirect');
  });

  it('opens nothing of the checkout API', async () => {
    const c = await atBank();
    const l = await link(c.clientSecret);
    const token = l.url.split('/').at(-1)!;
    for (const secret of [token, token.split('.')[1]!]) assert.equal((await h.checkout(secret, '/v1/checkout')).status, 401);
  });

  it('expires, is replaced by a newer link, and refuses what is not a link', async () => {
    const c = await atBank();
    const old = await link(c.clientSecret);
    const fresh = await link(c.clientSecret);
    assert.equal((await open(old.url)).status, 404, 'a newer link replaces the old one');
    h.clock.advance(HANDOFF_TTL_MS + 1);
    assert.equal((await open(fresh.url)).status, 410);
    for (const bad of ['x', `${c.id}.short`, `${c.id}.${'A'.repeat(32)}`, `chk_${'a'.repeat(22)}.${'A'.repeat(32)}`, '%00']) {
      const res = await open(`${BFF_HOST}/v1/handoff/${bad}`);
      assert.equal(res.status, 404, bad);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'handoff_invalid');
    }
  });

  it('exists only while the checkout waits at the bank, and ends when the checkout moves on', async () => {
    const c = await h.createCheckout();
    const res = await h.checkout(c.clientSecret, '/v1/checkout/handoff', {});
    assert.equal(res.status, 409);
    const b = await atBank();
    const l = await link(b.clientSecret);
    await view(await h.checkout(b.clientSecret, '/v1/checkout/cancel', {}));
    assert.equal((await open(l.url)).status, 410);
  });
});
