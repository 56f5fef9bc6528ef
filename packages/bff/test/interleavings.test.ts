/**
 * Every change of a checkout, explored under interleavings: fast-check's scheduler decides the
 * order in which the store's answers and the bank's answers come back, so concurrent actors on
 * one checkout (the payer's confirmation and cancel and back, a relaunch redeemed, the deadline,
 * a lease that lapses, the merchant's decision, the provider's result delivered twice, the
 * sweeper, a retention prune) meet in orders no fixed test picks. Against the real engine, on
 * the embedded store and on PostgreSQL.
 *
 * Properties, after every run:
 * - money the bank moved means the checkout ends `succeeded` or `unknown`, and `succeeded` is
 *   told once;
 * - never two calls with the bank at once for one checkout, and no confirmation sent after a
 *   transfer was paid;
 * - every state the checkout went through is one the declaration leads to;
 * - one result of the provider is one change and one `notification.received`.
 *
 * A failing run prints its seed and path; `FC_SEED=<seed> FC_PATH=<path>` replays it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CHECKOUT_ACTIONS, FINAL_STATES, type CheckoutState } from '@bank-checkout/contract';
import { encodeDataReturn, signNotification } from '@bank-checkout/provider';
import { CHANGES, STATES, targetsOf } from '../src/checkout/transitions.js';
import { createPostgresStore, createStore, type Store } from '../src/store/index.js';
import { createHarness, type Harness } from './harness.js';
import { walk } from './flow.js';
import { frameKeys } from './frame-proof.js';
import { slowStore } from './slow-store.js';
import { dropSchemas, freshSchema, withPostgres } from './store-fixtures.js';

const RUNS = Number(process.env.INTERLEAVING_RUNS ?? 25);
const replay = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}) } : {};

/** Where the declaration lets a checkout in `from` go, by any action or any other change. */
function declaredTargets(from: CheckoutState): Set<CheckoutState> {
  const out = new Set<CheckoutState>([from]);
  for (const a of CHECKOUT_ACTIONS) {
    const decl = STATES[from].on[a];
    if (decl) for (const t of targetsOf(decl)) out.add(t);
  }
  for (const c of CHANGES) for (const t of STATES[from].by[c] ?? []) out.add(t);
  return out;
}

/**
 * The world of one run: a harness whose store calls and bank calls wait on the scheduler while
 * `active`, the states each checkout went through, and the bank's calls in flight.
 */
function world(open: () => Store) {
  let scheduler: fc.Scheduler | null = null;
  const pause = () => (scheduler ? scheduler.schedule(Promise.resolve(), 'store') : Promise.resolve());
  const paths: Map<string, CheckoutState[]> = new Map();
  const undeclared: string[] = [];
  /** The store, recording each state written, and each write checked against the declaration. */
  const recording = (inner: Store): Store =>
    new Proxy(inner, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== 'updateCheckout' || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const before = await target.getCheckout(args[0] as string);
          const written = (await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as { id: string; state: CheckoutState } | null;
          if (written && before) {
            const path = paths.get(written.id) ?? [before.state];
            if (!declaredTargets(before.state).has(written.state)) undeclared.push(`${before.state} → ${written.state}`);
            if (path.at(-1) !== written.state) path.push(written.state);
            paths.set(written.id, path);
          }
          return written;
        };
      },
    });
  let inFlight = 0;
  let most = 0;
  return {
    paths,
    undeclared,
    store: () => slowStore(recording(open()), pause),
    /** Bank calls wait on the scheduler too; counts how many are in flight at once. */
    bank(h: Harness) {
      h.override = (path, pass) => {
        if (!scheduler || !/\/transfer\/(init|validate)$/.test(path)) return undefined;
        inFlight++;
        most = Math.max(most, inFlight);
        return scheduler.schedule(Promise.resolve(), `bank ${path}`).then(async () => {
          try {
            return await pass();
          } finally {
            inFlight--;
          }
        });
      };
    },
    get most() {
      return most;
    },
    /** Runs `tasks` with the scheduler deciding the order of every store and bank answer. */
    async interleave(s: fc.Scheduler, tasks: (() => Promise<unknown>)[]) {
      scheduler = s;
      most = 0;
      try {
        const started = tasks.map((t, i) => s.schedule(Promise.resolve(), `start ${i}`).then(t));
        await s.waitFor(Promise.allSettled(started));
      } finally {
        scheduler = null;
        while (s.count() > 0) await s.waitIdle();
      }
    },
  };
}

/** A frame of another browser redeeming a launch token. */
const redeem = (h: Harness, token: string) => h.redeem(token);

function suite(engine: string, open: () => { store: () => Store; teardown: () => Promise<void> }) {
  describe(`interleavings of every actor on one checkout (${engine})`, () => {
    let h: Harness;
    let w: ReturnType<typeof world>;
    let teardown: () => Promise<void>;
    before(async () => {
      const o = open();
      teardown = o.teardown;
      w = world(o.store);
      h = await createHarness({ PROVIDER_TIMEOUT_MS: '60000' }, { store: w.store });
      w.bank(h);
    });
    after(async () => {
      await h.close();
      await teardown();
    });

    /** The payer at the confirmation, and everyone else who may act on the checkout at that moment. */
    const nativeActors = fc.uniqueArray(
      fc.constantFrom('confirm', 'confirm-wrong', 'relaunch', 'cancel', 'deadline', 'lapse', 'resolve-failed', 'resolve-succeeded', 'sweep', 'read'),
      { minLength: 2, maxLength: 4 },
    );

    it(`the confirmation and the rest, ${RUNS} runs: money that moved is never forgotten, never two calls at once, only declared states`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), nativeActors, async (s, actors) => {
          const c = await h.createCheckout();
          const v = await walk(h, c.clientSecret, 'aurora', { stopAt: 'validate' });
          if (v.step.state !== 'validate') throw new Error(`at ${v.step.state}`);
          const field = v.step.validations[0]!;
          const session = (await h.bff.parts.store.getCheckout(c.id))!.internal.sessionId!;
          const answersBefore = h.transferAnswers.length;
          const launched = (await (await h.merchant(`/v1/checkouts/${c.id}/launch`, { method: 'POST' })).json()) as { launchToken: string };
          const clockAt = h.clock.now;
          const act: Record<string, () => Promise<unknown>> = {
            confirm: () => h.checkout(c.clientSecret, '/v1/checkout/validate', { values: { [field.fieldId]: field.testValue ?? '' } }),
            'confirm-wrong': () => h.checkout(c.clientSecret, '/v1/checkout/validate', { values: { [field.fieldId]: '0000' } }),
            relaunch: async () => redeem(h, launched.launchToken),
            cancel: () => h.checkout(c.clientSecret, '/v1/checkout/cancel', {}),
            // Past the 90 s to confirm, then a read settles it.
            deadline: async () => {
              h.clock.now = Math.max(h.clock.now, clockAt + 91_000);
              return h.merchant(`/v1/checkouts/${c.id}`);
            },
            // Past any lease: a holder still at the bank seems gone.
            lapse: async () => {
              h.clock.now = Math.max(h.clock.now, clockAt + h.bff.parts.service.leaseMs + 1);
              return h.merchant(`/v1/checkouts/${c.id}`);
            },
            'resolve-failed': () => h.merchant(`/v1/checkouts/${c.id}/resolve`, { body: { outcome: 'failed' } }),
            'resolve-succeeded': () => h.merchant(`/v1/checkouts/${c.id}/resolve`, { body: { outcome: 'succeeded' } }),
            sweep: () => h.bff.parts.sweep(),
            read: async () => h.checkout(c.clientSecret, '/v1/checkout'),
          };
          await w.interleave(
            s,
            actors.map((a) => act[a]!),
          );
          const answers = h.transferAnswers.slice(answersBefore).filter((a) => a.sessionId === session);
          const moved = answers.some((a) => a.status === '200');
          const rec = await h.bff.parts.service.settle((await h.bff.parts.store.getCheckout(c.id))!);
          const told = h.events.filter((e) => e.checkoutId === c.id);
          const where = `actors ${actors.join(', ')}; path ${(w.paths.get(c.id) ?? []).join(' → ')}; answers ${answers.map((a) => a.status).join(', ')}`;
          if (moved) assert.ok(['succeeded', 'unknown'].includes(rec.state), `money moved, the checkout is ${rec.state}: ${where}`);
          if (rec.state === 'succeeded') assert.equal(told.filter((e) => e.state === 'succeeded').length, 1, `succeeded told once: ${where}`);
          if (!moved && rec.state === 'succeeded')
            assert.ok(
              told.some((e) => e.source === 'merchant'),
              `succeeded with no money moved: ${where}`,
            );
          assert.ok(w.most <= 1, `two calls with the bank at once: ${where}`);
          const paidAt = answers.findIndex((a) => a.status === '200');
          assert.ok(paidAt < 0 || paidAt === answers.length - 1, `a call with the bank after the money moved: ${where}`);
          assert.deepEqual(w.undeclared, [], where);
        }),
        { numRuns: RUNS, ...replay },
      );
    });

    it(`one launch token redeemed by two browsers at once, ${RUNS} runs: one frame key, the other browser refused, the winner's key opens the checkout`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), async (s) => {
          const created = (await (
            await h.merchant('/v1/checkouts', { body: { amount: 990, subject: 'Two browsers', reference: `TWO-${Math.random()}` } })
          ).json()) as {
            launchToken: string;
          };
          const [a, b] = await Promise.all([frameKeys(), frameKeys()]);
          const answers: Response[] = [];
          await w.interleave(s, [
            async () => answers.push(await h.redeem(created.launchToken, a)),
            async () => answers.push(await h.redeem(created.launchToken, b)),
          ]);
          const statuses = answers.map((r) => r.status).sort();
          assert.deepEqual(statuses, [200, 409], `one browser redeems, the other is refused: ${statuses.join(', ')}`);
          const won = answers.find((r) => r.status === 200)!;
          const { key } = (await won.json()) as { key: string };
          assert.equal((await h.checkout(key, '/v1/checkout')).status, 200, "the winner's key opens the checkout");
          const refused = (await answers.find((r) => r.status === 409)!.json()) as { error: { code: string } };
          assert.equal(refused.error.code, 'launch_used');
        }),
        { numRuns: RUNS, ...replay },
      );
    });

    it(`one launch token presented by two tabs of one browser at once (a Try again, an older tab), ${RUNS} runs: both open the checkout, nothing refused`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), async (s) => {
          const created = (await (
            await h.merchant('/v1/checkouts', { body: { amount: 990, subject: 'Two tabs', reference: `TABS-${Math.random()}` } })
          ).json()) as { id: string; launchToken: string };
          const browser = await frameKeys();
          const answers: Response[] = [];
          await w.interleave(s, [
            async () => answers.push(await h.redeem(created.launchToken, browser)),
            async () => answers.push(await h.redeem(created.launchToken, browser)),
          ]);
          assert.deepEqual(
            answers.map((r) => r.status),
            [200, 200],
            'the browser that has the launch opens it again',
          );
          const keys = await Promise.all(answers.map(async (r) => ((await r.json()) as { key: string }).key));
          for (const key of keys) assert.equal((await h.checkout(key, '/v1/checkout')).status, 200, 'each key opens the checkout');
          const seen = (await (await h.merchant(`/v1/checkouts/${created.id}`)).json()) as { launch: { refusals: number } };
          assert.equal(seen.launch.refusals, 0);
        }),
        { numRuns: RUNS, ...replay },
      );
    });

    const linkActors = fc.array(fc.constantFrom('notify', 'notify', 'return', 'cancel', 'expire', 'sweep', 'prune', 'read'), { minLength: 2, maxLength: 4 });

    it(`a result of the bank's page delivered again and again among the rest, ${RUNS} runs: one change, one event, never lost`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), linkActors, fc.boolean(), async (s, actors, paid) => {
          const c = await h.createCheckout({ modes: ['redirect'], urlOk: 'https://shop.example/ok' });
          const v = await h.checkout(c.clientSecret, '/v1/checkout/redirect', {});
          assert.equal(v.status, 200);
          const tx = `TX-IL-${engine}-${++n}`;
          const dataReturn = encodeDataReturn({
            status: paid ? '200' : 'E300',
            description: paid ? 'OK' : 'Error',
            transactionId: tx,
            amount: c.amount as number,
            reference: c.reference as string,
            dateInitPayment: h.clock.now,
          });
          const body = new URLSearchParams({ dataReturn, signatureDataReturn: await signNotification(dataReturn, 'sandbox-api-key') }).toString();
          const form = { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body };
          const clockAt = h.clock.now;
          const act: Record<string, () => Promise<unknown>> = {
            notify: async () => h.bff.request(`http://bff.test/v1/notifications/provider?c=${c.id}`, form),
            return: async () => h.bff.request(`http://bff.test/v1/return/ok?c=${c.id}`, form),
            cancel: () => h.checkout(c.clientSecret, '/v1/checkout/cancel', {}),
            expire: async () => {
              h.clock.now = Math.max(h.clock.now, clockAt + 31 * 60_000 + 15 * 60_000);
              return h.merchant(`/v1/checkouts/${c.id}`);
            },
            sweep: () => h.bff.parts.sweep(),
            prune: () => h.bff.parts.store.prune({ events: 0, idempotency: 0, notifications: h.clock.now + 1, checkouts: 0 }),
            read: async () => h.checkout(c.clientSecret, '/v1/checkout'),
          };
          const delivered = actors.some((a) => a === 'notify' || a === 'return');
          await w.interleave(
            s,
            actors.map((a) => act[a]!),
          );
          // What a delivery left pending (a call in flight meanwhile), the sweeper applies.
          h.clock.now += h.bff.parts.service.leaseMs + 1;
          await h.bff.parts.sweep();
          const rec = await h.bff.parts.service.settle((await h.bff.parts.store.getCheckout(c.id))!);
          const where = `actors ${actors.join(', ')}, ${paid ? 'paid' : 'failed'}; path ${(w.paths.get(c.id) ?? []).join(' → ')}`;
          if (delivered && paid) assert.equal(rec.state, 'succeeded', `a paid result was delivered: ${where}`);
          const told = h.events.filter((e) => e.checkoutId === c.id && (FINAL_STATES as readonly string[]).includes(e.state));
          if (rec.state === 'succeeded') assert.equal(told.filter((e) => e.state === 'succeeded').length, 1, where);
          const received = h.notifications.filter((x) => x.transactionId === tx);
          assert.equal(received.length, delivered ? 1 : 0, `notification.received once: ${where}`);
          const stored = (await h.bff.parts.store.listNotifications({ limit: 500 })).filter((x) => x.transactionId === tx);
          assert.ok(stored.length <= 1 && stored.every((x) => x.outcome !== 'pending'), `${JSON.stringify(stored.map((x) => x.outcome))}: ${where}`);
          assert.deepEqual(w.undeclared, [], where);
        }),
        { numRuns: RUNS, ...replay },
      );
    });
  });
}

suite('embedded', () => ({ store: () => createStore(':memory:'), teardown: async () => {} }));
withPostgres('interleavings of every actor on one checkout', (url) => {
  const schema = freshSchema('interleave');
  suite('postgres', () => ({ store: () => createPostgresStore(url, { schema }), teardown: () => dropSchemas(url, schema) }));
});
