/**
 * `npm start`: the simulator and the BFF with the embedded defaults (no keys, SQLite under
 * ./data/), wired to each other; prints the URLs and stops cleanly on Ctrl-C.
 * Ports: SANDBOX_PORT (4010), BFF_PORT (4020).
 */
import { mkdirSync } from 'node:fs';
import { serve, type ServerType } from '@hono/node-server';
import { createSandbox } from '../packages/sandbox/src/index.js';
import { createBff, loadConfig, ConfigError } from '../packages/bff/src/index.js';

const host = '127.0.0.1';
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 4010);
const bffPort = Number(process.env.BFF_PORT ?? 4020);
const servers: ServerType[] = [];

function listen(name: string, fetchFn: (req: Request) => Response | Promise<Response>, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: fetchFn, port, hostname: host }, () => resolve());
    server.on('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'EADDRINUSE' ? `${name}: port ${port} is in use (set ${name === 'sandbox' ? 'SANDBOX_PORT' : 'BFF_PORT'})` : err.message)),
    );
    servers.push(server);
  });
}

try {
  mkdirSync('data', { recursive: true });
  const sandbox = createSandbox({ publicUrl: `http://${host}:${sandboxPort}`, allowLocalNotif: true });
  await listen('sandbox', sandbox.app.fetch, sandboxPort);
  const config = loadConfig({
    PROVIDER_LINKS_URL: `http://${host}:${sandboxPort}`,
    PROVIDER_NATIVE_URL: `http://${host}:${sandboxPort}`,
    BFF_PUBLIC_URL: `http://${host}:${bffPort}`,
    PORT: String(bffPort),
    ...process.env,
  });
  const bff = createBff(config);
  await bff.ready;
  await listen('bff', bff.fetch, bffPort);
  console.log(`sandbox  http://${host}:${sandboxPort}   provider simulator (links /san /pro, native /${sandbox.config.nativeEnv})`);
  console.log(`bff      http://${host}:${bffPort}   checkout and merchant API (OpenAPI at /v1/openapi.json), store ${bff.parts.store.engine}`);
  const stop = () => {
    console.log('stopping…');
    let open = servers.length;
    for (const s of servers) s.close(() => --open === 0 && void bff.close().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : `start: ${err instanceof Error ? err.message : String(err)}`);
  for (const s of servers) s.close();
  process.exit(1);
}
