/**
 * The webhook's events are what the contract documents (`webhookEventBody`, from which
 * docs/merchant-api.md's tables are generated): a delivery of each type parses with it, and its
 * `data` carries no field the contract does not name.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { encodeDataReturn, signNotification } from '@bank-checkout/provider';
import { webhookEventBody } from '@bank-checkout/contract/schemas';
import { BFF_HOST, createHarness, type Harness } from './harness.js';

describe("the webhook's events, as the contract documents them", () => {
  let h: Harness;
  before(async () => {
    h = await createHarness({ MERCHANT_WEBHOOK_URL: 'http://merchant.test/hook', MERCHANT_WEBHOOK_SECRET: 'webhook-secret-0123456789' });
  });
  after(() => h.close());

  it('a delivery of each type parses with webhookEventBody, with no undocumented field in its data', async () => {
    // checkout.updated: the merchant's cancel.
    const c = await h.createCheckout({ reference: 'ORD-EVENTS-1' });
    assert.equal((await h.merchant(`/v1/checkouts/${c.id}/cancel`, { method: 'POST' })).status, 200);
    // checkout.launch_refused: a launch token presented again after its frame redeemed it.
    const again = await h.redeem(c.launchToken as string);
    assert.equal(again.status, 409);
    // notification.received: a signed result of a payment link made without a checkout.
    const dataReturn = encodeDataReturn({
      status: '200',
      description: 'OK',
      transactionId: 'TX-EV',
      amount: 1999,
      reference: 'LNK-EVENTS',
      dateInitPayment: h.clock.now,
    });
    const signed = { dataReturn, signatureDataReturn: await signNotification(dataReturn, 'sandbox-api-key') };
    const res = await h.bff.request(`${BFF_HOST}/v1/notifications/provider`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(signed).toString(),
    });
    assert.equal(res.status, 200);
    await h.bff.parts.webhook.drain();

    const types = new Set<string>();
    for (const hook of h.webhooks) {
      const body = JSON.parse(hook.body) as { type: string; data: Record<string, unknown> };
      const parsed = webhookEventBody.safeParse(body);
      assert.ok(parsed.success, `${body.type}: ${JSON.stringify(parsed.error?.issues)}`);
      const option = webhookEventBody.options.find((o) => o.shape.type.value === body.type)!;
      const documented = Object.keys((option.shape.data as unknown as { shape: object }).shape);
      assert.deepEqual(
        Object.keys(body.data).filter((k) => !documented.includes(k)),
        [],
        `${body.type}: every field of data is documented`,
      );
      assert.deepEqual(Object.keys(body).sort(), ['createdAt', 'data', 'id', 'type']);
      types.add(body.type);
    }
    assert.deepEqual([...types].sort(), webhookEventBody.options.map((o) => o.shape.type.value).sort(), 'every type delivered and checked');
  });
});
