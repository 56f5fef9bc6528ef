/**
 * Boot's wait for the database (store/boot.ts), on an injected clock: it tries again while the
 * store is unavailable, with a growing wait and a line each time, up to its deadline and never
 * past it; a refusal waiting cannot mend ends it at once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BootTimeout, openStoreAtBoot } from '../src/store/boot.js';
import { StoreUnavailable } from '../src/store/failure.js';

function clock() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

describe('boot waits for the database', () => {
  it('tries again while the store is unavailable, each wait told, until it opens', async () => {
    const c = clock();
    let tries = 0;
    const waits: { attempt: number; nextInMs: number; leftMs: number }[] = [];
    await openStoreAtBoot({
      open: async () => {
        if (++tries < 6) throw new StoreUnavailable('The store is not available (ECONNREFUSED).');
      },
      deadlineMs: 60_000,
      onWait: (w) => waits.push(w),
      random: () => 0.5,
      ...c,
    });
    assert.equal(tries, 6);
    assert.deepEqual(
      waits.map((w) => w.nextInMs),
      [250, 500, 1_000, 2_000, 4_000],
      'a growing wait',
    );
    assert.ok(waits.every((w, i) => w.attempt === i + 1 && w.leftMs <= 60_000));
  });

  it('never gives up before its deadline, and gives up at it with the last cause', async () => {
    const c = clock();
    let tries = 0;
    const err = await openStoreAtBoot({
      open: async () => {
        tries++;
        throw Object.assign(new Error('Connection terminated due to connection timeout'), {});
      },
      deadlineMs: 60_000,
      onWait: () => {},
      ...c,
    }).catch((e: unknown) => e);
    assert.ok(err instanceof BootTimeout, String(err));
    assert.ok(c.now() >= 60_000, `gave up at ${c.now()} ms`);
    assert.ok(c.now() < 60_000 + 5_000, 'not much past it');
    assert.match((err.cause as Error).message, /connection timeout/);
    assert.ok(tries > 10);
  });

  it('a refusal waiting cannot mend ends it at once', async () => {
    const c = clock();
    let tries = 0;
    const refused = Object.assign(new Error('password authentication failed for user "bff"'), { code: '28P01' });
    await assert.rejects(
      openStoreAtBoot({
        open: async () => {
          tries++;
          throw refused;
        },
        deadlineMs: 60_000,
        onWait: () => assert.fail('no wait'),
        ...c,
      }),
      (e) => e === refused,
    );
    assert.equal(tries, 1);
  });
});
