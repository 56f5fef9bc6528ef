/**
 * The shop's routes on Express (what each does: lib/shop.js). `startShop(env)` listens on
 * SHOP_PORT and resolves once it does; `close()` stops it.
 */
import express from 'express';
import { createShop } from './lib/shop.js';

/** @param {Record<string, string | undefined>} env */
export async function startShop(env) {
  const shop = createShop(env);
  const app = express();
  app.disable('x-powered-by');
  /** @param {import('express').Response} res @param {import('./lib/shop.js').Answer} answer */
  const send = (res, answer) =>
    res
      .status(answer.status)
      .set(answer.headers)
      .send(typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body));

  app.get('/', (_req, res) => send(res, shop.home()));
  app.post('/orders', express.urlencoded({ extended: false, limit: '4kb' }), async (req, res) =>
    send(res, await shop.createOrder(req.body ?? {}, req.get('origin'))),
  );
  app.get('/orders', (_req, res) => send(res, shop.ordersPage()));
  app.get('/orders/:reference', async (req, res) => send(res, await shop.orderPage(req.params.reference)));
  app.get('/orders/:reference/pay', async (req, res) => send(res, await shop.payPage(req.params.reference)));
  // The raw body: the signature covers the bytes as sent, before any JSON parsing.
  app.post('/webhooks/bank-checkout', express.raw({ type: () => true, limit: '256kb' }), async (req, res) =>
    send(res, await shop.webhook(Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '', req.headers)),
  );
  app.get('/assets/:name', (req, res) => send(res, shop.asset(req.params.name)));
  app.use((_req, res) => send(res, shop.notFound()));
  app.use(
    /** @param {unknown} err @param {import('express').Request} _req @param {import('express').Response} res @param {import('express').NextFunction} _next */
    (err, _req, res, _next) => {
      console.error(`shop: ${err instanceof Error ? err.message : err}`);
      send(res, shop.failed());
    },
  );

  const port = Number(env.SHOP_PORT || 3000);
  const server = app.listen(port, env.SHOP_HOST || '127.0.0.1');
  await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return {
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      }),
  };
}
