/**
 * The merchant's decision on a checkout left `unknown`: POST /v1/checkouts/{id}/resolve records
 * the outcome the bank confirmed with a note, writes the webhook event with the change, shows on
 * the payer's page, answers the same decision again as is, and refuses anything else.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createMerchantClient } from '../src/merchant-client.js';
import { BFF_HOST, MERCHANT_SECRET, createHarness, view, type Harness } from './harness.js';
import { urlOf } from '../../../test/support/fake-fetch.js';

describe('resolving an unknown checkout', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness({ MERCHANT_WEBHOOK_URL: 'http://merchant.test/hook', MERCHANT_WEBHOOK_SECRET: 'webhook-secret-0123456789' });
  });
  after(() => h.close());

  /** A checkout whose transfer's answer never came (as a timeout leaves it). */
  async function unknownCheckout() {
    const c = await h.createCheckout();
    const rec = (await h.bff.parts.store.getCheckout(c.id))!;
    await h.bff.parts.store.updateCheckout(c.id, rec.version, { state: 'unknown', error: { code: 'unknown', message: 'error.unknown' } });
    return c;
  }
  const eventsOf = async (id: string) =>
    (await h.bff.parts.store.listEvents({ limit: 500 })).filter((e) => (e.data as { checkoutId?: string }).checkoutId === id);
  const resolve = (id: string, body: unknown) => h.merchant(`/v1/checkouts/${id}/resolve`, { body });

  it('records the outcome and the note, writes the webhook event with it, and the payer sees it on the next read', async () => {
    const c = await unknownCheckout();
    const res = await resolve(c.id, { outcome: 'succeeded', note: 'Bank statement of 20 Nov shows the transfer' });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { state: string; resolution: { outcome: string; at: string; note: string } };
    assert.equal(body.state, 'succeeded');
    assert.deepEqual(body.resolution, { outcome: 'succeeded', at: new Date(h.clock.now).toISOString(), note: 'Bank statement of 20 Nov shows the transfer' });
    const events = await eventsOf(c.id);
    assert.equal(events.length, 1);
    assert.deepEqual(
      { state: (events[0]!.data as { state: string }).state, source: (events[0]!.data as { source: string }).source },
      { state: 'succeeded', source: 'merchant' },
    );
    const payer = await view(await h.checkout(c.clientSecret, '/v1/checkout'));
    assert.equal(payer.state, 'succeeded');
    // The merchant's read shows the decision too.
    const read = (await (await h.merchant(`/v1/checkouts/${c.id}`)).json()) as { resolution?: { note?: string } };
    assert.equal(read.resolution?.note, 'Bank statement of 20 Nov shows the transfer');
  });

  it('answers the same decision again as is (no second event); another decision afterwards is 409', async () => {
    const c = await unknownCheckout();
    assert.equal((await resolve(c.id, { outcome: 'failed' })).status, 200);
    const again = await resolve(c.id, { outcome: 'failed', note: 'retried' });
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as { state: string }).state, 'failed');
    assert.equal((await eventsOf(c.id)).length, 1);
    const other = await resolve(c.id, { outcome: 'succeeded' });
    assert.equal(other.status, 409);
    assert.equal(((await other.json()) as { error: { code: string } }).error.code, 'invalid_state');
    assert.equal((await h.bff.parts.store.getCheckout(c.id))?.state, 'failed');
  });

  it('refuses a checkout that is not unknown (409), whatever its state, and changes nothing', async () => {
    const c = await h.createCheckout();
    const res = await resolve(c.id, { outcome: 'succeeded' });
    assert.equal(res.status, 409);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'invalid_state');
    assert.equal((await h.bff.parts.store.getCheckout(c.id))?.state, 'select-bank');
    assert.equal((await eventsOf(c.id)).length, 0);
  });

  it('refuses a bad body with a 4xx and changes nothing', async () => {
    const c = await unknownCheckout();
    for (const body of [
      { outcome: 'maybe' },
      { outcome: 'succeeded', note: 'x'.repeat(501) },
      { outcome: 'succeeded', note: '   ' },
      { outcome: 'failed', extra: 1 },
      {},
    ]) {
      const res = await resolve(c.id, body);
      assert.ok(res.status >= 400 && res.status < 500, `${JSON.stringify(body).slice(0, 40)}: ${res.status}`);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'validation_failed');
    }
    assert.equal((await h.bff.parts.store.getCheckout(c.id))?.state, 'unknown');
    assert.equal((await resolve('chk_nope', { outcome: 'failed' })).status, 404);
  });

  it('is in the OpenAPI document with its body, and in the typed merchant client', async () => {
    const doc = (await (await h.bff.request(`${BFF_HOST}/v1/openapi.json`)).json()) as {
      paths: Record<
        string,
        { post?: { security?: unknown[]; requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } } }
      >;
    };
    const op = doc.paths['/v1/checkouts/{id}/resolve']?.post;
    assert.ok(op?.security?.length, 'bearer');
    assert.deepEqual(Object.keys(op.requestBody!.content['application/json']!.schema.properties ?? {}).sort(), ['note', 'outcome']);
    const c = await unknownCheckout();
    const client = createMerchantClient({
      url: BFF_HOST,
      secret: MERCHANT_SECRET,
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => h.bff.request(urlOf(input), init)) as typeof fetch,
    });
    const out = await client.resolveCheckout(c.id, 'failed', 'The bank refused it');
    assert.equal(out.state, 'failed');
    assert.equal(out.resolution?.note, 'The bank refused it');
  });
});
