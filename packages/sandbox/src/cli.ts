#!/usr/bin/env node
/**
 * `npm run sandbox`: the simulator as a Node server.
 * PORT (4010; 0 picks a free port, and the line printed names the one chosen), HOST
 * (127.0.0.1), SANDBOX_API_KEY, SANDBOX_API_TOKEN, SANDBOX_PUBLIC_URL (default: the address
 * listened on), SANDBOX_NATIVE_ENV, SANDBOX_ALLOW_LOCAL_NOTIF (1 to deliver notifications to
 * loopback/private addresses). Stops cleanly on SIGINT and SIGTERM.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createSandbox, type Sandbox } from './app.js';
import { SANDBOX_DEFAULTS } from './context.js';

const rawPort = process.env.PORT || '4010';
const port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : Number.NaN;
if (!(port >= 0 && port <= 65535)) {
  console.error(`sandbox: PORT must be a port number from 0 to 65535, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}
const host = process.env.HOST || '127.0.0.1';

// The sandbox is built once the port is known: its public URL goes into signed and short URLs.
let sandbox: Sandbox | undefined;
const server = serve({ fetch: (req, env) => sandbox!.app.fetch(req, env), port, hostname: host }, (info: AddressInfo) => {
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${info.port}`;
  sandbox = createSandbox({
    apiKey: process.env.SANDBOX_API_KEY || SANDBOX_DEFAULTS.apiKey,
    apiToken: process.env.SANDBOX_API_TOKEN || SANDBOX_DEFAULTS.apiToken,
    publicUrl: process.env.SANDBOX_PUBLIC_URL || url,
    nativeEnv: process.env.SANDBOX_NATIVE_ENV || 'test',
    allowLocalNotif: ['1', 'true', 'yes'].includes((process.env.SANDBOX_ALLOW_LOCAL_NOTIF ?? '').toLowerCase()),
  });
  console.log(`sandbox: listening on ${url} (links /san /pro, native /${sandbox.config.nativeEnv})`);
}) as Server;
server.on('error', (err: NodeJS.ErrnoException) => {
  console.error(`sandbox: cannot listen on ${host}:${port}: ${err.code === 'EADDRINUSE' ? 'the port is in use (set PORT)' : err.message}`);
  process.exit(1);
});

function stop() {
  server.close(() => process.exit(0));
  // Requests held open (a `hang` fault rule, keep-alive clients) must not delay the exit.
  server.closeAllConnections();
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
