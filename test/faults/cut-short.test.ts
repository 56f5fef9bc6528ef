/**
 * A request body the client cut short (its connection closed before the body's end) is the
 * client's 400, logged as such, never the store's 503, however the BFF is started: `npm start`'s
 * wiring (scripts/start.ts), the CLI, mounted in Express, Fastify or a Hono app, and in a server
 * that hands the app the request alone. A body sent with its length, a chunked one, and a
 * provider's form notification, each cut short.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import express from 'express';
import { createBff, loadConfig, type BffApp } from '@bank-checkout/bff';
import { startAll, type Started } from '../../scripts/start.js';
import { until } from '../../packages/bff/test/until.js';
import { fastifyWithBff } from '../../packages/bff/test/shop-servers.js';
import { cliArgs } from '../support/cli.mjs';
import { opened } from '../support/opened.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const SECRET = 'cut-short-merchant-secret-0123456789';

/** How a request's body is cut short: its head and the first bytes of its body, then the connection closes. */
const CUTS = [
  {
    what: 'a JSON body sent with its length',
    path: '/v1/checkouts',
    head: `POST {prefix}/v1/checkouts HTTP/1.1\r\nHost: bff.test\r\nAuthorization: Bearer ${SECRET}\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"amount":`,
  },
  {
    what: 'a chunked JSON body',
    path: '/v1/checkouts',
    head: `POST {prefix}/v1/checkouts HTTP/1.1\r\nHost: bff.test\r\nAuthorization: Bearer ${SECRET}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n{"amount"\r\n`,
  },
  {
    what: "a provider's form notification",
    path: '/v1/notifications/provider',
    head: `POST {prefix}/v1/notifications/provider HTTP/1.1\r\nHost: bff.test\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 400\r\n\r\ndataReturn=eyJ`,
  },
];

/** Sends `head` to the server at `port` from `from`, waits for the server to have read it, and closes the connection. */
function cutShort(port: number, head: string, from = '127.0.0.1'): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from }, () => {
      socket.write(head, () => {
        // Written to the kernel; the server's read of it and of the close that follows are in order.
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', reject);
  });
}

/** The access log lines of `path` (the BFF's own path, under any mount prefix), parsed. */
const accessLines = (logs: string[], path: string) =>
  logs
    .filter((l) => l.includes('"event":"http.request"'))
    .map((l) => JSON.parse(l) as { path: string; status: number })
    .filter((l) => l.path.endsWith(path));

/** Cuts each body short at the server on `port` and asserts each answered 400, logged as such, and nothing logged the store as unavailable. */
async function assertCutsAre400(port: number, logs: string[], prefix = ''): Promise<void> {
  for (const cut of CUTS) {
    const before = accessLines(logs, cut.path).length;
    await cutShort(port, cut.head.replace('{prefix}', prefix));
    const line = await until(() => accessLines(logs, cut.path)[before], `the access log line of ${cut.what}`);
    assert.equal(line.status, 400, `${cut.what}: ${JSON.stringify(line)}`);
  }
  assert.deepEqual(
    logs.filter((l) => l.includes('store.unavailable') || l.includes('http.unhandled')),
    [],
  );
}

describe('a request body cut short', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bff-cut-short-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe("under npm start's wiring (scripts/start.ts)", () => {
    let started: Started;
    const logs: string[] = [];
    before(async () => {
      started = await startAll({
        ports: { demo: 0, bff: 0, sandbox: 0 },
        dataDir: join(dir, 'start'),
        env: { LOG_LEVEL: 'info', BFF_MERCHANT_SECRET: SECRET, AUTH_FAILURES_PER_MINUTE: '2' },
        log: (line) => logs.push(line),
      });
    });
    after(async () => {
      await opened(started)?.stop();
    });

    it('answers 400 and logs it so, never the store unavailable', async () => {
      await assertCutsAre400(Number(new URL(started.urls.bff).port), logs);
    });

    it("the BFF sees each client's own address (the wiring hands it the socket)", async () => {
      const bff = started.urls.bff;
      const guess = (from: string) =>
        new Promise<number>((resolve, reject) => {
          const port = Number(new URL(bff).port);
          const s = connect({ port, host: '127.0.0.1', localAddress: from }, () =>
            s.write('GET /v1/checkout HTTP/1.1\r\nHost: bff.test\r\nX-Checkout-Secret: cs_wrong\r\nConnection: close\r\n\r\n'),
          );
          let answer = '';
          s.on('data', (d: Buffer) => (answer += d.toString()));
          s.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])));
          s.on('error', reject);
        });
      // Two wrong secrets a minute from an address (AUTH_FAILURES_PER_MINUTE=2), then it is refused; another address is not.
      assert.deepEqual([await guess('127.0.0.2'), await guess('127.0.0.2'), await guess('127.0.0.2')], [401, 401, 429]);
      assert.equal(await guess('127.0.0.3'), 401, 'another address is not locked out');
    });
  });

  describe('under the CLI', () => {
    let child: ChildProcess;
    const logs: string[] = [];
    let port = 0;
    before(async () => {
      child = spawn(process.execPath, cliArgs('packages/bff/src/cli.ts'), {
        cwd: ROOT,
        env: { ...process.env, PORT: '0', DATABASE_URL: ':memory:', LOG_LEVEL: 'info', BFF_MERCHANT_SECRET: SECRET },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const take = (chunk: Buffer) => logs.push(...chunk.toString().split('\n').filter(Boolean));
      child.stdout!.on('data', take);
      child.stderr!.on('data', take);
      const line = await until(() => logs.find((l) => l.startsWith('bff: listening on ')), 'the BFF to listen', 120_000);
      port = Number(/:(\d+)/.exec(line.slice('bff: listening on '.length))![1]);
    });
    after(() => {
      opened(child)?.kill('SIGKILL');
    });

    it('answers 400 and logs it so, never the store unavailable', async () => {
      await assertCutsAre400(port, logs);
    });
  });

  describe('mounted in a server of the shop', () => {
    let bff: BffApp;
    const logs: string[] = [];
    before(async () => {
      bff = createBff(loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'info', BFF_MERCHANT_SECRET: SECRET }), { log: (l) => logs.push(l), sweepMs: 0 });
      await bff.ready;
    });
    after(() => bff.close());

    const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

    it('in Express: answers 400 and logs it so', async () => {
      const shop = express();
      shop.use('/pay', getRequestListener(bff.fetch));
      const server = createServer(shop);
      try {
        await assertCutsAre400(await listen(server), logs, '/pay');
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });

    it('in Fastify: answers 400 and logs it so', async () => {
      const shop = await fastifyWithBff(bff.fetch);
      await shop.listen({ port: 0, host: '127.0.0.1' });
      try {
        await assertCutsAre400((shop.server.address() as AddressInfo).port, logs, '/pay');
      } finally {
        await shop.close();
      }
    });

    it('in a server that hands the app the request alone (no Node socket to look at): answers 400 and logs it so', async () => {
      const server = serve({ fetch: (req) => bff.fetch(req), port: 0, hostname: '127.0.0.1' }) as Server;
      await until(() => server.listening, 'the server to listen');
      try {
        await assertCutsAre400((server.address() as AddressInfo).port, logs);
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });

    it('in a Hono app (app.route): answers 400 and logs it so', async () => {
      const shop = new Hono();
      shop.route('/pay', bff);
      const server = serve({ fetch: shop.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
      await until(() => server.listening, 'the shop to listen');
      try {
        await assertCutsAre400((server.address() as AddressInfo).port, logs, '/pay');
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });
  });
});
