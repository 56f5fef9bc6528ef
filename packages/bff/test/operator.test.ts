/**
 * `bank-checkout-bff`'s commands for an operator without the demo console: checkouts by state
 * (`unknown` first), a decision on one with a note, a cancel, the webhook events that never got
 * through and a redelivery, and the feed of changes as JSON lines. They call the merchant API of
 * a running BFF (run here in-process against the harness, and once as a process against a BFF
 * listening on a port); `--help` on every command prints its usage and starts nothing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { COMMANDS, commandOf, runOperator, usage } from '../src/commands.js';
import { serveBff } from '../src/server.js';
import { BFF_HOST, MERCHANT_SECRET, createHarness, type Harness } from './harness.js';
import { cliArgs } from '../../../test/support/cli.mjs';

const ROOT = new URL('../../..', import.meta.url).pathname;

/** Runs the CLI as a process with `env` only (no inherited secrets); its status and output. */
function cli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, cliArgs('packages/bff/src/cli.ts', ...args), {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...(process.env.TEST_COMPILED_CLIS ? { TEST_COMPILED_CLIS: process.env.TEST_COMPILED_CLIS } : {}), ...env },
    });
    let stdout = '';
    let stderr = '';
    // A command that starts a server instead of answering would never exit: killed, and the test fails on its status.
    const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (status) => {
      clearTimeout(kill);
      resolve({ status, stdout, stderr });
    });
  });
}

describe('bank-checkout-bff: usage', () => {
  it('reads the command line: a command, its usage, or an unknown one', () => {
    assert.deepEqual(commandOf([]), { kind: 'run', command: 'serve', args: [] });
    assert.deepEqual(commandOf(['--help']), { kind: 'help' });
    assert.deepEqual(commandOf(['-h']), { kind: 'help' });
    assert.deepEqual(commandOf(['help', 'resolve']), { kind: 'help', command: 'resolve' });
    assert.deepEqual(commandOf(['resolve', 'chk_1', '--help']), { kind: 'help', command: 'resolve' });
    assert.deepEqual(commandOf(['prune', '-h']), { kind: 'help', command: 'prune' });
    assert.deepEqual(commandOf(['checkouts', '--state', 'unknown']), { kind: 'run', command: 'checkouts', args: ['--state', 'unknown'] });
    assert.deepEqual(commandOf(['toString']), { kind: 'unknown', command: 'toString' });
    for (const name of Object.keys(COMMANDS)) {
      assert.deepEqual(commandOf([name, '--help']), { kind: 'help', command: name });
      assert.match(usage(name), new RegExp(`^Usage: bank-checkout-bff ${name}`));
      assert.match(usage(), new RegExp(`\\n  ${name} `), `${name} is listed`);
    }
  });

  it('--help, on its own and on every command, prints the usage as a process and starts nothing (not even with a store it cannot open)', async () => {
    const env = { DATABASE_URL: 'file:/proc/nope/bff.db', PORT: '1' };
    const [all, serve, prune, resolve] = await Promise.all([
      cli(['--help'], env),
      cli(['serve', '--help'], env),
      cli(['prune', '--help'], env),
      cli(['resolve', '-h'], env),
    ]);
    for (const r of [all, serve, prune, resolve]) {
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, '');
      assert.doesNotMatch(r.stdout, /listening/);
    }
    assert.match(all.stdout, /^Usage: bank-checkout-bff \[command\]/);
    assert.match(prune.stdout, /^Usage: bank-checkout-bff prune \[--dry-run\]/);
    assert.match(resolve.stdout, /--note/);
    const unknown = await cli(['sevre'], env);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^bff: unknown command "sevre"/);
  });
});

describe('bank-checkout-bff: the operator commands', () => {
  let h: Harness;
  const fetchVia = ((u: string, i: RequestInit) => h.bff.request(u, i)) as typeof fetch;
  const env = { BFF_URL: BFF_HOST, BFF_MERCHANT_SECRET: MERCHANT_SECRET };
  /** Runs a command in-process: its status and lines. */
  async function run(args: string[], e: Record<string, string | undefined> = env) {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runOperator(args[0]!, args.slice(1), e, { out: (l) => out.push(l), err: (l) => err.push(l) }, fetchVia);
    return { status, out, err };
  }
  /** A checkout left unknown, as a timeout leaves it. */
  async function unknownCheckout(reference: string) {
    const c = await h.createCheckout({ reference });
    const rec = (await h.bff.parts.store.getCheckout(c.id))!;
    await h.bff.parts.store.updateCheckout(c.id, rec.version, {
      state: 'unknown',
      error: { code: 'unknown', message: 'error.unknown' },
      updatedAt: h.clock.now,
    });
    return c;
  }

  before(async () => {
    h = await createHarness({ MERCHANT_WEBHOOK_URL: 'http://merchant.test/hook', MERCHANT_WEBHOOK_SECRET: 'webhook-secret-0123456789' });
  });
  after(() => h.close());

  it('checkouts: those left unknown first, every one of them, then the latest of every other state', async () => {
    const open = await h.createCheckout({ reference: 'ORD-OP-OPEN' });
    h.clock.advance(1000);
    const unknown = await unknownCheckout('ORD-OP-UNKNOWN');
    h.clock.advance(1000);
    const done = await h.createCheckout({ reference: 'ORD-OP-DONE' });
    await run(['cancel', done.id]);
    const r = await run(['checkouts']);
    assert.equal(r.status, 0, r.err.join('\n'));
    assert.match(r.out[0]!, /^unknown: 1 waiting for your decision \(ask the bank, then: bank-checkout-bff resolve <checkout-id> succeeded\|failed\)$/);
    assert.match(r.out[1]!, new RegExp(`^  ${unknown.id}  unknown  +42\\.50 EUR  ORD-OP-UNKNOWN  `));
    const cancelledAt = r.out.findIndex((l) => l.startsWith('cancelled: '));
    const openAt = r.out.findIndex((l) => l.startsWith('select-bank: '));
    assert.ok(cancelledAt > 1 && openAt > 1);
    assert.ok(r.out.some((l) => l.includes(open.id)));
    assert.ok(!r.out.slice(2).some((l) => l.includes(unknown.id)), 'the unknown one once');
    const json = await run(['checkouts', '--state', 'unknown', '--json']);
    assert.deepEqual(
      json.out.map((l) => (JSON.parse(l) as { id: string }).id),
      [unknown.id],
    );
  });

  it('resolve: records the outcome with the note; a bad command line is 2, a refusal 1, and nothing changes', async () => {
    const c = await unknownCheckout('ORD-OP-RESOLVE');
    assert.equal((await run(['resolve', c.id, 'maybe'])).status, 2);
    assert.equal((await run(['resolve', c.id])).status, 2);
    const badOption = await run(['resolve', c.id, 'failed', '--reason', 'x']);
    assert.equal(badOption.status, 2);
    assert.match(badOption.err[0]!, /--reason/);
    assert.equal((await h.bff.parts.store.getCheckout(c.id))!.state, 'unknown');
    const r = await run(['resolve', c.id, 'failed', '--note', 'No transfer on the statement of 20 Nov']);
    assert.deepEqual([r.status, r.out], [0, [`${c.id} resolved as failed (ORD-OP-RESOLVE, 42.50 EUR)`]]);
    assert.deepEqual((await h.bff.parts.store.getCheckout(c.id))!.internal.resolution, {
      outcome: 'failed',
      at: h.clock.now,
      note: 'No transfer on the statement of 20 Nov',
    });
    const open = await h.createCheckout();
    const refused = await run(['resolve', open.id, 'succeeded']);
    assert.equal(refused.status, 1);
    assert.match(refused.err[0]!, /^bff: resolve: invalid_state: Only an unknown checkout can be resolved/);
  });

  it('cancel: ends an open checkout and frees its reference', async () => {
    const c = await h.createCheckout({ reference: 'ORD-OP-CANCEL' });
    const r = await run(['cancel', c.id]);
    assert.equal(r.status, 0, r.err.join('\n'));
    assert.match(r.out[0]!, /cancelled \(ORD-OP-CANCEL, 42\.50 EUR\)/);
    await h.createCheckout({ reference: 'ORD-OP-CANCEL' });
  });

  it('events and redeliver: the events that never got through, and one sent again', async () => {
    // A shop whose webhook endpoint is down: every delivery fails, then the event is marked failed.
    const down = await createHarness({ MERCHANT_WEBHOOK_URL: 'http://down.test/hook', MERCHANT_WEBHOOK_SECRET: 'webhook-secret-0123456789' });
    const runDown = (args: string[]) =>
      runOperator(args[0]!, args.slice(1), env, { out: (l) => lines.push(l), err: (l) => lines.push(l) }, ((u: string, i: RequestInit) =>
        down.bff.request(u, i)) as typeof fetch);
    let lines: string[] = [];
    try {
      const c = await down.createCheckout();
      assert.equal(await runDown(['cancel', c.id]), 0);
      for (let i = 0; i < 3; i++) {
        down.clock.advance(10);
        await down.bff.parts.webhook.drain();
      }
      const [event] = await down.bff.parts.store.listEvents({ status: 'failed', limit: 1 });
      assert.ok(event, 'failed after its retries');
      lines = [];
      assert.equal(await runDown(['events']), 0);
      assert.match(lines[0]!, /^failed: 1 \(send one again: bank-checkout-bff redeliver <event-id>\)$/);
      assert.match(
        lines[1]!,
        new RegExp(`^  ${event.id}  checkout\\.updated +failed +3 attempts  .*  ${c.id}  fetch failed: http:\\/\\/down\\.test is not reachable`),
      );
      lines = [];
      assert.equal(await runDown(['redeliver', event.id]), 0);
      assert.match(lines[0]!, /queued again \(checkout\.updated\)/);
      // Sent at once (the endpoint is still down), and in the queue again for the usual retries.
      await down.bff.parts.webhook.drain();
      const queued = (await down.bff.parts.store.getEvent(event.id))!;
      assert.deepEqual([queued.failedAt, queued.attempts, queued.nextAttemptAt > down.clock.now], [null, 1, true], 'in the queue again');
      lines = [];
      assert.equal(await runDown(['events', '--status', 'pending', '--json']), 0);
      assert.deepEqual(
        lines.map((l) => (JSON.parse(l) as { id: string }).id),
        [event.id],
      );
    } finally {
      await down.close();
    }
    assert.deepEqual((await run(['events'])).out, ['failed: 0']);
    assert.equal((await run(['events', '--status', 'lost'])).status, 2);
    const missing = await run(['redeliver', 'evt_missing']);
    assert.equal(missing.status, 1);
    assert.match(missing.err[0]!, /not_found/);
  });

  it('changes: the feed as JSON lines, each page followed by where to read on from', async () => {
    const all = await run(['changes', '--limit', '1000']);
    assert.equal(all.status, 0);
    const lines = all.out.map((l) => JSON.parse(l) as { checkout?: { id: string }; next?: string });
    assert.ok(lines.filter((l) => l.checkout).length >= 5);
    const next = lines.at(-1)!.next!;
    assert.ok(next);
    assert.deepEqual((await run(['changes', '--after', next])).out, [JSON.stringify({ next })], 'nothing new: the same position');
    const c = await h.createCheckout({ reference: 'ORD-OP-FEED' });
    const fresh = (await run(['changes', '--after', next])).out.map((l) => JSON.parse(l) as { checkout?: { id: string }; next?: string });
    assert.deepEqual(
      fresh.map((l) => l.checkout?.id ?? 'next'),
      [c.id, 'next'],
    );
    const paged = (await run(['changes', '--after', '0', '--limit', '2'])).out;
    assert.equal(paged.length, 3, 'two checkouts, then the position');
    const refused = await run(['changes', '--after', 'not-a-position']);
    assert.equal(refused.status, 1);
    assert.match(refused.err[0]!, /validation_failed: .* after is not a cursor of this feed\./);
  });

  it('refuses to run without the merchant secret, says when the BFF cannot be reached or refuses the secret, and never prints the secret', async () => {
    const none = await run(['checkouts'], { BFF_URL: BFF_HOST });
    assert.equal(none.status, 2);
    assert.match(none.err[0]!, /BFF_MERCHANT_SECRET is not set/);
    const wrong = await run(['checkouts'], { BFF_URL: BFF_HOST, BFF_MERCHANT_SECRET: 'wrong-secret-0123456789' });
    assert.equal(wrong.status, 1);
    assert.match(wrong.err[0]!, /^bff: checkouts: unauthorized: /);
    const out = [...none.err, ...wrong.err, ...wrong.out].join('\n');
    assert.doesNotMatch(out, /wrong-secret|test-merchant-secret/);
  });

  it('changes into a reader that stops reading (`| head -1`): ends with 0, no EPIPE', async () => {
    // A BFF whose feed never ends: every page is full, so the command is still writing when the reader goes.
    const checkout = { id: 'chk_feed', state: 'select-bank', amount: 100, reference: 'ORD-FEED', updatedAt: new Date(0).toISOString(), note: 'x'.repeat(400) };
    const feed = createServer((_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ checkouts: Array(200).fill(checkout), next: 'c_next' }));
    }).listen(0, '127.0.0.1');
    await new Promise((r) => feed.once('listening', r));
    try {
      const { port } = feed.address() as { port: number };
      const child = spawn(process.execPath, cliArgs('packages/bff/src/cli.ts', 'changes', '--limit', '1000000'), {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          ...(process.env.TEST_COMPILED_CLIS ? { TEST_COMPILED_CLIS: process.env.TEST_COMPILED_CLIS } : {}),
          BFF_URL: `http://127.0.0.1:${port}`,
          BFF_MERCHANT_SECRET: MERCHANT_SECRET,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      // The first line read, the reader closes its end, as `head -1` does.
      child.stdout.once('data', () => child.stdout.destroy());
      const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const status = await new Promise<number | null>((r) => child.on('exit', r));
      clearTimeout(kill);
      assert.equal(stderr, '');
      assert.equal(status, 0);
    } finally {
      feed.close();
    }
  });

  it('runs as a process against a BFF listening on a port', async () => {
    const served = serveBff(h.bff.fetch, { port: 0, hostname: '127.0.0.1' });
    const { port } = await served.listening;
    try {
      const c = await unknownCheckout('ORD-OP-PROCESS');
      const r = await cli(['checkouts', '--state', 'unknown'], { BFF_URL: `http://127.0.0.1:${port}`, BFF_MERCHANT_SECRET: MERCHANT_SECRET });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`${c.id}  unknown .* ORD-OP-PROCESS`));
      const down = await cli(['events'], { BFF_URL: 'http://127.0.0.1:1', BFF_MERCHANT_SECRET: MERCHANT_SECRET });
      assert.equal(down.status, 1);
      assert.match(down.stderr, /the BFF at http:\/\/127\.0\.0\.1:1 \(BFF_URL\) could not be reached/);
    } finally {
      await new Promise((r) => served.server.close(r));
    }
  });
});
