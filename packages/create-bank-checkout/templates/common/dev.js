/**
 * `npm start`: this shop, the BFF and the provider's simulator on this machine, wired together
 * by .env. For development: in production the BFF runs on its own (its own origin, over
 * HTTPS: `node node_modules/@bank-checkout/bff/dist/cli.js`), the real provider takes the
 * simulator's place, and this shop runs alone (`npm run serve`).
 */
import { mkdirSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createBff, loadConfig, serveBff } from '@bank-checkout/bff';
import { createSandbox } from '@bank-checkout/sandbox';
import { startShop } from './shop.js';

const env = process.env;
const host = '127.0.0.1';
/** @param {string} what @param {unknown} err */
const fail = (what, err) => {
  console.error(`${what}: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
};

/** Listens with `fetch` on `port`; resolves with the server once it does. @param {string} name @param {(req: Request) => Response | Promise<Response>} fetch @param {number} port */
const listen = (name, fetch, port) =>
  new Promise((resolve, reject) => {
    const server = /** @type {import('node:http').Server} */ (serve({ fetch, port, hostname: host }, () => resolve(server)));
    server.once('error', (/** @type {NodeJS.ErrnoException} */ err) =>
      reject(new Error(err.code === 'EADDRINUSE' ? `port ${port} is in use: set another ${name} in .env` : err.message)),
    );
  });

mkdirSync('data', { recursive: true });

// The provider's test environment: both services, the bank's pages, signed notifications.
const sandboxPort = Number(env.SANDBOX_PORT || 4010);
const sandbox = createSandbox({ publicUrl: `http://${host}:${sandboxPort}`, allowLocalNotif: true });
const simulator = await listen('SANDBOX_PORT', sandbox.app.fetch, sandboxPort).catch((err) => fail('simulator', err));

// The BFF, configured by .env exactly as it would be on its own.
let config;
try {
  config = loadConfig(env);
} catch (err) {
  fail('bff', err);
}
const bff = createBff(/** @type {import('@bank-checkout/bff').BffConfig} */ (config));
await bff.ready.catch((err) => fail('bff: the store could not start (DATABASE_URL)', err));
const served = serveBff(bff.fetch, { port: /** @type {import('@bank-checkout/bff').BffConfig} */ (config).port, hostname: host });
served.server.once('error', (err) => fail('bff (PORT)', err));
await served.listening;

const shop = await startShop(env).catch((err) => fail('shop (SHOP_PORT)', err));
console.log(`shop: open ${env.SHOP_URL} and pay a test payment`);
console.log(`     (the BFF on ${env.BFF_PUBLIC_URL}, the simulator on http://${host}:${sandboxPort}; Ctrl-C stops all three)`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await /** @type {{ close(): Promise<unknown> }} */ (shop).close();
  await new Promise((resolve) => {
    served.server.close(resolve);
    served.server.closeAllConnections();
  });
  await bff.close();
  await new Promise((resolve) => {
    /** @type {import('node:http').Server} */ (simulator).close(resolve);
    /** @type {import('node:http').Server} */ (simulator).closeAllConnections();
  });
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
