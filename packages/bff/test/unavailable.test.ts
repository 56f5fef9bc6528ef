/**
 * A store that cannot answer, as the operator meets it. Boot's wait for the database
 * (store/boot.ts), on an injected clock: it tries again while the store is unavailable, with a
 * growing wait and a line each time, up to its deadline and never past it; a refusal waiting
 * cannot mend ends it at once. And the cause each 503's log line names.
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

describe('the cause a 503 names', () => {
  it('tells the bound or the fault that made the store unavailable', async () => {
    const { CommitInDoubt, unavailableCause } = await import('../src/store/failure.js');
    const cases: [unknown, string][] = [
      [new Error('timeout exceeded when trying to connect'), 'pool'],
      [new Error('Connection terminated due to connection timeout'), 'connect'],
      [Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }), 'statement'],
      [new Error('Query read timeout'), 'statement'],
      [Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }), 'lock'],
      [new CommitInDoubt('The store did not confirm a commit.'), 'commit'],
      [Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }), 'busy'],
      [Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' }), 'disk'],
      [Object.assign(new Error('the database system is shutting down'), { code: '57P03' }), 'server'],
      [Object.assign(new Error('sorry, too many clients already'), { code: '53300' }), 'server'],
      [Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'network'],
      [Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), 'server'],
      [new Error('Connection terminated unexpectedly'), 'network'],
      [
        new StoreUnavailable('The store is not available (ECONNREFUSED).', {
          cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
        }),
        'network',
      ],
    ];
    for (const [err, cause] of cases) assert.equal(unavailableCause(err), cause, (err as Error).message);
  });
});

describe('a store operation tried again', () => {
  it('starts no try later than its bound after the first, however many tries it had left', async () => {
    const { retrying } = await import('../src/store/failure.js');
    let t = 0;
    let tries = 0;
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const err = await retrying(
      async () => {
        tries++;
        t += 150; // each try takes 150 ms to fail
        throw reset;
      },
      { tries: 10, baseMs: 50, withinMs: 500, now: () => t, sleep: async (ms) => void (t += ms) },
    ).catch((e: unknown) => e);
    assert.equal(err, reset);
    assert.ok(tries >= 2 && tries < 10, `${tries} tries`);
    assert.ok(t < 500 + 150 + 150, `the last try started within the bound (${t} ms in all)`);
  });
});
