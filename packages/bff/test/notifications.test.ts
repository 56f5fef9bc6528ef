import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { encodeDataReturn, signNotification } from '@bank-checkout/provider';
import { createHarness, view, type Harness } from './harness.js';
import { bodyText } from '../../../test/support/fake-fetch.js';

type Json = Record<string, any>;

async function signed(data: Json, key = 'sandbox-api-key') {
  const dataReturn = encodeDataReturn(data);
  return { dataReturn, signatureDataReturn: await signNotification(dataReturn, key) };
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

describe('notifications and returns', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness({ MERCHANT_WEBHOOK_URL: 'http://merchant.test/hook', MERCHANT_WEBHOOK_SECRET: 'webhook-secret-0123456789' });
  });
  after(() => h.close());

  async function redirectCheckout(extra: Json = {}) {
    const c = await h.createCheckout({ urlOk: 'https://shop.example/ok', urlError: 'https://shop.example/ko', ...extra });
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout/redirect', {}));
    assert.equal(v.state, 'redirect');
    assert.ok(v.step.state === 'redirect' && v.step.url.startsWith('http://sandbox.test/'));
    const merchantView = (await (await h.merchant(`/v1/checkouts/${c.id}`)).json()) as Json;
    return { ...c, reference: merchantView.reference as string, amount: merchantView.amount as number };
  }

  const result = (c: { reference: string; amount: number }, status = '200', tx = 'TX-1') => ({
    status,
    description: status === '200' ? 'OK' : 'Error',
    transactionId: tx,
    amount: c.amount,
    reference: c.reference,
    dateInitPayment: h.clock.now,
  });

  it('a result counts only for the payment it was issued for: one begun before the link was signed, or after it ended, moves nothing', async () => {
    const c = await redirectCheckout();
    const signedAt = h.clock.now;
    for (const [at, why] of [
      [signedAt - 10 * 60_000, 'before the link existed'],
      // The link lives 30 minutes, its result is awaited 15 more, and the clocks may be 5 apart.
      [signedAt + 52 * 60_000, 'after the link, its grace and the clocks’ skew ended'],
    ] as const) {
      const n = await signed({ ...result(c, '200', `TX-OUT-${at}`), dateInitPayment: at });
      const res = await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(n));
      assert.equal(res.status, 200, 'stored and acknowledged');
      assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'redirect', why);
    }
    const stored = ((await (await h.merchant('/v1/notifications')).json()) as Json).notifications.filter((x: Json) =>
      String(x.transactionId).startsWith('TX-OUT-'),
    );
    assert.deepEqual(
      stored.map((x: Json) => x.outcome),
      ['unmatched', 'unmatched'],
    );
    // The payment of this link, begun within its time (the provider's clock a minute behind), counts.
    const ok = await signed({ ...result(c, '200', 'TX-IN'), dateInitPayment: signedAt - 60_000 });
    await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(ok));
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'succeeded');
  });

  it('a success replayed after retention is refused: onto a new checkout of the same reference and amount, and as a duplicate of its tombstone', async () => {
    const first = await redirectCheckout({ reference: 'REPLAY-1', amount: 2750 });
    const n = await signed(result(first, '200', 'TX-REPLAY'));
    assert.equal((await h.bff.request(`http://bff.test/v1/notifications/provider?c=${first.id}`, form(n))).status, 200);
    assert.equal((await view(await h.checkout(first.clientSecret, '/v1/checkout'))).state, 'succeeded');
    // Past the notifications' retention (90 days), before the checkouts' (400): the notification is pruned to its tombstone.
    h.clock.advance(120 * 86_400_000);
    const pruned = await h.bff.parts.store.prune(
      {
        events: h.clock.now - 30 * 86_400_000,
        idempotency: h.clock.now - 7 * 86_400_000,
        notifications: h.clock.now - 90 * 86_400_000,
        checkouts: h.clock.now - 400 * 86_400_000,
      },
      {},
    );
    assert.ok(pruned.notifications >= 1);
    const tomb = ((await (await h.merchant('/v1/notifications?limit=200')).json()) as Json).notifications.find((x: Json) => x.transactionId === 'TX-REPLAY');
    assert.equal(tomb.outcome, 'applied', 'the tombstone keeps what it did');
    assert.equal(tomb.dataReturn, undefined);
    // The same signed success again: a duplicate of its tombstone, nothing applied.
    const again = await h.bff.request(`http://bff.test/v1/notifications/provider?c=${first.id}`, form(n));
    assert.equal(((await again.json()) as Json).duplicate, true);
    // A new order under the same reference and amount: the old result is not its payment.
    const second = await redirectCheckout({ reference: 'REPLAY-1', amount: 2750 });
    const replayed = await h.bff.request(`http://bff.test/v1/notifications/provider?c=${second.id}`, form(n));
    assert.equal(replayed.status, 200);
    assert.equal((await view(await h.checkout(second.clientSecret, '/v1/checkout'))).state, 'redirect');
    const returned = await h.bff.request(`http://bff.test/v1/return/ok?c=${second.id}`, form(n));
    assert.equal(returned.status, 303);
    assert.match(returned.headers.get('Location') ?? '', /result=redirect/);
    assert.equal(h.events.filter((e) => e.checkoutId === second.id).length, 0);
    // Once the first checkout itself is pruned, its tombstone goes with it; the time of the old payment still binds it.
    h.clock.advance(400 * 86_400_000);
    await h.bff.parts.store.prune(
      { events: h.clock.now, idempotency: h.clock.now, notifications: h.clock.now - 90 * 86_400_000, checkouts: h.clock.now - 400 * 86_400_000 },
      {},
    );
    assert.equal(await h.bff.parts.store.getCheckout(first.id), null);
    assert.equal(
      ((await (await h.merchant('/v1/notifications?limit=200')).json()) as Json).notifications.filter((x: Json) => x.transactionId === 'TX-REPLAY').length,
      0,
    );
  });

  it('creates the signed URL with the BFF as notification and return target', async () => {
    const c = await redirectCheckout();
    const sent = h.upstreamBodies.filter((b) => b.path === '/san/url/signer').at(-1)!.body as Json;
    assert.equal(sent.amount, c.amount);
    assert.equal(sent.urlNotif, `http://bff.test/v1/notifications/provider?c=${c.id}`);
    assert.equal(sent.urlOk, `http://bff.test/v1/return/ok?c=${c.id}`);
    const again = await view(await h.checkout(c.clientSecret, '/v1/checkout/redirect', {}));
    assert.equal(again.state, 'redirect', 'asking again returns the same URL');
  });

  it('verifies, stores, applies and acknowledges a notification once', async () => {
    const c = await redirectCheckout();
    const n = await signed(result(c));
    const res = await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(n));
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as Json).duplicate, false);
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout'));
    assert.equal(v.state, 'succeeded');
    const dup = await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(n));
    assert.equal(((await dup.json()) as Json).duplicate, true);
    assert.equal(h.events.filter((e) => e.checkoutId === c.id).length, 1);
    const list = (await (await h.merchant('/v1/notifications')).json()) as Json;
    const mine = list.notifications.filter((x: Json) => x.checkoutId === c.id);
    assert.equal(mine.length, 1);
    assert.equal(mine[0].outcome, 'applied');
    assert.equal(mine[0].verified, true);
    assert.equal(mine[0].signature, undefined);
  });

  it('accepts JSON bodies and raw-JSON dataReturn', async () => {
    const c = await redirectCheckout();
    const raw = JSON.stringify(result(c, '200', 'TX-RAW'));
    const res = await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ dataReturn: raw, signatureDataReturn: await signNotification(raw, 'sandbox-api-key') }),
    });
    assert.equal(res.status, 200);
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'succeeded');
  });

  it('rejects tampered, mis-signed, empty and huge notifications with no side effect', async () => {
    const c = await redirectCheckout();
    const before = ((await (await h.merchant('/v1/notifications?limit=200')).json()) as Json).notifications.length;
    const good = await signed(result(c));
    const tampered = encodeDataReturn({ ...result(c), amount: 1 });
    const cases: [RequestInit, number][] = [
      [form({ dataReturn: tampered, signatureDataReturn: good.signatureDataReturn }), 401],
      [form({ dataReturn: good.dataReturn, signatureDataReturn: good.signatureDataReturn.slice(0, -2) + 'xx' }), 401],
      [form(await signed(result(c), 'another-key')), 401],
      [form({ dataReturn: '', signatureDataReturn: '' }), 422],
      [form({ dataReturn: good.dataReturn }), 422],
      [form({ dataReturn: 'x'.repeat(50_000), signatureDataReturn: 'y' }), 413],
      [{ method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'hello' }, 415],
      [{ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"dataReturn":' }, 400],
    ];
    for (const [init, status] of cases) {
      const res = await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, init);
      assert.equal(res.status, status, bodyText(init.body).slice(0, 40));
      assert.ok(((await res.json()) as Json).error.code);
    }
    const after = ((await (await h.merchant('/v1/notifications?limit=200')).json()) as Json).notifications.length;
    assert.equal(after, before);
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'redirect');
  });

  it('moves only forward: a late error never overwrites a success', async () => {
    const c = await redirectCheckout();
    await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(await signed(result(c, 'B103', 'TX-A'))));
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'failed');
    await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(await signed(result(c, '200', 'TX-B'))));
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'succeeded');
    const late = await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(await signed(result(c, 'B103', 'TX-C'))));
    assert.equal(late.status, 200);
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'succeeded');
  });

  it("tells a payment not completed at the bank's page (E300) as such, and a refused code as the code", async () => {
    const left = await redirectCheckout();
    await h.bff.request(`http://bff.test/v1/notifications/provider?c=${left.id}`, form(await signed(result(left, 'E300', 'TX-LEFT'))));
    const l = await view(await h.checkout(left.clientSecret, '/v1/checkout'));
    assert.deepEqual([l.state, l.error], ['failed', { code: 'E300', message: 'error.linkNotCompleted' }]);
    const wrong = await redirectCheckout();
    await h.bff.request(`http://bff.test/v1/notifications/provider?c=${wrong.id}`, form(await signed(result(wrong, 'B103', 'TX-WRONG'))));
    assert.deepEqual((await view(await h.checkout(wrong.clientSecret, '/v1/checkout'))).error, { code: 'B103', message: 'error.B103' });
  });

  it('applies 10 concurrent duplicates exactly once', async () => {
    const c = await redirectCheckout();
    const n = await signed(result(c, '200', 'TX-CONC'));
    const results = await Promise.all(Array.from({ length: 10 }, async () => h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(n))));
    assert.ok(results.every((r) => r.status === 200));
    const dup = await Promise.all(results.map(async (r) => ((await r.json()) as Json).duplicate));
    assert.equal(dup.filter((d) => d === false).length, 1);
    assert.equal(h.events.filter((e) => e.checkoutId === c.id).length, 1);
  });

  it('does not apply a result whose amount or reference differs from the checkout', async () => {
    const c = await redirectCheckout();
    await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(await signed({ ...result(c), amount: c.amount + 1 })));
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'redirect');
  });

  it('turns the payer return into a 303 to the merchant page with the verified outcome', async () => {
    const c = await redirectCheckout();
    const ok = await h.bff.request(`http://bff.test/v1/return/ok?c=${c.id}`, form(await signed(result(c, '200', 'TX-RET'))));
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.get('Location'), `https://shop.example/ok?checkout=${c.id}&result=succeeded`);
    const c2 = await redirectCheckout();
    const bad = await h.bff.request(`http://bff.test/v1/return/error?c=${c2.id}`, form({ dataReturn: 'abc', signatureDataReturn: 'def' }));
    assert.equal(bad.status, 303);
    assert.equal(bad.headers.get('Location'), `https://shop.example/ko?checkout=${c2.id}&result=unverified`);
    assert.equal((await view(await h.checkout(c2.clientSecret, '/v1/checkout'))).state, 'redirect');
    assert.equal((await h.bff.request('http://bff.test/v1/return/ok?c=chk_none', form({}))).status, 404);
  });

  /** The first webhook of a type sent after the first `from` ones (once what is due is delivered). */
  async function webhookOf(type: string, from: number) {
    await h.bff.parts.webhook.drain();
    const hook = h.webhooks.slice(from).find((w) => (JSON.parse(w.body) as Json).type === type);
    assert.ok(hook, `a ${type} webhook`);
    return hook;
  }

  it('tells the merchant of each new notification once, payment links made through the merchant API included', async () => {
    const link = (await (await h.merchant('/v1/links', { body: { amount: 1999, subject: 'Link paid', reference: 'LNK-HOOK-1' } })).json()) as Json;
    assert.ok(link.url, JSON.stringify(link));
    const hooksBefore = h.webhooks.length;
    const told = h.notifications.length;
    const n = await signed({ status: '200', description: 'OK', transactionId: 'TX-LNK', amount: 1999, reference: 'LNK-HOOK-1', dateInitPayment: h.clock.now });
    const first = (await (await h.bff.request('http://bff.test/v1/notifications/provider', form(n))).json()) as Json;
    const again = (await (await h.bff.request('http://bff.test/v1/notifications/provider', form(n))).json()) as Json;
    assert.deepEqual([first.duplicate, again.duplicate], [false, true]);

    // The in-process hook: once, with what the listing shows and nothing of the raw result.
    assert.equal(h.notifications.length, told + 1);
    const event = h.notifications.at(-1)!;
    assert.deepEqual(
      {
        id: event.id,
        status: event.status,
        reference: event.reference,
        amount: event.amount,
        transactionId: event.transactionId,
        outcome: event.outcome,
        checkoutId: event.checkoutId,
        verified: event.verified,
      },
      { id: first.id, status: '200', reference: 'LNK-HOOK-1', amount: 1999, transactionId: 'TX-LNK', outcome: 'unmatched', checkoutId: null, verified: true },
    );
    assert.ok(!('dataReturn' in event) && !('signature' in event) && !('dedupeKey' in event));
    const listed = ((await (await h.merchant('/v1/notifications?limit=200')).json()) as Json).notifications.find((x: Json) => x.id === first.id);
    assert.deepEqual(listed, event);

    // The webhook: signed like every other, sent once.
    const hook = await webhookOf('notification.received', hooksBefore);
    assert.deepEqual((JSON.parse(hook.body) as Json).data, event);
    assert.match(hook.headers.get('X-Bank-Checkout-Signature') ?? '', /^t=\d+,v1=[0-9a-f]{64}$/);
    await h.bff.parts.webhook.drain();
    assert.equal(h.webhooks.slice(hooksBefore).filter((w) => (JSON.parse(w.body) as Json).type === 'notification.received').length, 1);
  });

  it('tells the notification of a checkout with the checkout it was applied to', async () => {
    const c = await redirectCheckout();
    const told = h.notifications.length;
    await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(await signed(result(c, '200', 'TX-APPLIED'))));
    assert.deepEqual(
      h.notifications.slice(told).map((e) => [e.checkoutId, e.outcome, e.transactionId]),
      [[c.id, 'applied', 'TX-APPLIED']],
    );
  });

  it('signs the outbound webhook', async () => {
    const c = await redirectCheckout();
    const before = h.webhooks.length;
    await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(await signed(result(c, '200', 'TX-WH'))));
    const hook = await webhookOf('checkout.updated', before);
    const body = JSON.parse(hook.body) as Json;
    assert.equal(body.data.checkoutId, c.id);
    assert.equal(body.data.state, 'succeeded');
    const sig = hook.headers.get('X-Bank-Checkout-Signature')!;
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig)!;
    const { createHmac } = await import('node:crypto');
    assert.equal(v1, createHmac('sha256', 'webhook-secret-0123456789').update(`${t}.${hook.body}`).digest('hex'));
  });
});
