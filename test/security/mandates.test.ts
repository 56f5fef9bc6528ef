/**
 * A one-off order is never paid by a mandate: the periodic mode exists only when the merchant
 * asks for it, its subject must fit a mandate, its first payment falls within the merchant's
 * window, and the merchant's view and webhook say `mode: 'periodic'` with the schedule, so a
 * signed mandate can never be read as money received.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckoutView } from '@bank-checkout/contract';
import { createRig, json, type Rig } from './lib/rig.js';
import { payByLink } from './lib/journeys.js';

const DEBTOR = 'ES7921000813610123456789';

describe('periodic payments are mandates, asked for by the merchant', () => {
  let rig: Rig;
  before(async () => {
    rig = await createRig();
  });
  after(() => rig.close());

  const day = (days: number) => new Date(rig.clock.now + days * 86_400_000).toISOString().slice(0, 10);
  const periodicBody = async (secret: string, startDate: string) => {
    const view = await json<CheckoutView>(await rig.checkout(secret, '/v1/checkout/mode', { mode: 'periodic' }));
    const banks = view.step.state === 'periodic' ? view.step.banks : [];
    const bank = banks.find((b) => b.enabled && b.frequencies.includes('Monthly'))!;
    return { bankId: bank.bankId, frequency: 'Monthly', debtorAccount: DEBTOR, startDate };
  };

  it('a checkout made without modes offers no periodic payment', async () => {
    const c = await rig.createCheckout();
    const view = await json<CheckoutView>(await rig.checkout(c.clientSecret, '/v1/checkout'));
    assert.deepEqual(view.modes, ['native', 'redirect']);
    assert.ok(!view.actions.includes('periodic'));
    const switched = await rig.checkout(c.clientSecret, '/v1/checkout/mode', { mode: 'periodic' });
    assert.equal(switched.status, 409);
    const direct = await rig.checkout(c.clientSecret, '/v1/checkout/periodic', { bankId: 'x', frequency: 'Monthly', debtorAccount: DEBTOR, startDate: day(2) });
    assert.equal(direct.status, 409);
    assert.equal((await direct.json()).error.code, 'mode_not_allowed');
  });

  it('refuses at creation a subject that a mandate cannot carry', async () => {
    const res = await rig.merchant('/v1/checkouts', { body: { amount: 990, subject: 'Order #77: shoes', reference: 'MND-1', modes: ['periodic'] } });
    assert.equal(res.status, 422);
    assert.ok((await res.json()).error.issues.some((i: { path: string }) => i.path === 'subject'));
  });

  it('refuses a first payment beyond the window (31 days by default), year 9999 included', async () => {
    const c = await rig.createCheckout({ subject: 'Monthly plan', modes: ['periodic'] });
    for (const startDate of ['9999-12-31', day(40)]) {
      const res = await rig.checkout(c.clientSecret, '/v1/checkout/periodic', await periodicBody(c.clientSecret, startDate));
      assert.equal(res.status, 422, startDate);
      assert.match(JSON.stringify(await res.json()), /startDate/);
    }
    assert.equal((await rig.bff.parts.store.getCheckout(c.id))?.state, 'periodic', 'nothing was signed');
  });

  it('tells the merchant it is a mandate: the view and the webhook carry the mode and the schedule', async () => {
    const c = await rig.createCheckout({ subject: 'Monthly plan', modes: ['periodic'], urlOk: 'https://shop.example/ok' });
    const body = await periodicBody(c.clientSecret, day(3));
    await payByLink(rig, c.clientSecret, { periodic: body });
    const merchantView = await json(await rig.merchant(`/v1/checkouts/${c.id}`));
    assert.equal(merchantView.state, 'succeeded');
    assert.equal(merchantView.mode, 'periodic');
    assert.deepEqual(merchantView.schedule, { frequency: 'Monthly', startDate: body.startDate });
    await rig.bff.parts.webhook.drain();
    const hook = rig.webhooks.map((w) => JSON.parse(w.body)).find((e) => e.type === 'checkout.updated' && e.data.checkoutId === c.id);
    assert.ok(hook, 'a checkout.updated webhook');
    assert.deepEqual([hook.data.state, hook.data.mode, hook.data.schedule], ['succeeded', 'periodic', { frequency: 'Monthly', startDate: body.startDate }]);
  });
});
