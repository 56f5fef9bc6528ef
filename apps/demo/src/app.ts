/**
 * `createDemo(options)`: the demonstration shop as a Hono app. A storefront that embeds
 * `<bank-checkout>`, a merchant console for payment links, orders and notifications, and two
 * embedding examples. It talks to the BFF's merchant API from the server only; the browser gets
 * a checkout's client secret and the elements bundle, served from the shop's own origin under
 * a strict Content-Security-Policy.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { bodyLimit } from 'hono/body-limit';
import { buildAssets, type Asset } from './assets.js';
import { page, setSecurityHeaders, type DemoContext, type DemoOptions } from './context.js';
import { consoleRoutes } from './console.js';
import { exampleRoutes } from './examples.js';
import { createFeed } from './feed.js';
import { html } from './layout.js';
import { createMerchantClient } from './merchant.js';
import { createSessions } from './session.js';
import { shopRoutes } from './shop.js';

export type { DemoOptions } from './context.js';

export type DemoApp = Hono & {
  /** Resolves once the browser bundles are built (requests for them wait until then). */
  ready: Promise<void>;
  /** Ends the live feeds, so the server can close. */
  close: () => void;
};

export const WEBHOOK_PATH = '/webhooks/bank-checkout';
const MAX_BODY = 64 * 1024;

export function createDemo(options: DemoOptions): DemoApp {
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const secret = randomBytes(32);
  const ctx: DemoContext = {
    opts: {
      ...options,
      publicUrl,
      shopName: options.shopName ?? 'Demo Shop',
      browserBffUrl: (options.browserBffUrl ?? options.bffUrl).replace(/\/+$/, ''),
      now: options.now ?? Date.now,
    },
    merchant: createMerchantClient({ bffUrl: options.bffUrl, merchantSecret: options.merchantSecret, ...(options.fetch ? { fetch: options.fetch } : {}) }),
    sessions: createSessions({ secureCookie: publicUrl.startsWith('https:') }),
    origins: [new URL(publicUrl).origin, ...(options.aliasOrigins ?? []).map((o) => new URL(o).origin)],
    keyFor: (...parts) => createHmac('sha256', secret).update(parts.join('\u0000')).digest('hex'),
  };
  const feed = createFeed({
    merchant: ctx.merchant,
    ...(options.webhookSecret ? { webhookSecret: options.webhookSecret } : {}),
    intervalMs: options.feedIntervalMs ?? 3000,
    now: ctx.opts.now,
    // A payment that succeeded (the BFF's signed word, verified above) empties the cart it paid
    // for at once, not when the payer opens the order's page.
    onCheckoutUpdate: (u) => {
      if (u.state === 'succeeded') for (const [session, order] of ctx.sessions.withCheckout(u.checkoutId)) ctx.sessions.paid(session, order);
    },
  });

  let assets: Map<string, Asset> | null = null;
  const ready = buildAssets({ minify: options.minify ?? true }).then((built) => {
    assets = built.files;
    ctx.assetImports = built.imports;
  });

  const app = new Hono();
  // Styles and scripts go compressed (gzip). Not the pages: they carry a checkout's secret
  // beside what the address says, which a size that varies with the address would leak (BREACH).
  app.use('/assets/*', compress());
  app.use('*', async (c, next) => {
    setSecurityHeaders(ctx, c);
    await next();
  });
  app.use(
    '*',
    bodyLimit({ maxSize: MAX_BODY, onError: (c) => c.json({ error: { code: 'payload_too_large', message: 'The request body is too large.' } }, 413) }),
  );

  // Forms and fetches that change something must come from the shop's own pages.
  app.use('*', async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.path === WEBHOOK_PATH) return next();
    const origin = c.req.header('Origin');
    const site = c.req.header('Sec-Fetch-Site');
    const sameOrigin = origin ? ctx.origins.includes(origin) : site === undefined || site === 'same-origin' || site === 'none';
    if (!sameOrigin) return c.json({ error: { code: 'forbidden_origin', message: 'Requests that change something must come from this shop.' } }, 403);
    return next();
  });

  app.get('/health', (c) => c.json({ ok: true }));

  app.get('/assets/*', async (c) => {
    await ready;
    const asset = assets?.get(c.req.path.slice('/assets/'.length));
    if (!asset) return c.json({ error: { code: 'not_found', message: 'No such asset.' } }, 404);
    c.header('Content-Type', asset.type);
    c.header('Cache-Control', /\/chunks\//.test(c.req.path) ? 'public, max-age=31536000, immutable' : 'no-cache');
    return c.body(asset.body as Uint8Array<ArrayBuffer>);
  });

  app.post(WEBHOOK_PATH, async (c) => {
    if (!/^application\/json/i.test(c.req.header('Content-Type') ?? '')) {
      return c.json({ error: { code: 'unsupported_media_type', message: 'Content-Type must be application/json.' } }, 415);
    }
    const result = await feed.receive(c.req.raw.headers, await c.req.text());
    const ok = { received: true, duplicate: result.code === 'duplicate' };
    return c.json(result.status === 200 ? ok : { error: { code: result.code, message: 'The webhook was refused.' } }, result.status);
  });

  app.route('/', shopRoutes(ctx));
  const consoleApp = consoleRoutes(ctx, feed);
  app.route('/', consoleApp);
  app.route('/', exampleRoutes(ctx));

  app.notFound((c) =>
    page(
      ctx,
      c,
      { title: 'Not found', section: 'shop' },
      html`<h1>Not found</h1><p>There is nothing at this address.</p><p><a href="/">Back to the shop</a></p>`,
      404,
    ),
  );
  app.onError((err, c) => {
    console.error(`demo: ${c.req.method} ${c.req.path}: ${err instanceof Error ? err.name : 'error'}`);
    return c.json({ error: { code: 'internal', message: 'Something went wrong in the shop.' } }, 500);
  });

  return Object.assign(app, {
    ready,
    close: () => {
      feed.close();
      consoleApp.closeStreams();
    },
  });
}
