/**
 * Failures of the store are routine: while it cannot answer, every API says 503
 * `store_unavailable` with `Retry-After` (the provider retries its notifications), and nothing
 * ends the process; a notification stored but not applied, and a lock whose holder stopped, are
 * swept up; a request whose checkout another request changed meanwhile gets 409, never a 500.
 * The failing store here is the real one with methods replaced (as a failing driver would
 * answer); test/faults/failover.test.ts does the same to a real PostgreSQL server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeDataReturn, signNotification } from '@bank-checkout/provider';
import { createHarness, view, type Harness } from './harness.js';
import { isUnavailable } from '../src/store/failure.js';
import { ApiError } from '../src/errors.js';
import { breakStore } from './slow-store.js';
import { walk } from './flow.js';

type Json = Record<string, any>;

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

describe('the store failing', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness({ MERCHANT_WEBHOOK_URL: 'http://merchant.test/hook', MERCHANT_WEBHOOK_SECRET: 'webhook-secret-0123456789' });
  });
  after(() => h.close());

  async function redirectCheckout() {
    const c = await h.createCheckout({ urlOk: 'https://shop.example/ok', urlError: 'https://shop.example/ko' });
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout/redirect', {}));
    assert.equal(v.state, 'redirect');
    const m = (await (await h.merchant(`/v1/checkouts/${c.id}`)).json()) as Json;
    return { ...c, reference: m.reference as string, amount: m.amount as number };
  }
  async function signedResult(c: { reference: string; amount: number }, tx: string) {
    const dataReturn = encodeDataReturn({
      status: '200',
      description: 'OK',
      transactionId: tx,
      amount: c.amount,
      reference: c.reference,
      dateInitPayment: h.clock.now,
    });
    return { dataReturn, signatureDataReturn: await signNotification(dataReturn, 'sandbox-api-key') };
  }

  it('tells its drivers\' "unavailable" errors from statement errors', () => {
    for (const code of ['ECONNRESET', 'ECONNREFUSED', '57P01', '08006', 'SQLITE_BUSY', 'SQLITE_IOERR_WRITE', 'SQLITE_FULL', 'ENOSPC']) {
      assert.ok(isUnavailable(Object.assign(new Error('x'), { code })), code);
    }
    assert.ok(isUnavailable(new Error('Connection terminated unexpectedly')));
    for (const code of ['23505', 'SQLITE_CONSTRAINT', '42P01']) assert.ok(!isUnavailable(Object.assign(new Error('x'), { code })), code);
  });

  it('answers 503 store_unavailable with Retry-After on the checkout API, the merchant API and the notification intake; /ready follows the store', async () => {
    const c = await redirectCheckout();
    const n = await signedResult(c, 'TX-503');
    const store = h.bff.parts.store;
    const mend = breakStore(store, ['getCheckoutBySecretHash', 'getCheckout', 'createCheckout', 'getIdempotency', 'insertNotification', 'ping']);
    try {
      const answers = [
        await h.checkout(c.clientSecret, '/v1/checkout'),
        await h.checkout(c.clientSecret, '/v1/checkout/cancel', {}),
        await h.merchant('/v1/checkouts', { body: { amount: 100, subject: 'Order', reference: 'REF-DOWN' } }),
        await h.merchant(`/v1/checkouts/${c.id}`),
        await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(n)),
      ];
      for (const res of answers) {
        assert.equal(res.status, 503, res.url);
        assert.ok(Number(res.headers.get('Retry-After')) > 0);
        assert.equal(((await res.json()) as Json).error.code, 'store_unavailable');
      }
      assert.equal((await h.bff.request('http://bff.test/ready')).status, 503);
    } finally {
      mend();
    }
    assert.equal((await h.bff.request('http://bff.test/ready')).status, 200);
    // The provider sends the notification again: it is applied.
    const again = await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(n));
    assert.equal(again.status, 200);
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'succeeded');
  });

  it('a notification stored but not applied (the store failed between the two) is applied by the sweeper, and the merchant told once', async () => {
    const c = await redirectCheckout();
    const n = await signedResult(c, 'TX-PENDING');
    const mend = breakStore(h.bff.parts.store, ['settleNotification', 'updateCheckout']);
    let res: Response;
    try {
      res = await h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form(n));
    } finally {
      mend();
    }
    assert.equal(res.status, 503, 'the provider is asked to send it again');
    const stored = ((await (await h.merchant('/v1/notifications')).json()) as Json).notifications.find((x: Json) => x.transactionId === 'TX-PENDING');
    assert.equal(stored.outcome, 'pending');
    // A request still applying its own notification is left alone; past the lease, the sweeper applies it.
    assert.equal(await h.bff.parts.sweep(), true);
    assert.equal(
      ((await (await h.merchant('/v1/notifications')).json()) as Json).notifications.find((x: Json) => x.transactionId === 'TX-PENDING').outcome,
      'pending',
    );
    h.clock.advance(h.bff.parts.service.leaseMs + 1);
    assert.equal(await h.bff.parts.sweep(), true);
    const after = ((await (await h.merchant('/v1/notifications')).json()) as Json).notifications.find((x: Json) => x.transactionId === 'TX-PENDING');
    assert.equal(after.outcome, 'applied');
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'succeeded');
    assert.equal(h.events.filter((e) => e.checkoutId === c.id).length, 1);
    const received = (await h.bff.parts.store.listEvents({ limit: 500 })).filter(
      (e) => e.type === 'notification.received' && (e.data as Json).transactionId === 'TX-PENDING',
    );
    assert.equal(received.length, 1);
  });

  it('the sweeper settles a lock whose holder stopped mid-validation: unknown, and the merchant is told without anyone reading the checkout', async () => {
    const c = await h.createCheckout();
    await walk(h, c.clientSecret, 'aurora', { stopAt: 'validate' });
    const store = h.bff.parts.store;
    const rec = (await store.getCheckout(c.id))!;
    const leaseMs = h.bff.parts.service.leaseMs;
    // An instance took the validation's lock and stopped.
    assert.ok(
      await store.updateCheckout(rec.id, rec.version, {
        internal: { ...rec.internal, busy: { op: 'validate', since: h.clock.now, until: h.clock.now + leaseMs, holder: 'bff_gone' } },
      }),
    );
    await h.bff.parts.sweep();
    assert.equal((await store.getCheckout(c.id))!.state, 'validate');
    h.clock.advance(leaseMs + 1);
    await h.bff.parts.sweep();
    const overdue = (await store.getCheckout(c.id))!;
    assert.equal(overdue.state, 'validate', 'lapsed once: its holder is given one more lease to come back');
    assert.equal(overdue.internal.busy?.overdueSince, h.clock.now);
    h.clock.advance(leaseMs + 1);
    await h.bff.parts.sweep();
    assert.equal((await store.getCheckout(c.id))!.state, 'unknown');
    assert.deepEqual(
      h.events.filter((e) => e.checkoutId === c.id).map((e) => e.state),
      ['unknown'],
    );
  });

  it('the sweeper runs on one instance at a time: its lease', async () => {
    const store = h.bff.parts.store;
    assert.equal(await store.claimLease('drill', 'a', 1_000, 100), true);
    assert.equal(await store.claimLease('drill', 'b', 1_050, 100), false, 'held by another');
    assert.equal(await store.claimLease('drill', 'a', 1_050, 100), true, 'renewed by its holder');
    assert.equal(await store.claimLease('drill', 'b', 1_151, 100), true, 'lapsed: taken over');
  });

  it('a cancel that loses the race to another request gets 409 checkout_busy, never a 500', async () => {
    const c = await h.createCheckout();
    const store = h.bff.parts.store;
    const rec = (await store.getCheckout(c.id))!;
    const err = await h.bff.parts.service.cancel(rec).then(
      () => null,
      (e: unknown) => e,
    );
    assert.equal(err, null, 'alone, a cancel goes through');
    const other = await h.createCheckout();
    const before = (await store.getCheckout(other.id))!;
    // The store takes a transfer's lock between the cancel's read and its write.
    const update = store.updateCheckout.bind(store);
    let raced = false;
    store.updateCheckout = async (id, version, patch, events) => {
      if (!raced && id === before.id) {
        raced = true;
        const cur = (await store.getCheckout(id))!;
        await update(id, cur.version, {
          internal: { ...cur.internal, busy: { op: 'transfer', since: h.clock.now, until: h.clock.now + 1000, holder: 'bff_other' } },
        });
      }
      return update(id, version, patch, events);
    };
    try {
      const lost = await h.bff.parts.service.cancel(before).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(lost instanceof ApiError, String(lost));
      assert.equal(lost.status, 409);
      assert.equal(lost.code, 'checkout_busy');
    } finally {
      store.updateCheckout = update;
    }
    assert.notEqual((await store.getCheckout(other.id))!.state, 'cancelled');
  });
});
