/**
 * Two actors on one checkout at the same moment, on a store whose calls take a round trip (as
 * PostgreSQL's do), on the embedded engine and on PostgreSQL: the money the bank moved is never
 * forgotten, and one result is one change and one event.
 *
 * - The payer confirms the transfer while another load of the shop's page (a reload, a second
 *   tab, a script) has a new launch token issued and redeemed, at offsets from 6 ms before to
 *   5 ms after: whenever the bank moved the money the checkout ends `succeeded` (or `unknown`),
 *   with one terminal event.
 * - One signed result posted twice at once: one `notification.received` event, an outcome that
 *   says what it did.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FINAL_STATES, type CheckoutState } from '@bank-checkout/contract';
import { encodeDataReturn, signNotification } from '@bank-checkout/provider';
import { createPostgresStore, createStore, type Store } from '../src/store/index.js';
import { createHarness, type Harness } from './harness.js';
import { walk } from './flow.js';
import { slowStore, jitteredTrip } from './slow-store.js';
import { dropSchemas, freshSchema, withPostgres } from './store-fixtures.js';

const WEBHOOK = { MERCHANT_WEBHOOK_URL: 'http://merchant.test/hook', MERCHANT_WEBHOOK_SECRET: 'whsec_dGVzdC13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5' };
const TRIALS = 24;
/** Waits `ms` of real time, fractions of a millisecond included (the whole milliseconds by a timer, the rest by spinning). */
async function wait(ms: number): Promise<void> {
  if (ms <= 0) return;
  const end = performance.now() + ms;
  if (ms >= 1) await new Promise<void>((r) => setTimeout(r, Math.floor(ms)));
  while (performance.now() < end) await new Promise<void>((r) => setImmediate(r));
}

type Json = Record<string, unknown>;

/** A repeatable stream of numbers in [0, 1) (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The outbox's events about one checkout, by type and state. */
async function eventsOf(h: Harness, checkoutId: string) {
  const all = await h.bff.parts.store.listEvents({ limit: 500 });
  return all.filter((e) => (e.data as Json).checkoutId === checkoutId).map((e) => ({ type: e.type, state: (e.data as Json).state as CheckoutState }));
}

/** A frame of another browser redeeming a launch token. */
const redeem = (h: Harness, token: string) => h.redeem(token);

function suite(engine: string, store: () => { open: () => Store; teardown: () => Promise<void> }) {
  describe(`two actors on one checkout (${engine}, every store call a round trip)`, () => {
    let h: Harness;
    let teardown: () => Promise<void>;
    before(async () => {
      const s = store();
      teardown = s.teardown;
      h = await createHarness(WEBHOOK, { store: () => slowStore(s.open(), jitteredTrip(1, 3, seeded(7))) });
      // The bank takes a moment to answer a confirmation, as banks do.
      const rule = { method: 'POST', path: '/test/transfer/validate', kind: 'latency', ms: 15 };
      const res = await h.sandbox.app.request('/__sandbox/faults', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(rule),
      });
      assert.equal(res.status, 201);
    });
    after(async () => {
      await h.close();
      await teardown();
    });

    it(`the payer confirms while a relaunch is redeemed, ${TRIALS} offsets from -6 to +5.5 ms: money that moved ends succeeded or unknown, with one terminal event`, async () => {
      const outcomes: string[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        const offset = -6 + trial * 0.5;
        const c = await h.createCheckout();
        const v = await walk(h, c.clientSecret, 'aurora', { stopAt: 'validate' });
        assert.equal(v.step.state, 'validate');
        const sessionId = (await h.bff.parts.store.getCheckout(c.id))!.internal.sessionId!;
        const values = Object.fromEntries(v.step.validations.map((x) => [x.fieldId, x.testValue ?? '']));
        const confirm = async () => {
          await wait(-offset);
          return (await h.checkout(c.clientSecret, '/v1/checkout/validate', { values })).status;
        };
        // The shop's page loaded again: its server had a new launch token issued, which its frame redeems.
        const launched = (await (await h.merchant(`/v1/checkouts/${c.id}/launch`, { method: 'POST' })).json()) as { launchToken: string };
        const relaunch = async () => {
          await wait(offset);
          return (await redeem(h, launched.launchToken)).status;
        };
        const [confirmed, redeemed] = await Promise.all([confirm(), relaunch()]);
        const moved = h.transferAnswers.some((a) => a.sessionId === sessionId && a.status === '200');
        const rec = await h.bff.parts.service.settle((await h.bff.parts.store.getCheckout(c.id))!);
        outcomes.push(`${offset}:${confirmed}/${redeemed}:${rec.state}${moved ? ' (paid)' : ''}`);
        if (moved) assert.ok(['succeeded', 'unknown'].includes(rec.state), `offset ${offset} ms: the bank moved the money, the checkout is ${rec.state}`);
        else assert.notEqual(rec.state, 'succeeded', `offset ${offset} ms: succeeded with no money moved`);
        const terminal = (await eventsOf(h, c.id)).filter((e) => e.type === 'checkout.updated' && FINAL_STATES.includes(e.state));
        assert.equal(terminal.length, FINAL_STATES.includes(rec.state) ? 1 : 0, `offset ${offset} ms: terminal events ${JSON.stringify(terminal)}`);
        // A redemption during the call waits its turn: refused with 409, never a reset.
        assert.ok([200, 409].includes(redeemed), `offset ${offset} ms: redemption answered ${redeemed}`);
      }
      // Both orders happened: some redemptions came first (the confirmation then refused), some after the payment.
      assert.ok(outcomes.some((o) => o.includes('(paid)')) && outcomes.some((o) => !o.includes('(paid)')), outcomes.join(' '));
    });

    it('one signed result posted twice at once makes one change and one notification.received event, and says applied', async () => {
      for (let trial = 0; trial < 6; trial++) {
        const c = await h.createCheckout({ modes: ['redirect'] });
        const v = await h.checkout(c.clientSecret, '/v1/checkout/redirect', {});
        assert.equal(v.status, 200);
        const dataReturn = encodeDataReturn({
          status: '200',
          description: 'OK',
          transactionId: `TX-TWICE-${trial}`,
          amount: c.amount as number,
          reference: c.reference as string,
          dateInitPayment: h.clock.now,
        });
        const body = new URLSearchParams({ dataReturn, signatureDataReturn: await signNotification(dataReturn, 'sandbox-api-key') }).toString();
        const post = () =>
          h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body,
          });
        const answers = await Promise.all([post(), post()]);
        for (const a of answers) assert.equal(a.status, 200, await a.text());
        const all = await h.bff.parts.store.listEvents({ limit: 500 });
        const received = all.filter((e) => e.type === 'notification.received' && (e.data as Json).transactionId === `TX-TWICE-${trial}`);
        assert.equal(received.length, 1, 'one event for one result');
        assert.equal((received[0]!.data as Json).outcome, 'applied');
        const stored = (await h.bff.parts.store.listNotifications({ limit: 50 })).filter((n) => n.transactionId === `TX-TWICE-${trial}`);
        assert.deepEqual(
          stored.map((n) => n.outcome),
          ['applied'],
        );
        assert.equal((await eventsOf(h, c.id)).filter((e) => e.state === 'succeeded').length, 1);
      }
    });
  });
}

suite('embedded', () => ({ open: () => createStore(':memory:'), teardown: async () => {} }));
withPostgres('two actors on one checkout', (url) => {
  const schema = freshSchema('one_door');
  suite('postgres', () => ({ open: () => createPostgresStore(url, { schema }), teardown: () => dropSchemas(url, schema) }));
});
