/**
 * The merchant's cancel: POST /v1/checkouts/{id}/cancel ends an open checkout for good with the
 * one terminal webhook event of its ending, frees its reference for a new checkout (the changed
 * cart), answers a cancelled checkout as it is, and refuses one that ended otherwise, one left
 * `unknown` and one whose call is with the bank, changing nothing.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createMerchantClient, MerchantApiError } from '../src/merchant-client.js';
import { BFF_HOST, MERCHANT_SECRET, createHarness, view, type Harness } from './harness.js';
import { walk } from './flow.js';

describe("the merchant's cancel", () => {
  let h: Harness;
  before(async () => {
    h = await createHarness({ MERCHANT_WEBHOOK_URL: 'http://merchant.test/hook', MERCHANT_WEBHOOK_SECRET: 'webhook-secret-0123456789' });
  });
  after(() => h.close());

  const eventsOf = async (id: string) =>
    (await h.bff.parts.store.listEvents({ limit: 500 }))
      .filter((e) => (e.data as { checkoutId?: string }).checkoutId === id)
      .map((e) => ({ type: e.type, ...pick(e.data as { state: string; previousState: string; source: string }) }));
  const cancel = (id: string) => h.merchant(`/v1/checkouts/${id}/cancel`, { method: 'POST' });
  const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;
  /** A checkout moved to `state` as the engine would have left it. */
  async function inState(state: 'unknown' | 'failed' | 'succeeded', internal = {}) {
    const c = await h.createCheckout();
    const rec = (await h.bff.parts.store.getCheckout(c.id))!;
    await h.bff.parts.store.updateCheckout(c.id, rec.version, { state, error: null, internal: { ...rec.internal, ...internal } });
    return c;
  }

  it('cancels an open checkout mid-payment: one terminal event (cancelled, by the merchant), the payer sees it and cannot start over', async () => {
    const c = await h.createCheckout();
    const mid = await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
    assert.equal(mid.state, 'select-account');
    const res = await cancel(c.id);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { state: string; actions: string[]; expiresAt: string };
    assert.equal(body.state, 'cancelled');
    assert.deepEqual(body.actions, [], 'nothing left to do, a restart included');
    assert.equal(body.expiresAt, new Date(h.clock.now).toISOString());
    assert.deepEqual(await eventsOf(c.id), [{ type: 'checkout.updated', state: 'cancelled', previousState: 'select-account', source: 'merchant' }]);
    // The bank session is dropped with the ending.
    assert.equal((await h.bff.parts.store.getCheckout(c.id))!.internal.sessionId, undefined);
    const payer = await view(await h.checkout(c.clientSecret, '/v1/checkout'));
    assert.equal(payer.state, 'cancelled');
    assert.equal(payer.error?.code, 'cancelled');
    assert.deepEqual(payer.actions, []);
    h.clock.advance(1000);
    const restart = await h.checkout(c.clientSecret, '/v1/checkout/restart', {});
    assert.equal(restart.status, 409);
    assert.equal(await codeOf(restart), 'checkout_finished');
    assert.equal((await h.bff.parts.store.getCheckout(c.id))!.state, 'cancelled');
  });

  it('is safe to repeat: a cancelled checkout is answered as it is, with no second event', async () => {
    const c = await h.createCheckout();
    assert.equal((await cancel(c.id)).status, 200);
    const version = (await h.bff.parts.store.getCheckout(c.id))!.version;
    h.clock.advance(1000);
    const again = await cancel(c.id);
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as { state: string }).state, 'cancelled');
    assert.equal((await h.bff.parts.store.getCheckout(c.id))!.version, version, 'nothing written');
    assert.equal((await eventsOf(c.id)).length, 1);
  });

  it('ends for good a checkout the payer cancelled (who could start it over), with no second event', async () => {
    const c = await h.createCheckout();
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout/cancel', {}))).actions.includes('restart'), true);
    assert.deepEqual(
      (await eventsOf(c.id)).map((e) => e.source),
      ['native'],
    );
    const res = await cancel(c.id);
    assert.equal(res.status, 200);
    assert.deepEqual(((await res.json()) as { actions: string[] }).actions, []);
    assert.equal((await eventsOf(c.id)).length, 1, 'the ending was already told');
    assert.equal((await h.checkout(c.clientSecret, '/v1/checkout/restart', {})).status, 409);
  });

  it('frees the reference: the changed cart gets a new checkout for the same order, and the old page stays cancelled', async () => {
    const reference = `ORD-CART-${Date.now()}`;
    const first = await h.createCheckout({ reference, amount: 1000 });
    const held = await h.merchant('/v1/checkouts', { body: { amount: 1200, subject: 'Order (changed)', reference } });
    assert.equal(held.status, 409);
    assert.equal(await codeOf(held), 'reference_in_use');
    assert.equal((await cancel(first.id)).status, 200);
    const second = await h.createCheckout({ reference, amount: 1200, subject: 'Order (changed)' });
    assert.notEqual(second.id, first.id);
    assert.equal((await view(await h.checkout(second.clientSecret, '/v1/checkout'))).amount, 1200);
    assert.equal((await view(await h.checkout(first.clientSecret, '/v1/checkout'))).state, 'cancelled');
    // The old checkout cannot come back while the new one holds the reference, nor after.
    assert.equal((await h.checkout(first.clientSecret, '/v1/checkout/restart', {})).status, 409);
  });

  it('refuses a checkout that ended otherwise (409 checkout_finished) or is unknown (409 invalid_state), changing nothing', async () => {
    for (const [state, code] of [
      ['succeeded', 'checkout_finished'],
      ['failed', 'checkout_finished'],
      ['unknown', 'invalid_state'],
    ] as const) {
      const c = await inState(state);
      const before = (await h.bff.parts.store.getCheckout(c.id))!;
      const res = await cancel(c.id);
      assert.equal(res.status, 409, state);
      assert.equal(await codeOf(res), code, state);
      assert.deepEqual(await h.bff.parts.store.getCheckout(c.id), before, `${state}: nothing written`);
      assert.equal((await eventsOf(c.id)).length, 0);
    }
    // Past its expiry (not yet swept): it expired, it is not cancelled.
    const late = await h.createCheckout();
    h.clock.advance(31 * 60_000);
    const res = await cancel(late.id);
    assert.equal(res.status, 409);
    assert.equal(await codeOf(res), 'checkout_finished');
    assert.deepEqual(
      (await eventsOf(late.id)).map((e) => [e.state, e.source]),
      [['expired', 'time']],
    );
  });

  it('refuses (409 checkout_busy) while a call is with the bank, and cancels once it is done', async () => {
    const c = await h.createCheckout();
    const rec = (await h.bff.parts.store.getCheckout(c.id))!;
    const busy = { op: 'transfer', since: h.clock.now, until: h.clock.now + 10_000, holder: 'bff_other' };
    await h.bff.parts.store.updateCheckout(c.id, rec.version, { internal: { ...rec.internal, busy } });
    const res = await cancel(c.id);
    assert.equal(res.status, 409);
    assert.equal(await codeOf(res), 'checkout_busy');
    assert.equal((await h.bff.parts.store.getCheckout(c.id))!.state, 'select-bank');
    const held = (await h.bff.parts.store.getCheckout(c.id))!;
    const { busy: _, ...free } = held.internal;
    await h.bff.parts.store.updateCheckout(c.id, held.version, { internal: free });
    assert.equal((await cancel(c.id)).status, 200);
  });

  it("refuses (409 checkout_busy) while the payer's call is with the bank, the lock on disk (transfer) or in memory (login)", async () => {
    /** Holds the upstream call to `path` until released with the answer given. */
    const hold = (path: string) => {
      let release!: (res: Response) => void;
      const gate = new Promise<Response>((r) => (release = r));
      const calls = h.upstreamCalls.length;
      h.override = (p) => (p === path ? gate : undefined);
      const reached = async () => {
        while (!h.upstreamCalls.slice(calls).some((c) => c.endsWith(path))) await new Promise((r) => setImmediate(r));
      };
      return { reached, release };
    };
    const refusal = () => Response.json({ status: 'B101', description: 'refused' }, { status: 400 });

    const c = await h.createCheckout();
    await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
    const transfer = hold('/test/transfer/init');
    const payer = h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: 'AUR-0001' });
    await transfer.reached();
    const res = await cancel(c.id);
    assert.equal(res.status, 409);
    assert.equal(await codeOf(res), 'checkout_busy');
    transfer.release(refusal());
    assert.equal((await view(await payer)).state, 'select-account', "the payer's call ends as the bank said");
    h.override = null;

    const d = await h.createCheckout();
    const login = hold('/test/login');
    const signingIn = walk(h, d.clientSecret, 'aurora', { stopAt: 'select-account' });
    await login.reached();
    const busy = await cancel(d.id);
    assert.equal(busy.status, 409);
    assert.equal(await codeOf(busy), 'checkout_busy');
    login.release(Response.json({ status: 'B100', description: 'wrong credentials' }, { status: 400 }));
    await signingIn.catch(() => undefined);
    h.override = null;
    assert.equal((await cancel(c.id)).status, 200);
    assert.equal((await cancel(d.id)).status, 200);
    assert.deepEqual(
      [...(await eventsOf(c.id)), ...(await eventsOf(d.id))].map((e) => e.source),
      ['merchant', 'merchant'],
    );
  });

  it('answers 404 for an unknown or malformed id and 401 without the secret', async () => {
    assert.equal((await cancel('chk_missing')).status, 404);
    assert.equal((await cancel('not%20an%20id')).status, 404);
    const c = await h.createCheckout();
    const res = await h.bff.request(`${BFF_HOST}/v1/checkouts/${c.id}/cancel`, { method: 'POST' });
    assert.equal(res.status, 401);
    assert.equal((await h.bff.parts.store.getCheckout(c.id))!.state, 'select-bank');
  });

  it('is a call of the typed client, retried safely, and an operation of the OpenAPI document', async () => {
    const client = createMerchantClient({
      url: BFF_HOST,
      secret: MERCHANT_SECRET,
      fetch: ((u: string, i: RequestInit) => h.bff.request(u, i)) as typeof fetch,
    });
    const c = await h.createCheckout();
    assert.equal((await client.cancelCheckout(c.id)).state, 'cancelled');
    assert.equal((await client.cancelCheckout(c.id)).state, 'cancelled');
    const done = await inState('succeeded');
    await assert.rejects(
      client.cancelCheckout(done.id),
      (err: unknown) => err instanceof MerchantApiError && err.status === 409 && err.code === 'checkout_finished',
    );
    const doc = (await (await h.bff.request(`${BFF_HOST}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    const op = doc.paths['/v1/checkouts/{id}/cancel']?.post;
    assert.ok(op, 'documented');
    assert.deepEqual(op.security, [{ merchantBearer: [] }]);
  });
});

/** The fields of an event's data the tests compare. */
function pick(d: { state: string; previousState: string; source: string }) {
  return { state: d.state, previousState: d.previousState, source: d.source };
}
