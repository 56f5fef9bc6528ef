/**
 * The shop's routes on Hono (what each does: lib/shop.js). `startShop(env)` listens on
 * SHOP_PORT and resolves once it does; `close()` stops it.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { serve } from '@hono/node-server';
import { createShop } from './lib/shop.js';

/** @param {Record<string, string | undefined>} env */
export async function startShop(env) {
  const shop = createShop(env);
  const app = new Hono();
  /** @param {import('./lib/shop.js').Answer} answer */
  const send = (answer) =>
    new Response(answer.status === 204 || answer.status === 303 ? null : typeof answer.body === 'string' ? answer.body : new Uint8Array(answer.body), {
      status: answer.status,
      headers: answer.headers,
    });

  app.get('/', () => send(shop.home()));
  app.post('/orders', bodyLimit({ maxSize: 4 * 1024 }), async (c) => send(await shop.createOrder(await c.req.parseBody(), c.req.header('origin'))));
  app.get('/orders', () => send(shop.ordersPage()));
  app.get('/orders/:reference', async (c) => send(await shop.orderPage(c.req.param('reference'))));
  app.get('/orders/:reference/pay', async (c) => send(await shop.payPage(c.req.param('reference'))));
  // The raw body: the signature covers the bytes as sent, before any JSON parsing.
  app.post('/webhooks/bank-checkout', bodyLimit({ maxSize: 256 * 1024 }), async (c) => send(await shop.webhook(await c.req.text(), c.req.raw.headers)));
  app.get('/assets/:name', (c) => send(shop.asset(c.req.param('name'))));
  app.notFound(() => send(shop.notFound()));
  app.onError((err) => {
    console.error(`shop: ${err.message}`);
    return send(shop.failed());
  });

  const port = Number(env.SHOP_PORT || 3000);
  const server = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: env.SHOP_HOST || '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  return {
    close: () =>
      new Promise((resolve) => {
        /** @type {import('node:http').Server} */ (server).close(() => resolve(undefined));
        /** @type {import('node:http').Server} */ (server).closeAllConnections();
      }),
  };
}
