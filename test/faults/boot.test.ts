/**
 * Boot waits for the database. Instances started while PostgreSQL stalls its connections (a
 * failover, a server starting, every process of it stopped) wait, one line a try, and all come
 * up once it answers; none exits before `DATABASE_BOOT_WAIT_SECONDS`. A database that never
 * answers stops boot at the deadline with one line naming the variable; one that answers with a
 * refusal waiting cannot mend (a database that does not exist) stops it at once.
 *
 * Needs PostgreSQL 15's server binaries (/usr/lib/postgresql/15/bin, or PG_BIN). Under CI=true
 * their absence is a failure; elsewhere the suite is skipped with a message.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { until } from '../../packages/bff/test/until.js';
import { HAVE_PG, NO_PG_REASON, PG_BIN, freePort, listening, privatePostgres, spawnBff, type Instance, type PrivatePostgres } from '../support/cluster.js';
import { opened } from '../support/opened.js';

const waits = (i: Instance) => i.output.filter((l) => l.includes('the store does not answer yet')).length;

describe('boot waits for the database', { skip: !HAVE_PG && process.env.CI !== 'true' ? NO_PG_REASON : false }, () => {
  let pg: PrivatePostgres;
  const started: Instance[] = [];
  const env = (databaseUrl: string, extra: Record<string, string> = {}) => ({
    PORT: '0',
    DATABASE_URL: databaseUrl,
    BFF_MERCHANT_SECRET: 'boot-merchant-secret-0123456789abcdef',
    LOG_LEVEL: 'warn',
    ...extra,
  });
  const start = (name: string, e: Record<string, string>) => {
    const i = spawnBff(name, e);
    started.push(i);
    return i;
  };

  before(async () => {
    assert.ok(HAVE_PG, `PostgreSQL server binaries not found in ${PG_BIN}: CI must install postgresql`);
    pg = await privatePostgres({ prefix: 'bc-boot-pg-' });
  });
  after(async () => {
    opened(pg)?.thaw();
    for (const i of started) if (!i.exited) i.child.kill('SIGTERM');
    await Promise.all(started.map((i) => until(() => i.exited, `${i.name} to stop`, 15_000).catch(() => i.child.kill('SIGKILL'))));
    await opened(pg)?.close();
  });

  it('three instances started together while the database stalls every connection wait, none exits, and all come up once it answers', async () => {
    pg.freeze();
    let thawed = false;
    try {
      const three = ['boot-a', 'boot-b', 'boot-c'].map((n) => start(n, env(pg.url)));
      // Each tries, is not answered, and says it waits (one line a try); none gives up.
      await until(() => three.every((i) => waits(i) >= 2) || three.some((i) => i.exited), 'each instance to wait twice', 30_000);
      assert.deepEqual(
        three.filter((i) => i.exited).map((i) => `${i.name}: ${i.output.join(' | ')}`),
        [],
        'no instance exits while the database stalls',
      );
      assert.match(
        three[0]!.output.find((l) => l.includes('does not answer yet'))!,
        /s left of DATABASE_BOOT_WAIT_SECONDS/,
      );
      pg.thaw();
      thawed = true;
      const up = await Promise.all(three.map((i) => listening(i)));
      for (const i of up) assert.equal((await fetch(`${i.url}/ready`)).status, 200, `${i.name} ready`);
    } finally {
      if (!thawed) pg.thaw();
    }
  });

  it('a database that never answers: boot gives up at DATABASE_BOOT_WAIT_SECONDS, with one line naming DATABASE_URL (exit 1)', async () => {
    const nobody = await freePort();
    const i = start('boot-nobody', env(`postgres://postgres@127.0.0.1:${nobody}/bank_checkout`, { DATABASE_BOOT_WAIT_SECONDS: '2' }));
    await until(() => i.exited, 'the instance to give up', 20_000);
    assert.equal(i.exited!.code, 1);
    assert.ok(waits(i) >= 1, 'it waited before giving up');
    assert.match(i.output.at(-1)!, /^bff: the store could not start \(DATABASE_URL\): no answer within 2 s/);
  });

  it('a refusal waiting cannot mend (a database that does not exist): boot stops at once, without waiting', async () => {
    const i = start('boot-no-database', env(pg.url.replace(/\/bank_checkout$/, '/no_such_database')));
    await until(() => i.exited, 'the instance to stop', 20_000);
    assert.equal(i.exited!.code, 1);
    assert.equal(waits(i), 0);
    assert.match(i.output.join('\n'), /bff: the store could not start \(DATABASE_URL\)/);
  });
});
