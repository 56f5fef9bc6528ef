/**
 * Isolation: a client secret reaches its own checkout and nothing else; a finished checkout and
 * calls out of order are refused with 409 before anything is sent upstream; and nothing the
 * browser sends (extra fields, rewritten bodies, query strings, headers, prototype keys)
 * changes the amount, subject, reference or destination the provider receives.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { CheckoutView } from '@bank-checkout/contract';
import { SANDBOX_DEFAULTS } from '@bank-checkout/sandbox';
import { testCredentials } from '@bank-checkout/sandbox/testing';
import { SECRETS } from './lib/canary.js';
import { createRig, json, type Rig } from './lib/rig.js';
import { payByLink, payNative } from './lib/journeys.js';

const MERCHANT_IBAN = SANDBOX_DEFAULTS.merchantIban;
const EVIL_IBAN = 'ES7620770024003102575766';

/** Every checkout action with a body that would be valid in its own state. */
const ACTIONS: [string, unknown][] = [
  ['/v1/checkout/login', { bankId: 'aurora', loginId: 'user', fields: { userId: 'aurora.demo', userSecret: 'Aurora2024' } }],
  ['/v1/checkout/second-login', { value: '731904' }],
  ['/v1/checkout/contract', { contractId: 'AUE-C01' }],
  ['/v1/checkout/transfer', { accountId: 'AUR-0001' }],
  ['/v1/checkout/validate', { values: { smsCode: '482913' } }],
  ['/v1/checkout/cancel', {}],
  ['/v1/checkout/redirect', {}],
  ['/v1/checkout/periodic', { bankId: 'es-aurora', frequency: 'Monthly', debtorAccount: EVIL_IBAN, startDate: '2026-12-01' }],
  ['/v1/checkout/mode', { mode: 'periodic' }],
];

describe('isolation', () => {
  let rig: Rig;
  before(async () => {
    rig = await createRig();
  });
  after(() => rig.close());

  /** The merchant's view of a checkout (state, version-like timestamps). */
  const snapshot = async (id: string) => json(await rig.merchant(`/v1/checkouts/${id}`));
  const upstreamCount = () => rig.upstream.length;

  describe("one checkout's secret", () => {
    it('reads only its own checkout', async () => {
      const a = await rig.createCheckout({ amount: 1111 });
      const b = await rig.createCheckout({ amount: 2222 });
      const va = await json<CheckoutView>(await rig.checkout(a.clientSecret, '/v1/checkout'));
      const vb = await json<CheckoutView>(await rig.checkout(b.clientSecret, '/v1/checkout'));
      assert.equal(va.id, a.id);
      assert.equal(va.amount, 1111);
      assert.equal(vb.id, b.id);
      assert.notEqual(a.clientSecret, b.clientSecret);
      assert.ok(a.clientSecret.length >= 40, 'at least 128 bits of secret');
    });

    it("acting with A's secret moves only A, even when the request names B", async () => {
      const a = await rig.createCheckout();
      const b = await rig.createCheckout();
      const before = await snapshot(b.id);
      const headers = { 'X-Checkout-Id': b.id, Referer: `https://shop.example/pay/${b.id}` };
      const res = await rig.checkout(a.clientSecret, `/v1/checkout/login?checkout=${b.id}&id=${b.id}`, ACTIONS[0]![1], headers);
      const v = await json<CheckoutView>(res);
      assert.equal(v.id, a.id);
      assert.equal(v.state, 'select-account');
      assert.deepEqual(await snapshot(b.id), before, 'B is untouched');
      const cancel = await json<CheckoutView>(await rig.checkout(a.clientSecret, '/v1/checkout/cancel', {}, headers));
      assert.equal(cancel.id, a.id);
      assert.equal(cancel.state, 'cancelled');
      assert.equal((await snapshot(b.id)).state, 'select-bank');
    });

    it('every forged, altered or misplaced secret is refused with 401 and changes nothing', async () => {
      const a = await rig.createCheckout();
      const b = await rig.createCheckout();
      const before = await snapshot(b.id);
      const s = b.clientSecret;
      const flip = (x: string, i: number) => x.slice(0, i) + (x[i] === 'A' ? 'B' : 'A') + x.slice(i + 1);
      const devSecret = `cs_${createHmac('sha256', 'checkout-secret:dev-merchant-secret-change-me').update(b.id).digest('base64url')}`;
      const forged = [
        flip(s, s.length - 1),
        flip(s, 3),
        s.slice(0, -1),
        `${s}x`,
        s.toUpperCase(),
        s.toLowerCase(),
        b.id,
        devSecret,
        `${a.clientSecret}${s}`,
        `${a.clientSecret},${s}`,
        'cs_',
        'x'.repeat(201),
        SECRETS.merchantSecret,
        `Bearer ${s}`,
      ];
      const calls = upstreamCount();
      for (const secret of forged) {
        for (const [path, body] of [['/v1/checkout', undefined], ...ACTIONS] as [string, unknown][]) {
          const res = await rig.checkout(secret, path, body);
          assert.equal(res.status, 401, `${path} with ${JSON.stringify(secret.slice(0, 30))}`);
          const err = await json(res, 401);
          assert.equal(err.error.code, 'unauthorized');
        }
      }
      // The secret anywhere but its header does not count.
      for (const init of [{ headers: { Authorization: `Bearer ${s}` } }, { headers: { Cookie: `checkout_secret=${s}` } }] as RequestInit[]) {
        assert.equal((await rig.call(`/v1/checkout?secret=${s}&clientSecret=${s}`, init)).status, 401);
      }
      assert.equal(upstreamCount(), calls, 'nothing was sent upstream');
      assert.deepEqual(await snapshot(b.id), before);
    });

    it('does not open the merchant API, and the merchant secret does not open the checkout API', async () => {
      const a = await rig.createCheckout();
      for (const path of ['/v1/link-banks', `/v1/checkouts/${a.id}`, '/v1/notifications', '/v1/orders']) {
        const res = await rig.call(path, { headers: { Authorization: `Bearer ${a.clientSecret}` } });
        assert.equal(res.status, 401, path);
        const raw = await rig.call(path, { headers: { Authorization: a.clientSecret, 'X-Checkout-Secret': a.clientSecret } });
        assert.equal(raw.status, 401, path);
      }
      const resolve = await rig.call(`/v1/checkouts/${a.id}/resolve`, {
        method: 'POST',
        headers: { 'X-Checkout-Secret': a.clientSecret, 'Content-Type': 'application/json' },
        body: JSON.stringify({ outcome: 'succeeded' }),
      });
      assert.equal(resolve.status, 401);
      assert.equal((await snapshot(a.id)).state, 'select-bank');
    });
  });

  describe('state', () => {
    const finishedWith = async (finish: (secret: string) => Promise<unknown>) => {
      // Every mode allowed, so that each action is refused for the state alone.
      const c = await rig.createCheckout({ modes: ['native', 'redirect', 'periodic'] });
      await finish(c.clientSecret);
      return c;
    };

    for (const [name, finish, state] of [
      ['a succeeded', (s: string) => payNative(rig, s, 'aurora', { loginId: 'user' }), 'succeeded'],
      ['a failed', (s: string) => payNative(rig, s, 'aurora', { loginId: 'user', answer: () => '0000' }), 'failed'],
      ['a cancelled', (s: string) => rig.checkout(s, '/v1/checkout/cancel', {}), 'cancelled'],
      [
        'an expired',
        async (s: string) => {
          rig.clock.advance(31 * 60_000);
          await rig.checkout(s, '/v1/checkout');
        },
        'expired',
      ],
    ] as const) {
      it(`${name} checkout refuses every action with 409 and calls nothing upstream`, async () => {
        const c = await finishedWith(finish);
        const before = await snapshot(c.id);
        assert.equal(before.state, state);
        const calls = upstreamCount();
        const received = rig.sandbox.faults.calls();
        for (const [path, body] of ACTIONS) {
          const res = await rig.checkout(c.clientSecret, path, body);
          const err = await json(res, 409);
          assert.equal(err.error.code, 'checkout_finished', path);
        }
        assert.equal(upstreamCount(), calls);
        assert.deepEqual(rig.sandbox.faults.calls(), received, "the simulator's call log did not move");
        assert.deepEqual(await snapshot(c.id), before);
      });
    }

    it('calls out of order get 409 and call nothing upstream', async () => {
      const c = await rig.createCheckout();
      const calls = upstreamCount();
      for (const path of ['/v1/checkout/second-login', '/v1/checkout/contract', '/v1/checkout/transfer', '/v1/checkout/validate']) {
        const body = ACTIONS.find(([p]) => p === path)![1];
        const err = await json(await rig.checkout(c.clientSecret, path, body), 409);
        assert.equal(err.error.code, 'stale_step', `${path} in select-bank`);
      }
      assert.equal(upstreamCount(), calls);

      const v = await payNative(rig, c.clientSecret, 'aurora', { loginId: 'user', stopAt: 'select-account' });
      assert.equal(v.state, 'select-account');
      const mark = upstreamCount();
      for (const path of [
        '/v1/checkout/login',
        '/v1/checkout/second-login',
        '/v1/checkout/contract',
        '/v1/checkout/validate',
        '/v1/checkout/redirect',
        '/v1/checkout/periodic',
      ]) {
        const body = ACTIONS.find(([p]) => p === path)![1];
        const res = await rig.checkout(c.clientSecret, path, body);
        assert.equal(res.status, 409, `${path} in select-account`);
      }
      assert.equal(upstreamCount(), mark);
      assert.equal((await snapshot(c.id)).state, 'select-account');

      const t = await json<CheckoutView>(await rig.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: 'AUR-0001' }));
      assert.equal(t.state, 'validate');
      const again = await json(await rig.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: 'AUR-0001' }), 409);
      assert.equal(again.error.code, 'stale_step', 'a second transfer while validating');
    });

    it('concurrent actions on one checkout start one upstream call; the others get 409', async () => {
      const c = await rig.createCheckout();
      await payNative(rig, c.clientSecret, 'aurora', { loginId: 'user', stopAt: 'select-account' });
      const before = rig.upstream.filter((u) => u.url.endsWith('/test/transfer/init')).length;
      const answers = await Promise.all(Array.from({ length: 6 }, () => rig.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: 'AUR-0001' })));
      const statuses = answers.map((r) => r.status).sort();
      assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses ${statuses.join(', ')}`);
      assert.ok(statuses.filter((s) => s !== 200).every((s) => s === 409));
      assert.equal(rig.upstream.filter((u) => u.url.endsWith('/test/transfer/init')).length, before + 1, 'one transfer started');
    });

    it('concurrent logins (their lock is held in memory on the embedded store) start one login; the others get 409, and no lock is left', async () => {
      const c = await rig.createCheckout();
      const creds = testCredentials('aurora', 'user');
      const body = { bankId: 'aurora', loginId: 'user', fields: { userId: creds.userId, userSecret: creds.userSecret } };
      const logins = () => rig.upstream.filter((u) => u.url.endsWith('/test/login')).length;
      const before = logins();
      const answers = await Promise.all(Array.from({ length: 6 }, () => rig.checkout(c.clientSecret, '/v1/checkout/login', body)));
      const statuses = answers.map((r) => r.status).sort();
      assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses ${statuses.join(', ')}`);
      assert.ok(statuses.filter((s) => s !== 200).every((s) => s === 409));
      assert.equal(logins(), before + 1, 'one login sent');
      assert.equal((await snapshot(c.id)).state, 'select-account');
      const t = await json<CheckoutView>(await rig.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: 'AUR-0001' }));
      assert.equal(t.state, 'validate', 'the next action takes the lock');
    });

    it('a mode the merchant did not allow is refused with 409', async () => {
      const c = await rig.createCheckout({ modes: ['native'] });
      const calls = upstreamCount();
      for (const [path, body] of [
        ['/v1/checkout/mode', { mode: 'redirect' }],
        ['/v1/checkout/mode', { mode: 'periodic' }],
        ['/v1/checkout/redirect', {}],
        ['/v1/checkout/periodic', ACTIONS[7]![1]],
      ] as const) {
        const err = await json(await rig.checkout(c.clientSecret, path, body), 409);
        assert.equal(err.error.code, 'mode_not_allowed', `${path} ${JSON.stringify(body)}`);
      }
      assert.equal(upstreamCount(), calls);
    });
  });

  describe('amount, subject, reference and destination', () => {
    const TAMPER = {
      amount: 1,
      subject: 'Free',
      reference: 'EVIL-1',
      accountDestiny: EVIL_IBAN,
      holderDestiny: 'Mallory',
      currency: 'XXX',
      payee: { iban: EVIL_IBAN },
    };

    it('every action refuses extra fields with 422 and sends nothing upstream', async () => {
      const c = await rig.createCheckout();
      const calls = upstreamCount();
      for (const [path, body] of ACTIONS) {
        for (const extra of Object.entries(TAMPER)) {
          const err = await json(await rig.checkout(c.clientSecret, path, { ...(body as object), [extra[0]]: extra[1] }), 422);
          assert.equal(err.error.code, 'validation_failed', `${path} + ${extra[0]}`);
        }
      }
      assert.equal(upstreamCount(), calls);
      assert.equal((await snapshot(c.id)).state, 'select-bank');
    });

    it('login and validation values cannot smuggle them either', async () => {
      const creds = testCredentials('aurora', 'user');
      for (const [key, value] of [
        ['amount', '1'],
        ['accountDestiny', EVIL_IBAN],
        ['subject', 'x'],
        ['constructor', 'x'],
        ['__proto__', 'x'],
        ['__proto__', { amount: 1 }],
      ] as const) {
        const c = await rig.createCheckout();
        const calls = upstreamCount();
        const body = `{"bankId":"aurora","loginId":"user","fields":{"userId":"${creds.userId}","userSecret":"${creds.userSecret}",${JSON.stringify(key)}:${JSON.stringify(value)}}}`;
        const res = await rig.checkout(c.clientSecret, '/v1/checkout/login', body);
        // `__proto__` included: the JSON parser makes it an own key, which the BFF refuses.
        assert.equal(res.status, 422, `fields.${key}`);
        assert.equal(upstreamCount(), calls);
      }
      const account = await rig.createCheckout();
      await payNative(rig, account.clientSecret, 'aurora', { loginId: 'user', stopAt: 'select-account' });
      const mark = upstreamCount();
      for (const body of [
        '{"__proto__":{"amount":1},"accountId":"AUR-0001"}',
        '{"constructor":{"prototype":{"amount":1}},"accountId":"AUR-0001"}',
        '{"accountId":"AUR-0001","amount":1}',
        '{"accountId":"AUR-0001","accountDestiny":"ES7620770024003102575766"}',
      ]) {
        const res = await rig.checkout(account.clientSecret, '/v1/checkout/transfer', body);
        assert.equal(res.status, 422, body);
      }
      assert.equal(upstreamCount(), mark);
      assert.equal(({} as Record<string, unknown>).amount, undefined, 'no prototype was polluted');
    });

    it("the provider receives the merchant's values whatever the browser adds to URLs, headers and bodies", async () => {
      const c = await rig.createCheckout({ amount: 4321, subject: 'Order 77', reference: 'REF-77' });
      const q = `?amount=1&subject=Free&reference=EVIL&accountDestiny=${EVIL_IBAN}&holderDestiny=Mallory`;
      const headers = { 'X-Amount': '1', 'X-Account-Destiny': EVIL_IBAN, 'X-Forwarded-Host': 'evil.example', Forwarded: 'host=evil.example' };
      const creds = testCredentials('aurora', 'user');
      const go = (path: string, body: unknown) => rig.checkout(c.clientSecret, `${path}${q}`, body, headers);
      await json(await go('/v1/checkout/login', { bankId: 'aurora', loginId: 'user', fields: { userId: creds.userId, userSecret: creds.userSecret } }));
      const v = await json<CheckoutView>(await go('/v1/checkout/transfer', { accountId: 'AUR-0001' }));
      assert.equal(v.state, 'validate');
      const done = await json<CheckoutView>(await go('/v1/checkout/validate', { values: { smsCode: rig.device.get('smsCode') } }));
      assert.equal(done.state, 'succeeded');
      assert.equal(done.amount, 4321);
      assert.deepEqual(done.payee, { name: 'Demo Shop S.L.', iban: MERCHANT_IBAN });
      const init = rig.upstream.filter((u) => u.url.endsWith('/test/transfer/init')).at(-1)!.body as Record<string, unknown>;
      assert.equal(init.amount, 4321);
      assert.equal(init.subject, 'Order 77');
      assert.equal(init.accountDestiny, MERCHANT_IBAN);
      assert.equal(init.holderDestiny, 'Demo Shop S.L.');
    });

    it('a payment link and a periodic order carry the merchant’s values, and the explicit destination survives a change of mode', async () => {
      const link = await rig.createCheckout({ amount: 5150, subject: 'Order 88', reference: 'REF-88', modes: ['redirect'], urlOk: 'https://shop.example/ok' });
      await payByLink(rig, link.clientSecret);
      const signed = rig.upstream.filter((u) => u.url.endsWith('/san/url/signer')).at(-1)!.body as Record<string, unknown>;
      assert.equal(signed.amount, 5150);
      assert.equal(signed.subject, 'Order 88');
      assert.equal(signed.reference, 'REF-88');
      assert.equal(signed.accountDestiny, undefined, 'no destination unless the merchant named one');
      assert.match(String(signed.urlNotif), /^http:\/\/bff\.test\/v1\/notifications\/provider\?c=/);

      const explicit = await rig.createCheckout({
        amount: 6200,
        subject: 'Order 99',
        reference: 'REF-99',
        holderDestiny: 'Shop Two',
        accountDestiny: MERCHANT_IBAN,
        urlOk: 'https://shop.example/ok',
        modes: ['native', 'redirect', 'periodic'],
      });
      await json(await rig.checkout(explicit.clientSecret, '/v1/checkout/mode', { mode: 'periodic' }));
      await json(await rig.checkout(explicit.clientSecret, '/v1/checkout/mode', { mode: 'native' }));
      await json(await rig.checkout(explicit.clientSecret, '/v1/checkout/mode', { mode: 'periodic' }));
      await payByLink(rig, explicit.clientSecret, {
        periodic: { bankId: 'es-cantabrico', frequency: 'Monthly', debtorAccount: EVIL_IBAN, startDate: '2026-12-01' },
      });
      const periodic = rig.upstream.filter((u) => u.url.endsWith('/san/url/periodic-payment-signer')).at(-1)!.body as Record<string, unknown>;
      assert.equal(periodic.amount, 6200);
      assert.equal(periodic.subject, 'Order 99');
      assert.equal(periodic.reference, 'REF-99');
      assert.equal(periodic.accountDestiny, MERCHANT_IBAN);
      assert.equal(periodic.holderDestiny, 'Shop Two');
      assert.equal(periodic.debtorAccount, EVIL_IBAN, "the payer's own account is the payer's to give");
    });

    it('the merchant API is the only way to set them, and only with its secret', async () => {
      const res = await rig.call('/v1/checkouts', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Checkout-Secret': 'cs_anything' },
        body: JSON.stringify({ amount: 1, subject: 'x', reference: 'y' }),
      });
      assert.equal(res.status, 401);
    });
  });
});
