/**
 * Every call to the payment-link service under every upstream fault: the checkout's redirect
 * and periodic modes (signed URLs) and the merchant API (links, link banks, orders, order
 * enable/disable, the earlier variant's debts). Signing a URL and changing an order are sent
 * once; the bank list and order queries are read-only and retried.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { CheckoutView } from '@bank-checkout/contract';
import type { Harness } from '../../packages/bff/test/harness.js';
import { arm, describeFaults, disarm, faultHarness, sandboxCalls, stray, viewOf, type FaultStep } from './support.js';

const P = {
  banks: 'GET /san/banks',
  signer: 'POST /san/url/signer',
  periodic: 'POST /san/url/periodic-payment-signer',
  orders: 'POST /san/info/payment-orders',
  debts: 'POST /san/info/debts',
  toggle: 'POST /san/update/enable-disable-payment-order',
} as const;

const day = (h: Harness, days: number) => new Date(h.clock.now + days * 86_400_000).toISOString().slice(0, 10);

/** A checkout in periodic mode, and the body of a periodic payment it accepts. */
async function periodicCheckout(h: Harness) {
  const c = await h.createCheckout({ modes: ['native', 'periodic'] });
  const res = await h.checkout(c.clientSecret, '/v1/checkout/mode', { mode: 'periodic' });
  const v = (await res.json()) as CheckoutView;
  assert.equal(v.step.state, 'periodic', JSON.stringify(v));
  const bank = v.step.banks.find((b) => b.enabled && b.frequencies.length > 0);
  assert.ok(bank, 'a bank that offers periodic payments');
  const body = { bankId: bank.bankId, frequency: bank.frequencies[0], debtorAccount: 'ES7620770024003102575766', startDate: day(h, 2) };
  return { secret: c.clientSecret, run: () => h.checkout(c.clientSecret, '/v1/checkout/periodic', body) };
}

const STEPS: FaultStep[] = [
  {
    name: 'checkout redirect: signed URL',
    target: P.signer,
    readOnly: false,
    async prepare(h) {
      const c = await h.createCheckout({ modes: ['native', 'redirect'] });
      return { secret: c.clientSecret, run: () => h.checkout(c.clientSecret, '/v1/checkout/redirect', {}) };
    },
    calls: (n) => ({ [P.signer]: n }),
    // Nothing was paid yet: the checkout stays where it was and the payer may try again.
    after: () => ({ state: 'select-bank', error: null }),
    retry: true,
    ok: 'redirect',
    okCalls: { [P.signer]: 1 },
  },
  {
    name: 'checkout periodic: signed periodic URL',
    target: P.periodic,
    readOnly: false,
    prepare: periodicCheckout,
    calls: (n) => ({ [P.banks]: 1, [P.periodic]: n }),
    after: () => ({ state: 'periodic', error: null }),
    retry: true,
    ok: 'redirect',
    okCalls: { [P.banks]: 1, [P.periodic]: 1 },
  },
  {
    name: 'checkout periodic: bank list',
    target: P.banks,
    readOnly: true,
    prepare: periodicCheckout,
    calls: (n) => ({ [P.banks]: n }),
    after: () => ({ state: 'periodic', error: null }),
    retry: true,
    ok: 'redirect',
    okCalls: { [P.banks]: 1, [P.periodic]: 1 },
  },
  {
    name: 'merchant: payment link',
    target: P.signer,
    readOnly: false,
    async prepare(h) {
      return { run: () => h.merchant('/v1/links', { body: { amount: 2500, subject: 'Invoice 42', reference: 'INV-42' } }) };
    },
    calls: (n) => ({ [P.signer]: n }),
    okStatus: 201,
    retry: true,
    okCalls: { [P.signer]: 1 },
  },
  {
    name: 'merchant: link banks',
    target: P.banks,
    readOnly: true,
    async prepare(h) {
      return { run: () => h.merchant('/v1/link-banks?periodic=1') };
    },
    calls: (n) => ({ [P.banks]: n }),
    retry: true,
    okCalls: { [P.banks]: 1 },
  },
  {
    name: 'merchant: orders',
    target: P.orders,
    readOnly: true,
    async prepare(h) {
      return { run: () => h.merchant('/v1/orders?pageSize=5') };
    },
    calls: (n) => ({ [P.orders]: n }),
    retry: true,
    okCalls: { [P.orders]: 1 },
  },
  {
    name: 'merchant: earlier variant debts',
    target: P.debts,
    readOnly: true,
    async prepare(h) {
      return { run: () => h.merchant('/v1/legacy/debts?pageSize=5') };
    },
    calls: (n) => ({ [P.debts]: n }),
    retry: true,
    okCalls: { [P.debts]: 1 },
  },
  {
    name: 'merchant: disable an order',
    target: P.toggle,
    readOnly: false,
    async prepare(h) {
      const res = await h.merchant('/v1/links', { body: { amount: 1200, subject: 'Order to disable', reference: 'DIS-1' } });
      assert.equal(res.status, 201);
      const { idDebt } = (await res.json()) as { idDebt: string | number };
      return { run: () => h.merchant(`/v1/orders/${idDebt}/disable`, { method: 'POST' }) };
    },
    calls: (n) => ({ [P.toggle]: n }),
    retry: true,
    okCalls: { [P.toggle]: 1 },
  },
];

// The suites wait on timers most of the time and share nothing: they run side by side.
describe('payment-link service under upstream faults', { concurrency: true }, () => {
  for (const step of STEPS) describeFaults(step.name, step);

  describe('payment links: around the faults', { concurrency: 1 }, () => {
    let h: Harness;
    before(async () => {
      h = await faultHarness();
    });
    beforeEach(() => disarm(h));
    after(async () => {
      await h.close();
      assert.deepEqual(stray, []);
    });

    it('the periodic checkout view still answers while the bank list fails, says why, and recovers', async () => {
      const { secret } = await periodicCheckout(h);
      await arm(h, 'GET', '/san/banks', { kind: 'html' });
      const v = await viewOf(h, secret);
      assert.equal(v.state, 'periodic');
      assert.deepEqual(v.step.state === 'periodic' ? [v.step.banks, v.step.banksError] : null, [[], 'upstream']);
      assert.deepEqual(await sandboxCalls(h), { [P.banks]: 3 });

      await arm(h, 'GET', '/san/banks', { kind: 'hang' });
      const hung = await viewOf(h, secret);
      assert.equal(hung.step.state === 'periodic' ? hung.step.banksError : null, 'upstream_timeout');

      // Reading the view again once the provider answers brings the banks back, and no error.
      await disarm(h);
      const back = await viewOf(h, secret);
      assert.ok(back.step.state === 'periodic' && back.step.banks.length > 0 && !('banksError' in back.step), JSON.stringify(back.step));
    });
  });
});
