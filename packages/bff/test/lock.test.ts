/**
 * The checkout's lock as core.act takes it. On the embedded store, login, second login,
 * contract, transfer and the other actions whose lapse means nothing after a crash hold their
 * lock in memory (one write per action); a validation still writes it before calling out.
 * Either way a request that read the checkout before another action ended gets 409 and runs
 * nothing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../src/config.js';
import { createCore } from '../src/checkout/core.js';
import { createLogger } from '../src/log.js';
import { ApiError } from '../src/errors.js';
import { createStore, type CheckoutRecord, type Store } from '../src/store/index.js';
import { checkoutRecord } from './store-fixtures.js';
import type { Upstream } from '../src/upstream.js';

const busy = (err: unknown) => err instanceof ApiError && err.status === 409 && err.code === 'checkout_busy';

describe('checkout lock (embedded store)', () => {
  let store: Store;
  let core: ReturnType<typeof createCore>;
  let seq = 0;
  const now = () => Date.parse('2026-11-20T10:00:00Z');

  before(async () => {
    store = createStore(':memory:');
    await store.init();
    const config = loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'silent' });
    core = createCore({ config, store, upstream: { readOnlyMaxMs: 1000 } as Upstream, logger: createLogger('silent'), now, onFinal: () => {} });
  });
  after(() => store.close());

  async function checkout(): Promise<CheckoutRecord> {
    const id = `chk_lock_${++seq}`;
    const at = now();
    const result = await store.createCheckout(checkoutRecord({ id, createdAt: at, expiresAt: at + 60 * 60_000 }));
    assert.ok(result.created);
    return result.record;
  }

  it('a login holds its lock in memory: a second login meanwhile gets 409, and the outcome is one write', async () => {
    const rec = await checkout();
    let release!: () => void;
    const first = core.act(rec, 'login', async (locked) => {
      assert.equal(locked.version, 1, 'nothing written before the call');
      await new Promise<void>((r) => (release = r));
      return { outcome: 'accounts-listed' as const, data: { sessionId: 's', accounts: [] } };
    });
    let ran = false;
    await assert.rejects(
      core.act(rec, 'login', async () => {
        ran = true;
        return { outcome: 'unchanged' as const, data: {} };
      }),
      busy,
    );
    assert.equal((await core.settle(rec)).version, 1, 'time waits for the action under way');
    release();
    const written = await first;
    assert.equal(ran, false);
    assert.equal(written.state, 'select-account');
    assert.equal(written.version, 2, 'one write for the whole action');
    assert.equal(written.internal.busy, undefined);
  });

  it('a request that read the checkout before another action ended gets 409 and runs nothing', async () => {
    const stale = await checkout();
    await core.act(stale, 'login', async () => ({ outcome: 'unchanged' as const, data: {} }));
    let ran = false;
    await assert.rejects(
      core.act(stale, 'login', async () => {
        ran = true;
        return { outcome: 'unchanged' as const, data: {} };
      }),
      busy,
    );
    assert.equal(ran, false);
  });

  it('a failed action writes nothing and leaves no lock', async () => {
    const rec = await checkout();
    await assert.rejects(
      core.act(rec, 'login', async () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    const after = (await store.getCheckout(rec.id))!;
    assert.equal(after.version, 1);
    const written = await core.act(after, 'login', async () => ({ outcome: 'accounts-listed' as const, data: { sessionId: 's', accounts: [] } }));
    assert.equal(written.version, 2);
  });

  it('a transfer keeps its lock in memory (a crash during its start moved no money); a validation writes its lock before calling out (a crash then makes the checkout unknown)', async () => {
    const rec = await core.act(await checkout(), 'login', async () => ({ outcome: 'accounts-listed' as const, data: { sessionId: 's', accounts: [] } }));
    const validations = [{ fieldId: 'OTP', type: 1 }] as never;
    const atConfirmation = await core.act(rec, 'transfer', async (locked) => {
      assert.equal(locked.version, rec.version, 'nothing written before the transfer call');
      assert.equal((await store.getCheckout(rec.id))!.internal.busy, undefined, 'no lock stored');
      return { outcome: 'validation-required' as const, data: { ...locked.internal, accountId: 'a', validations, deadline: now() + 90_000 } };
    });
    assert.equal(atConfirmation.version, rec.version + 1, 'one write for the transfer');
    const written = await core.act(atConfirmation, 'validate', async (locked) => {
      assert.equal(locked.version, atConfirmation.version + 1);
      assert.equal((await store.getCheckout(rec.id))!.internal.busy?.op, 'validate', 'the lock is stored');
      return { outcome: 'validation-required' as const, data: { ...locked.internal, round: 2 } };
    });
    assert.equal(written.version, atConfirmation.version + 2);
    assert.equal(written.internal.busy, undefined);
  });
});
