/**
 * The BFF mounted inside a merchant's existing server, as docs/running.md shows it: a Hono
 * app (`app.route('/pay', bff)`), Express and Fastify through the Node adapter, each mounted
 * before the server's own body parsers. In each, the health check answers, a merchant call
 * with a JSON body creates a checkout, and the element's call reads it back with its secret.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { Hono } from 'hono';
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import { BFF_HOST, createHarness, MERCHANT_SECRET, type Harness } from './harness.js';
import { frameKeys, frameOrigin } from './frame-proof.js';
import { fastifyWithBff } from './shop-servers.js';

type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

/** What every mount must do: health, a merchant call with a JSON body, the element's call. */
async function exercise(call: Fetch, clock: () => number) {
  const health = await call('/pay/health');
  assert.equal(health.status, 200);
  const created = await call('/pay/v1/checkouts', {
    method: 'POST',
    headers: { Authorization: `Bearer ${MERCHANT_SECRET}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ amount: 1999, subject: 'Mounted order', reference: `MNT-${Math.random().toString(36).slice(2, 10)}` }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { launchToken, amount } = (await created.json()) as { launchToken: string; amount: number };
  assert.equal(amount, 1999);
  // The frame's redemption, as the frame makes it: on the BFF's own origin (its public address,
  // BFF_PUBLIC_URL, names the API's path), under the mount, with a proof of its key pair.
  const keys = await frameKeys();
  const launched = await call('/pay/v1/frame/launch', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      DPoP: await keys.prove('POST', `${BFF_HOST}/v1/frame/launch`, undefined, clock()),
      ...frameOrigin(BFF_HOST),
    },
    body: JSON.stringify({ token: launchToken }),
  });
  assert.equal(launched.status, 200, await launched.clone().text());
  const { key } = (await launched.json()) as { key: string };
  const view = await call('/pay/v1/checkout', {
    headers: { 'X-Checkout-Secret': key, DPoP: await keys.prove('GET', `${BFF_HOST}/v1/checkout`, key, clock()) },
  });
  assert.equal(view.status, 200);
  assert.equal(((await view.json()) as { amount: number }).amount, 1999);
  const unauthenticated = await call('/pay/v1/checkouts', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  assert.equal(unauthenticated.status, 401);
}

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const over =
  (base: string): Fetch =>
  (path, init) =>
    fetch(base + path, init);

describe('the BFF mounted in an existing server', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());

  it('in a Hono app with app.route', async () => {
    const shop = new Hono();
    shop.get('/', (c) => c.text('shop'));
    shop.route('/pay', h.bff);
    await exercise(
      async (path, init) => shop.request(path, init),
      () => h.clock.now,
    );
    assert.equal(await (await shop.request('/')).text(), 'shop');
  });

  it('in Express, before express.json()', async () => {
    const shop = express();
    shop.use('/pay', getRequestListener(h.bff.fetch));
    shop.use(express.json());
    shop.post('/orders', (req, res) => {
      res.json({ got: req.body });
    });
    const http = createServer(shop);
    const base = await listen(http);
    try {
      await exercise(over(base), () => h.clock.now);
      const own = await fetch(`${base}/orders`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' });
      assert.deepEqual(await own.json(), { got: { a: 1 } });
    } finally {
      http.close();
    }
  });

  it('in Fastify, in its own scope without body parsers', async () => {
    const shop = await fastifyWithBff(h.bff.fetch);
    shop.post('/orders', async (req) => ({ got: req.body }));
    const base = await shop.listen({ port: 0, host: '127.0.0.1' });
    try {
      await exercise(over(base), () => h.clock.now);
      const own = await fetch(`${base}/orders`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' });
      assert.deepEqual(await own.json(), { got: { a: 1 } });
    } finally {
      await shop.close();
    }
  });
});
