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

  it('needs the client secret', async () => {
    const res = await h.checkout('cs_wrong', '/v1/checkout/start');
    assert.equal(res.status, 401);
    assert.match(res.headers.get('Content-Type') ?? '', /json/);
  });
});
