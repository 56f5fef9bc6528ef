/**
 * `npm run sandbox`: the simulator as a Node server.
 * PORT (4010), SANDBOX_API_KEY, SANDBOX_API_TOKEN, SANDBOX_PUBLIC_URL, SANDBOX_NATIVE_ENV,
 * SANDBOX_ALLOW_LOCAL_NOTIF (1 to deliver notifications to loopback/private addresses).
 */
import { serve } from '@hono/node-server';
import { createSandbox } from './app.js';
import { SANDBOX_DEFAULTS } from './context.js';

const port = Number(process.env.PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`sandbox: PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}
const host = process.env.HOST ?? '127.0.0.1';
const publicUrl = process.env.SANDBOX_PUBLIC_URL ?? `http://${host}:${port}`;
const sandbox = createSandbox({
  apiKey: process.env.SANDBOX_API_KEY || SANDBOX_DEFAULTS.apiKey,
  apiToken: process.env.SANDBOX_API_TOKEN || SANDBOX_DEFAULTS.apiToken,
  publicUrl,
  nativeEnv: process.env.SANDBOX_NATIVE_ENV || 'test',
  allowLocalNotif: ['1', 'true', 'yes'].includes((process.env.SANDBOX_ALLOW_LOCAL_NOTIF ?? '').toLowerCase()),
});
const server = serve({ fetch: sandbox.app.fetch, port, hostname: host }, (info) => {
  console.log(`sandbox: listening on http://${host}:${info.port} (links /san /pro, native /${sandbox.config.nativeEnv})`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
