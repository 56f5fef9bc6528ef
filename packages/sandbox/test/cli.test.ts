import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { SANDBOX_DEFAULTS } from '../src/context.js';
import { cliArgs } from '../../../test/support/cli.mjs';

const root = new URL('../../..', import.meta.url).pathname;

function start(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, cliArgs('packages/sandbox/src/cli.ts'), {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The URL printed by the CLI once it listens. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the CLI did not report listening within 120 s')), 120_000); // a safety net for a hang only
    child.once('exit', (code) => reject(new Error(`the CLI exited with ${code} before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
}

/** Exit code and stderr of a CLI run that is expected to stop by itself. */
async function failure(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = start(env);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000); // a safety net for a hang only
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stderr };
}

describe('sandbox CLI', () => {
  test('PORT=0: starts on a free port it prints, answers, closes a connection on a reset fault, stops on SIGTERM', async () => {
    const child = start({ PORT: '0' });
    try {
      const url = await listening(child);
      const port = Number(new URL(url).port);
      assert.ok(port > 0, `a real port in ${url}`);

      const clock = (await (await fetch(`${url}/__sandbox/clock`)).json()) as { now: number };
      assert.equal(typeof clock.now, 'number');
      assert.ok(Math.abs(clock.now - Date.now()) < 60_000);

      const banks = await fetch(`${url}/test/banks/list`, {
        method: 'POST',
        headers: { 'X-Api-Key': SANDBOX_DEFAULTS.apiKey, Authorization: SANDBOX_DEFAULTS.apiToken, 'Content-Type': 'application/json' },
        body: '{}',
      });
      assert.equal(banks.status, 200);
      await banks.arrayBuffer();

      // The node server's bindings reach the fault switch: a reset closes the socket.
      const rule = await fetch(`${url}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: '/reset-me', kind: 'reset' }),
      });
      assert.equal(rule.status, 201);
      await assert.rejects(fetch(`${url}/reset-me`), TypeError);

      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code, signal] = (await exited) as [number | null, string | null];
      assert.equal(code, 0, `exit code ${code}, signal ${signal}`);
      await assert.rejects(fetch(`${url}/__sandbox/clock`), TypeError, 'nothing listens any more');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  test('a bad PORT stops it with a message naming PORT', async () => {
    const results = await Promise.all(['abc', '70000', '-1'].map((PORT) => failure({ PORT })));
    for (const { code, stderr } of results) {
      assert.equal(code, 1);
      assert.match(stderr, /PORT must be a port number/);
    }
  });

  test('a port in use stops it with a message naming PORT', async () => {
    const first = start({ PORT: '0' });
    try {
      const port = new URL(await listening(first)).port;
      const { code, stderr } = await failure({ PORT: port });
      assert.equal(code, 1);
      assert.match(stderr, /in use \(set PORT\)/);
    } finally {
      first.kill('SIGKILL');
    }
  });
});
