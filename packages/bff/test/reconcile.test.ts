/**
 * A payment at the bank's page whose result never reached the BFF (every notification lost, the
 * payer's return never posted): the sweeper asks the provider's order query and the checkout
 * ends as the order did, told once; a result that arrives later changes nothing. An order still
 * pending is asked about again, and given up on past the horizon.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { walkGateway } from '@bank-checkout/sandbox/testing';
import { createHarness, view, type Harness } from './harness.js';

describe('reconciliation of link results with the provider', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness({ RECONCILE_SECONDS: '60', RECONCILE_HORIZON_HOURS: '2' });
  });
  after(() => h.close());

  const browser = (url: string, init?: RequestInit) => h.sandbox.app.request(url, init);

  async function atBankPage() {
    const c = await h.createCheckout({ modes: ['redirect'] });
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout/redirect', {}));
    assert.ok(v.step.state === 'redirect');
    return { c, url: v.step.url };
  }

  it('a paid order whose every notification was lost ends succeeded by the order query, told once; the late notification changes nothing', async () => {
    const { c, url } = await atBankPage();
    h.dropNotifications = true;
    await walkGateway(browser, url, { user: 'demo-user', password: 'demo-password', code: '123456' });
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'redirect', 'no result reached the BFF');
    // Not yet due: asked RECONCILE_SECONDS after the link was signed.
    const queries = () => h.upstreamCalls.filter((x) => x === 'POST /san/info/payment-orders').length;
    const before = queries();
    await h.bff.parts.sweep();
    assert.equal(queries(), before);
    h.clock.advance(61_000);
    await h.bff.parts.sweep();
    assert.equal(queries(), before + 1);
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout'));
    assert.equal(v.state, 'succeeded');
    const told = h.events.filter((e) => e.checkoutId === c.id);
    assert.deepEqual(
      told.map((e) => [e.state, e.source]),
      [['succeeded', 'reconciliation']],
    );
    const m = (await (await h.merchant(`/v1/checkouts/${c.id}`)).json()) as { reconciliation: { codStatus: string; done: string } };
    assert.deepEqual({ codStatus: m.reconciliation.codStatus, done: m.reconciliation.done }, { codStatus: 'OK', done: 'found' });
    // The provider's notification gets through at last: applied to nothing new, told to no one twice.
    h.dropNotifications = false;
    const { notifications } = (await (await h.sandbox.app.request('/__sandbox/notifications')).json()) as {
      notifications: { url: string; status: number | null; dataReturn: string; signatureDataReturn: string }[];
    };
    const lost = notifications.filter((n) => n.url.includes(c.id));
    assert.ok(lost.length >= 1 && lost.every((n) => n.status === 503), 'every attempt was lost');
    const late = await h.bff.request(lost[0]!.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ dataReturn: lost[0]!.dataReturn, signatureDataReturn: lost[0]!.signatureDataReturn }).toString(),
    });
    assert.equal(late.status, 200);
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'succeeded');
    assert.equal(h.events.filter((e) => e.checkoutId === c.id).length, 1);
    // Nothing is asked again once found.
    h.clock.advance(61_000);
    await h.bff.parts.sweep();
    assert.equal(queries(), before + 1);
  });

  it('an order still pending is asked about again, and given up on past the horizon after its expiry', async () => {
    const { c } = await atBankPage();
    const queries = () => h.upstreamCalls.filter((x) => x === 'POST /san/info/payment-orders').length;
    const before = queries();
    h.clock.advance(61_000);
    await h.bff.parts.sweep();
    h.clock.advance(61_000);
    await h.bff.parts.sweep();
    assert.equal(queries(), before + 2, 'asked each round while pending');
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'redirect');
    // Expired (30 minutes and the 15-minute grace), then past the 2-hour horizon: given up on.
    h.clock.advance(46 * 60_000);
    await h.bff.parts.sweep();
    h.clock.advance(2 * 3_600_000 + 61_000);
    await h.bff.parts.sweep();
    const asked = queries();
    h.clock.advance(61_000);
    await h.bff.parts.sweep();
    assert.equal(queries(), asked, 'not asked again');
    const m = (await (await h.merchant(`/v1/checkouts/${c.id}`)).json()) as { state: string; reconciliation: { codStatus?: string; done: string } };
    assert.equal(m.state, 'expired');
    assert.equal(m.reconciliation.done, 'gave-up');
  });
});
