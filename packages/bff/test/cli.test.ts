/**
 * The CLI as a supervisor runs it: a store it cannot open is refused at boot with one line
 * naming DATABASE_URL, well within 10 s (Node's recursive mkdir never returns under /proc; a
 * database nobody answers at is given up on), a second process on the SQLite file another one
 * serves is refused with one line, and SIGTERM stops it cleanly with status 0.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliArgs } from '../../../test/support/cli.mjs';

const ROOT = new URL('../../..', import.meta.url).pathname;

/** Runs the CLI until it exits (killed after 40 s: a boot that hangs fails the test); its status and output. */
function runCli(env: Record<string, string>, onLine?: (line: string, stop: (signal: NodeJS.Signals) => void) => void) {
  return new Promise<{ status: number | null; stderr: string; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, cliArgs('packages/bff/src/cli.ts'), {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'silent', ...env },
    });
    let stdout = '';
    let stderr = '';
    const kill = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      for (const line of c.toString().split('\n')) if (line) onLine?.(line, (s) => child.kill(s));
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (status) => {
      clearTimeout(kill);
      resolve({ status, stderr, stdout });
    });
  });
}

describe('bank-checkout-bff (CLI)', () => {
  it('refuses a store path it cannot create with one line naming DATABASE_URL', async () => {
    const r = await runCli({ DATABASE_URL: 'file:/proc/nope/bff.db' });
    assert.equal(r.status, 1);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^bff: the store could not start \(DATABASE_URL\)/);
  });

  it('waits for a PostgreSQL nobody answers at (a port that accepts and never speaks), a line a try, then gives up with one line naming DATABASE_URL', async () => {
    // A listener that takes connections and says nothing: the client waits for its greeting.
    const silent = createServer(() => {}).listen(0, '127.0.0.1');
    await new Promise((r) => silent.once('listening', r));
    const port = (silent.address() as { port: number }).port;
    try {
      const r = await runCli({ DATABASE_URL: `postgres://u:secret-password@127.0.0.1:${port}/db`, DATABASE_BOOT_WAIT_SECONDS: '2' });
      assert.equal(r.status, 1);
      const lines = r.stderr.trim().split('\n');
      assert.match(lines.at(-1)!, /^bff: the store could not start \(DATABASE_URL\): no answer within 2 s/);
      assert.ok(lines.length >= 2, 'it waited before giving up');
      for (const l of lines.slice(0, -1))
        assert.match(l, /^bff: the store does not answer yet \(.*\); trying again in [\d.]+ s \(\d+ s left of DATABASE_BOOT_WAIT_SECONDS\)$/);
      assert.doesNotMatch(r.stderr, /secret-password/);
    } finally {
      silent.close();
    }
  });

  it('refuses a second process on the SQLite file another one serves, with one line; the first serves on', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'bff-cli-file-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'bff.db');
    let second: Awaited<ReturnType<typeof runCli>> | undefined;
    const first = await runCli({ DATABASE_URL: `file:${file}` }, (line, stop) => {
      if (!line.startsWith('bff: listening on ')) return;
      void runCli({ DATABASE_URL: `file:${file}` }).then((r) => {
        second = r;
        stop('SIGTERM');
      });
    });
    assert.equal(first.status, 0, first.stderr);
    assert.ok(second);
    assert.equal(second.status, 1);
    const lines = second.stderr.trim().split('\n');
    assert.equal(lines.length, 1, second.stderr);
    assert.match(
      lines[0]!,
      /^bff: the store could not start \(DATABASE_URL\): another BFF process already serves .*bff\.db: one process per SQLite file \(several instances need PostgreSQL/,
    );
  });

  it('stops cleanly on SIGTERM: status 0', async () => {
    let listening = false;
    const r = await runCli({ DATABASE_URL: ':memory:' }, (line, stop) => {
      if (line.startsWith('bff: listening on ')) {
        listening = true;
        stop('SIGTERM');
      }
    });
    assert.ok(listening);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /bff: SIGTERM: stopping/);
  });
});
