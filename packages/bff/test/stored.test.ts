/**
 * What a checkout stores: the bank it names by id and name (its login description is read from
 * the cached bank list when the login form is shown), and, once it ends, only what an ended
 * checkout needs.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, view, type Harness } from './harness.js';
import { bankOf, testFields, walk } from './flow.js';

describe('what a checkout stores', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());
  const stored = async (id: string) => (await h.bff.parts.store.getCheckout(id))!;

  it('names the bank by id and name; the login form after a wrong password is the bank list’s description', async () => {
    const c = await h.createCheckout();
    const bank = await bankOf(h, c.clientSecret, 'aurora');
    const fields = testFields(bank);
    const wrong = { ...fields, userSecret: (fields.userSecret![0] === '9' ? '8' : '9') + fields.userSecret!.slice(1) };
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId: bank.defaultLogin, fields: wrong }));
    assert.equal(v.state, 'login');
    const rec = await stored(c.id);
    assert.deepEqual(rec.internal.bank, { bankId: 'aurora', label: bank.label });
    assert.doesNotMatch(JSON.stringify(rec), /logins|fieldId|testValue/);
    // The form is the bank's, as the bank list describes it (the sandbox's test values included).
    assert.ok(v.step.state === 'login');
    assert.deepEqual(v.step.bank, bank);
    const merchant = (await (await h.merchant(`/v1/checkouts/${c.id}`)).json()) as { step: { state: string; bank?: { bankId: string } } };
    assert.equal(merchant.step.state, 'login');
    assert.equal(merchant.step.bank?.bankId, 'aurora');
  });

  it('keeps the bank, the account paid from (masked), the provider transaction and nothing of the session once paid', async () => {
    const c = await h.createCheckout();
    const v = await walk(h, c.clientSecret, 'cantabrico-empresas');
    assert.equal(v.state, 'succeeded');
    const { internal } = await stored(c.id);
    assert.deepEqual(Object.keys(internal).sort(), ['bank', 'funnel', 'outcomeAt', 'paidFrom', 'transactionId']);
    assert.equal(internal.bank?.bankId, 'cantabrico-empresas');
    assert.match(internal.paidFrom ?? '', /^ES •••• \d{4}$/, 'of the account, its country and last four digits only');
  });

  it('keeps nothing of the session once cancelled at the account list', async () => {
    const c = await h.createCheckout();
    await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
    assert.ok((await stored(c.id)).internal.accounts?.length, 'the accounts are kept while the payer chooses');
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout/cancel', {}));
    assert.equal(v.state, 'cancelled');
    const { internal } = await stored(c.id);
    assert.deepEqual(Object.keys(internal).sort(), ['bank', 'funnel']);
  });

  it('after a restart (no bank list in memory) the login form is read from the provider again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bff-stored-'));
    const r = await createHarness({}, { databaseUrl: `file:${join(dir, 'bff.db')}` });
    try {
      const c = await r.createCheckout();
      const bank = await bankOf(r, c.clientSecret, 'levante');
      const fields = testFields(bank);
      const wrong = { ...fields, userSecret: (fields.userSecret![0] === '9' ? '8' : '9') + fields.userSecret!.slice(1) };
      assert.equal(
        (await view(await r.checkout(c.clientSecret, '/v1/checkout/login', { bankId: 'levante', loginId: bank.defaultLogin, fields: wrong }))).state,
        'login',
      );
      await r.restart();
      const calls = r.upstreamCalls.length;
      const v = await view(await r.checkout(c.clientSecret, '/v1/checkout'));
      assert.ok(v.step.state === 'login');
      assert.deepEqual(v.step.bank, bank);
      assert.deepEqual(r.upstreamCalls.slice(calls), ['POST /test/banks/list']);
    } finally {
      await r.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
