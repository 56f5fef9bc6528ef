/**
 * A checkout's lock holds for as long as its action can legitimately take: a login waits on
 * the bank list, the login call and the account list (each read-only call up to three tries),
 * so another request meanwhile must neither release the lock nor start a second login, and
 * the action's outcome is written when it ends. The harness's clock stands for the time the
 * slow calls took; the last call really hangs until the provider timeout.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Harness } from '../../packages/bff/test/harness.js';
import { bankOf, payingAccount, testFields, walk } from '../../packages/bff/test/flow.js';
import { assertUpstreamError, disarm, faultHarness, sandboxCalls, stray, viewOf } from './support.js';

const TIMEOUT_MS = 2_000;

describe('checkout lock during a long action', () => {
  let h: Harness;
  before(async () => {
    h = await faultHarness({ PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) });
  });
  beforeEach(() => disarm(h));
  after(async () => {
    await h.close();
    assert.deepEqual(stray, []);
  });

  it('a login whose accounts are retried keeps its lock to the end; nothing else starts meanwhile', async () => {
    const c = await h.createCheckout();
    const bank = await bankOf(h, c.clientSecret, 'aurora');
    const body = { bankId: 'aurora', loginId: bank.defaultLogin, fields: testFields(bank) };
    for (const rule of [{ kind: 'status', status: 503, times: 2 }, { kind: 'hang' }]) {
      const res = await h.sandbox.app.request('/__sandbox/faults', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ method: 'POST', path: '/test/accounts/list', ...rule }),
      });
      assert.equal(res.status, 201);
    }
    await h.sandbox.app.request('/__sandbox/calls', { method: 'DELETE' });

    const login = h.checkout(c.clientSecret, '/v1/checkout/login', body);
    // The third try of the account list is in flight.
    while (h.upstreamCalls.filter((x) => x === 'POST /test/accounts/list').length < 3) await new Promise<void>((r) => setImmediate(r));
    // The login and the two failed tries could each have taken up to the timeout, and the
    // third try is most of the way to its own.
    h.clock.advance(3.75 * TIMEOUT_MS);

    const v = await viewOf(h, c.clientSecret);
    assert.equal(v.state, 'select-bank');
    const again = await h.checkout(c.clientSecret, '/v1/checkout/login', body);
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'checkout_busy');

    await assertUpstreamError(await login, { status: 504, code: 'upstream_timeout' });
    assert.deepEqual(await sandboxCalls(h), { 'POST /test/banks/list': 1, 'POST /test/login': 1, 'POST /test/accounts/list': 3 });
    const end = await viewOf(h, c.clientSecret);
    assert.equal(end.state, 'select-bank');
    assert.equal(end.error?.code, 'upstream_timeout');
  });

  it('a lock left by a process that stopped mid-validation turns the checkout unknown once its lease, and the one more its holder is given, lapse', async () => {
    const c = await h.createCheckout();
    await walk(h, c.clientSecret, 'aurora', { stopAt: 'validate' });
    const store = h.bff.parts.store;
    const leaseMs = h.bff.parts.service.leaseMs;
    assert.ok(leaseMs <= TIMEOUT_MS + 2_000, 'a lease is one provider call and a small margin');
    const rec = (await store.getCheckout(c.id))!;
    const locked = await store.updateCheckout(rec.id, rec.version, {
      internal: { ...rec.internal, busy: { op: 'validate', since: h.clock.now, until: h.clock.now + leaseMs, holder: 'bff_gone' } },
    });
    assert.ok(locked);
    // Until the lease lapses, the lock holds (its holder may renew it: no end is promised).
    h.clock.advance(leaseMs);
    const held = await viewOf(h, c.clientSecret);
    assert.deepEqual({ state: held.state, inFlight: held.inFlight, until: held.inFlightUntil }, { state: 'validate', inFlight: 'validate', until: undefined });
    assert.equal((await h.checkout(c.clientSecret, '/v1/checkout/validate', { values: {} })).status, 409);
    // Lapsed: its holder may be alive and kept from the store; it is given one more lease.
    h.clock.advance(1);
    const overdue = await viewOf(h, c.clientSecret);
    assert.deepEqual({ state: overdue.state, inFlight: overdue.inFlight }, { state: 'validate', inFlight: 'validate' });
    // Its holder went quiet: the payer is told when the wait ends at the latest.
    assert.equal(overdue.inFlightUntil, new Date(h.clock.now + leaseMs).toISOString());
    h.clock.advance(leaseMs + 1);
    const v = await viewOf(h, c.clientSecret);
    assert.equal(v.state, 'unknown');
    assert.equal((await sandboxCalls(h))['POST /test/transfer/validate'], undefined);
  });

  it('a lock left by a process that stopped mid-transfer is open again once its lease and the one more lapse: no doubt (a transfer’s start moves no money), the payer pays', async () => {
    const c = await h.createCheckout();
    const at = await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
    const accountId = at.step.state === 'select-account' ? payingAccount('aurora', at.step.accounts) : '';
    const store = h.bff.parts.store;
    const leaseMs = h.bff.parts.service.leaseMs;
    const rec = (await store.getCheckout(c.id))!;
    assert.ok(
      await store.updateCheckout(rec.id, rec.version, {
        internal: { ...rec.internal, busy: { op: 'transfer', since: h.clock.now, until: h.clock.now + leaseMs, holder: 'bff_gone' } },
      }),
    );
    assert.equal((await h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId })).status, 409, 'the lease still holds');
    // Its holder may be alive with the bank's challenge in its hands: one more lease to come back.
    h.clock.advance(leaseMs + 1);
    const overdue = await viewOf(h, c.clientSecret);
    assert.deepEqual({ state: overdue.state, inFlight: overdue.inFlight }, { state: 'select-account', inFlight: 'transfer' });
    h.clock.advance(leaseMs + 1);
    const open = await viewOf(h, c.clientSecret);
    assert.deepEqual({ state: open.state, inFlight: open.inFlight }, { state: 'select-account', inFlight: undefined });
    const transfer = await h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId });
    assert.equal(transfer.status, 200);
    assert.equal(((await transfer.json()) as { state: string }).state, 'validate');
    assert.ok(!h.events.some((e) => e.checkoutId === c.id), 'nothing to tell the merchant: no outcome, no doubt');
  });

  it('a login left by a process that stopped mid-call is open again once its lease lapses: the next login runs', async () => {
    const c = await h.createCheckout();
    const store = h.bff.parts.store;
    const leaseMs = h.bff.parts.service.leaseMs;
    const bank = await bankOf(h, c.clientSecret, 'aurora');
    const rec = (await store.getCheckout(c.id))!;
    assert.ok(
      await store.updateCheckout(rec.id, rec.version, {
        internal: { ...rec.internal, busy: { op: 'login', since: h.clock.now, until: h.clock.now + leaseMs, holder: 'bff_gone' } },
      }),
    );
    const body = { bankId: 'aurora', loginId: bank.defaultLogin, fields: testFields(bank) };
    assert.equal((await h.checkout(c.clientSecret, '/v1/checkout/login', body)).status, 409, 'the lease still holds');
    h.clock.advance(leaseMs + 1);
    const res = await h.checkout(c.clientSecret, '/v1/checkout/login', body);
    assert.equal(res.status, 200);
    assert.notEqual(((await res.json()) as { state: string }).state, 'select-bank');
  });
});
