/**
 * Starts the simulator and the BFF on free loopback ports (SQLite store in a temp folder, removed
 * when the process exits),
 * creates one checkout, prints `{sandboxUrl, bffUrl, clientSecret, merchantSecret}` as one JSON
 * line, and runs until killed. Benchmarks and journeys start it as a child process.
 *
 * `BENCH_ROLE=sandbox` starts only the simulator (printing `{sandboxUrl}`); `BENCH_ROLE=bff`
 * only the BFF, against the simulator at `SANDBOX_URL`: each in a process of its own.
 * `BENCH_ROLE=relay` starts a bare relay (printing `{relayUrl}`): every request passed on to
 * `SANDBOX_URL` as it came and the answer sent back, nothing checked or stored; the least any
 * relay written with Node's HTTP modules can do per call, for the relay benchmark's ceiling;
 * `BENCH_ROLE=hono-relay` the same relay as a Hono app on @hono/node-server (the BFF's stack),
 * for what the framework alone adds; `BENCH_ROLE=journal-relay` that Hono relay writing, for each
 * call it passes on, one row in one transaction to the BFF's own store engine with the BFF's
 * durability (the SQLite file at `DATABASE_URL`, a temporary one by default, or the PostgreSQL
 * database it names): the least a relay that cannot forget must do, the floor of the BFF's
 * guarantees.
 *
 * Started with an IPC channel (bench/lib/spawn.ts), it answers `{type: 'memory', gc?: true}`
 * with its memory usage (after a full collection when asked and the process runs with
 * --expose-gc), including the peak RSS since the previous question, sampled every
 * MEMORY_SAMPLE_MS (default 10) ms from the first question on; it answers `{type: 'cpu'}`
 * with `process.cpuUsage()`; `{type: 'profile'}` starts the CPU profiler and `{type: 'profile',
 * file}` stops it and writes the profile (a .cpuprofile) to `file`; and it exits when its
 * parent goes away.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Agent, createServer, request, type IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createSandbox } from '@bank-checkout/sandbox';
import { createBff, createPostgresDriver, createSqliteDriver, loadConfig } from '@bank-checkout/bff';

type FetchFn = (req: Request, env: unknown) => Response | Promise<Response>;

/** Serves `fetchFn` on loopback; the node-server bindings (the socket) reach the app as its env. */
function listen(fetchFn: FetchFn, port = 0): Promise<number> {
  return new Promise((resolve) => {
    serve({ fetch: fetchFn, port, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
  });
}

// Requests left hanging by a fault rule would hold a graceful close open: stop at once.
process.on('SIGTERM', () => process.exit(0));

const role = process.env.BENCH_ROLE ?? 'both';

let sandboxUrl = process.env.SANDBOX_URL ?? '';
const RELAYS = ['relay', 'hono-relay', 'journal-relay'];
if (RELAYS.includes(role)) {
  const relayUrl = await (role === 'relay'
    ? bareRelay(new URL(sandboxUrl))
    : honoRelay(new URL(sandboxUrl), role === 'journal-relay' ? await journal() : null));
  process.stdout.write(JSON.stringify({ relayUrl }) + '\n');
} else if (role !== 'bff') {
  const sandboxPort = Number(process.env.SANDBOX_PORT ?? 0);
  const sandboxHolder: { app?: ReturnType<typeof createSandbox>['app'] } = {};
  const sp = await listen((req, env) => sandboxHolder.app!.fetch(req, env), sandboxPort);
  sandboxUrl = `http://127.0.0.1:${sp}`;
  const sandbox = createSandbox({ publicUrl: sandboxUrl, allowLocalNotif: true });
  sandboxHolder.app = sandbox.app;
}
if (role === 'sandbox') {
  process.stdout.write(JSON.stringify({ sandboxUrl }) + '\n');
} else if (!RELAYS.includes(role)) {
  await startBff();
}

/** Reads a stream to its end. */
function readAll(stream: NodeJS.ReadableStream, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(Buffer.concat(chunks)));
}

interface Forwarded {
  status: number;
  type: string;
  body: Buffer;
}

/** Passes one request on to `target` (its headers as they came, Host set to the target's) and hands back the answer. */
function forwarder(target: URL) {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  return (req: IncomingMessage, body: Buffer | undefined, done: (out: Forwarded | null) => void) => {
    const headers = { ...req.headers, host: target.host };
    const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (answer) =>
      readAll(answer, (out) => done({ status: answer.statusCode ?? 502, type: answer.headers['content-type'] ?? 'application/json', body: out })),
    );
    up.on('error', () => done(null));
    up.end(body);
  };
}

/** A server on loopback that passes each request on to `target` and sends its answer back. */
function bareRelay(target: URL): Promise<string> {
  const forward = forwarder(target);
  const server = createServer((req, res) =>
    readAll(req, (body) =>
      forward(req, body, (out) => {
        if (!out) return res.writeHead(502).end();
        res.writeHead(out.status, { 'content-type': out.type, 'content-length': out.body.length });
        res.end(out.body);
      }),
    ),
  );
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** One durable row per call, in one transaction: what the journaling relay writes. */
type Journal = (call: { method: string; path: string; status: number; bytes: number }) => Promise<void>;

/**
 * The journal of the journaling relay: a table in the store engine `DATABASE_URL` names (a
 * temporary SQLite file by default), written through the BFF's own driver, so that each row is
 * acknowledged as the BFF's writes are (on disk: SQLite's group commit; committed: PostgreSQL).
 */
async function journal(): Promise<Journal> {
  const url = process.env.DATABASE_URL ?? `file:${join(ownTempDir(), 'journal.db')}`;
  const pg = /^postgres(ql)?:\/\//.test(url);
  const driver = pg ? createPostgresDriver(url, { schema: `bench_journal_${process.pid}` }) : createSqliteDriver(url);
  await driver.migrate({
    prepare: [
      'CREATE TABLE IF NOT EXISTS journal (id TEXT PRIMARY KEY, at BIGINT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL, status INTEGER NOT NULL, bytes INTEGER NOT NULL)',
    ],
    readVersion: 'SELECT 1 AS version',
    steps: () => [],
  });
  let n = 0;
  const prefix = randomUUID();
  return (call) =>
    driver.transaction([
      {
        sql: 'INSERT INTO journal (id, at, method, path, status, bytes) VALUES (?, ?, ?, ?, ?, ?)',
        args: [`${prefix}-${++n}`, Date.now(), call.method, call.path, call.status, call.bytes],
      },
    ]);
}

/**
 * The same relay as a Hono app served by @hono/node-server, the stack the BFF runs on: what the
 * framework's request and answer objects, its router and its dispatch add to each call, and
 * nothing else (the body read with the adapter's fast path, the request passed on as above).
 * With a journal, each answer is written to it (one row, one transaction) before it is sent back.
 */
async function honoRelay(target: URL, write: Journal | null = null): Promise<string> {
  const forward = forwarder(target);
  const app = new Hono<{ Bindings: { incoming: IncomingMessage } }>();
  app.all('*', async (c) => {
    const body = c.req.method === 'GET' || c.req.method === 'HEAD' ? undefined : Buffer.from(await c.req.arrayBuffer());
    const out = await new Promise<Forwarded | null>((resolve) => forward(c.env.incoming, body, resolve));
    if (!out) return c.body(null, 502);
    if (write) await write({ method: c.req.method, path: c.req.path, status: out.status, bytes: out.body.length });
    return c.body(out.body as Uint8Array<ArrayBuffer>, out.status as 200, { 'Content-Type': out.type });
  });
  return `http://127.0.0.1:${await listen((req, env) => app.fetch(req, env as { incoming: IncomingMessage }))}`;
}

/** A temp folder for the store, removed when this process exits (it is killed with SIGTERM). */
function ownTempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function startBff(): Promise<void> {
  const bffPort = Number(process.env.BFF_PORT ?? 0);
  const bffHolder: { app?: ReturnType<typeof createBff> } = {};
  const bp = await listen((req, env) => bffHolder.app!.fetch(req, env), bffPort);
  const config = loadConfig({
    ...process.env,
    PROVIDER_LINKS_URL: sandboxUrl,
    PROVIDER_NATIVE_URL: sandboxUrl,
    BFF_PUBLIC_URL: `http://127.0.0.1:${bp}`,
    DATABASE_URL: process.env.DATABASE_URL ?? `file:${join(ownTempDir(), 'bff.db')}`,
    RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE ?? '1000000',
    MERCHANT_RATE_LIMIT_PER_MINUTE: process.env.MERCHANT_RATE_LIMIT_PER_MINUTE ?? '10000000',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  });
  const bff = createBff(config);
  bffHolder.app = bff;
  await bff.ready;

  const res = await bff.request('/v1/checkouts', {
    method: 'POST',
    headers: { Authorization: `Bearer ${config.merchantSecret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ amount: 4250, subject: 'Benchmark order', reference: 'BENCH-1', isolation: 'inline' }),
  });
  const { clientSecret } = (await res.json()) as { clientSecret: string };
  process.stdout.write(JSON.stringify({ sandboxUrl, bffUrl: `http://127.0.0.1:${bp}`, clientSecret, merchantSecret: config.merchantSecret }) + '\n');
}

if (process.send) {
  const sampleMs = Number(process.env.MEMORY_SAMPLE_MS ?? 10);
  let peakRss = process.memoryUsage.rss();
  // Sampling starts with the first memory question: a run that measures CPU only (the relay)
  // does not pay for it.
  let sampling: NodeJS.Timeout | null = null;
  let profiler: Session | null = null;
  process.on('message', (msg: { type?: string; gc?: boolean; file?: string }) => {
    if (msg?.type === 'cpu') return void process.send!({ type: 'cpu', ...process.cpuUsage() });
    if (msg?.type === 'profile')
      return void profile(msg.file).then(
        (reply) => process.send!({ type: 'profile', ...reply }),
        (err: unknown) => process.send!({ type: 'profile', error: err instanceof Error ? err.message : String(err) }),
      );
    if (msg?.type !== 'memory') return;
    sampling ??= setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
    }, sampleMs).unref();
    const gc = (globalThis as { gc?: () => void }).gc;
    if (msg.gc && gc) gc();
    const usage = process.memoryUsage();
    const reply = { type: 'memory', ...usage, peakRss: Math.max(peakRss, usage.rss), collected: Boolean(msg.gc && gc) };
    peakRss = usage.rss;
    process.send!(reply);
  });
  process.on('disconnect', () => process.exit(0));

  /** Starts the CPU profiler, or (`file` given) stops it and writes its profile there. */
  async function profile(file?: string): Promise<{ file?: string }> {
    if (!file) {
      if (profiler) throw new Error('the profiler is already running');
      profiler = new Session();
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
      return {};
    }
    if (!profiler) throw new Error('the profiler was not started');
    const { profile: taken } = await profiler.post('Profiler.stop');
    profiler.disconnect();
    profiler = null;
    writeFileSync(file, JSON.stringify(taken));
    return { file };
  }
}
