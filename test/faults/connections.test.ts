/**
 * Connections: one address opening connections without end, or sending its headers slowly,
 * must not starve other clients. The BFF's Node server caps the connections an address holds
 * open and drops a connection whose headers or request take too long.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { createBff, loadConfig, serveBff, type BffApp, type ServedBff } from '@bank-checkout/bff';
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

/** Sends the start of a request (`head`, then part of its body) and closes the connection. */
function giveUp(port: number, head: string): Promise<void> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1' }, () => {
      s.write(head);
      // The server has read the headers and started on the body before the client goes.
      setTimeout(() => {
        s.destroy();
        resolve();
      }, 50);
    });
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
      for (const [, head] of cases) await giveUp(port, head);
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
