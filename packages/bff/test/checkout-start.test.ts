/**
 * `GET /v1/checkout/start`: the first screen in one call. The same view as `GET /v1/checkout`,
 * and the same list as `GET /v1/banks` when the view opens on the native bank list; null when
 * it does not (no bank list is asked of the provider for a redirect or periodic checkout).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, type Harness } from './harness.js';

describe('GET /v1/checkout/start', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());

  it('answers the view and the bank list together when the checkout opens on the list', async () => {
    const { clientSecret } = await h.createCheckout();
    const res = await h.checkout(clientSecret, '/v1/checkout/start');
    assert.equal(res.status, 200);
    const body = (await res.json()) as { view: { state: string; mode: string }; banks: { groups: unknown[] } | null };
    const view = await (await h.checkout(clientSecret, '/v1/checkout')).json();
    const banks = await (await h.checkout(clientSecret, '/v1/banks')).json();
    assert.deepEqual(body.view, view);
    assert.deepEqual(body.banks, banks);
    assert.ok(body.banks && body.banks.groups.length > 0);
  });

  it('gives no list, and asks the provider for none, when the checkout does not open on it', async () => {
    const { clientSecret } = await h.createCheckout({ modes: ['redirect'] });
    const before = h.upstreamCalls.length;
    const res = await h.checkout(clientSecret, '/v1/checkout/start');
    const body = (await res.json()) as { view: { mode: string }; banks: unknown };
    assert.equal(body.view.mode, 'redirect');
    assert.equal(body.banks, null);
    assert.deepEqual(h.upstreamCalls.slice(before), []);
  });

  it('lets the browser keep the bank list and revalidate it: ETag, private no-cache, 304 on a match', async () => {
    const { clientSecret } = await h.createCheckout();
    const first = await h.checkout(clientSecret, '/v1/banks');
    const etag = first.headers.get('ETag');
    assert.match(etag ?? '', /^"[A-Za-z0-9_-]{27}"$/);
    assert.equal(first.headers.get('Cache-Control'), 'private, no-cache');
    const other = await h.createCheckout();
    for (const tag of [etag!, `W/${etag}`, `"stale", ${etag}`, '*']) {
      const again = await h.checkout(other.clientSecret, '/v1/banks', undefined, { 'If-None-Match': tag });
      assert.equal(again.status, 304, tag);
      assert.equal(await again.text(), '');
      assert.equal(again.headers.get('ETag'), etag);
    }
    const changed = await h.checkout(clientSecret, '/v1/banks', undefined, { 'If-None-Match': '"stale"' });
    assert.equal(changed.status, 200);
    assert.deepEqual(await changed.json(), await (await h.checkout(clientSecret, '/v1/banks')).json());
    // The secret is checked before any revalidation.
    assert.equal((await h.checkout('cs_wrong', '/v1/banks', undefined, { 'If-None-Match': etag! })).status, 401);
  });

  it('needs the client secret', async () => {
    const res = await h.checkout('cs_wrong', '/v1/checkout/start');
    assert.equal(res.status, 401);
    assert.match(res.headers.get('Content-Type') ?? '', /json/);
  });
});
