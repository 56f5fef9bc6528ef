/**
 * A stop finishes what it started: the BFF process (its CLI, as a supervisor runs it) gets
 * SIGTERM while several payers' validations are with the bank and the bank is slow (the
 * simulator's fault switch delays each answer to just under the provider timeout, as 14 s
 * validations under the default 15 s would be, scaled down). It takes no new connection, every
 * validation is answered (200, succeeded, `Connection: close`), the process exits 0, and the
 * store it leaves holds every checkout succeeded, none `unknown`.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createSandbox } from '@bank-checkout/sandbox';
import { createStore, type CheckoutView } from '@bank-checkout/bff';
import { walk } from '../../packages/bff/test/flow.js';
import { createCheckoutClient } from '@bank-checkout/elements/client';
import { cliArgs } from '../support/cli.mjs';
import { until } from '../../packages/bff/test/until.js';
import { opened } from '../support/opened.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const MERCHANT_SECRET = 'shutdown-merchant-secret-0123456789';
/** The provider timeout, and the bank's delay just under it (15 s and 14 s, scaled down). */
const PROVIDER_TIMEOUT_MS = 4_000;
const VALIDATION_DELAY_MS = 3_000;
const PAYERS = 4;

/** A POST with a JSON body over `agent` (each payer its own kept-alive connection): status, Connection header, body. */
function post(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  agent: Agent,
): Promise<{ status: number; connection: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(data)) } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

describe('SIGTERM while validations are with a slow bank', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bff-shutdown-'));
  const databaseUrl = `file:${join(dir, 'bff.db')}`;
  let sandboxServer: Server;
  let sandboxUrl = '';
  let bff: ChildProcess;
  let bffUrl = '';
  const output: string[] = [];
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  /** Validations the simulator has received. */
  let validations = 0;

  before(async () => {
    const sandbox = createSandbox({});
    sandboxServer = serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: (req, env) => {
        if (req.method === 'POST' && new URL(req.url).pathname.endsWith('/transfer/validate')) validations++;
        return sandbox.app.fetch(req, env);
      },
    }) as Server;
    await until(() => sandboxServer.listening, 'the simulator');
    sandboxUrl = `http://127.0.0.1:${(sandboxServer.address() as AddressInfo).port}`;
    bff = spawn(process.execPath, cliArgs('packages/bff/src/cli.ts'), {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_OPTIONS: '--conditions=bank-checkout-source',
        PORT: '0',
        DATABASE_URL: databaseUrl,
        PROVIDER_LINKS_URL: sandboxUrl,
        PROVIDER_NATIVE_URL: sandboxUrl,
        PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
        BFF_MERCHANT_SECRET: MERCHANT_SECRET,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const take = (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean));
    bff.stdout!.on('data', take);
    bff.stderr!.on('data', take);
    bff.on('exit', (code, signal) => (exited = { code, signal }));
    const line = await until(() => output.find((l) => l.startsWith('bff: listening on ')) ?? (exited && `exited: ${output.join('\n')}`), 'the BFF to listen');
    assert.ok(!line.startsWith('exited'), line);
    bffUrl = /http:\/\/[^ ]+/.exec(line)![0];
  });

  after(() => {
    if (!exited) opened(bff)?.kill('SIGKILL');
    opened(sandboxServer)?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every validation under way, takes no new connection, exits 0 and leaves no checkout unknown', async () => {
    // The payers, each walked to its validation (a checkout of its own, the simulator's test values).
    const h = { api: (secret: string) => createCheckoutClient({ api: bffUrl, secret }) };
    const payers = await Promise.all(
      Array.from({ length: PAYERS }, async (_, i) => {
        const res = await fetch(`${bffUrl}/v1/checkouts`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${MERCHANT_SECRET}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ amount: 1000 + i, subject: 'Shutdown order', reference: `SHUTDOWN-${i}`, isolation: 'inline' }),
        });
        assert.equal(res.status, 201);
        const { id, clientSecret } = (await res.json()) as { id: string; clientSecret: string };
        const v = await walk(h, clientSecret, 'aurora', { stopAt: 'validate' });
        assert.equal(v.state, 'validate');
        return { id, clientSecret, view: v };
      }),
    );
    // The bank answers each validation just before the provider timeout.
    const armed = await fetch(`${sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/test/transfer/validate', kind: 'latency', ms: VALIDATION_DELAY_MS }),
    });
    assert.ok(armed.ok);
    const agents = payers.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
    const answers = payers.map((p, i) => {
      const s = p.view.step;
      assert.equal(s.state, 'validate');
      const values = Object.fromEntries(s.validations.map((x) => [x.fieldId, x.testValue ?? '']));
      return post(`${bffUrl}/v1/checkout/validate`, { 'X-Checkout-Secret': p.clientSecret }, { values }, agents[i]!);
    });
    await until(() => validations >= PAYERS, 'every validation to reach the bank');
    bff.kill('SIGTERM');
    await until(() => output.some((l) => l.startsWith('bff: SIGTERM: stopping')), 'the stop to begin');
    assert.match(
      output.find((l) => l.startsWith('bff: SIGTERM: stopping'))!,
      new RegExp(`\\(${PAYERS} requests under way, ${(PROVIDER_TIMEOUT_MS + 5_000) / 1000} s at most\\)`),
    );
    // No new connection is taken meanwhile (a connection of its own: fetch's pool may hold one the stop just closed).
    const fresh = await new Promise<string>((resolve) =>
      request(`${bffUrl}/health`, { agent: false }, (res) => resolve(String(res.statusCode)))
        .on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'))
        .end(),
    );
    // Refused once the listening socket is closed; reset if the kernel had completed it just before.
    assert.ok(['ECONNREFUSED', 'ECONNRESET'].includes(fresh), `a new connection during the stop: ${fresh}`);
    // Every validation under way is answered, paid, and its connection closed after it.
    for (const answer of await Promise.all(answers)) {
      assert.equal(answer.status, 200, answer.text);
      assert.equal((JSON.parse(answer.text) as CheckoutView).state, 'succeeded');
      assert.equal(answer.connection, 'close');
    }
    await until(() => exited, 'the process to exit');
    assert.deepEqual(exited, { code: 0, signal: null }, output.join('\n'));
    assert.deepEqual(
      output.filter((l) => /cut|Unhandled|uncaught|"level":"error"/i.test(l)),
      [],
    );
    for (const agent of agents) agent.destroy();
    // What the store holds once the process is gone: every checkout paid, none unknown.
    const store = createStore(databaseUrl);
    try {
      const states = await Promise.all(payers.map(async (p) => (await store.getCheckout(p.id))?.state));
      assert.deepEqual(
        states,
        payers.map(() => 'succeeded'),
      );
      assert.deepEqual(await store.listCheckouts({ state: 'unknown', limit: 10 }), []);
    } finally {
      await store.close();
    }
  });
});
