/**
 * What a client behind the limits sees: the IETF draft's RateLimit-Limit, -Remaining and -Reset
 * on every counted answer and on the 429 beside Retry-After; and the one warning logged when
 * requests come through a proxy the BFF does not trust.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, type Harness } from './harness.js';

const limits = (res: Response) => ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((h) => res.headers.get(h));

describe('RateLimit headers', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness({ RATE_LIMIT_PER_MINUTE: '3', MERCHANT_RATE_LIMIT_PER_MINUTE: '2' });
  });
  after(() => h.close());

  it('the checkout API counts down a checkout’s budget, then answers 429 with the headers and Retry-After', async () => {
    const c = await h.createCheckout();
    // 20 s into the minute: the window resets in 40 s.
    h.clock.advance(20_000);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await h.checkout(c.clientSecret, '/v1/checkout'));
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 200, 200, 429],
    );
    assert.deepEqual(answers.map(limits), [
      ['3', '2', '40'],
      ['3', '1', '40'],
      ['3', '0', '40'],
      ['3', '0', '40'],
    ]);
    assert.equal(answers[3]!.headers.get('Retry-After'), '40');
    const preflight = await h.bff.request('http://bff.test/v1/checkout', {
      method: 'OPTIONS',
      headers: { Origin: 'http://127.0.0.1:5173', 'Access-Control-Request-Method': 'GET' },
    });
    assert.match(preflight.headers.get('Access-Control-Expose-Headers') ?? '', /RateLimit-Remaining/i);
  });

  it('the merchant API does the same for each class of call', async () => {
    h.clock.advance(60_000);
    const reads = [await h.merchant('/v1/notifications'), await h.merchant('/v1/notifications'), await h.merchant('/v1/notifications')];
    assert.deepEqual(
      reads.map((r) => r.status),
      [200, 200, 429],
    );
    assert.deepEqual(
      reads.map((r) => limits(r).slice(0, 2)),
      [
        ['2', '1'],
        ['2', '0'],
        ['2', '0'],
      ],
    );
    assert.ok(Number(reads[2]!.headers.get('Retry-After')) > 0);
  });
});

describe('X-Forwarded-For while no proxy is trusted', () => {
  it('logs one warning naming TRUST_PROXY, however many such requests arrive', async () => {
    const h = await createHarness();
    try {
      await h.merchant('/v1/notifications');
      assert.equal(h.logs.filter((l) => l.includes('proxy.not_trusted')).length, 0, 'no warning without the header');
      for (let i = 0; i < 3; i++) await h.merchant('/v1/notifications', { headers: { 'X-Forwarded-For': `203.0.113.${i}` } });
      const warnings = h.logs.filter((l) => l.includes('proxy.not_trusted'));
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /"level":"warn"/);
      assert.match(warnings[0]!, /TRUST_PROXY/);
    } finally {
      await h.close();
    }
  });

  it('logs nothing when a proxy is trusted', async () => {
    const h = await createHarness({ TRUST_PROXY: '1' });
    try {
      await h.merchant('/v1/notifications', { headers: { 'X-Forwarded-For': '203.0.113.7' } });
      assert.equal(h.logs.filter((l) => l.includes('proxy.not_trusted')).length, 0);
    } finally {
      await h.close();
    }
  });
});
