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

/** After a failed login or second login, whatever the fault: back to the bank's sign-in (no money can have moved). */
const afterAttempt = (f: Fault) => ({ state: 'login' as const, error: f.code });

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
    // A login that failed reaches neither the accounts nor anything after. The payer signs in
    // again (a timeout may have counted as an attempt at the bank: the view says so).
    calls: (n) => ({ [P.banks]: 1, [P.login]: n }),
    after: afterAttempt,
    retry: true,
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
      const value = v.step.field.testValue;
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
      const accountId = payingAccount('aurora', v.step.accounts);
      return { secret: c.clientSecret, run: () => h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId }) };
    },
    calls: (n) => ({ [P.transfer]: n }),
    // A transfer's start moves no money (every bank asks for a validation): back to the accounts.
    after: (f) => ({ state: 'select-account', error: f.code }),
    retry: true,
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
      const values = Object.fromEntries(v.step.validations.map((x) => [x.fieldId, x.testValue ?? '']));
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

    it('a sign-in the bank did not answer leaves the payer at its sign-in, told it may have counted as an attempt; the next sign-in pays', async () => {
      const { secret, run } = await loginRequest(h, 'aurora');
      await arm(h, 'POST', '/test/login', { kind: 'hang' });
      await assertUpstreamError(await run(), { status: 504, code: 'upstream_timeout' });
      await arm(h, 'POST', '/test/login', null);
      const v = await viewOf(h, secret);
      assert.deepEqual({ state: v.state, error: v.error }, { state: 'login', error: { code: 'upstream_timeout', message: 'error.loginNoAnswer' } });
      assert.equal(v.step.state === 'login' && v.step.bank.bankId, 'aurora', 'the bank stays chosen');
      assert.ok(!h.events.some((e) => e.checkoutId === v.id), 'no doubt to tell the merchant');
      assert.equal((await run()).status, 200);
      assert.equal((await walk(h, secret, 'aurora', { resumeOnly: true })).state, 'succeeded');
    });

    it('a second sign-in the bank did not answer goes back to the sign-in, never unknown', async () => {
      const { secret, run } = await loginRequest(h, 'levante');
      const v0 = (await (await run()).json()) as CheckoutView;
      const value = v0.step.state === 'second-login' ? v0.step.field.testValue : null;
      await arm(h, 'POST', '/test/secondlogin', { kind: 'hang' });
      await assertUpstreamError(await h.checkout(secret, '/v1/checkout/second-login', { value }), { status: 504, code: 'upstream_timeout' });
      const v = await viewOf(h, secret);
      assert.deepEqual({ state: v.state, message: v.error?.message }, { state: 'login', message: 'error.loginNoAnswer' });
    });

    it('a transfer start the bank did not answer goes back to the accounts, saying no payment was made; the payer pays on the next try', async () => {
      const c = await h.createCheckout();
      const at = await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
      const accountId = at.step.state === 'select-account' ? payingAccount('aurora', at.step.accounts) : '';
      await arm(h, 'POST', '/test/transfer/init', { kind: 'hang' });
      await assertUpstreamError(await h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId }), { status: 504, code: 'upstream_timeout' });
      await arm(h, 'POST', '/test/transfer/init', null);
      const v = await viewOf(h, c.clientSecret);
      assert.deepEqual({ state: v.state, error: v.error }, { state: 'select-account', error: { code: 'upstream_timeout', message: 'error.transferNoAnswer' } });
      assert.ok(!h.events.some((e) => e.checkoutId === c.id), 'no doubt to tell the merchant');
      assert.equal((await walk(h, c.clientSecret, 'aurora', { resumeOnly: true })).state, 'succeeded');
    });

    it('an unknown checkout after a validation timeout is never resubmitted; the merchant resolves it', async () => {
      const c = await h.createCheckout();
      let v = await walk(h, c.clientSecret, 'aurora', { stopAt: 'validate' });
      const values = v.step.state === 'validate' ? Object.fromEntries(v.step.validations.map((x) => [x.fieldId, x.testValue ?? ''])) : {};
      await arm(h, 'POST', '/test/transfer/validate', { kind: 'hang' });
      const send = () => h.checkout(c.clientSecret, '/v1/checkout/validate', { values });
      await assertUpstreamError(await send(), { status: 504, code: 'upstream_timeout' });
      await arm(h, 'POST', '/test/transfer/validate', null);
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

    it('two requests racing a hanging login start one login call; the second gets 409 at once', async () => {
      const { run } = await loginRequest(h, 'aurora');
      await arm(h, 'POST', '/test/login', { kind: 'hang' });
      const logins = () => h.upstreamCalls.filter((x) => x === P.login).length;
      const before = logins();
      const first = run();
      // The second starts once the first holds the checkout's lock and waits on the provider.
      while (logins() === before) await new Promise<void>((resolve) => setImmediate(resolve));
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
