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
 * relay written with Node's HTTP modules can do per call, for the relay benchmark's ceiling.
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
import { Agent, createServer, request } from 'node:http';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createSandbox } from '@bank-checkout/sandbox';
import { createBff, loadConfig } from '@bank-checkout/bff';

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
if (role === 'relay') {
  process.stdout.write(JSON.stringify({ relayUrl: await bareRelay(new URL(sandboxUrl)) }) + '\n');
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
} else if (role !== 'relay') {
  await startBff();
}

/** A server on loopback that passes each request on to `target` and sends its answer back. */
function bareRelay(target: URL): Promise<string> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const read = (stream: NodeJS.ReadableStream, done: (body: Buffer) => void) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => done(Buffer.concat(chunks)));
  };
  const server = createServer((req, res) =>
    read(req, (body) => {
      const headers = { ...req.headers, host: target.host };
      const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (answer) =>
        read(answer, (out) => {
          res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json', 'content-length': out.length });
          res.end(out);
        }),
      );
      up.on('error', () => res.writeHead(502).end());
      up.end(body);
    }),
  );
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
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
