/**
 * The isolated checkout's credentials, tried as the host page's scripts would: the page holds a
 * launch token, single use and short lived, that only the BFF's own origin can redeem; the
 * frame's key opens the checkout API from that origin only; a token presented again is refused
 * and told to the merchant; a reload of the shop's page gets a fresh token, and the frame that
 * redeems it never inherits a bank session opened in another. Also here: one open checkout per
 * merchant reference, on one instance and across two instances on PostgreSQL.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { CheckoutView } from '@bank-checkout/contract';
import { createRig, json, twoInstancesOnPostgres, BFF_HOST, type Rig } from './lib/rig.js';
import { withPostgres } from '../../packages/bff/test/store-fixtures.js';
import { SECRETS } from './lib/canary.js';
import { bind, frameKeys, frameOrigin, type FrameKeys } from '../../packages/bff/test/frame-proof.js';

const SHOP = 'https://shop.example';

describe('the isolated checkout', () => {
  let rig: Rig;
  before(async () => {
    rig = await createRig({ env: { ALLOWED_ORIGINS: SHOP } });
  });
  after(() => rig.close());

  let counter = 0;
  const create = async (body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    json<{ id: string; isolation: string; launchToken?: string; launchExpiresAt?: string; clientSecret?: string }>(
      await rig.merchant('/v1/checkouts', { body: { amount: 4250, subject: 'Order', reference: `LAUNCH-${++counter}`, ...body }, headers }),
      201,
    );
  const redeem = (token: unknown, headers: Record<string, string> = {}) =>
    rig.call('/v1/frame/launch', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ token }) });
  /** The headers of a frame's redemption: its browser's evidence and a proof of `keys`. */
  const fromFrame = async (keys: FrameKeys) => ({
    ...frameOrigin(BFF_HOST),
    DPoP: await keys.prove('POST', `${BFF_HOST}/v1/frame/launch`, undefined, rig.clock.now),
  });
  /** A frame's redemption of `token` with `keys` (a new browser's by default): its key, bound to them. */
  const keyOf = async (token: string, keys?: FrameKeys) => {
    const k = keys ?? (await frameKeys());
    const { key } = await json<{ key: string }>(await redeem(token, await fromFrame(k)));
    bind(key, k);
    return key;
  };
  const login = (key: string) =>
    rig.checkout(key, '/v1/checkout/login', { bankId: 'aurora', loginId: 'user', fields: { userId: 'aurora.demo', userSecret: 'Aurora2024' } });

  it('is the default: the merchant gets a launch token, never a client secret', async () => {
    const c = await create();
    assert.equal(c.isolation, 'isolated');
    assert.equal(c.clientSecret, undefined);
    assert.match(c.launchToken!, /^lt_chk_[\w-]+\.[\w-]{43}$/);
    assert.equal(Date.parse(c.launchExpiresAt!) - rig.clock.now, 5 * 60_000, 'short lived');
    // The token itself opens nothing, and no client secret of this checkout exists.
    assert.equal((await rig.checkout(c.launchToken!, '/v1/checkout')).status, 401);
    const forged = `cs_${createHmac('sha256', `checkout-secret:${SECRETS.merchantSecret}`).update(c.id).digest('base64url')}`;
    assert.equal((await rig.checkout(forged, '/v1/checkout')).status, 401);
  });

  it('redeems once, from its own origin only; a second redemption is refused and told to the merchant', async () => {
    const c = await create();
    // The host's origin (the shop, in ALLOWED_ORIGINS) cannot redeem it, nor a page of another
    // site, nor a server (no browser's evidence, or a forged half of it).
    const proof = (await fromFrame(await frameKeys())).DPoP;
    for (const headers of [
      {},
      { Origin: SHOP },
      { Origin: 'null' },
      { Origin: BFF_HOST },
      { 'Sec-Fetch-Site': 'same-origin' },
      { 'Sec-Fetch-Site': 'same-site', Origin: BFF_HOST },
      { 'Sec-Fetch-Site': 'cross-site', Origin: BFF_HOST },
      { 'Sec-Fetch-Site': 'same-origin', Origin: SHOP },
    ] as Record<string, string>[]) {
      const refused = await redeem(c.launchToken, { ...headers, DPoP: proof });
      assert.equal(refused.status, 403, JSON.stringify(headers));
      assert.equal((await refused.json()).error.code, 'origin_refused');
    }
    // From the frame's origin, but without a proof of a key pair (or with one made for another call): refused.
    const other = await frameKeys();
    for (const dpop of [
      undefined,
      'x.y.z',
      await other.prove('POST', `${BFF_HOST}/v1/checkout`, undefined, rig.clock.now),
      await other.prove('POST', `${BFF_HOST}/v1/frame/launch`, undefined, rig.clock.now - 120_000),
    ]) {
      const refused = await redeem(c.launchToken, { ...frameOrigin(BFF_HOST), ...(dpop ? { DPoP: dpop } : {}) });
      assert.equal(refused.status, 401, String(dpop));
    }
    const key = await keyOf(c.launchToken!);
    assert.match(key, /^fk_/);
    const view = await json<CheckoutView>(await rig.checkout(key, '/v1/checkout', undefined, { 'Sec-Fetch-Site': 'same-origin' }));
    assert.equal(view.id, c.id);

    const hooks = rig.webhooks.length;
    const again = await redeem(c.launchToken, await fromFrame(await frameKeys()));
    assert.equal(again.status, 409);
    assert.equal((await again.json()).error.code, 'launch_used');
    const seen = await json<{ reference: string; launch: { refusals: number; lastRefusedAt: string; redeemedAt: string } }>(
      await rig.merchant(`/v1/checkouts/${c.id}`),
    );
    assert.equal(seen.launch.refusals, 1);
    assert.equal(seen.launch.lastRefusedAt, new Date(rig.clock.now).toISOString());
    assert.ok(seen.launch.redeemedAt);
    await rig.bff.parts.webhook.drain();
    const hook = rig.webhooks.slice(hooks).find((w) => w.body.includes('checkout.launch_refused'));
    assert.ok(hook, 'the merchant gets a webhook event');
    assert.deepEqual(JSON.parse(hook.body).data, {
      checkoutId: c.id,
      reference: seen.reference,
      reason: 'launch_used',
      refusals: 1,
      at: seen.launch.lastRefusedAt,
    });
    // The frame that redeemed first goes on.
    assert.equal((await rig.checkout(key, '/v1/checkout')).status, 200);
  });

  it('the browser that has the launch presents its token again (Try again, an older tab) and resumes; another browser is refused, counted and told, the token spent or replaced', async () => {
    const c = await create();
    const refusals = async () => (await json<{ launch: { refusals: number } }>(await rig.merchant(`/v1/checkouts/${c.id}`))).launch.refusals;
    const hooks = rig.webhooks.length;
    const payer = await frameKeys();
    const first = await keyOf(c.launchToken!, payer);
    assert.equal((await json<CheckoutView>(await login(first))).state, 'select-account');
    // The host's Try again: the same page, the same token, the same browser. It resumes where it was.
    const again = await json<{ key: string; resumed: boolean; start: { view: CheckoutView } }>(await redeem(c.launchToken, await fromFrame(payer)));
    assert.equal(again.resumed, true);
    assert.equal(again.start.view.state, 'select-account', 'the bank session is kept');
    bind(again.key, payer);
    assert.equal((await json<CheckoutView>(await rig.checkout(again.key, '/v1/checkout'))).state, 'select-account');
    assert.equal((await rig.checkout(first, '/v1/checkout')).status, 200, 'the first frame goes on too');
    assert.equal(await refusals(), 0, 'nobody else: nothing refused');

    // A page script fetches the page's token again (the shop answers a fresh one) before the
    // payer's new tab redeemed its own, and passes it out: a server of its own redeems it with
    // its own key pair, taking the launch over. The payer's tab then presents its token, which
    // the fresh one replaced: refused, counted, and told to the merchant.
    const tab = await json<{ launchToken: string }>(await rig.merchant(`/v1/checkouts/${c.id}/launch`, { method: 'POST' }));
    const fetched = await json<{ launchToken: string }>(await rig.merchant(`/v1/checkouts/${c.id}/launch`, { method: 'POST' }));
    const thief = await frameKeys();
    await keyOf(fetched.launchToken, thief);
    const refused = await redeem(tab.launchToken, await fromFrame(payer));
    assert.equal(refused.status, 409);
    assert.equal((await refused.json()).error.code, 'launch_used');
    assert.equal(await refusals(), 1);
    // The payer's spent token, presented again now that another browser has the launch: refused too.
    assert.equal((await redeem(c.launchToken, await fromFrame(payer))).status, 409);
    assert.equal(await refusals(), 2);
    await rig.bff.parts.webhook.drain();
    const told = rig.webhooks
      .slice(hooks)
      .map((w) => JSON.parse(w.body) as { type: string; data: { checkoutId: string; reason: string; refusals: number } })
      .filter((e) => e.type === 'checkout.launch_refused' && e.data.checkoutId === c.id)
      .map((e) => [e.data.reason, e.data.refusals]);
    assert.deepEqual(told, [
      ['launch_replaced', 1],
      ['launch_used', 2],
    ]);
    // The thief presenting its own spent token again resumes its own launch; the payer's reload takes it back.
    assert.equal((await json<{ resumed: boolean }>(await redeem(fetched.launchToken, await fromFrame(thief)))).resumed, true);
    const reload = await json<{ launchToken: string }>(await rig.merchant(`/v1/checkouts/${c.id}/launch`, { method: 'POST' }));
    assert.equal((await json<{ resumed: boolean }>(await redeem(reload.launchToken, await fromFrame(payer)))).resumed, false);

    // A token replaced before anyone redeemed the checkout opens nothing, and counts nothing (no launch was taken).
    const d = await create();
    await json<{ launchToken: string }>(await rig.merchant(`/v1/checkouts/${d.id}/launch`, { method: 'POST' }));
    const stale = await redeem(d.launchToken, await fromFrame(await frameKeys()));
    assert.equal(stale.status, 401);
    assert.equal((await json<{ launch: { refusals: number } }>(await rig.merchant(`/v1/checkouts/${d.id}`))).launch.refusals, 0);
  });

  it("the frame's key opens the checkout from the BFF's own origin only, never from the host's", async () => {
    const c = await create();
    const key = await keyOf(c.launchToken!);
    const before = rig.upstream.length;
    for (const headers of [
      { Origin: SHOP },
      { Origin: 'https://evil.example' },
      { 'Sec-Fetch-Site': 'same-site' },
      { 'Sec-Fetch-Site': 'cross-site' },
    ] as Record<string, string>[]) {
      for (const [path, body] of [
        ['/v1/checkout', undefined],
        ['/v1/banks', undefined],
        ['/v1/checkout/cancel', {}],
        ['/v1/checkout/login', { bankId: 'aurora', loginId: 'user', fields: {} }],
      ] as const) {
        const res = await rig.checkout(key, path, body, headers);
        assert.equal(res.status, 403, `${path} ${JSON.stringify(headers)}`);
        assert.equal((await res.json()).error.code, 'origin_refused');
      }
    }
    assert.equal(rig.upstream.length, before, 'nothing was sent upstream');
    assert.equal((await json<CheckoutView>(await rig.checkout(key, '/v1/checkout', undefined, { Origin: BFF_HOST }))).state, 'select-bank');
    // A key with one character changed, or another checkout's, opens nothing.
    const other = await keyOf((await create()).launchToken!);
    const flipped = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    assert.equal((await rig.checkout(flipped, '/v1/checkout')).status, 401);
    assert.equal((await rig.checkout(`fk_${c.id}.${other.split('.')[1]}`, '/v1/checkout')).status, 401);
  });

  it('an expired or unknown token is refused, and bad bodies are 4xx', async () => {
    const c = await create();
    rig.clock.advance(5 * 60_000);
    const keys = await frameKeys();
    const expired = await redeem(c.launchToken, await fromFrame(keys));
    assert.equal(expired.status, 401);
    assert.equal((await expired.json()).error.code, 'launch_expired');
    for (const token of ['lt_nope', `lt_${c.id}.${'A'.repeat(43)}`, 42, ''])
      assert.ok([401, 422].includes((await redeem(token, await fromFrame(keys))).status), String(token));
    const extra = await rig.call('/v1/frame/launch', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(await fromFrame(keys)) },
      body: JSON.stringify({ token: 'x', more: 1 }),
    });
    assert.equal(extra.status, 422);
  });

  it('a reload in the same browser resumes where it was; a frame of another browser never inherits the bank session', async () => {
    const key = Math.random().toString(36).slice(2);
    const c = await create({ reference: 'LAUNCH-RELOAD' }, { 'Idempotency-Key': key });
    const browserA = await frameKeys();
    const first = await keyOf(c.launchToken!, browserA);
    const signedIn = await json<CheckoutView>(await login(first));
    assert.equal(signedIn.state, 'select-account');

    // The page is loaded again in the same browser (a reload, Back, a second tab): its frame proves
    // the same key pair and goes on at the accounts; the earlier tab's key stays good.
    const reloaded = await json<{ launchToken: string }>(await rig.merchant(`/v1/checkouts/${c.id}/launch`, { method: 'POST' }));
    const resumedAnswer = await json<{ key: string; resumed: boolean; start: { view: CheckoutView } }>(
      await redeem(reloaded.launchToken, await fromFrame(browserA)),
    );
    assert.equal(resumedAnswer.resumed, true);
    assert.equal(resumedAnswer.start.view.state, 'select-account', 'the first screen is where the payer was');
    bind(resumedAnswer.key, browserA);
    assert.equal((await json<CheckoutView>(await rig.checkout(resumedAnswer.key, '/v1/checkout'))).state, 'select-account');
    assert.equal((await json<CheckoutView>(await rig.checkout(first, '/v1/checkout'))).state, 'select-account', 'the first tab goes on too');
    // The frame key without its key pair's proof opens nothing, and neither does a proof of another key pair.
    assert.equal((await rig.call('/v1/checkout', { headers: { 'X-Checkout-Secret': first, DPoP: '' } })).status, 401);
    const stranger = await frameKeys();
    const foreign = await stranger.prove('GET', `${BFF_HOST}/v1/checkout`, first, rig.clock.now);
    assert.equal((await rig.call('/v1/checkout', { headers: { 'X-Checkout-Secret': first, DPoP: foreign } })).status, 401);
    // A proof seen once is no good twice, nor for another call, nor a minute later.
    const once = await browserA.prove('GET', `${BFF_HOST}/v1/checkout`, first, rig.clock.now);
    assert.equal((await rig.call('/v1/checkout', { headers: { 'X-Checkout-Secret': first, DPoP: once } })).status, 200);
    assert.equal((await rig.call('/v1/checkout', { headers: { 'X-Checkout-Secret': first, DPoP: once } })).status, 401, 'replayed');
    const forBanks = await browserA.prove('GET', `${BFF_HOST}/v1/banks`, first, rig.clock.now);
    assert.equal((await rig.call('/v1/checkout', { headers: { 'X-Checkout-Secret': first, DPoP: forBanks } })).status, 401, 'another address');
    const stale = await browserA.prove('GET', `${BFF_HOST}/v1/checkout`, first, rig.clock.now - 61_000);
    assert.equal((await rig.call('/v1/checkout', { headers: { 'X-Checkout-Secret': first, DPoP: stale } })).status, 401, 'too old');
    const forOther = await browserA.prove('GET', `${BFF_HOST}/v1/checkout`, resumedAnswer.key, rig.clock.now);
    assert.equal((await rig.call('/v1/checkout', { headers: { 'X-Checkout-Secret': first, DPoP: forOther } })).status, 401, 'made for another key');

    // The shop's page is loaded in another browser (or fetched by a script): the merchant asks for a fresh token (or replays the creation).
    const relaunched = await json<{ id: string; launchToken: string }>(await rig.merchant(`/v1/checkouts/${c.id}/launch`, { method: 'POST' }));
    assert.equal(relaunched.id, c.id);
    assert.notEqual(relaunched.launchToken, c.launchToken);
    // Until the new token is redeemed, the frame that runs goes on.
    assert.equal((await json<CheckoutView>(await rig.checkout(first, '/v1/checkout'))).state, 'select-account');
    const second = await keyOf(relaunched.launchToken);
    const view = await json<CheckoutView>(await rig.checkout(second, '/v1/checkout'));
    assert.equal(view.state, 'select-bank', 'the session opened in the other browser is closed');
    assert.ok(!JSON.stringify(view).includes('AUR-'), 'no account of it is shown');
    // The earlier browser's keys open nothing: its frames are only told that the payment goes on elsewhere.
    for (const res of [await rig.checkout(first, '/v1/checkout'), await login(first), await rig.checkout(resumedAnswer.key, '/v1/checkout')]) {
      assert.equal(res.status, 409);
      const body = (await res.json()) as { error: { code: string }; view?: unknown };
      assert.equal(body.error.code, 'opened_elsewhere');
      assert.equal(body.view, undefined, 'no view, no state, nothing of the checkout');
      assert.ok(!JSON.stringify(body).includes(c.id.slice(4)) && !JSON.stringify(body).includes('AUR-'));
    }
    // A key that never opened it stays a plain 401.
    assert.equal((await rig.checkout(`fk_${c.id}.${'A'.repeat(43)}`, '/v1/checkout')).status, 401);

    const replay = await json<{ id: string; launchToken: string }>(
      await rig.merchant('/v1/checkouts', { body: { amount: 4250, subject: 'Order', reference: 'LAUNCH-RELOAD' }, headers: { 'Idempotency-Key': key } }),
      200,
    );
    assert.equal(replay.id, c.id);
    assert.equal((await json<CheckoutView>(await rig.checkout(await keyOf(replay.launchToken), '/v1/checkout'))).id, c.id);

    const inline = await create({ isolation: 'inline' });
    const refused = await rig.merchant(`/v1/checkouts/${inline.id}/launch`, { method: 'POST' });
    assert.equal(refused.status, 409);
    assert.equal((await refused.json()).error.code, 'not_isolated');
  });

  it('inline (the weaker mode) keeps the client secret, usable from the shop’s origin', async () => {
    const c = await create({ isolation: 'inline' });
    assert.equal(c.isolation, 'inline');
    assert.equal(c.launchToken, undefined);
    assert.equal((await json<CheckoutView>(await rig.checkout(c.clientSecret!, '/v1/checkout', undefined, { Origin: SHOP }))).id, c.id);
    assert.equal((await redeem(`lt_${c.id}.${'A'.repeat(43)}`, await fromFrame(await frameKeys()))).status, 401);
  });
});

describe('one open checkout per merchant reference', () => {
  let rig: Rig;
  before(async () => {
    rig = await createRig();
  });
  after(() => rig.close());

  const create = (reference: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) =>
    rig.merchant('/v1/checkouts', { body: { amount: 1500, subject: 'Order', reference, ...extra }, headers });

  it('a second creation while the first is open is a 409 naming it; a retry with the same key still answers the first', async () => {
    const first = await json<{ id: string }>(await create('REF-ONE', { 'Idempotency-Key': 'ref-one-1' }), 201);
    const second = await create('REF-ONE', {}, { amount: 1600 });
    assert.equal(second.status, 409);
    const err = (await second.json()).error;
    assert.equal(err.code, 'reference_in_use');
    assert.match(err.message, new RegExp(first.id));
    const replay = await create('REF-ONE', { 'Idempotency-Key': 'ref-one-1' });
    assert.equal(replay.status, 200);
    assert.equal((await replay.json()).id, first.id);
    assert.equal((await create('REF-ONE', { 'Idempotency-Key': 'ref-one-2' })).status, 409, 'another key is another creation');
  });

  it('frees the reference when the checkout ends, and a restart does not reopen it over a newer one', async () => {
    const a = await rig.createCheckout({ reference: 'REF-TWO', isolation: 'inline' });
    assert.equal((await json<CheckoutView>(await rig.checkout(a.clientSecret, '/v1/checkout/cancel', {}))).state, 'cancelled');
    const b = await json<{ id: string }>(await create('REF-TWO'), 201);
    const restart = await rig.checkout(a.clientSecret, '/v1/checkout/restart', {});
    assert.equal(restart.status, 409);
    const err = (await restart.json()).error;
    assert.equal(err.code, 'reference_in_use');
    assert.match(err.message, new RegExp(b.id));
    // Past its expiry (not yet swept), a checkout no longer holds its reference.
    rig.clock.advance(31 * 60_000);
    assert.equal((await create('REF-TWO')).status, 201);
  });
});

withPostgres('one open checkout per reference', (url) => {
  describe('one open checkout per reference, across two instances on PostgreSQL', () => {
    const rigs = twoInstancesOnPostgres(url, 'launch');

    it('of creations racing on both instances with one reference, exactly one opens', async () => {
      const [a, b] = rigs();
      for (let round = 0; round < 5; round++) {
        const reference = `RACE-${round}`;
        const body = { amount: 1200, subject: 'Race', reference };
        // As a shop's server does: a 503 (the store busy past its bound, on a loaded machine) is sent again.
        const send = async (r: typeof a) => {
          for (let tries = 1; ; tries++) {
            const res = await r.merchant('/v1/checkouts', { body });
            if (res.status !== 503 || tries === 5) return res;
            await res.body?.cancel();
          }
        };
        const answers = await Promise.all([a, b, a, b].map(send));
        const statuses = answers.map((r) => r.status).sort();
        assert.deepEqual(statuses, [201, 409, 409, 409], `round ${round}`);
        for (const r of answers.filter((x) => x.status === 409)) assert.equal((await r.json()).error.code, 'reference_in_use');
      }
    });

    it('of one order sent to both instances at once with one Idempotency-Key, every answer is the one checkout', async () => {
      const [a, b] = rigs();
      // Twenty orders at once, each sent four times: a busy shop's double clicks and retries.
      const order = async (n: number) => {
        const body = { amount: 1200, subject: 'Race', reference: `KEYED-${n}` };
        const headers = { 'Idempotency-Key': `order-${n}` };
        const answers = await Promise.all([a, b, a, b].map((r) => r.merchant('/v1/checkouts', { body, headers })));
        const bodies = await Promise.all(answers.map((r) => r.json() as Promise<{ id?: string; error?: { code: string } }>));
        assert.deepEqual(answers.map((r) => r.status).sort(), [200, 200, 200, 201], `order ${n}: ${JSON.stringify(bodies.map((x) => x.error?.code ?? x.id))}`);
        assert.equal(new Set(bodies.map((x) => x.id)).size, 1, `order ${n}`);
      };
      await Promise.all(Array.from({ length: 20 }, (_, n) => order(n)));
    });
  });
});

withPostgres('a proof of possession used once across instances', (url) => {
  describe('a proof of possession (DPoP) across two instances on PostgreSQL', () => {
    const rigs = twoInstancesOnPostgres(url, 'proof');

    it('a proof one instance accepted is refused by the other, whichever sees it first', async () => {
      const [a, b] = rigs();
      const c = await json<{ id: string; launchToken: string }>(
        await a.merchant('/v1/checkouts', { body: { amount: 1500, subject: 'Two', reference: 'PROOF-TWO' } }),
        201,
      );
      const keys = await frameKeys();
      const redeemed = await a.call('/v1/frame/launch', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...frameOrigin(BFF_HOST),
          DPoP: await keys.prove('POST', `${BFF_HOST}/v1/frame/launch`, undefined, a.clock.now),
        },
        body: JSON.stringify({ token: c.launchToken }),
      });
      const { key } = await json<{ key: string }>(redeemed);
      const read = (rig: Rig, proof: string) => rig.call('/v1/checkout', { headers: { 'X-Checkout-Secret': key, DPoP: proof } });
      for (const [first, second] of [
        [a, b],
        [b, a],
      ] as const) {
        const proof = await keys.prove('GET', `${BFF_HOST}/v1/checkout`, key, first.clock.now);
        assert.equal((await read(first, proof)).status, 200);
        const again = await read(second, proof);
        assert.equal(again.status, 401, 'replayed on the other instance');
        assert.match((await again.json()).error.message, /already used/);
        // A fresh proof of the same frame is taken by either.
        assert.equal((await read(second, await keys.prove('GET', `${BFF_HOST}/v1/checkout`, key, second.clock.now))).status, 200);
      }
    });
  });
});
