/**
 * The isolated checkout's page (`GET /v1/frame`) and its modules (`GET /v1/frame/assets/*`),
 * served from the BFF's own origin so the bank password and codes are typed in a document the
 * merchant page's scripts cannot reach.
 *
 * The page has a policy of its own: scripts and styles from this origin only (plus the hash of
 * its import map, which pins every module's integrity), calls to this origin only, embeddable
 * only by ALLOWED_ORIGINS (`frame-ancestors`), Trusted Types, no referrer. The modules have
 * content-hashed names: cached for a year, immutable. Page and modules go compressed (Brotli or
 * gzip, as the browser accepts), each compressed once: the payer's first screen waits for them.
 * The page opens, while its modules load, the connection its calls take (they go without
 * credentials, on connections apart from the page's own): `<link rel="preconnect" crossorigin>`.
 *
 * A page whose origin the BFF does not allow (its browser says which in `Referer`, which the host
 * sends as its origin alone) gets, in the frame's place, a page that says only that to its
 * parent (`refusal`): the host tells the payer and the developer without a call of its own.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRoute, z } from '@hono/zod-openapi';
import type { BankGroupView } from '@bank-checkout/contract';
import type { Context } from 'hono';
import { pageText } from './html.js';
import { html, raw } from 'hono/html';
import type { BffConfig } from './config.js';
import { ApiError } from './errors.js';
import { router, withErrors } from './openapi.js';

export interface FrameFile {
  /** The file's path under `/v1/frame/assets/` (content-hashed). */
  name: string;
  body: Uint8Array;
  type: string;
}

/** The frame page's modules, as `@bank-checkout/elements` ships them in `dist/frame-page/`. */
export interface FrameBundle {
  /** The page's entry module. */
  entry: string;
  /** Modules the page loads up front (preloaded with it, in this order): what the entry imports, then the kit it imports at once. */
  preload: string[];
  /**
   * Bare names the entry imports, and the files they are (the page's import map). Given, the
   * entry imports nothing by address: the page carries it written in, instead of loading it.
   */
  imports?: Record<string, string>;
  files: FrameFile[];
  /**
   * The first screen's writer (`@bank-checkout/elements`' frame/first-screen.ts, built for Node):
   * run by the BFF, never sent. Without it, the page is never written with the bank list.
   */
  firstScreen?: FrameFile;
}

/** What the first screen's writer gives (see `FrameBundle.firstScreen`). */
export interface FirstScreen {
  lang: string;
  title: string;
  main: string;
  pageStyle: string;
  styles: string[];
}
type FirstScreenWriter = (input: { groups: readonly BankGroupView[]; locale: string; sandbox: boolean; modeLine?: boolean }) => FirstScreen | null;

const MANIFEST = 'manifest.json';

/** Reads a bundle written by the elements' build (`manifest.json` beside the files). */
export async function readFrameBundle(dir: string): Promise<FrameBundle> {
  const manifest = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Omit<FrameBundle, 'files' | 'firstScreen'> & {
    files: string[];
    firstScreen?: string;
  };
  const read = async (name: string) => ({ name, body: new Uint8Array(await readFile(join(dir, name))), type: 'text/javascript; charset=utf-8' });
  const files = await Promise.all(manifest.files.map(read));
  return {
    entry: manifest.entry,
    preload: manifest.preload,
    ...(manifest.imports ? { imports: manifest.imports } : {}),
    files,
    ...(manifest.firstScreen ? { firstScreen: await read(manifest.firstScreen) } : {}),
  };
}

/** The manifest a bundle is written with. */
export const frameManifest = (b: FrameBundle) => ({
  entry: b.entry,
  preload: b.preload,
  imports: b.imports,
  files: b.files.map((f) => f.name),
  ...(b.firstScreen ? { firstScreen: b.firstScreen.name } : {}),
});

/** The first screen's writer of a bundle (a module that imports nothing, run from memory), or null. */
async function firstScreenWriter(b: FrameBundle): Promise<FirstScreenWriter | null> {
  if (!b.firstScreen) return null;
  const mod = (await import(`data:text/javascript;base64,${Buffer.from(b.firstScreen.body).toString('base64')}`)) as { firstScreen?: FirstScreenWriter };
  return typeof mod.firstScreen === 'function' ? mod.firstScreen : null;
}

/**
 * The bundle of the `@bank-checkout/elements` installed beside the BFF, or null when it is not
 * installed (or not built): the isolated mode then answers 404 `frame_unavailable`.
 */
export async function installedFrameBundle(): Promise<FrameBundle | null> {
  try {
    const manifest = fileURLToPath(import.meta.resolve('@bank-checkout/elements/frame-page/manifest.json'));
    return await readFrameBundle(dirname(manifest));
  } catch {
    return null;
  }
}

const compressors = {
  br: (body: Uint8Array) => promisify(brotliCompress)(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body: Uint8Array) => promisify(gzip)(body, { level: 9 }),
};
type Encoding = keyof typeof compressors;

/** The encoding to send: Brotli, else gzip, when the request accepts it (`Accept-Encoding`, a zero `q` refuses); null for none. */
export function acceptedEncoding(header: string | undefined): Encoding | null {
  const accepted = new Set(
    (header ?? '')
      .split(',')
      .map((part) =>
        part
          .trim()
          .toLowerCase()
          .split(/\s*;\s*/),
      )
      .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q))
      .map(([name]) => name),
  );
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : null;
}

/** A body and its compressed forms, each made once, on first demand. */
function compressible(body: Uint8Array) {
  const made = new Map<Encoding, Promise<Uint8Array>>();
  return { body, encoded: (e: Encoding) => made.get(e) ?? made.set(e, compressors[e](body)).get(e)! };
}

const sri = (body: Uint8Array | string) => `sha384-${createHash('sha384').update(body).digest('base64')}`;

/** Origins allowed to embed the frame, as the page states them and `frame-ancestors` lists them. */
function ancestors(origins: readonly string[]): string {
  return origins.length ? origins.join(' ') : "'none'";
}

/**
 * What a page of an origin not in ALLOWED_ORIGINS gets at the frame's address: an empty page
 * whose one script tells its parent that this BFF refuses the page's origin (`failed`,
 * `frame_refused`, the message the host takes from its frame). It holds nothing and shows
 * nothing, so any page may frame it; the frame's own page stays framed by ALLOWED_ORIGINS only.
 */
const REFUSAL_SCRIPT = "parent.postMessage({v:1,type:'failed',code:'frame_refused'},'*')";
const FRAME_REFUSAL = {
  body: `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Pay by bank</title><script>${REFUSAL_SCRIPT}</script></head><body></body></html>\n`,
  csp: `default-src 'none'; script-src 'sha256-${createHash('sha256').update(REFUSAL_SCRIPT).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors *`,
};

/** The origin a request's `Referer` names, or null when it names none. */
function refererOrigin(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    const origin = new URL(referer).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The page and its headers, built once per bundle; with `first`, the first screen written in
 * (once per language and bank list).
 */
function framePage(bundle: FrameBundle, config: BffConfig, first?: FirstScreen) {
  const url = (name: string) => `./frame/assets/${name}`;
  const integrity = Object.fromEntries(bundle.files.map((f) => [url(f.name), sri(f.body)]));
  const imports = Object.fromEntries(Object.entries(bundle.imports ?? {}).map(([specifier, file]) => [specifier, url(file)]));
  const importMap = JSON.stringify({ imports, integrity });
  const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  // The entry written in, when it imports nothing by address (and cannot end its script element).
  const entryText = bundle.imports ? new TextDecoder().decode(bundle.files.find((f) => f.name === bundle.entry)?.body) : '';
  const inline = entryText && !/<\/script|<!--/i.test(entryText) ? entryText : null;
  const entryScript = inline
    ? html`<script type="module">${raw(inline)}</script>\n`
    : html`<script type="module" src="${url(bundle.entry)}" integrity="${integrity[url(bundle.entry)]}"></script>\n`;
  const origins = config.allowedOrigins;
  const body = pageText(html`<!doctype html>
<html lang="${first?.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="bank-checkout-origins" content="${origins.join(' ')}">
${config.sandbox ? raw('<meta name="bank-checkout-debug" content="1">\n') : ''}<title>${first?.title ?? 'Pay by bank'}</title>
${first ? html`<style>${raw(first.pageStyle)}</style>\n` : ''}<link rel="preconnect" href="/" crossorigin>
<script type="importmap">${raw(importMap)}</script>
${inline ? '' : entryScript}${bundle.preload.map((p) => html`<link rel="modulepreload" href="${url(p)}" integrity="${integrity[url(p)]}">\n`)}${inline ? entryScript : ''}</head>
<body><main aria-labelledby="frame-title">${raw(first?.main ?? '<bank-checkout></bank-checkout>')}</main></body>
</html>
`);
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${sha256(importMap)}${inline ? ` ${sha256(inline)}` : ''}`,
    `style-src 'self'${first ? [first.pageStyle, ...first.styles].map((t) => ` ${sha256(t)}`).join('') : ''}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors(origins)}`,
    "require-trusted-types-for 'script'",
    'trusted-types lit-html',
  ].join('; ');
  return { body, csp };
}

const page = createRoute(
  withErrors({
    method: 'get',
    path: '/frame',
    summary: "The isolated checkout's page, embedded by <bank-checkout isolate> (ALLOWED_ORIGINS only)",
    tags: ['checkout'],
    request: {
      query: z.object({
        state: z
          .string()
          .max(32)
          .optional()
          .describe("The checkout's state, as the shop's server knows it: `select-bank` writes the first screen in (the bank list, in `lang`)"),
        lang: z.string().max(16).optional().describe('The language of the first screen (en, es, ca, eu, gl)'),
        mode: z
          .string()
          .max(16)
          .optional()
          .describe('`native`: the checkout offers other ways to pay and the page asked for this one (one line says it above the bank list)'),
      }),
    },
    responses: {
      200: { description: 'The page; its CSP allows framing by ALLOWED_ORIGINS only', content: { 'text/html': { schema: z.string() } } },
      304: { description: 'Not modified (If-None-Match)' },
    },
  }),
);
const asset = createRoute(
  withErrors({
    method: 'get',
    path: '/frame/assets/{name}',
    summary: "A module of the isolated checkout's page (content-hashed, cached for a year)",
    tags: ['checkout'],
    request: { params: z.object({ name: z.string().max(128) }) },
    responses: { 200: { description: 'The module', content: { 'text/javascript': { schema: z.string() } } } },
  }),
);

/** The public bank list the frame's page may be written with, and its ETag (null when the provider cannot give it). */
export type FrameBanks = () => Promise<{ groups: readonly BankGroupView[]; etag: string } | null>;

/** The states at which the first screen is the bank list, drawn before the launch is redeemed. */
const LISTED = 'select-bank';

export function frameRoutes(config: BffConfig, bundle: () => Promise<FrameBundle | null>, banks: FrameBanks = async () => null) {
  const app = router();
  type Body = ReturnType<typeof compressible>;
  type Page = { body: Body; csp: string; etag: string };
  const pageOf = (p: { body: string; csp: string }): Page => ({
    body: compressible(new TextEncoder().encode(p.body)),
    csp: p.csp,
    etag: `"${sri(p.body).slice(7, 34)}"`,
  });
  let built: Promise<{ bundle: FrameBundle; page: Page; write: FirstScreenWriter | null; files: Map<string, FrameFile & { sent: Body }> } | null> | undefined;
  const load = () =>
    (built ??= bundle().then(async (b) => {
      if (!b) return null;
      return {
        bundle: b,
        page: pageOf(framePage(b, config)),
        write: await firstScreenWriter(b).catch(() => null),
        files: new Map(b.files.map((f) => [f.name, { ...f, sent: compressible(f.body) }])),
      };
    }));
  /**
   * The page written with the first screen in `lang`: one per language and bank list, the same
   * for every checkout (nothing of one is in it), kept until the bank list changes (a bank added,
   * gone, or into or out of maintenance gives the list another ETag, and the page another one).
   */
  const written = new Map<string, { banks: string; page: Page | null }>();
  const listedPage = async (f: NonNullable<Awaited<ReturnType<typeof load>>>, lang: string, modeLine: boolean): Promise<Page | null> => {
    if (!f.write) return null;
    const list = await banks();
    if (!list) return null;
    const key = `${lang}${modeLine ? ' native' : ''}`;
    const kept = written.get(key);
    if (kept?.banks === list.etag) return kept.page;
    const first = f.write({ groups: list.groups, locale: lang, sandbox: config.sandbox, modeLine });
    const page = first ? pageOf(framePage(f.bundle, config, first)) : null;
    // One page per language (and line), the last bank list's: at most ten kept (a language the kit does not speak gets none).
    if (first) written.set(key, { banks: list.etag, page });
    return page;
  };
  /** The body in the encoding the request accepts (with the headers that say so). */
  const send = async (c: Context, body: Body, type: string) => {
    const encoding = acceptedEncoding(c.req.header('Accept-Encoding'));
    c.header('Vary', 'Accept-Encoding');
    c.header('Content-Type', type);
    if (!encoding) return c.body(body.body as Uint8Array<ArrayBuffer>, 200);
    c.header('Content-Encoding', encoding);
    return c.body((await body.encoded(encoding)) as Uint8Array<ArrayBuffer>, 200);
  };
  const unavailable = () =>
    new ApiError(
      404,
      'frame_unavailable',
      'The isolated checkout is not installed here: install @bank-checkout/elements beside the BFF (or pass its frame bundle to createBff).',
    );

  app.openapi(page, async (c) => {
    c.header('Referrer-Policy', 'no-referrer');
    // Any page may embed it (frame-ancestors decides who may show it), a page that requires
    // resources to say so (COEP `require-corp`) included.
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    // A page of an origin not allowed, as its browser says: the page that tells it so (never cached).
    const embedder = refererOrigin(c.req.header('Referer'));
    if (embedder && !config.allowedOrigins.includes(embedder)) {
      c.header('Content-Security-Policy', FRAME_REFUSAL.csp);
      return c.html(FRAME_REFUSAL.body, 200);
    }
    const f = await load();
    if (!f) throw unavailable();
    // A checkout at its bank list (as the shop's server wrote its address): the page with that
    // list drawn, in the checkout's language; any other state, the page that waits for the launch.
    const { state, lang, mode } = c.req.valid('query');
    const p = (state === LISTED && lang && (mode === undefined || mode === 'native') && (await listedPage(f, lang, mode === 'native'))) || f.page;
    // Cacheable: revalidated at each load, answered 304 while the page (its kit, its bank list) is the same.
    c.header('Cache-Control', 'no-cache');
    c.header('ETag', p.etag);
    // On a 304 too: the browser would otherwise take the default policy (frame-ancestors 'none') for the cached page.
    c.header('Content-Security-Policy', p.csp);
    if (c.req.header('If-None-Match') === p.etag) return c.body(null, 304);
    return send(c, p.body, 'text/html; charset=UTF-8');
  });
  app.openapi(asset, async (c) => {
    const f = await load();
    const file = f?.files.get(c.req.valid('param').name);
    if (!file) throw f ? new ApiError(404, 'not_found', 'No such file.') : unavailable();
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    c.header('Cross-Origin-Resource-Policy', 'same-origin');
    return send(c, file.sent, file.type);
  });
  return app;
}
