/**
 * `npm run demo`: the demonstration shop alone, against a BFF that is already running
 * (`npm start` runs all three). Environment: PORT (5173; 0 picks a free one), HOST (127.0.0.1),
 * BFF_URL (http://127.0.0.1:4020), BFF_MERCHANT_SECRET (the BFF's development default),
 * DEMO_PUBLIC_URL (http://HOST:PORT), MERCHANT_WEBHOOK_SECRET (the secret the BFF signs its
 * webhook with; unset: the console reads notifications by polling only).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createDemo, type DemoApp } from './app.js';

const DEV_MERCHANT_SECRET = 'dev-merchant-secret-change-me';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 5173);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('demo: PORT must be a port number');
  process.exit(1);
}

// Built once the port is known: the shop's address goes into return URLs and the origin check.
let demo: DemoApp | null = null;
const server = serve({ fetch: (req) => (demo ? demo.fetch(req) : new Response('starting', { status: 503 })), port, hostname: host }, (info: AddressInfo) => {
  const publicUrl = process.env.DEMO_PUBLIC_URL ?? `http://${host}:${info.port}`;
  demo = createDemo({
    bffUrl: process.env.BFF_URL ?? 'http://127.0.0.1:4020',
    merchantSecret: process.env.BFF_MERCHANT_SECRET ?? DEV_MERCHANT_SECRET,
    publicUrl,
    aliasOrigins: host === '127.0.0.1' ? [`http://localhost:${info.port}`] : [],
    ...(process.env.MERCHANT_WEBHOOK_SECRET ? { webhookSecret: process.env.MERCHANT_WEBHOOK_SECRET } : {}),
  });
  void demo.ready.then(() => console.log(`demo: ${publicUrl}   shop, console at /console, examples at /examples`));
}) as Server;
server.on('error', (err: NodeJS.ErrnoException) => {
  console.error(err.code === 'EADDRINUSE' ? `demo: port ${port} is in use (set PORT)` : `demo: ${err.message}`);
  process.exit(1);
});
const stop = () => {
  demo?.close();
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
