/**
 * Connections: one address opening connections without end, or sending its headers slowly,
 * must not starve other clients. The BFF's Node server caps the connections an address holds
 * open and drops a connection whose headers or request take too long.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createBff, loadConfig, serveBff, serveOptionsOf, type BffApp, type ServedBff } from '@bank-checkout/bff';
import { createMerchantClient } from '@bank-checkout/bff/client';
import { until } from '../../packages/bff/test/until.js';

/** A connection from `from` that sends the start of a request and never finishes it (it reads what it is sent). */
function slowClient(port: number, from: string): Promise<Socket> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1', localAddress: from }, () => {
      s.write('GET /health HTTP/1.1\r\nHost: bff.test\r\nX-Slow: ');
      resolve(s);
    });
    s.on('data', () => {});
    s.on('error', () => resolve(s));
  });
}

describe('connections from one address', () => {
  let app: BffApp;
  /** The cap's server holds a slow client for a minute, so that only the cap closes one; the other drops them after a second. */
  let served: ServedBff;
  let hasty: ServedBff;
  let port: number;
  const close = async (s: ServedBff) => {
    s.server.closeAllConnections();
    await new Promise((r) => s.server.close(r));
  };
  before(async () => {
    app = createBff(loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'silent' }));
    await app.ready;
    const serve = (headersTimeoutMs: number) =>
      serveBff(app.fetch, { port: 0, hostname: '127.0.0.1', maxConnectionsPerAddress: 20, headersTimeoutMs, requestTimeoutMs: 2 * headersTimeoutMs });
    served = serve(60_000);
    hasty = serve(1_000);
    port = (await served.listening).port;
    await hasty.listening;
  });
  after(async () => {
    await close(served);
    await close(hasty);
    await app.close();
  });

  it('caps one address at its share while other clients are served', async () => {
    const sockets = await Promise.all(Array.from({ length: 100 }, () => slowClient(port, '127.0.0.2')));
    // The server closes those over the cap: wait until it has (30 s at most, a busy machine included).
    const openCount = () => sockets.filter((s) => !s.destroyed && s.readyState === 'open').length;
    await new Promise<void>((resolve) => {
      const check = () => openCount() <= 20 && resolve();
      for (const s of sockets) s.once('close', check);
      check();
    });
    assert.ok(openCount() <= 20, `${openCount()} connections of one address stayed open`);
    assert.ok(served.refused() >= 80, `refused ${served.refused()}`);
    // Another client, a browser's share of connections at a time (six), is served throughout.
    const answers: number[] = [];
    for (let round = 0; round < 8; round++) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 6 }, () =>
            fetch(`http://127.0.0.1:${port}/health`).then(
              (r) => r.status,
              () => 0,
            ),
          ),
        )),
      );
    }
    for (const s of sockets) s.destroy();
    assert.deepEqual([...new Set(answers)], [200]);
  });

  it('answers a connection over the cap with 503, Retry-After and the error shape, then closes it', async () => {
    const held = await Promise.all(Array.from({ length: 20 }, () => slowClient(port, '127.0.0.4')));
    const over = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.4' });
    let answer = '';
    over.on('data', (d) => (answer += String(d)));
    over.on('error', () => {});
    over.once('connect', () => over.write('GET /health HTTP/1.1\r\nHost: bff.test\r\n\r\n'));
    await new Promise((r) => over.once('close', r));
    for (const s of held) s.destroy();
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 503 /, `answer: ${JSON.stringify(answer)}`);
    assert.match(head, /\r\nRetry-After: 1\r\n/);
    assert.match(head, /\r\nConnection: close/);
    assert.equal((JSON.parse(body) as { error: { code: string } }).error.code, 'rate_limited');
  });

  it('runs nothing a connection over the cap sends: the 503 is all it gets', async () => {
    // Every request that reaches the BFF, by path; the cap is two connections an address.
    const ran: string[] = [];
    const counted = serveBff(
      (req, env) => {
        ran.push(new URL(req.url).pathname);
        return app.fetch(req, env);
      },
      { port: 0, hostname: '127.0.0.1', maxConnectionsPerAddress: 2 },
    );
    const countedPort = (await counted.listening).port;
    try {
      const held = await Promise.all(Array.from({ length: 2 }, () => slowClient(countedPort, '127.0.0.5')));
      // The server's side of the refused connection (found by the client's port: a held client's
      // may still be on its way), to wait until it has read all it will.
      // (Its port read as it comes: a socket closed since has none.)
      const accepted: { port: number | undefined; socket: Socket }[] = [];
      counted.server.prependListener('connection', (socket: Socket) => accepted.push({ port: socket.remotePort, socket }));
      const over = connect({ port: countedPort, host: '127.0.0.1', localAddress: '127.0.0.5' });
      let answer = '';
      over.on('data', (d) => (answer += String(d)));
      over.on('error', () => {});
      await new Promise((r) => over.once('connect', r));
      const overPort = over.localPort;
      over.write('GET /health/over-the-cap HTTP/1.1\r\nHost: bff.test\r\n\r\n');
      const { socket } = await until(() => accepted.find((a) => a.port === overPort), 'the refused connection on the server');
      // Its request arrived before its end, and the server reads a connection in order.
      await new Promise((r) => (socket.destroyed ? r(null) : socket.once('close', r)));
      for (const s of held) s.destroy();
      assert.match(answer, /^HTTP\/1\.1 503 /);
      assert.equal(counted.refused(), 1);
      assert.deepEqual(
        ran.filter((p) => p === '/health/over-the-cap'),
        [],
        'the refused request ran',
      );
    } finally {
      await close(counted);
    }
  });

  it('drops a connection whose headers do not arrive in time', async () => {
    const slow = await slowClient((await hasty.listening).port, '127.0.0.3');
    let answer = '';
    slow.on('data', (d) => (answer += String(d)));
    // Waits for the close; the 408 says the header timeout closed it.
    await new Promise((r) => (slow.destroyed ? r(null) : slow.once('close', r)));
    assert.match(answer, /^HTTP\/1\.1 408/);
  });
});

const SECRET = 'dev-merchant-secret-change-me';

/** Sends one request on a connection of its own from `from`; the raw answer once the server closes it (or after 5 s). */
function rawRequest(port: number, from: string, head: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1', localAddress: from }, () => s.write(head));
    let answer = '';
    s.on('data', (d) => {
      answer += String(d);
      // One answer is all this connection waits for.
      if (/\r\n\r\n/.test(answer) && /Content-Length: (\d+)/i.test(answer)) {
        const length = Number(/Content-Length: (\d+)/i.exec(answer)![1]);
        if (Buffer.byteLength(answer.split('\r\n\r\n').slice(1).join('\r\n\r\n')) >= length) s.end();
      }
    });
    s.on('error', () => {});
    s.on('close', () => resolve(answer));
  });
}

describe("the shop's server is not a browser", () => {
  it('100 creations at once through the merchant client, with the default limits: 100 checkouts, each once, no connection refused', async () => {
    const config = loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'silent' });
    const app = createBff(config, { frame: null, sweepMs: 0 });
    await app.ready;
    const served = serveBff(app.fetch, { ...serveOptionsOf(config), port: 0, hostname: '127.0.0.1' });
    const { port } = await served.listening;
    try {
      // Node's fetch opens a connection for each request under way: 100 from one address.
      const bff = createMerchantClient({ url: `http://127.0.0.1:${port}`, secret: SECRET });
      const references = Array.from({ length: 100 }, (_, i) => `BURST-${i}`);
      const created = await Promise.all(references.map((reference) => bff.createCheckout({ amount: 1000, subject: 'Burst', reference })));
      assert.equal(new Set(created.map((c) => c.id)).size, 100);
      assert.equal(served.refused(), 0, 'the shop was counted as browsers');
      const all = await bff.listCheckouts({ limit: 200 });
      assert.deepEqual(all.checkouts.map((c) => c.reference).sort(), [...references].sort(), 'each reference once');
    } finally {
      served.server.closeAllConnections();
      await new Promise((r) => served.server.close(r));
      await app.close();
    }
  });

  it("browsers stay capped beside the shop's connections: past the cap, only a request with the merchant secret runs, and a silent connection is closed", async () => {
    const app = createBff(loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'silent' }), { frame: null, sweepMs: 0 });
    await app.ready;
    const ran: string[] = [];
    const served = serveBff(
      (req, env) => {
        ran.push(new URL(req.url).pathname);
        return app.fetch(req, env);
      },
      { port: 0, hostname: '127.0.0.1', maxConnectionsPerAddress: 4, merchant: { secret: SECRET, maxConnectionsPerAddress: 6 } },
    );
    const { port } = await served.listening;
    try {
      // The browsers' four, held open.
      const held = await Promise.all(Array.from({ length: 4 }, () => slowClient(port, '127.0.0.7')));
      // Past the cap: a browser's request is refused and never runs; the shop's runs.
      const browser = await rawRequest(port, '127.0.0.7', 'GET /health/browser HTTP/1.1\r\nHost: bff.test\r\n\r\n');
      assert.match(browser, /^HTTP\/1\.1 503 /);
      assert.match(browser, /\r\nretry-after: 1\r\n/i);
      assert.equal((JSON.parse(browser.split('\r\n\r\n')[1]!) as { error: { code: string } }).error.code, 'rate_limited');
      const wrong = await rawRequest(port, '127.0.0.7', 'GET /v1/checkouts HTTP/1.1\r\nHost: bff.test\r\nAuthorization: Bearer not-the-secret\r\n\r\n');
      assert.match(wrong, /^HTTP\/1\.1 503 /, 'a wrong secret is no shop');
      const shop = await rawRequest(port, '127.0.0.7', `GET /v1/checkouts HTTP/1.1\r\nHost: bff.test\r\nAuthorization: Bearer ${SECRET}\r\n\r\n`);
      assert.match(shop, /^HTTP\/1\.1 200 /);
      assert.deepEqual(ran, ['/v1/checkouts']);
      // Connections past the cap that send nothing are closed once their moment to show the secret is over.
      const silent = await Promise.all(Array.from({ length: 10 }, () => slowClient(port, '127.0.0.7')));
      await until(() => silent.every((s) => s.destroyed || s.readyState !== 'open') || undefined, 'the silent connections past the cap closed', 10_000);
      assert.ok(
        held.every((s) => !s.destroyed),
        'the four under the cap stay',
      );
      for (const s of held) s.destroy();
    } finally {
      served.server.closeAllConnections();
      await new Promise((r) => served.server.close(r));
      await app.close();
    }
  });
});

/**
 * Sends the start of a request (`head`, then part of its body) and closes the connection once
 * the server has parsed the headers and handed the request to the app.
 */
function giveUp(server: Server, port: number, head: string): Promise<void> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1' }, () => s.write(head));
    server.once('request', () => s.destroy());
    s.on('close', () => resolve());
    s.on('error', () => resolve());
  });
}

describe('a client that closes its connection before the end of its body', () => {
  it('is answered 400 and logged as such, never as the store failing nor a 503', async () => {
    const logs: string[] = [];
    const app = createBff(loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'info' }), { log: (l) => logs.push(l), frame: null, sweepMs: 0 });
    await app.ready;
    const served = serveBff(app.fetch, { port: 0, hostname: '127.0.0.1' });
    const { port } = await served.listening;
    try {
      const auth = 'Authorization: Bearer dev-merchant-secret-change-me\r\n';
      const created = await app.request('/v1/checkouts', {
        method: 'POST',
        headers: { Authorization: 'Bearer dev-merchant-secret-change-me', 'Content-Type': 'application/json' },
        body: JSON.stringify({ amount: 1999, subject: 'Cut short', reference: 'CUT-1', modes: ['redirect'], urlOk: 'https://shop.example/ok' }),
      });
      const { id } = (await created.json()) as { id: string };
      logs.length = 0;
      const cases = [
        ['/v1/checkouts', `POST /v1/checkouts HTTP/1.1\r\nHost: bff.test\r\n${auth}Content-Type: application/json\r\nContent-Length: 400\r\n\r\n{"amount":19`],
        [
          '/v1/notifications/provider',
          'POST /v1/notifications/provider HTTP/1.1\r\nHost: bff.test\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 400\r\n\r\ndataReturn=eyJh',
        ],
        [
          '/v1/checkouts',
          `POST /v1/checkouts HTTP/1.1\r\nHost: bff.test\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"amo\r\n`,
        ],
        ['/v1/return/ok', `POST /v1/return/ok?c=${id} HTTP/1.1\r\nHost: bff.test\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"dataRe`],
      ] as const;
      for (const [, head] of cases) await giveUp(served.server, port, head);
      const answered = () => logs.filter((l) => l.includes('"http.request"')).map((l) => JSON.parse(l) as { path: string; status: number });
      await until(() => answered().length >= cases.length, 'every request that gave up logged');
      assert.deepEqual(
        answered().map((a) => [a.path, a.status]),
        [
          ['/v1/checkouts', 400],
          ['/v1/notifications/provider', 400],
          ['/v1/checkouts', 400],
          // A payer's return always goes back to the shop: its result, unverified.
          ['/v1/return/ok', 303],
        ],
      );
      assert.deepEqual(
        logs.filter((l) => /store\.unavailable|"level":"error"/.test(l)),
        [],
      );
    } finally {
      served.server.closeAllConnections();
      await new Promise((r) => served.server.close(r));
      await app.close();
    }
  });
});
