/**
 * A stop drains the server: no new connection is taken, an idle kept-alive connection is closed,
 * a request that arrives on an open connection is answered 503 `unavailable` with `Retry-After`
 * and `Connection: close` and never reaches the app, and a request under way finishes, its
 * answer carrying `Connection: close`; past the grace, what is still under way is cut.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { serveBff } from '../src/server.js';
import { until } from './until.js';

/** An app whose `/slow` answers only once released; `/fast` at once. Counts what reaches it. */
function slowApp() {
  const reached: string[] = [];
  let release = () => {};
  const released = new Promise<void>((r) => (release = r));
  const fetch = async (req: Request) => {
    const path = new URL(req.url).pathname;
    reached.push(path);
    if (path === '/slow') await released;
    return Response.json({ path });
  };
  return { fetch, reached, release: () => release() };
}

/** A GET through `agent`: status, headers and body. */
function get(port: number, path: string, agent: Agent): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('draining the server', () => {
  it('takes no new request and lets the one under way finish, its answer closing the connection', async () => {
    const app = slowApp();
    const served = serveBff(app.fetch, { port: 0, hostname: '127.0.0.1' });
    const { port } = await served.listening;
    const keptAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const slowAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    // A connection kept alive and idle, and one with a request under way.
    assert.equal((await get(port, '/fast', keptAlive)).headers.connection, 'keep-alive');
    const idleSocket = Object.values(keptAlive.freeSockets)[0]![0]!;
    const slow = get(port, '/slow', slowAgent);
    await until(() => served.inFlight() === 1, 'the slow request under way');
    // A connection whose request is still arriving when the stop begins.
    const late: Socket = connect({ port, host: '127.0.0.1' });
    await new Promise((r) => late.once('connect', r));
    late.write('GET /fast HTTP/1.1\r\nHost: bff.test\r\n');
    let lateAnswer = '';
    late.on('data', (c: Buffer) => (lateAnswer += c.toString()));
    const lateClosed = new Promise((r) => late.once('close', r));
    await until(() => app.reached.length === 2, 'nothing more reaching the app');

    const drained = served.drain(10_000);
    // The idle connection is closed, and no new connection is taken.
    await new Promise((r) => (idleSocket.destroyed ? r(null) : idleSocket.once('close', r)));
    await assert.rejects(get(port, '/fast', new Agent()), (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED');
    // The request that arrives on an open connection is answered 503 and never reaches the app.
    late.write('\r\n');
    await lateClosed;
    assert.match(lateAnswer, /^HTTP\/1\.1 503 /);
    assert.match(lateAnswer, /\r\nConnection: close\r\n/i);
    assert.match(lateAnswer, /\r\nRetry-After: 1\r\n/i);
    assert.match(lateAnswer, /"code":"unavailable"/);
    assert.deepEqual(app.reached, ['/fast', '/slow']);
    // The one under way finishes: its answer is sent, with Connection: close.
    assert.equal(served.inFlight(), 1);
    app.release();
    const answer = await slow;
    assert.equal(answer.status, 200);
    assert.equal(answer.body, JSON.stringify({ path: '/slow' }));
    assert.equal(answer.headers.connection, 'close');
    assert.deepEqual(await drained, { cut: 0 });
    assert.equal(served.server.listening, false);
    keptAlive.destroy();
    slowAgent.destroy();
  });

  it('cuts what is still under way at the end of the grace', async () => {
    const app = slowApp();
    const served = serveBff(app.fetch, { port: 0, hostname: '127.0.0.1' });
    const { port } = await served.listening;
    const agent = new Agent({ keepAlive: true });
    const slow = get(port, '/slow', agent).catch((err: unknown) => (err as NodeJS.ErrnoException).code);
    await until(() => served.inFlight() === 1, 'the slow request under way');
    assert.deepEqual(await served.drain(50), { cut: 1 });
    assert.equal(await slow, 'ECONNRESET');
    app.release();
    agent.destroy();
  });
});
