/**
 * No call after the lease. A call with the bank leaves only while its action's lease still
 * covers the call's whole timeout, checked as it leaves; a lock the store never confirmed sends
 * nothing; a lock under which nothing left is released, never left to lapse into a doubt; and a
 * lease that was lost is never renewed.
 */
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createStore, type Store } from '../src/store/index.js';
import { createHarness, view, type Harness } from './harness.js';
import { walk } from './flow.js';
import { until } from './until.js';

type Json = Record<string, unknown>;

/** A checkout at Banco Aurora's confirmation (one SMS round), with the value that pays. */
async function atConfirmation(h: Harness) {
  const c = await h.createCheckout();
  const v = await walk(h, c.clientSecret, 'aurora', { stopAt: 'validate' });
  if (v.step.state !== 'validate') throw new Error(`at ${v.step.state}`);
  const values = Object.fromEntries(v.step.validations.map((x) => [x.fieldId, x.testValue ?? '']));
  return { c, values };
}

const validations = (h: Harness) => h.upstreamCalls.filter((x) => x.endsWith('/transfer/validate')).length;

describe('no call after the lease', () => {
  let h: Harness;
  /** While set: the next write of a lock is made, and its answer held until `release` is called. */
  let holdLockWrite: { arrived: () => void; answer: Promise<void> } | null = null;
  const gated = (inner: Store): Store =>
    new Proxy(inner, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== 'updateCheckout' || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const out = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          const patch = args[2] as { internal?: { busy?: unknown } } | undefined;
          const hold = holdLockWrite;
          if (hold && patch?.internal?.busy) {
            holdLockWrite = null;
            hold.arrived();
            await hold.answer;
          }
          return out;
        };
      },
    });
  /** Holds the answer of the next lock write (written all the same) until `release()`. */
  const holdLock = () => {
    let arrived!: () => void;
    let release!: () => void;
    const gate = { arrived: new Promise<void>((r) => (arrived = r)), release: () => release() };
    holdLockWrite = { arrived, answer: new Promise<void>((r) => (release = r)) };
    return gate;
  };

  before(async () => {
    h = await createHarness({ PROVIDER_TIMEOUT_MS: '40000' }, { store: () => gated(createStore(':memory:')) });
  });
  beforeEach(() => {
    holdLockWrite = null;
    h.override = null;
  });
  after(() => h.close());

  it('a confirmation whose instance was paused past its lease between the lock and the call sends nothing: 503 not_sent, the lock released, the next confirmation pays', async () => {
    const { c, values } = await atConfirmation(h);
    const before = validations(h);
    const gate = holdLock();
    const confirming = h.checkout(c.clientSecret, '/v1/checkout/validate', { values });
    await gate.arrived;
    // The lock is written; the instance is paused until well past its lease.
    h.clock.advance(h.bff.parts.service.leaseMs + 1_000);
    gate.release();
    const res = await confirming;
    assert.equal(res.status, 503);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_sent');
    assert.ok(res.headers.get('retry-after'));
    assert.equal(validations(h) - before, 0, 'no confirmation left after the lease');
    const stored = (await h.bff.parts.store.getCheckout(c.id))!;
    assert.deepEqual({ state: stored.state, busy: stored.internal.busy }, { state: 'validate', busy: undefined }, 'released, not left to lapse into a doubt');
    const again = await h.checkout(c.clientSecret, '/v1/checkout/validate', { values });
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as Json).state, 'succeeded');
    assert.ok(!h.events.some((e) => e.checkoutId === c.id && e.state === 'unknown'));
  });

  it('a lock the store does not confirm in time sends nothing: 503 at once, and once the store answers the lock is released (never unknown, however long time runs)', async () => {
    const { c, values } = await atConfirmation(h);
    const before = validations(h);
    const gate = holdLock();
    const confirming = h.checkout(c.clientSecret, '/v1/checkout/validate', { values });
    await gate.arrived;
    // The payer is answered while the store still holds the lock's answer.
    const res = await confirming;
    assert.equal(res.status, 503);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'store_unavailable');
    gate.release();
    await until(async () => (await h.bff.parts.store.getCheckout(c.id))!.internal.busy === undefined, 'the lock released');
    // Past the lease and the one more a holder is given (within the 90 s to confirm).
    h.clock.advance(2 * h.bff.parts.service.leaseMs + 2);
    await h.bff.parts.sweep();
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'validate');
    assert.equal(validations(h) - before, 0);
    assert.ok(h.logs.some((l) => l.includes('checkout.not_sent') && l.includes('lock_unconfirmed')));
  });
});

describe('a lease that was lost', () => {
  let h: Harness;
  before(async () => {
    // A renewal every third of the lease (6 s and the margin: about 2.7 s), well before the call's own timeout.
    h = await createHarness({ PROVIDER_TIMEOUT_MS: '6000' });
  });
  after(() => h.close());

  it('is never renewed: once time settled the checkout, its holder writes no lock again, and its answer comes as a late answer with its event', async () => {
    const { c, values } = await atConfirmation(h);
    let release!: () => void;
    let arrived!: () => void;
    const atBank = new Promise<void>((r) => (arrived = r));
    h.override = (path, pass) => {
      if (!path.endsWith('/transfer/validate')) return undefined;
      arrived();
      return new Promise<Response>((r) => (release = () => r(pass())));
    };
    const confirming = h.checkout(c.clientSecret, '/v1/checkout/validate', { values });
    await atBank;
    // The holder seems gone: past its lease and the one more it is given, time settles the checkout unknown.
    const leaseMs = h.bff.parts.service.leaseMs;
    h.clock.advance(leaseMs + 1);
    await h.checkout(c.clientSecret, '/v1/checkout');
    h.clock.advance(leaseMs + 1);
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'unknown');
    // The holder's next renewal finds its lease taken: it stops, and the lock stays gone.
    await until(() => h.logs.some((l) => l.includes('checkout.lease_lost')), 'the holder to find its lease lost');
    const stored = (await h.bff.parts.store.getCheckout(c.id))!;
    assert.deepEqual({ state: stored.state, busy: stored.internal.busy }, { state: 'unknown', busy: undefined });
    release();
    const answered = await confirming;
    assert.equal(answered.status, 200);
    assert.equal(((await answered.json()) as Json).state, 'succeeded');
    assert.deepEqual(
      h.events.filter((e) => e.checkoutId === c.id).map((e) => `${e.previousState}→${e.state}`),
      ['validate→unknown', 'unknown→succeeded'],
    );
  });
});
