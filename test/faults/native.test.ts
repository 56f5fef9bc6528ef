/**
 * Every call of the native flow (bank list, login, second login, accounts, transfer init,
 * validate) under every upstream fault: the BFF answers 502/504 in its JSON error shape within
 * the timeout budget, leaves the checkout where the state machine says, never repeats a call
 * that may cost the payer an attempt (or move money), retries read-only calls, and keeps
 * serving.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { CheckoutView } from '@bank-checkout/contract';
import type { Harness } from '../../packages/bff/test/harness.js';
import { bankOf, payingAccount, testFields, walk } from '../../packages/bff/test/flow.js';
import {
  READ_ONLY_TRIES,
  arm,
  assertUpstreamError,
  describeFaults,
  disarm,
  faultHarness,
  sandboxCalls,
  stray,
  viewOf,
  type Fault,
  type FaultStep,
  type Prepared,
} from './support.js';

const P = {
  banks: 'POST /test/banks/list',
  login: 'POST /test/login',
  second: 'POST /test/secondlogin',
  accounts: 'POST /test/accounts/list',
  transfer: 'POST /test/transfer/init',
  validate: 'POST /test/transfer/validate',
} as const;

async function loginRequest(h: Harness, bankId: string): Promise<Required<Prepared>> {
  const c = await h.createCheckout();
  const bank = await bankOf(h, c.clientSecret, bankId);
  const body = { bankId, loginId: bank.defaultLogin, fields: testFields(bank) };
  return { secret: c.clientSecret, run: () => h.checkout(c.clientSecret, '/v1/checkout/login', body) };
}

/** After a failed login or second login: `unknown` on a timeout, else back to the login form. */
const afterAttempt = (f: Fault) =>
  f.code === 'upstream_timeout' ? { state: 'unknown' as const, error: 'unknown' } : { state: 'login' as const, error: f.code };

const STEPS: FaultStep[] = [
  {
    name: 'bank list (GET /v1/banks)',
    target: P.banks,
    readOnly: true,
    async prepare(h) {
      const c = await h.createCheckout();
      return { secret: c.clientSecret, run: () => h.checkout(c.clientSecret, '/v1/banks') };
    },
    calls: (n) => ({ [P.banks]: n }),
    after: () => ({ state: 'select-bank', error: null }),
    retry: true,
    ok: 'select-bank',
    okCalls: { [P.banks]: 1 },
  },
  {
    name: 'login',
    target: P.login,
    readOnly: false,
    prepare: (h) => loginRequest(h, 'aurora'),
    // A login that failed reaches neither the accounts nor anything after. A timeout leaves the
    // attempt's fate unknown (the bank may have counted it): the checkout is `unknown`.
    calls: (n) => ({ [P.banks]: 1, [P.login]: n }),
    after: afterAttempt,
    retry: (f) => f.code !== 'upstream_timeout',
    ok: 'select-account',
    okCalls: { [P.banks]: 1, [P.login]: 1, [P.accounts]: 1 },
  },
  {
    name: 'second login',
    target: P.second,
    readOnly: false,
    async prepare(h) {
      const { secret, run } = await loginRequest(h, 'levante');
      const v = (await (await run()).json()) as CheckoutView;
      assert.equal(v.step.state, 'second-login');
      const value = v.step.state === 'second-login' ? v.step.field.testValue : null;
      return { secret, run: () => h.checkout(secret, '/v1/checkout/second-login', { value }) };
    },
    calls: (n) => ({ [P.second]: n }),
    after: afterAttempt,
    ok: 'select-account',
    okCalls: { [P.second]: 1, [P.accounts]: 1 },
  },
  {
    name: 'accounts (after a login that succeeded)',
    target: P.accounts,
    readOnly: true,
    prepare: (h) => loginRequest(h, 'aurora'),
    calls: (n) => ({ [P.banks]: 1, [P.login]: 1, [P.accounts]: n }),
    after: (f) => ({ state: 'select-bank', error: f.code }),
    retry: true,
    ok: 'select-account',
    okCalls: { [P.banks]: 1, [P.login]: 1, [P.accounts]: 1 },
  },
  {
    name: 'transfer init',
    target: P.transfer,
    readOnly: false,
    async prepare(h) {
      const c = await h.createCheckout();
      const v = await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
      assert.equal(v.step.state, 'select-account');
      const accountId = v.step.state === 'select-account' ? payingAccount('aurora', v.step.accounts) : '';
      return { secret: c.clientSecret, run: () => h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId }) };
    },
    calls: (n) => ({ [P.transfer]: n }),
    after: () => ({ state: 'unknown', error: 'unknown' }),
    ok: 'validate',
    okCalls: { [P.transfer]: 1 },
  },
  {
    name: 'validate',
    target: P.validate,
    readOnly: false,
    async prepare(h) {
      const c = await h.createCheckout();
      const v = await walk(h, c.clientSecret, 'aurora', { stopAt: 'validate' });
      assert.equal(v.step.state, 'validate');
      const values = v.step.state === 'validate' ? Object.fromEntries(v.step.validations.map((x) => [x.fieldId, x.testValue ?? ''])) : {};
      return { secret: c.clientSecret, run: () => h.checkout(c.clientSecret, '/v1/checkout/validate', { values }) };
    },
    calls: (n) => ({ [P.validate]: n }),
    after: () => ({ state: 'unknown', error: 'unknown' }),
    ok: 'succeeded',
    okCalls: { [P.validate]: 1 },
  },
];

// The suites wait on timers most of the time and share nothing: they run side by side.
describe('native flow under upstream faults', { concurrency: true }, () => {
  for (const step of STEPS) describeFaults(`native ${step.name}`, step);

  describe('native: around the faults', { concurrency: 1 }, () => {
    let h: Harness;
    before(async () => {
      h = await faultHarness();
    });
    beforeEach(() => disarm(h));
    after(async () => {
      await h.close();
      assert.deepEqual(stray, []);
    });

    it('a bank list that fails during login stops it before the login call', async () => {
      const { secret, run } = await loginRequest(h, 'aurora');
      await arm(h, 'POST', '/test/banks/list', { kind: 'status', status: 502 });
      await assertUpstreamError(await run(), { status: 502, code: 'upstream' });
      assert.deepEqual(await sandboxCalls(h), { [P.banks]: READ_ONLY_TRIES });
      const v = await viewOf(h, secret);
      assert.equal(v.state, 'select-bank');
      assert.equal(v.error, undefined);
    });

    it('a checkout left unknown by a login timeout is never resubmitted; the merchant resolves it as failed', async () => {
      const { secret, run } = await loginRequest(h, 'aurora');
      await arm(h, 'POST', '/test/login', { kind: 'hang' });
      await assertUpstreamError(await run(), { status: 504, code: 'upstream_timeout' });
      await arm(h, 'POST', '/test/login', null);
      const again = await run();
      assert.equal(again.status, 409);
      assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'stale_step');
      assert.deepEqual(await sandboxCalls(h), {});
      const v = await viewOf(h, secret);
      assert.equal(v.state, 'unknown');
      const id = v.id;
      assert.ok(
        h.events.find((e) => e.checkoutId === id && e.state === 'unknown'),
        'the merchant is told the checkout is unknown',
      );
      const resolved = await h.merchant(`/v1/checkouts/${id}/resolve`, { body: { outcome: 'failed' } });
      assert.equal(resolved.status, 200);
      assert.equal((await viewOf(h, secret)).state, 'failed');
    });

    for (const target of [P.transfer, P.validate]) {
      it(`an unknown checkout after a ${target} timeout is never resubmitted; the merchant resolves it`, async () => {
        const c = await h.createCheckout();
        let v = await walk(h, c.clientSecret, 'aurora', { stopAt: target === P.transfer ? 'select-account' : 'validate' });
        const accountId = v.step.state === 'select-account' ? payingAccount('aurora', v.step.accounts) : '';
        const values = v.step.state === 'validate' ? Object.fromEntries(v.step.validations.map((x) => [x.fieldId, x.testValue ?? ''])) : {};
        const [m, p] = target.split(' ') as [string, string];
        await arm(h, m, p, { kind: 'hang' });
        const send = () =>
          target === P.transfer
            ? h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId })
            : h.checkout(c.clientSecret, '/v1/checkout/validate', { values });
        await assertUpstreamError(await send(), { status: 504, code: 'upstream_timeout' });
        await arm(h, m, p, null);
        // The payer sends it again (a double click, a reload): refused without an upstream call.
        for (const res of [await send(), await h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: 'AUR-0001' })]) {
          assert.equal(res.status, 409);
          assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'stale_step');
        }
        assert.deepEqual(await sandboxCalls(h), {});
        v = await viewOf(h, c.clientSecret);
        assert.equal(v.state, 'unknown');
        const event = h.events.find((e) => e.checkoutId === c.id && e.state === 'unknown');
        assert.ok(event, 'the merchant is told the checkout is unknown');
        const resolved = await h.merchant(`/v1/checkouts/${c.id}/resolve`, { body: { outcome: 'succeeded' } });
        assert.equal(resolved.status, 200);
        assert.equal((await viewOf(h, c.clientSecret)).state, 'succeeded');
      });
    }

    it('two requests racing a hanging login start one login call; the second gets 409 at once', async () => {
      const { run } = await loginRequest(h, 'aurora');
      await arm(h, 'POST', '/test/login', { kind: 'hang' });
      const first = run();
      // The second starts once the first holds the checkout's lock and waits on the provider.
      while (!h.upstreamCalls.includes(P.login)) await new Promise<void>((resolve) => setImmediate(resolve));
      // "At once": the second is answered while the first still waits on the provider.
      const firstDone = first.then(() => 'first');
      const second = await run();
      assert.equal(second.status, 409);
      assert.equal(await Promise.race([firstDone, Promise.resolve('second')]), 'second', 'the second was answered before the first ended');
      await assertUpstreamError(await first, { status: 504, code: 'upstream_timeout' });
      assert.equal((await sandboxCalls(h))[P.login], 1);
    });
  });
});
