import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, type Harness } from './harness.js';

type Line = Record<string, unknown>;

describe('request ids at LOG_LEVEL=warn', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness({ LOG_LEVEL: 'warn' });
  });
  after(() => h.close());
  const lines = () => h.logs.map((l) => JSON.parse(l) as Line);

  it('writes no line for a request that went well, and still echoes its id', async () => {
    const before = h.logs.length;
    const res = await h.merchant('/health', { headers: { 'X-Request-Id': 'shop-ok-1' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('X-Request-Id'), 'shop-ok-1');
    assert.equal(res.headers.get('X-Content-Type-Options'), 'nosniff');
    assert.equal(res.headers.get('Cache-Control'), 'no-store');
    assert.deepEqual(h.logs.slice(before), []);
  });

  it("logs a failed request's line at error with its id", async () => {
    h.override = () => new Response('{"broken":', { status: 500 });
    try {
      const res = await h.merchant('/v1/link-banks?country=ES', { headers: { 'X-Request-Id': 'shop-fail-1' } });
      assert.ok(res.status >= 500, `status ${res.status}`);
      assert.equal(res.headers.get('X-Request-Id'), 'shop-fail-1');
      const access = lines().filter((l) => l.event === 'http.request');
      assert.equal(access.length, 1, JSON.stringify(access));
      assert.equal(access[0]!.level, 'error');
      assert.equal(access[0]!.requestId, 'shop-fail-1');
      assert.equal(access[0]!.status, res.status);
    } finally {
      h.override = null;
    }
  });
});
