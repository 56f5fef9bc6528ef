/**
 * Starts the simulator and the BFF on free loopback ports (SQLite store in a temp folder),
 * creates one checkout, prints `{sandboxUrl, bffUrl, clientSecret}` as one JSON line, and runs
 * until killed. Benchmarks and journeys start it as a child process.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createSandbox } from '../../packages/sandbox/src/index.js';
import { createBff, loadConfig } from '../../packages/bff/src/index.js';

function listen(fetchFn: (req: Request) => Response | Promise<Response>, port = 0): Promise<number> {
  return new Promise((resolve) => {
    const server = serve({ fetch: fetchFn, port, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
    process.on('SIGTERM', () => server.close());
  });
}

const sandboxPort = Number(process.env.SANDBOX_PORT ?? 0);
const sandboxHolder: { app?: ReturnType<typeof createSandbox>['app'] } = {};
const sp = await listen((req) => sandboxHolder.app!.fetch(req), sandboxPort);
const sandbox = createSandbox({ publicUrl: `http://127.0.0.1:${sp}`, allowLocalNotif: true });
sandboxHolder.app = sandbox.app;

const bffPort = Number(process.env.BFF_PORT ?? 0);
const bffHolder: { app?: ReturnType<typeof createBff> } = {};
const bp = await listen((req) => bffHolder.app!.fetch(req), bffPort);
const config = loadConfig({
  ...process.env,
  PROVIDER_LINKS_URL: `http://127.0.0.1:${sp}`,
  PROVIDER_NATIVE_URL: `http://127.0.0.1:${sp}`,
  BFF_PUBLIC_URL: `http://127.0.0.1:${bp}`,
  DATABASE_URL: process.env.DATABASE_URL ?? `file:${join(mkdtempSync(join(tmpdir(), 'bench-')), 'bff.db')}`,
  RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE ?? '1000000',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
});
const bff = createBff(config);
bffHolder.app = bff;
await bff.ready;

const res = await bff.request('/v1/checkouts', {
  method: 'POST',
  headers: { Authorization: `Bearer ${config.merchantSecret}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ amount: 4250, subject: 'Benchmark order', reference: 'BENCH-1' }),
});
const { clientSecret } = (await res.json()) as { clientSecret: string };
process.stdout.write(JSON.stringify({ sandboxUrl: `http://127.0.0.1:${sp}`, bffUrl: `http://127.0.0.1:${bp}`, clientSecret, merchantSecret: config.merchantSecret }) + '\n');
