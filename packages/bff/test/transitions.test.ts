/**
 * The transition table: consistent with itself and with the states of the contract, equal to
 * the README's tables, and obeyed by the service (an action outside its states is refused and
 * changes nothing; every transition a journey makes is one the table lists).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CHECKOUT_ACTIONS, CHECKOUT_STATES, FINAL_STATES, type CheckoutAction, type CheckoutState } from '@bank-checkout/contract';
import {
  ACTIONS,
  FROM_ENDING,
  RESOLVE,
  STATES,
  UndeclaredTransition,
  actionsFor,
  allows,
  initialState,
  linkOutcome,
  resolveOutcome,
  stateAfterError,
  STEP_RULES,
  missingData,
} from '../src/checkout/transitions.js';
import { createCore } from '../src/checkout/core.js';
import { withTables } from '../../../scripts/state-table.js';
import { createHarness, type Harness } from './harness.js';
import { walk } from './flow.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The rows of the README table between `<!-- name:begin -->` and `<!-- name:end -->`: first cell → the codes in the second. */
function readmeTable(name: string): Map<string, string[]> {
  const block = README.split(`<!-- ${name}:begin -->`)[1]?.split(`<!-- ${name}:end -->`)[0];
  assert.ok(block, `README has the ${name} table`);
  const rows = new Map<string, string[]>();
  for (const line of block.split('\n').filter((l) => /^\| `/.test(l))) {
    const [, first, second] = line.split('|').map((c) => c.trim());
    rows.set(
      first!.replaceAll('`', ''),
      [...second!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!),
    );
  }
  return rows;
}

describe('the transition table', () => {
  it('names only the contract’s states and actions, and no action starts from an ending', () => {
    assert.deepEqual(Object.keys(ACTIONS).sort(), [...CHECKOUT_ACTIONS].sort());
    for (const [action, rule] of Object.entries(ACTIONS)) {
      for (const s of [...rule.from, ...rule.to]) assert.ok(CHECKOUT_STATES.includes(s), `${action}: ${s}`);
      // Only a restart starts from an ending, and never from a payment, an expiry or an unknown outcome.
      for (const s of rule.from)
        assert.ok(
          (FROM_ENDING.includes(action as CheckoutAction)
            ? ['failed', 'cancelled']
            : CHECKOUT_STATES.filter((x) => !FINAL_STATES.includes(x) && x !== 'unknown')
          ).includes(s),
          `${action} from ${s}`,
        );
    }
    for (const step of Object.keys(STEP_RULES) as (keyof typeof STEP_RULES)[]) assert.ok(CHECKOUT_STATES.includes(stateAfterError(step, 'E300')));
    // A step's rule is the same wherever an action meets it (the account list after a sign-in, a second sign-in or a contract).
    for (const s of CHECKOUT_STATES)
      for (const [action, decl] of Object.entries(STATES[s].on))
        for (const [step, rule] of Object.entries(decl.steps ?? {}))
          assert.equal(rule, STEP_RULES[step as keyof typeof STEP_RULES], `${action} in ${s}: ${step}`);
    assert.deepEqual([...RESOLVE.from], ['unknown']);
  });

  it('reaches every open state from where checkouts start', () => {
    const reached = new Set<CheckoutState>([initialState(['native']), initialState(['periodic'])]);
    for (let changed = true; changed;) {
      changed = false;
      for (const rule of Object.values(ACTIONS)) {
        if (!rule.from.some((s) => reached.has(s))) continue;
        for (const s of rule.to) {
          if (reached.has(s)) continue;
          reached.add(s);
          changed = true;
        }
      }
    }
    for (const s of CHECKOUT_STATES) if (s !== 'expired') assert.ok(reached.has(s), `${s} is reachable by actions`);
  });

  it('offers the actions a checkout allows, its modes considered', () => {
    assert.deepEqual(actionsFor({ state: 'select-bank', modes: ['native'] }), ['login', 'cancel']);
    assert.deepEqual(actionsFor({ state: 'select-bank', modes: ['native', 'redirect'] }), ['login', 'cancel', 'mode', 'redirect']);
    assert.deepEqual(actionsFor({ state: 'periodic', modes: ['periodic'] }), ['cancel', 'periodic']);
    assert.deepEqual(actionsFor({ state: 'redirect', modes: ['redirect'] }), ['cancel']);
    assert.deepEqual(actionsFor({ state: 'unknown', modes: ['native', 'redirect', 'periodic'] }), []);
    assert.equal(allows('login', 'select-bank', ['redirect']), false);
    assert.equal(linkOutcome('expired', '200'), 'succeeded');
    assert.equal(linkOutcome('cancelled', 'E300'), null);
  });

  it('is the README’s state and action tables', () => {
    const states = readmeTable('states');
    assert.deepEqual([...states.keys()].sort(), [...CHECKOUT_STATES].sort());
    for (const s of CHECKOUT_STATES) {
      const expected = (Object.keys(ACTIONS) as CheckoutAction[]).filter((a) => ACTIONS[a].from.includes(s));
      assert.deepEqual(
        states.get(s)!.filter((x) => (CHECKOUT_ACTIONS as readonly string[]).includes(x)),
        expected,
        s,
      );
    }
    const actions = readmeTable('actions');
    for (const a of CHECKOUT_ACTIONS) assert.deepEqual(actions.get(a), [...ACTIONS[a].to], a);
  });
});

describe('the declaration', () => {
  it('is what the README’s tables say, word for word (npx tsx scripts/state-table.ts writes them)', () => {
    assert.equal(withTables(README), README);
  });

  it('names the target of every outcome it resolves, and refuses the others', () => {
    const ctx = { attemptsLeft: 3, now: 0, sessionQuietMs: 60_000 };
    const accounts = { sessionId: 's', accounts: [] };
    assert.equal(resolveOutcome('select-bank', 'login', { outcome: 'accounts-listed', data: accounts }, ctx).state, 'select-account');
    assert.equal(resolveOutcome('select-bank', 'login', { outcome: 'refused', step: 'login', code: 'B105', data: {} }, ctx).state, 'select-bank');
    // Doubt only where money may have moved: a sign-in or a transfer's start that timed out leaves the payer a way on.
    assert.deepEqual(resolveOutcome('select-bank', 'login', { outcome: 'fault', step: 'login', timedOut: true, data: {} }, ctx).error, {
      code: 'upstream_timeout',
      message: 'error.loginNoAnswer',
    });
    assert.equal(resolveOutcome('select-bank', 'login', { outcome: 'fault', step: 'login', timedOut: true, data: {} }, ctx).state, 'login');
    const atAccounts = { sessionId: 's', accounts: [] };
    assert.equal(
      resolveOutcome('select-account', 'transfer', { outcome: 'fault', step: 'transfer', timedOut: true, data: atAccounts }, ctx).state,
      'select-account',
    );
    assert.equal(
      resolveOutcome('select-account', 'transfer', { outcome: 'fault', step: 'transfer', timedOut: false, data: atAccounts }, ctx).state,
      'select-account',
    );
    const atConfirmation = { sessionId: 's', accountId: 'a', validations: [], deadline: 1 };
    for (const timedOut of [true, false])
      assert.equal(resolveOutcome('validate', 'validate', { outcome: 'fault', step: 'validate', timedOut, data: atConfirmation }, ctx).state, 'unknown');
    assert.equal(resolveOutcome('select-account', 'back', { outcome: 'contracts', data: { sessionId: 's', contracts: [] } }, ctx).state, 'select-contract');
    // An outcome the state's declaration does not name for the action, a step it does not meet,
    // an action the state does not accept, or a target without the data it must hold.
    for (const [from, action, outcome] of [
      ['select-contract', 'back', { outcome: 'contracts', data: {} }],
      ['select-account', 'transfer', { outcome: 'refused', step: 'login', code: 'B100', data: {} }],
      ['validate', 'login', { outcome: 'accounts-listed', data: accounts }],
      ['select-bank', 'login', { outcome: 'accounts-listed', data: {} }],
    ] as const) {
      assert.throws(() => resolveOutcome(from, action, outcome, ctx), UndeclaredTransition, `${action} from ${from}: ${outcome.outcome}`);
    }
    assert.equal(STATES.validate.time.deadline?.windowMs, 90_000, 'the validation window is the provider’s 90 s');
  });
});

/** The engine over the harness's BFF parts, to hand it outcomes directly. */
const coreOf = (h: Harness) =>
  createCore({
    config: h.bff.parts.config,
    store: h.bff.parts.store,
    upstream: h.bff.parts.upstream,
    logger: h.bff.parts.logger,
    now: h.bff.parts.now,
    onFinal: () => {},
  });

describe('the service obeys the table', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness({}, {});
  });
  after(() => h.close());

  it('refuses an action outside its states with 409 and changes nothing', async () => {
    const c = await h.createCheckout({ modes: ['native', 'redirect', 'periodic'] });
    const before = await h.bff.parts.store.getCheckout(c.id);
    for (const [path, body] of [
      ['/v1/checkout/transfer', { accountId: 'a' }],
      ['/v1/checkout/validate', { values: {} }],
      ['/v1/checkout/contract', { contractId: 'x' }],
      ['/v1/checkout/second-login', { value: '1' }],
    ] as const) {
      const res = await h.checkout(c.clientSecret, path, body);
      assert.equal(res.status, 409, path);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'stale_step');
    }
    assert.deepEqual(await h.bff.parts.store.getCheckout(c.id), before);
    const resolve = await h.merchant(`/v1/checkouts/${c.id}/resolve`, { body: { outcome: 'succeeded' } });
    assert.equal(resolve.status, 409, 'only an unknown checkout is resolved');
  });

  it('makes only transitions the table lists along a whole payment', async () => {
    const c = await h.createCheckout();
    const end = await walk(h, c.clientSecret, 'aurora');
    assert.equal(end.state, 'succeeded');
    const lines = h.logs.map((l) => JSON.parse(l) as { event?: string; op?: string; from?: string; to?: string });
    const transitions = lines.filter((l) => l.event === 'checkout.transition');
    assert.ok(transitions.length >= 3, 'a payment goes through several steps');
    for (const t of transitions) {
      if (t.from === t.to) continue;
      assert.ok(ACTIONS[t.op as CheckoutAction].to.includes(t.to as CheckoutState), `${t.op}: ${t.from} → ${t.to}`);
    }
    assert.equal(lines.filter((l) => l.event === 'checkout.unexpected_transition').length, 0);
  });

  it('refuses an outcome the declaration does not name: nothing is written and the lock is released', async () => {
    const c = await h.createCheckout();
    const rec = (await h.bff.parts.store.getCheckout(c.id))!;
    const core = coreOf(h);
    await assert.rejects(
      core.act(rec, 'cancel', async () => ({ outcome: 'paid', data: {} })),
      UndeclaredTransition,
    );
    assert.deepEqual(await h.bff.parts.store.getCheckout(c.id), rec);
    const cancelled = await core.act(rec, 'cancel', async () => ({ outcome: 'cancelled', data: {} }));
    assert.equal(cancelled.state, 'cancelled', 'the checkout is not left locked');
  });

  it('enters a state only with the data its declaration holds, and acts only on a checkout that holds it', async () => {
    assert.deepEqual(missingData('validate', { sessionId: 's' }), ['accountId', 'validations', 'deadline']);
    assert.deepEqual(missingData('select-bank', {}), []);
    const c = await h.createCheckout();
    const rec = (await h.bff.parts.store.getCheckout(c.id))!;
    const core = coreOf(h);
    // A login whose outcome forgets the bank session: the accounts' state is not entered.
    await assert.rejects(
      core.act(rec, 'login', async () => ({ outcome: 'accounts-listed', data: { accounts: [] } })),
      /without sessionId/,
    );
    const after = (await h.bff.parts.store.getCheckout(c.id))!;
    assert.equal(after.state, 'select-bank', 'nothing written');
    assert.equal(after.internal.busy, undefined, 'the lock released');

    // A checkout stored at the accounts without them (a damaged record): no call is made for it.
    const damaged = (await h.bff.parts.store.updateCheckout(c.id, after.version, { state: 'select-account', internal: { sessionId: 's' } }))!;
    let called = false;
    await assert.rejects(
      core.act(damaged, 'transfer', async () => {
        called = true;
        return { outcome: 'paid', data: {} };
      }),
      /lacks accounts/,
    );
    assert.equal(called, false);
    assert.ok(h.logs.some((l) => l.includes('checkout.undeclared_data')));
  });
});
