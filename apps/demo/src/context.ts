/**
 * What the demo's routes share: options, the BFF client, sessions, and how a page is answered.
 */
import type { Context } from 'hono';
import { layout, type Child, type LayoutOptions } from './layout.js';
import { securityHeaders } from './security.js';
import type { MerchantClient } from './merchant.js';
import { cartCount, type Session, type Sessions } from './session.js';

export interface DemoOptions {
  /** The BFF as the shop server reaches it (merchant API). */
  bffUrl: string;
  /** The BFF as the payer's browser reaches it (the elements' `api`); default `bffUrl`. */
  browserBffUrl?: string;
  /** Bearer secret of the BFF's merchant API; stays in this process. */
  merchantSecret: string;
  /** The shop's own address (return pages, webhook address); e.g. http://127.0.0.1:5173. */
  publicUrl: string;
  /** Other origins the same shop answers on (http://localhost:5173 next to 127.0.0.1). */
  aliasOrigins?: string[];
  /** Secret of the BFF's signed webhook (MERCHANT_WEBHOOK_SECRET); without it the webhook is refused. */
  webhookSecret?: string;
  shopName?: string;
  /** How the shop server calls the BFF. */
  fetch?: typeof fetch;
  now?: () => number;
  /** How often the live feed reads the BFF's notifications while a console is open (3000 ms). */
  feedIntervalMs?: number;
  /** Minify the browser bundles (true). */
  minify?: boolean;
}

export interface DemoContext {
  opts: DemoOptions & { shopName: string; browserBffUrl: string; now: () => number };
  merchant: MerchantClient;
  sessions: Sessions;
  /** Origins this shop answers on (public first). */
  origins: string[];
  /** A stable key (hex HMAC under a secret drawn at start) for idempotency keys and references. */
  keyFor: (...parts: string[]) => string;
  /** By entry under /assets/, the chunks it imports (known once the bundles are built). */
  assetImports?: Map<string, string[]>;
}

/** The shop's own origin as the caller used it, when it is one of ours; else the public one. */
export function originOf(ctx: DemoContext, c: Context): string {
  const host = c.req.header('Host');
  const proto = new URL(ctx.opts.publicUrl).protocol;
  const candidate = host ? `${proto}//${host}` : '';
  return ctx.origins.includes(candidate) ? candidate : ctx.origins[0]!;
}

export function setSecurityHeaders(ctx: DemoContext, c: Pick<Context, 'header'>): void {
  for (const [k, v] of Object.entries(securityHeaders({ bffOrigin: new URL(ctx.opts.browserBffUrl).origin }))) c.header(k, v);
}

export function page(
  ctx: DemoContext,
  c: Context,
  opts: Omit<LayoutOptions, 'shopName' | 'cartCount'> & { session?: Session },
  body: Child,
  status: 200 | 400 | 404 | 409 | 422 | 502 = 200,
): Response {
  const count = opts.session ? cartCount(opts.session) : 0;
  // The chunks the page's scripts import, fetched with them rather than after them.
  const preload = [...new Set((opts.scripts ?? []).flatMap((s) => ctx.assetImports?.get(s) ?? []))];
  c.header('Cache-Control', 'no-store');
  return c.html(layout({ ...opts, preload, shopName: ctx.opts.shopName, cartCount: count, path: c.req.path }, body), status);
}

/** A posted form's text fields (a urlencoded or multipart body); anything else reads as empty. */
export async function readForm(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('Content-Type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) return {};
  const form = await c.req.parseBody().catch(() => ({}));
  return Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
