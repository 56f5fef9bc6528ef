/**
 * The BFF's webhooks verify with the Standard Webhooks libraries (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`): the `standardwebhooks` npm package, and the Python
 * verification shown in docs/other-languages.md, run with python3.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { signWebhookForTest, verifyWebhook, WebhookSignatureError } from '../src/merchant-client.js';
import { newSecret } from '../src/checkout/secrets.js';
import { webhookKey } from '../src/webhook.js';
import { loadConfig } from '../src/config.js';
import { createHarness, type Harness } from './harness.js';
import { cliArgs } from '../../../test/support/cli.mjs';

const WHSEC = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const RAW = 'webhook-secret-0123456789';
const GUIDE = new URL('../../../docs/other-languages.md', import.meta.url);

/** One webhook delivery from a BFF whose MERCHANT_WEBHOOK_SECRET is `secret`. */
async function delivery(h: Harness) {
  const { clientSecret } = await h.createCheckout({ amount: 700, subject: 'Hook order' });
  const before = h.webhooks.length;
  assert.equal((await h.checkout(clientSecret, '/v1/checkout/cancel', {})).status, 200);
  await h.bff.parts.webhook.drain();
  assert.equal(h.webhooks.length, before + 1, 'one delivery');
  const hook = h.webhooks.at(-1)!;
  return { body: hook.body, headers: Object.fromEntries(hook.headers) };
}

type Case = { secret: string; body: string; headers: Record<string, string>; now: number };

/** The guide's Python `verify_webhook`, run once by python3 over the cases: per case, the event's type or the error. */
function python(cases: Case[]): string[] {
  const code = [...readFileSync(GUIDE, 'utf8').matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]!).find((c) => c.includes('def verify_webhook'));
  assert.ok(code, 'docs/other-languages.md shows verify_webhook in Python');
  const driver = `${code}
import sys
for case in json.load(sys.stdin):
    try:
        print(verify_webhook(case["secret"], case["headers"], case["body"].encode(), now=case["now"])["type"])
    except ValueError as err:
        print("refused:", err)
`;
  const run = spawnSync('python3', ['-c', driver], { input: JSON.stringify(cases.map((c) => ({ ...c, now: Math.floor(c.now / 1000) }))), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim().split('\n');
}

describe('Standard Webhooks signatures', () => {
  let h: Harness;
  let raw: Harness;
  before(async () => {
    h = await createHarness({ MERCHANT_WEBHOOK_URL: 'http://merchant.test/hook', MERCHANT_WEBHOOK_SECRET: WHSEC });
    raw = await createHarness({ MERCHANT_WEBHOOK_URL: 'http://merchant.test/hook', MERCHANT_WEBHOOK_SECRET: RAW });
  });
  after(async () => {
    await h.close();
    await raw.close();
  });

  it('a delivery carries webhook-id, webhook-timestamp (seconds) and a v1 signature, beside the compatible header', async () => {
    const d = await delivery(h);
    const event = JSON.parse(d.body) as { id: string };
    assert.equal(d.headers['webhook-id'], event.id);
    assert.equal(d.headers['webhook-timestamp'], String(Math.floor(h.clock.now / 1000)));
    assert.match(d.headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]{43}=$/);
    assert.match(d.headers['x-bank-checkout-signature']!, /^t=\d+,v1=[0-9a-f]{64}$/);
    assert.equal((await verifyWebhook(d.body, d.headers, WHSEC, { now: h.clock.now })).id, event.id);
  });

  it('the standardwebhooks npm package verifies a delivery and refuses an altered one', async (t) => {
    // The library checks the timestamp against Date.now(): for this test, it reads the harness's clock.
    t.mock.timers.enable({ apis: ['Date'], now: h.clock.now });
    const d = await delivery(h);
    const event = new Webhook(WHSEC).verify(d.body, d.headers) as { type: string; data: { state: string } };
    assert.equal(event.type, 'checkout.updated');
    assert.equal(event.data.state, 'cancelled');
    assert.throws(() => new Webhook(WHSEC).verify(d.body.replace('700', '701'), d.headers), WebhookVerificationError);
    assert.throws(() => new Webhook(newSecret()).verify(d.body, d.headers), WebhookVerificationError);
    // A secret without the whsec_ prefix is its own key: the libraries' raw format.
    const r = await delivery(raw);
    assert.equal((new Webhook(RAW, { format: 'raw' }).verify(r.body, r.headers) as { type: string }).type, 'checkout.updated');
    assert.deepEqual([...webhookKey(RAW)], [...new TextEncoder().encode(RAW)]);
  });

  it('verifyWebhook takes a delivery signed by the standardwebhooks library alone, with either kind of secret, and any of several signatures', async () => {
    const at = h.clock.now;
    const body = JSON.stringify({ id: 'evt_standard_1', type: 'checkout.updated', createdAt: new Date(at).toISOString(), data: { checkoutId: 'chk_1' } });
    const signed = (secret: string, raw = false, id = 'evt_standard_1') => ({
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at / 1000)),
      'webhook-signature': new Webhook(secret, raw ? { format: 'raw' } : undefined).sign(id, new Date(at), body),
    });
    const event = await verifyWebhook(body, signed(WHSEC), WHSEC, { now: at });
    assert.equal(event.id, 'evt_standard_1');
    assert.equal(event.type, 'checkout.updated');
    assert.equal((await verifyWebhook(new TextEncoder().encode(body), new Headers(signed(RAW, true)), RAW, { now: at })).id, 'evt_standard_1');
    // A secret being rotated: the delivery carries one signature per secret, space-separated.
    const other = 'whsec_' + Buffer.from('another key of 32 bytes, exactly').toString('base64');
    const both = { ...signed(WHSEC), 'webhook-signature': `${signed(other)['webhook-signature']} ${signed(WHSEC)['webhook-signature']}` };
    assert.equal((await verifyWebhook(body, both, WHSEC, { now: at })).id, 'evt_standard_1');
    assert.equal((await verifyWebhook(body, both, other, { now: at })).id, 'evt_standard_1');
    // Eight signatures are tried at most (each costs an HMAC): the right one ninth is not reached.
    const many = (n: number) => ({
      ...signed(WHSEC),
      'webhook-signature': [...Array(n).fill(signed(other)['webhook-signature']), signed(WHSEC)['webhook-signature']].join(' '),
    });
    assert.equal((await verifyWebhook(body, many(7), WHSEC, { now: at })).id, 'evt_standard_1');
    await assert.rejects(verifyWebhook(body, many(8), WHSEC, { now: at }), /does not match/);
    // Within the tolerance either way, and no further.
    assert.equal((await verifyWebhook(body, signed(WHSEC), WHSEC, { now: at + 4 * 60_000 })).id, 'evt_standard_1');
    await assert.rejects(verifyWebhook(body, signed(WHSEC), WHSEC, { now: at + 10 * 60_000 }), /outside the tolerance/);
    await assert.rejects(verifyWebhook(body, signed(WHSEC), WHSEC, { now: at - 10 * 60_000 }), /outside the tolerance/);
    await assert.rejects(verifyWebhook(body, signed(WHSEC), WHSEC, { now: at + 10 * 60_000, toleranceMs: 5 * 60_000 }), WebhookSignatureError);
    assert.equal((await verifyWebhook(body, signed(WHSEC), WHSEC, { now: at + 10 * 60_000, toleranceMs: 11 * 60_000 })).id, 'evt_standard_1');
    // Signed for another event id than the body's: refused, though the signature is good.
    await assert.rejects(verifyWebhook(body, signed(WHSEC, false, 'evt_other'), WHSEC, { now: at }), /not the signed webhook-id/);
  });

  it('signWebhookForTest signs as a delivery is signed: verifyWebhook, the standardwebhooks library and the older header all accept it', async (t) => {
    const at = h.clock.now;
    const event = {
      type: 'checkout.updated' as const,
      createdAt: new Date(at).toISOString(),
      data: {
        checkoutId: 'chk_test',
        reference: 'ORD-1',
        amount: 700,
        state: 'succeeded' as const,
        previousState: 'validate' as const,
        source: 'native' as const,
        mode: 'native' as const,
      },
    };
    for (const secret of [WHSEC, RAW]) {
      const { body, headers } = await signWebhookForTest(event, secret, { now: at });
      const verified = await verifyWebhook(body, headers, secret, { now: at });
      assert.match(verified.id, /^evt_test_[0-9a-f]{24}$/, 'an event without an id is given one');
      assert.equal(headers['webhook-id'], verified.id);
      assert.equal(headers['X-Bank-Checkout-Event-Id'], verified.id);
      assert.deepEqual({ ...verified, id: undefined }, { ...event, id: undefined });
      // The older header alone, as a delivery without the Standard headers would be checked.
      const { 'webhook-id': _i, 'webhook-timestamp': _t, 'webhook-signature': _s, ...older } = headers;
      assert.equal((await verifyWebhook(body, older, secret, { now: at })).id, verified.id);
      // Another secret, another body or a stale time: refused.
      await assert.rejects(verifyWebhook(body, headers, newSecret(), { now: at }), WebhookSignatureError);
      await assert.rejects(verifyWebhook(body.replace('700', '701'), headers, secret, { now: at }), WebhookSignatureError);
      await assert.rejects(verifyWebhook(body, headers, secret, { now: at + 10 * 60_000 }), /outside the tolerance/);
    }
    // An id given is kept; the standardwebhooks library verifies it too (against Date.now()).
    t.mock.timers.enable({ apis: ['Date'], now: at });
    const signed = await signWebhookForTest({ ...event, id: 'evt_given' }, WHSEC, { now: at });
    assert.equal((new Webhook(WHSEC).verify(signed.body, signed.headers) as { id: string }).id, 'evt_given');
    const raw = await signWebhookForTest(event, RAW);
    assert.equal((new Webhook(RAW, { format: 'raw' }).verify(raw.body, raw.headers) as { type: string }).type, 'checkout.updated');
  });

  it('verifyWebhook checks the Standard headers first: beside an intact older header, a swapped id, a garbage signature or an old timestamp is refused', async () => {
    const d = await delivery(h);
    const ok = await verifyWebhook(d.body, d.headers, WHSEC, { now: h.clock.now });
    assert.equal(ok.id, d.headers['webhook-id']);
    const refused = (headers: Record<string, string | undefined>, message: RegExp) =>
      assert.rejects(
        verifyWebhook(d.body, headers, WHSEC, { now: h.clock.now }),
        (err: unknown) => err instanceof WebhookSignatureError && message.test(err.message),
      );
    await refused({ ...d.headers, 'webhook-id': 'evt_swapped' }, /does not match/);
    await refused({ ...d.headers, 'webhook-signature': 'v1,Z2FyYmFnZQ==' }, /does not match/);
    await refused({ ...d.headers, 'webhook-signature': 'garbage' }, /does not match/);
    await refused({ ...d.headers, 'webhook-signature': 'v2,' + d.headers['webhook-signature']!.slice(3) }, /does not match/);
    await refused({ ...d.headers, 'webhook-timestamp': String(Math.floor(h.clock.now / 1000) - 600) }, /outside the tolerance/);
    // In milliseconds (13 digits), not the standard's seconds.
    await refused({ ...d.headers, 'webhook-timestamp': String(h.clock.now) }, /malformed webhook-timestamp/);
    await refused({ ...d.headers, 'webhook-timestamp': '17e8' }, /malformed webhook-timestamp/);
    // One Standard header present and another missing: refused, never read as the older kind.
    await refused({ ...d.headers, 'webhook-signature': undefined }, /missing/);
    // The older header alone still verifies (a receiver written before the Standard headers).
    const older = { 'x-bank-checkout-signature': d.headers['x-bank-checkout-signature']! };
    assert.equal((await verifyWebhook(d.body, older, WHSEC, { now: h.clock.now })).id, ok.id);
    // A whsec_ secret that is not base64 is refused with a clear message.
    await assert.rejects(verifyWebhook(d.body, d.headers, 'whsec_%%%', { now: h.clock.now }), /not base64/);
  });

  it('the Python verification of docs/other-languages.md verifies a delivery and refuses an altered or stale one', async () => {
    const d = await delivery(h);
    const r = await delivery(raw);
    assert.deepEqual(
      python([
        { secret: WHSEC, ...d, now: h.clock.now },
        { secret: WHSEC, ...d, body: d.body.replace('700', '701'), now: h.clock.now },
        { secret: WHSEC, ...d, now: h.clock.now + 10 * 60_000 },
        { secret: newSecret(), ...d, now: h.clock.now },
        { secret: RAW, ...r, now: raw.clock.now },
      ]),
      [
        'checkout.updated',
        'refused: signature does not match',
        'refused: timestamp outside the tolerance',
        'refused: signature does not match',
        'checkout.updated',
      ],
    );
  });

  it('`bank-checkout-bff secret` prints a whsec_ secret of 256 bits that the BFF takes for either secret, even going live', () => {
    const cli = spawnSync(process.execPath, cliArgs('packages/bff/src/cli.ts', 'secret'), { encoding: 'utf8' });
    assert.equal(cli.status, 0, cli.stderr);
    const s = cli.stdout.trim();
    assert.match(s, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(webhookKey(s).length, 32);
    assert.notEqual(newSecret(), s);
    const config = loadConfig({
      HOST: '0.0.0.0',
      BFF_MERCHANT_SECRET: s,
      MERCHANT_WEBHOOK_URL: 'https://shop.example/hook',
      MERCHANT_WEBHOOK_SECRET: newSecret(),
      DATABASE_URL: ':memory:',
    });
    assert.equal(config.merchantSecret, s);
    assert.throws(() => loadConfig({ MERCHANT_WEBHOOK_SECRET: 'whsec_not base64 at all!!', DATABASE_URL: ':memory:' }), /MERCHANT_WEBHOOK_SECRET/);
  });
});
