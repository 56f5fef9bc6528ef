/**
 * The payer always has a way forward: start again after a failure or a cancellation (attempts
 * kept), step back before the transfer, a fresh challenge after a wrong code, and a new
 * transfer after the validation window.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, view, type Harness } from './harness.js';
import { bankOf, testFields, walk } from './flow.js';

describe('a way forward', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());

  const post = (secret: string, path: string) => h.checkout(secret, path, {});

  it('starts again after a cancellation and after a failure, keeping the attempts spent', async () => {
    const c = await h.createCheckout();
    const cancelled = await view(await post(c.clientSecret, '/v1/checkout/cancel'));
    assert.deepEqual([cancelled.state, cancelled.actions], ['cancelled', ['restart']]);
    const again = await view(await post(c.clientSecret, '/v1/checkout/restart'));
    assert.equal(again.state, 'select-bank');
    assert.equal(again.error, undefined);

    // A wrong password spends an attempt; after cancelling and starting again it stays spent.
    const bank = await bankOf(h, c.clientSecret, 'aurora');
    const fields = testFields(bank);
    const wrong = { ...fields, userSecret: (fields.userSecret![0] === '9' ? '8' : '9') + fields.userSecret!.slice(1) };
    const refused = await view(await h.checkout(c.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId: bank.defaultLogin, fields: wrong }));
    assert.equal(refused.attemptsLeft, 2);
    await post(c.clientSecret, '/v1/checkout/cancel');
    const restarted = await view(await post(c.clientSecret, '/v1/checkout/restart'));
    assert.equal(restarted.attemptsLeft, 2, 'starting over gives no new attempts');
    assert.equal((await walk(h, c.clientSecret, 'aurora')).state, 'succeeded');
    const paid = await post(c.clientSecret, '/v1/checkout/restart');
    assert.equal(paid.status, 409, 'never after a payment');

    // Attempts used up: a start again gives one attempt, and one more wrong password ends it.
    const d = await h.createCheckout();
    for (let i = 0; i < 3; i++) await h.checkout(d.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId: bank.defaultLogin, fields: wrong });
    const stopped = await view(await h.checkout(d.clientSecret, '/v1/checkout'));
    assert.deepEqual([stopped.state, stopped.attemptsLeft, stopped.error?.code], ['failed', 0, 'attempts']);
    const last = await view(await post(d.clientSecret, '/v1/checkout/restart'));
    assert.deepEqual([last.state, last.attemptsLeft], ['select-bank', 1]);
    const ended = await view(await h.checkout(d.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId: bank.defaultLogin, fields: wrong }));
    assert.deepEqual([ended.state, ended.attemptsLeft, ended.error?.code], ['failed', 0, 'attempts']);
  });

  it('does not start again once the checkout has expired', async () => {
    const c = await h.createCheckout({ expiresInMinutes: 5 });
    await post(c.clientSecret, '/v1/checkout/cancel');
    h.clock.advance(5 * 60_000 + 1);
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout'));
    assert.deepEqual(v.actions, []);
    assert.equal((await post(c.clientSecret, '/v1/checkout/restart')).status, 409);
  });

  it('steps back from each step before the transfer: to the contracts, or to the same bank’s sign-in', async () => {
    // A bank with a second login (SMS): back to that bank's sign-in (the bank session ends).
    const a = await h.createCheckout();
    const second = await walk(h, a.clientSecret, 'levante', { stopAt: 'second-login' });
    assert.ok(second.actions.includes('back'));
    const signIn = await view(await post(a.clientSecret, '/v1/checkout/back'));
    assert.equal(signIn.state, 'login');
    assert.ok(signIn.step.state === 'login' && signIn.step.bank.bankId === 'levante');
    // From the sign-in, to the bank list.
    assert.equal((await view(await post(a.clientSecret, '/v1/checkout/back'))).state, 'select-bank');

    // Several contracts: from the accounts back to the contracts (the session goes on), then to the sign-in.
    const b = await h.createCheckout();
    const contracts = await walk(h, b.clientSecret, 'aurora-empresas', { stopAt: 'select-contract' });
    assert.ok(contracts.step.state === 'select-contract');
    const accounts = await view(await h.checkout(b.clientSecret, '/v1/checkout/contract', { contractId: contracts.step.contracts[0]!.contractId }));
    assert.ok(accounts.step.state === 'select-account' && accounts.step.back === 'select-contract');
    const backToContracts = await view(await post(b.clientSecret, '/v1/checkout/back'));
    assert.equal(backToContracts.state, 'select-contract');
    const again = await view(await h.checkout(b.clientSecret, '/v1/checkout/contract', { contractId: contracts.step.contracts[1]!.contractId }));
    assert.equal(again.state, 'select-account', 'the same bank session lists the other contract’s accounts');
    await post(b.clientSecret, '/v1/checkout/back');
    const bSignIn = await view(await post(b.clientSecret, '/v1/checkout/back'));
    assert.ok(bSignIn.step.state === 'login' && bSignIn.step.bank.bankId === 'aurora-empresas');

    // One contract: from the accounts to the same bank's sign-in.
    const d = await h.createCheckout();
    const list = await walk(h, d.clientSecret, 'aurora', { stopAt: 'select-account' });
    assert.ok(list.step.state === 'select-account' && list.step.back === 'login');
    const dSignIn = await view(await post(d.clientSecret, '/v1/checkout/back'));
    assert.ok(dSignIn.step.state === 'login' && dSignIn.step.bank.bankId === 'aurora');
    assert.equal(dSignIn.error, undefined);

    // Not once the transfer started.
    const c = await h.createCheckout();
    const challenge = await walk(h, c.clientSecret, 'aurora', { stopAt: 'validate' });
    assert.ok(!challenge.actions.includes('back'));
    assert.equal((await post(c.clientSecret, '/v1/checkout/back')).status, 409);
  });

  it('marks the accounts the bank refused, and keeps the others as they were', async () => {
    const c = await h.createCheckout();
    await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
    const refused = await view(await h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: 'AUR-0003' }));
    assert.ok(refused.step.state === 'select-account');
    assert.equal(refused.error?.code, 'B106');
    assert.deepEqual(
      refused.step.accounts.filter((a) => a.refused).map((a) => a.accountId),
      ['AUR-0003'],
    );
  });

  it('answers an action for a step the checkout has left with 409 stale_step and the current view', async () => {
    const c = await h.createCheckout();
    const accounts = await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
    assert.ok(accounts.step.state === 'select-account');
    // Another window chose the account: the checkout is at the validation.
    const challenge = await view(await h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: accounts.step.accounts[0]!.accountId }));
    assert.equal(challenge.state, 'validate');
    // This window, still on the accounts, chooses one too.
    const res = await h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: accounts.step.accounts[0]!.accountId });
    assert.equal(res.status, 409);
    const body = (await res.json()) as { error: { code: string }; view: { state: string; step: { state: string } } };
    assert.equal(body.error.code, 'stale_step');
    assert.equal(body.view.state, 'validate');
    assert.equal(body.view.step.state, 'validate');

    // Codes for a round the checkout has left are stale too, and change nothing.
    const stale = await h.checkout(c.clientSecret, '/v1/checkout/validate', { values: { 'an-earlier-round': '1234' } });
    assert.equal(stale.status, 409);
    assert.equal(((await stale.json()) as { error: { code: string } }).error.code, 'stale_step');
    const still = await view(await h.checkout(c.clientSecret, '/v1/checkout'));
    assert.deepEqual([still.state, still.attemptsLeft], ['validate', challenge.attemptsLeft]);
  });

  it('tells a wrong second-login code from wrong credentials, and a session that timed out from bad data', async () => {
    const a = await h.createCheckout();
    const second = await walk(h, a.clientSecret, 'levante', { stopAt: 'second-login' });
    assert.equal(second.state, 'second-login');
    const wrong = await view(await h.checkout(a.clientSecret, '/v1/checkout/second-login', { value: '000001' }));
    assert.equal(wrong.state, 'login');
    assert.deepEqual(wrong.error, { code: 'B100', message: 'error.secondLoginCode' });

    const b = await h.createCheckout();
    const contracts = await walk(h, b.clientSecret, 'aurora-empresas', { stopAt: 'select-contract' });
    assert.ok(contracts.step.state === 'select-contract');
    h.clock.advance(16 * 60_000); // the bank ends a session after 15 quiet minutes
    const ended = await view(await h.checkout(b.clientSecret, '/v1/checkout/contract', { contractId: contracts.step.contracts[0]!.contractId }));
    assert.equal(ended.state, 'login', 'the payer logs in again at the same bank');
    assert.ok(ended.step.state === 'login' && ended.step.bank.bankId === 'aurora-empresas');
    assert.deepEqual(ended.error, { code: 'E301', message: 'error.sessionEnded' });

    // The same at the account list: the transfer finds the session ended; nothing is spent.
    const c = await h.createCheckout();
    const accounts = await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
    assert.equal(accounts.state, 'select-account');
    h.clock.advance(16 * 60_000);
    const late = await view(await h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: 'AUR-0001' }));
    assert.equal(late.state, 'login');
    assert.deepEqual(late.error, { code: 'E301', message: 'error.sessionEnded' });
    const relogged = await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
    assert.equal(relogged.state, 'select-account', 'a new login leads to the accounts again');
    assert.equal(late.attemptsLeft, 3, 'no attempt spent');
  });

  it('takes a session as ended only after the quiet time the operator set', async () => {
    const patient = await createHarness({ PROVIDER_SESSION_QUIET_SECONDS: '3600' });
    try {
      const c = await patient.createCheckout();
      await walk(patient, c.clientSecret, 'aurora', { stopAt: 'select-account' });
      patient.clock.advance(16 * 60_000); // the simulator ends it; the operator said sessions live an hour
      const v = await view(await patient.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: 'AUR-0001' }));
      assert.deepEqual([v.state, v.error], ['failed', { code: 'E301', message: 'error.E301' }]);
    } finally {
      await patient.close();
    }
  });

  it('an E301 on a session just used is about the data, not the session', async () => {
    const d = await h.createCheckout();
    await walk(h, d.clientSecret, 'aurora', { stopAt: 'select-account' });
    h.override = (path) =>
      path === '/test/transfer/init' ? Response.json({ status: 'E301', description: 'holderDestiny: incorrect' }, { status: 400 }) : undefined;
    const bad = await view(await h.checkout(d.clientSecret, '/v1/checkout/transfer', { accountId: 'AUR-0001' })).finally(() => (h.override = null));
    assert.equal(bad.state, 'failed');
    assert.deepEqual(bad.error, { code: 'E301', message: 'error.E301' });
  });
});
