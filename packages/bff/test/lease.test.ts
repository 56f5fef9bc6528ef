/**
 * The lock of a call with the bank, pinned: taken only on the version the request read, renewed
 * while the call runs, and, once lost, never written over. A bank's answer is never dropped: it
 * is written after the lease lapsed (`late-answer`), and after the store failed (the payer is
 * told 503 meanwhile), with one terminal event.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FINAL_STATES } from '@bank-checkout/contract';
import { createStore, type Store } from '../src/store/index.js';
import { createHarness, view, type Harness } from './harness.js';
import { walk } from './flow.js';
import { breakStore } from './slow-store.js';
import { frameKeys } from './frame-proof.js';
import { until } from './until.js';

const WEBHOOK = { MERCHANT_WEBHOOK_URL: 'http://merchant.test/hook', MERCHANT_WEBHOOK_SECRET: 'lease-webhook-secret-0123456789' };
type Json = Record<string, unknown>;

/** Holds the next upstream call to `path` until `release()`; `arrived` resolves when it is made. */
function holdCall(h: Harness, path: string) {
  let arrived!: () => void;
  let release!: (answer?: Response) => void;
  const gate = { arrived: new Promise<void>((r) => (arrived = r)), release: (answer?: Response) => release(answer) };
  let used = false;
  h.override = (p, pass) => {
    if (p !== path || used) return undefined;
    used = true;
    arrived();
    return new Promise<Response>((resolve) => (release = (answer) => resolve(answer ?? pass())));
  };
  return gate;
}

async function terminalEvents(h: Harness, checkoutId: string) {
  const events = await h.bff.parts.store.listEvents({ limit: 500 });
  return events
    .filter((e) => e.type === 'checkout.updated' && (e.data as Json).checkoutId === checkoutId)
    .map((e) => (e.data as Json).state as string)
    .filter((s) => (FINAL_STATES as readonly string[]).includes(s));
}

/**
 * The holder of the validation in flight renews nothing (as if it were gone): its lease lapses
 * and the first read gives it one more lease (the payer still sees the confirmation in flight);
 * once that one lapses too, the next read settles the checkout unknown.
 */
async function holderGone(h: Harness, secret: string) {
  h.clock.advance(h.bff.parts.service.leaseMs + 1);
  const overdue = await view(await h.checkout(secret, '/v1/checkout'));
  assert.deepEqual({ state: overdue.state, inFlight: overdue.inFlight }, { state: 'validate', inFlight: 'validate' }, 'one more lease for its holder');
  h.clock.advance(h.bff.parts.service.leaseMs + 1);
  assert.equal((await view(await h.checkout(secret, '/v1/checkout'))).state, 'unknown');
}

/** A checkout at Banco Aurora's confirmation (one SMS round), with the value that pays. */
async function atConfirmation(h: Harness) {
  const c = await h.createCheckout();
  const v = await walk(h, c.clientSecret, 'aurora', { stopAt: 'validate' });
  if (v.step.state !== 'validate') throw new Error(`at ${v.step.state}`);
  const values = Object.fromEntries(v.step.validations.map((x) => [x.fieldId, x.testValue ?? '']));
  return { c, values };
}

describe("the lease of a call with the bank (no renewal within a test: a 40 s provider timeout; two leases stay within the bank's validation window)", () => {
  let h: Harness;
  /** Which test request a store call is made for. */
  const requests = new AsyncLocalStorage<string>();
  /** While set: the store calls of `request` after its first (`init` aside) wait until `until` settles. */
  let holdAfterFirstCall: { request: string; until: Promise<void>; calls: () => number } | null = null;
  const gated = (inner: Store): Store =>
    new Proxy(inner, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const hold = holdAfterFirstCall;
          if (hold && prop !== 'init' && requests.getStore() === hold.request && hold.calls() > 1) await hold.until;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  before(async () => {
    h = await createHarness({ ...WEBHOOK, PROVIDER_TIMEOUT_MS: '40000' }, { store: () => gated(createStore(':memory:')) });
  });
  beforeEach(() => {
    h.override = null;
    holdAfterFirstCall = null;
  });
  after(() => h.close());

  it('a lock is taken on the version the request read: of two confirmations that read one checkout, the second sends nothing', async () => {
    const { c, values } = await atConfirmation(h);
    // The second request reads the checkout, then waits (every later store call of its own) until the first confirmation is written.
    let firstDone!: () => void;
    const first = new Promise<void>((r) => (firstDone = r));
    let reads = 0;
    holdAfterFirstCall = { request: 'second', until: first, calls: () => ++reads };
    const sent = () => h.upstreamCalls.filter((x) => x.endsWith('/transfer/validate')).length;
    const before = sent();
    const second = requests.run('second', () => h.checkout(c.clientSecret, '/v1/checkout/validate', { values }));
    await until(() => reads >= 1, 'the second request to read the checkout');
    const ra = await h.checkout(c.clientSecret, '/v1/checkout/validate', { values });
    firstDone();
    const rb = await second;
    assert.equal(ra.status, 200);
    assert.equal(((await ra.json()) as Json).state, 'succeeded');
    assert.equal(rb.status, 409, 'the request that read the checkout before the first confirmation is refused');
    assert.equal(sent() - before, 1, 'one confirmation sent');
  });

  it('an answer that arrives after the lease lapsed is written: money moved ends succeeded, with one terminal event', async () => {
    const { c, values } = await atConfirmation(h);
    const call = holdCall(h, '/test/transfer/validate');
    const confirming = h.checkout(c.clientSecret, '/v1/checkout/validate', { values });
    await call.arrived;
    // The holder seems gone: its lease lapses, it is given one more, and then the next read settles the checkout unknown.
    await holderGone(h, c.clientSecret);
    // What the merchant sees meanwhile: which call is in doubt, why, at which bank.
    const inDoubt = ((await (await h.merchant(`/v1/checkouts/${c.id}`)).json()) as Json).inDoubt as Json;
    assert.deepEqual({ call: inDoubt.call, why: inDoubt.why, bank: (inDoubt.bank as Json).bankId }, { call: 'validate', why: 'lease', bank: 'aurora' });
    assert.ok(typeof inDoubt.providerTransactionId === 'string');
    call.release();
    const answered = await confirming;
    assert.equal(answered.status, 200);
    assert.equal(((await answered.json()) as Json).state, 'succeeded');
    assert.deepEqual(await terminalEvents(h, c.id), ['succeeded']);
    assert.ok(h.logs.some((l) => l.includes('checkout.late_answer')));
  });

  it('a lost lease is never written over: after the merchant resolved the checkout, an answer that moved no money changes nothing', async () => {
    const { c, values } = await atConfirmation(h);
    const held = holdCall(h, '/test/transfer/validate');
    // A wrong code: the bank answers B103, no money moves.
    const fieldId = Object.keys(values)[0]!;
    const wrong = h.checkout(c.clientSecret, '/v1/checkout/validate', { values: { [fieldId]: '0000' } });
    await held.arrived;
    await holderGone(h, c.clientSecret);
    const resolved = await h.merchant(`/v1/checkouts/${c.id}/resolve`, { body: { outcome: 'failed', note: 'the bank says nothing moved' } });
    assert.equal(resolved.status, 200);
    held.release();
    const answered = await wrong;
    assert.equal(answered.status, 409, 'the answer came after the lease was lost and the checkout decided');
    const after = (await (await h.merchant(`/v1/checkouts/${c.id}`)).json()) as Json;
    assert.equal(after.state, 'failed');
    assert.deepEqual(await terminalEvents(h, c.id), ['failed']);
  });

  it('nothing announced is taken back in silence: a late answer that moved no money reopens the accounts after unknown, with its event, and sends no new transfer after the lease', async () => {
    const { c, values } = await atConfirmation(h);
    const held = holdCall(h, '/test/transfer/validate');
    const fieldId = Object.keys(values)[0]!;
    const wrong = h.checkout(c.clientSecret, '/v1/checkout/validate', { values: { [fieldId]: '0000' } });
    await held.arrived;
    await holderGone(h, c.clientSecret);
    const transfers = h.upstreamCalls.filter((x) => x.endsWith('/transfer/init')).length;
    held.release();
    // The bank's answer: a wrong code (B103), no money moved. A fresh challenge would need a new
    // transfer, which may not leave after the lease: the payer goes on from the accounts.
    const answered = await wrong;
    assert.equal(answered.status, 200);
    const after = (await answered.json()) as Json;
    assert.equal(after.state, 'select-account');
    assert.equal(h.upstreamCalls.filter((x) => x.endsWith('/transfer/init')).length, transfers, 'no transfer after the lease');
    const told = h.events.filter((e) => e.checkoutId === c.id).map((e) => `${e.previousState}→${e.state}`);
    assert.deepEqual(told, ['validate→unknown', 'unknown→select-account'], 'the doubt, and its end, both announced');
    const stored = (await h.bff.parts.store.listEvents({ limit: 500 })).filter((e) => e.type === 'checkout.updated' && (e.data as Json).checkoutId === c.id);
    assert.deepEqual(stored.map((e) => (e.data as Json).state).sort(), ['select-account', 'unknown'], 'each one a webhook');
  });

  it('a late answer settles only its own doubt: one for another call changes nothing, unless the money moved', async () => {
    for (const moved of [false, true]) {
      const { c, values } = await atConfirmation(h);
      const held = holdCall(h, '/test/transfer/validate');
      const fieldId = Object.keys(values)[0]!;
      const confirming = h.checkout(c.clientSecret, '/v1/checkout/validate', { values: moved ? values : { [fieldId]: '0000' } });
      await held.arrived;
      await holderGone(h, c.clientSecret);
      // The doubt is now another call's (its lock's token is not this call's).
      const rec = (await h.bff.parts.store.getCheckout(c.id))!;
      assert.ok(rec.internal.lapsed, 'the doubt remembers the lock that lapsed');
      assert.ok(
        await h.bff.parts.store.updateCheckout(c.id, rec.version, { internal: { ...rec.internal, lapsed: { ...rec.internal.lapsed, token: 'lk_another' } } }),
      );
      held.release();
      const answered = await confirming;
      const after = (await (await h.merchant(`/v1/checkouts/${c.id}`)).json()) as Json;
      if (moved) {
        assert.equal(answered.status, 200);
        assert.equal(after.state, 'succeeded', 'money moved wins, whoever’s doubt it was');
      } else {
        assert.equal(answered.status, 409);
        assert.equal(after.state, 'unknown', 'another call’s doubt is not this answer’s to settle');
        assert.deepEqual(
          h.events.filter((e) => e.checkoutId === c.id).map((e) => e.state),
          ['unknown'],
        );
      }
    }
  });

  it('a launch redeemed while a call is with the bank waits its turn (409 checkout_busy) and closes nothing', async () => {
    const { c, values } = await atConfirmation(h);
    const call = holdCall(h, '/test/transfer/validate');
    const confirming = h.checkout(c.clientSecret, '/v1/checkout/validate', { values });
    await call.arrived;
    const { launchToken } = (await (await h.merchant(`/v1/checkouts/${c.id}/launch`, { method: 'POST' })).json()) as { launchToken: string };
    // The shop's page loaded in another browser (or by a script): its frame's redemption would close the session.
    const redeemed = await h.redeem(launchToken);
    assert.equal(redeemed.status, 409);
    assert.equal(((await redeemed.json()) as { error: { code: string } }).error.code, 'checkout_busy');
    call.release();
    assert.equal(((await (await confirming).json()) as Json).state, 'succeeded');
    // Once the call is done the same token opens the checkout (the payment, not a reset).
    const later = await h.redeem(launchToken);
    assert.equal(later.status, 200);
    assert.equal(((await (await h.merchant(`/v1/checkouts/${c.id}`)).json()) as Json).state, 'succeeded');
  });

  it('the store fails when the bank has answered: the payer is told 503, and the answer is written once the store is back', async () => {
    const { c, values } = await atConfirmation(h);
    const call = holdCall(h, '/test/transfer/validate');
    const confirming = h.checkout(c.clientSecret, '/v1/checkout/validate', { values });
    await call.arrived;
    // Another window reads the checkout meanwhile: the confirmation is with the bank.
    const meanwhile = await view(await h.checkout(c.clientSecret, '/v1/checkout'));
    assert.equal(meanwhile.inFlight, 'validate');
    const mend = breakStore(h.bff.parts.store, ['updateCheckout', 'getCheckout']);
    call.release();
    const answered = await confirming;
    assert.equal(answered.status, 503);
    assert.ok(answered.headers.get('Retry-After'));
    mend();
    const rec = await until(async () => {
      const r = await h.bff.parts.store.getCheckout(c.id);
      return r?.state === 'succeeded' ? r : null;
    }, 'the answer written');
    assert.equal(rec.internal.busy, undefined);
    assert.deepEqual(await terminalEvents(h, c.id), ['succeeded']);
  });

  it('the store fails for longer than the lease when the bank has answered: the checkout is never settled unknown while its holder still writes the answer', async () => {
    const { c, values } = await atConfirmation(h);
    const call = holdCall(h, '/test/transfer/validate');
    const confirming = h.checkout(c.clientSecret, '/v1/checkout/validate', { values });
    await call.arrived;
    const mend = breakStore(h.bff.parts.store, ['updateCheckout', 'getCheckout']);
    call.release();
    assert.equal((await confirming).status, 503);
    // The outage outlasts the lease: no renewal could be written meanwhile.
    h.clock.advance(h.bff.parts.service.leaseMs + 1);
    mend();
    // The payer's page reads the checkout as soon as the store is back, before the holder's next try.
    const back = await view(await h.checkout(c.clientSecret, '/v1/checkout'));
    assert.notEqual(back.state, 'unknown', 'the answer is known: the checkout waits for it');
    await until(async () => (await h.bff.parts.store.getCheckout(c.id))?.state === 'succeeded', 'the answer written');
    const told = (await h.bff.parts.store.listEvents({ limit: 500 }))
      .filter((e) => e.type === 'checkout.updated' && (e.data as Json).checkoutId === c.id)
      .map((e) => (e.data as Json).state);
    assert.deepEqual(told, ['succeeded'], 'the merchant is told the outcome, and nothing before it');
  });
});

describe('the lease is renewed while a call is with the bank', () => {
  let h: Harness;
  before(async () => {
    // A renewal every third of the lease (1.5 s and the margin) comes before the call's own timeout.
    h = await createHarness({ ...WEBHOOK, PROVIDER_TIMEOUT_MS: '1500' });
  });
  after(() => h.close());

  it('time past the first lease does not settle a checkout whose holder renews it', async () => {
    const { c, values } = await atConfirmation(h);
    const call = holdCall(h, '/test/transfer/validate');
    const confirming = h.checkout(c.clientSecret, '/v1/checkout/validate', { values });
    await call.arrived;
    const leaseMs = h.bff.parts.service.leaseMs;
    const first = (await h.bff.parts.store.getCheckout(c.id))!.internal.busy!.until!;
    h.clock.advance(leaseMs / 2);
    // The holder renews its lease (every third of it): until the renewal shows, nothing else moves.
    await until(async () => ((await h.bff.parts.store.getCheckout(c.id))!.internal.busy?.until ?? 0) > first, 'a renewal of the lease');
    h.clock.advance(leaseMs / 2 + 1);
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'validate', 'past the first lease, the renewed one holds');
    call.release();
    assert.equal(((await (await confirming).json()) as Json).state, 'succeeded');
    assert.deepEqual(await terminalEvents(h, c.id), ['succeeded']);
  });
});

describe('the tabs of one browser', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());

  it('keep their keys, four at a time; the oldest tab past them is told the checkout goes on elsewhere', async () => {
    const created = (await (await h.merchant('/v1/checkouts', { body: { amount: 990, subject: 'Tabs', reference: 'TABS-1' } })).json()) as {
      id: string;
      launchToken: string;
    };
    const browser = await frameKeys();
    const keys: string[] = [];
    let token = created.launchToken;
    for (let tab = 0; tab < 5; tab++) {
      const res = await h.redeem(token, browser);
      assert.equal(res.status, 200);
      const answer = (await res.json()) as { key: string; resumed: boolean };
      assert.equal(answer.resumed, tab > 0);
      keys.push(answer.key);
      token = ((await (await h.merchant(`/v1/checkouts/${created.id}/launch`, { method: 'POST' })).json()) as { launchToken: string }).launchToken;
    }
    const first = await h.checkout(keys[0]!, '/v1/checkout');
    assert.equal(first.status, 409);
    assert.equal(((await first.json()) as { error: { code: string } }).error.code, 'opened_elsewhere');
    for (const key of keys.slice(1)) assert.equal((await h.checkout(key, '/v1/checkout')).status, 200);
  });
});
