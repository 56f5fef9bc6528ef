/**
 * The clients' own `node:http` transport (no `fetch` given) keeps its deadlines and the
 * caller's abort by itself: against a real server that stalls before answering or in the
 * middle of its body, a call fails as `timeout` or `aborted`, never hangs.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UpstreamError, createNativeClient } from '@bank-checkout/provider';

describe('the node:http transport: deadlines and aborts', () => {
  let server: Server;
  let baseUrl = '';
  let mode: 'silent' | 'half-body' = 'silent';
  const open = new Set<ServerResponse>();
  let received: () => void = () => {};
  before(async () => {
    server = createServer((req, res) => {
      open.add(res);
      req.resume();
      received();
      if (mode === 'half-body') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
        res.write('{"status":"0","listBanks":[');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const res of open) res.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  const client = (timeoutMs: number) => createNativeClient({ baseUrl, env: 'test', apiKey: 'k', apiToken: 't', timeoutMs });
  const rejection = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      return err;
    }
    return assert.fail('expected a rejection');
  };

  test('a server that never answers: timeout', async () => {
    mode = 'silent';
    const err = await rejection(client(50).banksList());
    assert.ok(err instanceof UpstreamError && err.kind === 'timeout', String(err));
  });

  test('a body that stops arriving: timeout', async () => {
    mode = 'half-body';
    const err = await rejection(client(50).banksList());
    assert.ok(err instanceof UpstreamError && err.kind === 'timeout', String(err));
  });

  test("the caller's abort while the body is arriving: aborted", async () => {
    mode = 'half-body';
    const ctl = new AbortController();
    received = () => setImmediate(() => ctl.abort());
    try {
      const err = await rejection(client(60_000).banksList({ signal: ctl.signal }));
      assert.ok(err instanceof UpstreamError && err.kind === 'aborted', String(err));
    } finally {
      received = () => {};
    }
  });
});

describe('the node:http transport: free connections', () => {
  test('a free connection is closed by the client before the server would close it, and the next call opens another', async () => {
    const closedBy: string[] = [];
    let connections = 0;
    let firstEnded!: () => void;
    const firstClosed = new Promise<void>((r) => (firstEnded = r));
    const server = createServer((req, res) => {
      req.resume();
      res.setHeader('Content-Type', 'application/json');
      res.end('{"status":"200","listBanks":[]}');
    });
    // The server would keep an idle connection a minute: any earlier close is the client's.
    server.keepAliveTimeout = 60_000;
    server.on('connection', (socket) => {
      connections++;
      socket.on('end', () => {
        closedBy.push('client');
        firstEnded();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const client = createNativeClient({ baseUrl, env: 'test', apiKey: 'k', apiToken: 't', timeoutMs: 5000, freeConnectionMs: 100 });
      await client.banksList();
      await client.banksList();
      assert.equal(connections, 1, 'calls in a row share one connection');
      await firstClosed;
      assert.deepEqual(closedBy, ['client']);
      await client.banksList();
      assert.equal(connections, 2, 'a new connection after the free one was closed');
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('the node:http transport: a busy event loop', () => {
  test('a free connection past half the keep-alive the server announced is not handed to a call, though its timer could not run', async () => {
    // The server in a process of its own, closing an idle connection after 2 s (and saying so,
    // which Node's agent would take as 1 s): it goes on while this process's event loop is busy.
    const child = spawn(
      process.execPath,
      [
        '-e',
        `const s = require('node:http').createServer((q, r) => { q.resume(); r.setHeader('Content-Type', 'application/json'); r.end('{"status":"200","listBanks":[]}'); });
         s.keepAliveTimeout = 2000;
         s.on('connection', () => console.log('connection'));
         s.listen(0, '127.0.0.1', () => console.log('port ' + s.address().port));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const port = await new Promise<string>((resolve) => child.stdout.on('data', () => /port (\d+)/.test(out) && resolve(/port (\d+)/.exec(out)![1]!)));
      const client = createNativeClient({ baseUrl: `http://127.0.0.1:${port}`, env: 'test', apiKey: 'k', apiToken: 't', timeoutMs: 5000 });
      await client.banksList();
      // The loop is busy past the server's timeout: the connection's idle timer cannot run, and
      // the server has closed it by the time the next call is made.
      const busyUntil = performance.now() + 2_100;
      while (performance.now() < busyUntil);
      const answer = await client.banksList();
      assert.deepEqual(answer.listBanks, []);
      // The server's line about the new connection may still be on its way through the pipe.
      const connections = () => out.match(/connection/g)?.length ?? 0;
      await new Promise<void>((resolve) => {
        const seen = () => connections() >= 2 && resolve();
        seen();
        child.stdout.on('data', seen);
      });
      assert.equal(connections(), 2, 'the second call on a connection of its own');
    } finally {
      child.kill();
    }
  });
});

describe('the node:http transport: what goes on the wire', () => {
  test('each call carries the host, the key, the token, the JSON headers and, with a body, its length; the connection is kept', async () => {
    const seen: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.setHeader('Content-Type', 'application/json');
        res.end(req.url!.endsWith('/banks/list') ? '{"status":"200","listBanks":[]}' : '{"status":"200","sessionId":"s-1","listContracts":[]}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const client = createNativeClient({
        baseUrl: `http://127.0.0.1:${port}/api/`,
        env: 'test',
        apiKey: 'key-1',
        apiToken: 'token-1',
        headerNames: { apiKey: 'X-Key', apiToken: 'X-Token' },
      });
      await client.banksList();
      const answer = await client.login({ bankId: 'bank-ñ', userId: 'u', userSecret: 's' });
      assert.equal(answer.sessionId, 's-1');
      assert.equal(seen.length, 2);
      const [list, login] = seen;
      for (const s of seen) {
        assert.equal(s.headers.host, `127.0.0.1:${port}`);
        assert.equal(s.headers['x-key'], 'key-1');
        assert.equal(s.headers['x-token'], 'token-1');
        assert.equal(s.headers['content-type'], 'application/json');
        assert.equal(s.headers.accept, 'application/json');
        assert.equal(s.headers.connection, 'keep-alive');
        assert.equal(s.headers.authorization, undefined, 'the token goes under the configured name only');
      }
      assert.equal(list!.url, '/api/test/banks/list');
      assert.equal(login!.method, 'POST');
      assert.equal(login!.url, '/api/test/login');
      assert.deepEqual(JSON.parse(login!.body), { bankId: 'bank-ñ', userId: 'u', userSecret: 's' });
      assert.equal(login!.headers['content-length'], String(Buffer.byteLength(login!.body)), 'the length in bytes, not characters');
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('a paused process: an answer that came before the deadline is read, not thrown away', () => {
  // The server in a process of its own: it says when a request arrived and answers 100 ms later,
  // while this process is paused (a busy loop stands for a VM pause or a long collection). When
  // this process resumes, the call's deadline (300 ms) and the answer on its socket are both due.
  for (const transport of ['node:http', 'fetch'] as const) {
    test(`${transport}: the answer waiting on the socket wins over the timer that is due with it`, async () => {
      const child = spawn(
        process.execPath,
        [
          '-e',
          `const s = require('node:http').createServer((q, r) => { q.resume(); console.log('request'); setTimeout(() => { r.setHeader('Content-Type', 'application/json'); r.end('{"status":"200","listBanks":[]}'); }, 100); });
           s.listen(0, '127.0.0.1', () => console.log('port ' + s.address().port));`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const line = (re: RegExp) =>
        new Promise<RegExpExecArray>((resolve) => {
          const seen = () => {
            const m = re.exec(out);
            if (m) resolve(m);
          };
          seen();
          child.stdout.on('data', seen);
        });
      try {
        const port = (await line(/port (\d+)/))[1];
        const client = createNativeClient({
          baseUrl: `http://127.0.0.1:${port}`,
          env: 'test',
          apiKey: 'k',
          apiToken: 't',
          timeoutMs: 300,
          ...(transport === 'fetch' ? { fetch: globalThis.fetch } : {}),
        });
        const call = client.banksList().then(
          (answer) => ({ answer }),
          (err: unknown) => ({ err }),
        );
        await line(/request/);
        // Paused from the request's arrival until well past both the answer and the deadline.
        const resumeAt = performance.now() + 1_000;
        while (performance.now() < resumeAt);
        const result = await call;
        assert.ok('answer' in result, `the answer, not ${'err' in result ? String(result.err) : ''}`);
        assert.deepEqual(result.answer.listBanks, []);
      } finally {
        child.kill();
      }
    });
  }
});
