/**
 * Render timings in headless Chromium (playwright-core with the system browser): the elements
 * are built with the library's vite config into a temporary folder and served, with a fake
 * BFF answering from the same origin, by a small static server on loopback.
 *
 * - `<bank-checkout>` first render: from navigation start to the first animation frame in
 *   which the bank list's options exist (bundle download, parse, GET /v1/checkout/start,
 *   render), in a fresh browser context (cold cache) each run.
 * - `<bank-selector>` first render with 500 banks: from appending the element to its update
 *   done and the list laid out, in a fresh page each run.
 * - Search as you type over those 500 banks: real key presses; from each `input` event's
 *   timestamp to the element's update done and the list laid out.
 * - The isolated `<bank-checkout isolate>` first render: the page loads only the thin host
 *   (`bank-checkout-frame.min.js`); the frame comes from a second origin that serves the BFF's
 *   own frame route (its page, policy and modules, built as the elements' build does), the
 *   redemption of the page's launch token (its answer carries the first screen) and the same two
 *   answers. From the page's navigation start to the first frame in which the bank
 *   list inside the frame has options.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import type { BankGroupView, BankView, BanksResponse, CheckoutView } from '@bank-checkout/contract';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { frameRoutes, loadConfig } from '@bank-checkout/bff';
import { elementsLibrary } from '../../vite.config.js';
import { launchChromium } from '../../test/support/stack.js';
import { pageErrors } from './page.js';
import { buildFrameHost, buildFramePage } from '../../scripts/frame-build.js';

export interface RenderOptions {
  /** Runs of each measurement (the median is reported). */
  runs: number;
  /** The BFF's answers the fake serves: a checkout in `select-bank` and its bank list. */
  checkout: CheckoutView;
  banks: BanksResponse;
  /** Banks in the long list. */
  manyBanks?: number;
  /** What is typed into the search box, one key at a time. */
  query?: string;
}

export interface RenderFigures {
  /** ms per run. */
  checkoutFirstRender: number[];
  /** Where each of those runs went. */
  checkoutTimeline: CheckoutTimeline[];
  /** ms per run, the same page with the modules the entry imports preloaded (`<link rel="modulepreload">`). */
  preloadedFirstRender: number[];
  /** ms per run, isolated (thin host in the page, the checkout in its frame on another origin). */
  isolatedFirstRender: number[];
  selectorFirstRender: number[];
  /** ms per keystroke, every run. */
  keystrokes: number[];
  banksListed: number;
  /** Banks left listed after each keystroke (the same every run). */
  matchesPerKey: number[];
}

const PROVINCES = [
  'Álava',
  'Albacete',
  'Alicante',
  'Almería',
  'Ávila',
  'Badajoz',
  'Baleares',
  'Barcelona',
  'Burgos',
  'Cáceres',
  'Cádiz',
  'Castellón',
  'Ciudad Real',
  'Córdoba',
  'A Coruña',
  'Cuenca',
  'Girona',
  'Granada',
  'Guadalajara',
  'Gipuzkoa',
  'Huelva',
  'Huesca',
  'Jaén',
  'León',
  'Lleida',
  'La Rioja',
  'Lugo',
  'Madrid',
  'Málaga',
  'Murcia',
  'Navarra',
  'Ourense',
  'Asturias',
  'Palencia',
  'Las Palmas',
  'Pontevedra',
  'Salamanca',
  'Tenerife',
  'Cantabria',
  'Segovia',
  'Sevilla',
  'Soria',
  'Tarragona',
  'Teruel',
  'Toledo',
  'Valencia',
  'Valladolid',
  'Bizkaia',
  'Zamora',
  'Zaragoza',
];
const KINDS = [
  'Banco',
  'Caja Rural de',
  'Caixa',
  'Cooperativa de Crédito de',
  'Banca March',
  'Caja de Ahorros de',
  'Banco Popular de',
  'Crédit Agricole',
  'Bankinter',
  'Unicaja',
];

/** `count` banks in groups of 50, each a copy of a real bank view under a new id and name. */
export function manyBanks(model: BankView, count: number): BankGroupView[] {
  const groups: BankGroupView[] = [];
  for (let i = 0; i < count; i++) {
    const kind = KINDS[Math.floor(i / PROVINCES.length) % KINDS.length]!;
    const place = PROVINCES[i % PROVINCES.length]!;
    const bank: BankView = { ...model, bankId: `bank-${i + 1}`, type: 0, active: i % 37 !== 5, label: `${kind} ${place}` };
    if (i % PROVINCES.length === 0) groups.push({ group: `group-${groups.length + 1}`, name: kind, defaultType: bank.bankId, types: [] });
    groups.at(-1)!.types.push(bank);
  }
  return groups;
}

const PAGE = (script: string, body = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>${script}</head><body>${body}</body></html>`;

/**
 * Marks the first frame in which `<bank-checkout>`'s bank list has options, inline in the page
 * (no request of its own). It tells the bench with one console message: the bench runs nothing
 * in the page until then (Playwright's own script, injected by a first `evaluate` or
 * `waitForFunction`, takes several ms of the page's main thread, which a payer's page never spends).
 */
const CHECKOUT_PROBE = `
function tick() {
  const checkout = document.querySelector('bank-checkout');
  const selector = checkout && checkout.shadowRoot && checkout.shadowRoot.querySelector('bank-selector');
  const option = selector && selector.shadowRoot && selector.shadowRoot.querySelector('[role=option]');
  if (option) {
    option.getBoundingClientRect();
    window.__shown = performance.now();
    console.debug('bench:shown');
  } else requestAnimationFrame(tick);
}
requestAnimationFrame(tick);
customElements.whenDefined('bank-checkout').then(() => { window.__defined = performance.now(); });
`;

/** Where a first render of `<bank-checkout>` went, in ms from navigation start (`npm run bench:render` prints it). */
export interface CheckoutTimeline {
  /** The page's HTML received. */
  html: number;
  /** The first and the last of the modules the page fetched before the bank list showed: requested, received. */
  modulesStart: number;
  modulesEnd: number;
  /** Module files fetched before the bank list showed (the later steps, fetched after it, are not counted). */
  modules: number;
  /** `<bank-checkout>` defined (its module evaluated). */
  defined: number;
  /** The first screen's call (`GET /v1/checkout/start`, or the first of the calls before the bank list): requested, answered. */
  apiStart: number;
  apiEnd: number;
  /** Calls to the BFF before the bank list showed. */
  apiCalls: number;
  shown: number;
}

const TIMELINE = () => {
  const w = window as unknown as { __shown: number; __defined: number };
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
  const before = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => r.startTime < w.__shown);
  const modules = before.filter((r) => r.name.endsWith('.js'));
  const api = before.filter((r) => new URL(r.name).pathname.startsWith('/v1/'));
  return {
    html: nav.responseEnd,
    modulesStart: Math.min(...modules.map((r) => r.startTime)),
    modulesEnd: Math.max(...modules.map((r) => r.responseEnd)),
    modules: modules.length,
    defined: w.__defined,
    apiStart: Math.min(...api.map((r) => r.startTime)),
    apiEnd: Math.max(...api.map((r) => r.responseEnd)),
    apiCalls: api.length,
    shown: w.__shown,
  };
};

/** In the checkout's frame only: the absolute time of the first frame whose bank list has options. */
const FRAME_PROBE = `
if (location.pathname === '/v1/frame') {
  const tick = () => {
    const checkout = document.querySelector('bank-checkout');
    const selector = checkout && checkout.shadowRoot && checkout.shadowRoot.querySelector('bank-selector');
    const option = selector && selector.shadowRoot && selector.shadowRoot.querySelector('[role=option]');
    if (option) {
      option.getBoundingClientRect();
      window.__shownAt = performance.timeOrigin + performance.now();
      console.debug('bench:shown');
    } else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
`;

/**
 * The BFF's side of the isolated mode on its own origin: its frame route (page, policy,
 * modules) and the two answers the checkout reads.
 */
async function serveFrameOrigin(pageOrigin: string, opts: RenderOptions): Promise<{ origin: string; close: () => void }> {
  const bundle = await buildFramePage();
  const app = new Hono();
  app.route(
    '/v1',
    frameRoutes(loadConfig({ ALLOWED_ORIGINS: pageOrigin, DATABASE_URL: ':memory:' }), () => Promise.resolve(bundle)),
  );
  // The frame's redemption of the page's launch token: its key and the first screen (the proof it sends is not checked here).
  app.post('/v1/frame/launch', (c) => c.json({ key: 'fk_bench', resumed: false, start: { view: opts.checkout, banks: opts.banks } }));
  app.get('/v1/checkout', (c) => c.json(opts.checkout));
  app.get('/v1/checkout/start', (c) => c.json({ view: opts.checkout, banks: opts.banks }));
  app.get('/v1/banks', (c) => c.json(opts.banks));
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({ origin: `http://127.0.0.1:${info.port}`, close: () => server.close() }),
    );
  });
}

const SELECTOR_DRIVER = `
import './bank-selector.js';
const listLaidOut = (el) => el.shadowRoot.querySelector('[role=listbox]').getBoundingClientRect();
// Banks listed (the list renders a screenful at first; each option carries the total).
const count = (el) => Number(el.shadowRoot.querySelector('[role=option]')?.getAttribute('aria-setsize') ?? 0);
window.__keys = [];
window.renderSelector = async (groups) => {
  const el = document.createElement('bank-selector');
  el.locale = 'en';
  el.noRemember = true;
  el.storage = null;
  el.groups = groups;
  const started = performance.now();
  document.body.append(el);
  await el.updateComplete;
  listLaidOut(el);
  const ms = performance.now() - started;
  el.addEventListener('input', (e) => {
    el.updateComplete.then(() => {
      listLaidOut(el);
      window.__keys.push({ ms: performance.now() - e.timeStamp, count: count(el) });
    });
  });
  return { ms, count: count(el) };
};
`;

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html', '.map': 'application/json' };

/** Serves the built files and the pages; GET /v1/checkout and /v1/banks answer like the BFF. */
function serveBench(
  dir: string,
  opts: RenderOptions,
  host: Uint8Array,
  preload: string[],
): Promise<{ origin: string; server: Server; files: Map<string, { type: string; body: Buffer | string | Uint8Array }> }> {
  const files = new Map<string, { type: string; body: Buffer | string | Uint8Array }>();
  files.set('/bank-checkout-frame.min.js', { type: TYPES['.js']!, body: host });
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (TYPES[extname(name)]) files.set(`/${name}`, { type: TYPES[extname(name)]!, body: readFileSync(join(dir, name)) });
  }
  files.set('/favicon.ico', { type: 'image/x-icon', body: '' });
  files.set('/selector-driver.js', { type: TYPES['.js']!, body: SELECTOR_DRIVER });
  files.set('/selector.html', { type: TYPES['.html']!, body: PAGE('<script type="module" src="/selector-driver.js"></script>') });
  files.set('/v1/checkout', { type: 'application/json', body: JSON.stringify(opts.checkout) });
  files.set('/v1/checkout/start', { type: 'application/json', body: JSON.stringify({ view: opts.checkout, banks: opts.banks }) });
  files.set('/v1/banks', { type: 'application/json', body: JSON.stringify(opts.banks) });
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = files.get(path);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'no-store' }).end(file.body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const element = `<bank-checkout api="${origin}" checkout-secret="cs_bench" locale="en"></bank-checkout>`;
      const entry = '<script type="module" src="/bank-checkout.js"></script>';
      files.set('/checkout.html', { type: TYPES['.html']!, body: PAGE(`<script>${CHECKOUT_PROBE}</script>${entry}`, element) });
      // As the embedding guide says, and as a bundler writes a page: the modules the entry imports, preloaded with it.
      const links = preload.map((f) => `<link rel="modulepreload" href="/${f}">`).join('');
      files.set('/checkout-preload.html', { type: TYPES['.html']!, body: PAGE(`<script>${CHECKOUT_PROBE}</script>${links}${entry}`, element) });
      resolve({ origin, server, files });
    });
  });
}

/** The chunks a built entry imports statically, directly or through each other (what a page preloads with it). */
function staticImports(output: Awaited<ReturnType<typeof build>>, entry: string): string[] {
  const chunks = new Map<string, string[]>();
  for (const o of (Array.isArray(output) ? output : [output]) as { output?: { type: string; fileName: string; imports?: string[] }[] }[]) {
    for (const c of o.output ?? []) if (c.type === 'chunk') chunks.set(c.fileName, c.imports ?? []);
  }
  const seen = new Set<string>();
  const visit = (name: string) => {
    for (const i of chunks.get(name) ?? [])
      if (!seen.has(i)) {
        seen.add(i);
        visit(i);
      }
  };
  visit(entry);
  if (!chunks.has(entry)) throw new Error(`the build has no ${entry}`);
  return [...seen];
}

async function inFreshPage<T>(browser: Browser, url: string, fn: (page: import('playwright-core').Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.goto(url);
    const result = await fn(page);
    if (errors.length) throw new Error(`the page reported errors: ${errors.join('; ')}`);
    return result;
  } finally {
    await context.close();
  }
}

/** The probe's message that the bank list shows (in the page or its frame); nothing of the bench runs in the page before it. */
function shown(page: Page): Promise<unknown> {
  return page.waitForEvent('console', { predicate: (m) => m.text() === 'bench:shown', timeout: 30_000 });
}

/** One cold run of an inline checkout page: where its first render went, from navigation start to the bank list shown. */
async function checkoutFirstRender(browser: Browser, url: string): Promise<CheckoutTimeline> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors = pageErrors(page);
    const done = shown(page);
    await page.goto(url);
    await done;
    const timeline = await page.evaluate(TIMELINE);
    if (errors.length) throw new Error(`the page reported errors: ${errors.join('; ')}`);
    return timeline;
  } finally {
    await context.close();
  }
}

/** One cold run of the isolated page: from its navigation start to the bank list shown in the frame. */
async function isolatedFirstRender(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  try {
    await context.addInitScript({ content: FRAME_PROBE });
    const page = await context.newPage();
    const errors = pageErrors(page);
    const done = shown(page);
    await page.goto(url);
    await done;
    const frame = page.frames().find((f) => new URL(f.url()).pathname === '/v1/frame');
    if (!frame) throw new Error('the isolated checkout made no frame');
    const shownAt = await frame.evaluate(() => (window as unknown as { __shownAt: number }).__shownAt);
    const started = await page.evaluate(() => performance.timeOrigin);
    if (errors.length) throw new Error(`the isolated page reported errors: ${errors.join('; ')}`);
    return shownAt - started;
  } finally {
    await context.close();
  }
}

export async function measureRender(opts: RenderOptions): Promise<RenderFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-render-'));
  let server: Server | undefined;
  let closeFrame: (() => void) | undefined;
  let browser: Browser | undefined;
  try {
    const output = await build({
      ...elementsLibrary({ entries: { 'bank-checkout': 'bank-checkout/bank-checkout.ts', 'bank-selector': 'bank-selector/bank-selector.ts' }, outDir: dir }),
      configFile: false,
    });
    const model = opts.banks.groups.flatMap((g) => g.types).find((b) => b.active && b.type === 0)!;
    const groups = manyBanks(model, opts.manyBanks ?? 500);
    const query = opts.query ?? 'caja rural de s';
    const served = await serveBench(dir, opts, await buildFrameHost(), staticImports(output, 'bank-checkout.js'));
    server = served.server;
    const frameOrigin = await serveFrameOrigin(served.origin, opts);
    closeFrame = frameOrigin.close;
    served.files.set('/isolated.html', {
      type: TYPES['.html']!,
      body: PAGE(
        '<script type="module" src="/bank-checkout-frame.min.js"></script>',
        `<bank-checkout isolate api="${frameOrigin.origin}" launch-token="lt_chk_bench.0123456789abcdef0123456789abcdef" locale="en"></bank-checkout>`,
      ),
    });
    browser = await launchChromium();

    const figures: RenderFigures = {
      checkoutFirstRender: [],
      checkoutTimeline: [],
      preloadedFirstRender: [],
      isolatedFirstRender: [],
      selectorFirstRender: [],
      keystrokes: [],
      banksListed: 0,
      matchesPerKey: [],
    };
    for (let run = 0; run < opts.runs; run++) {
      figures.isolatedFirstRender.push(await isolatedFirstRender(browser, `${served.origin}/isolated.html`));
      const timeline = await checkoutFirstRender(browser, `${served.origin}/checkout.html`);
      figures.checkoutTimeline.push(timeline);
      figures.checkoutFirstRender.push(timeline.shown);
      figures.preloadedFirstRender.push((await checkoutFirstRender(browser, `${served.origin}/checkout-preload.html`)).shown);
      await inFreshPage(browser, `${served.origin}/selector.html`, async (page) => {
        await page.waitForFunction(() => 'renderSelector' in window);
        const first = await page.evaluate(
          (g) => (window as unknown as { renderSelector(g: unknown): Promise<{ ms: number; count: number }> }).renderSelector(g),
          groups,
        );
        figures.selectorFirstRender.push(first.ms);
        figures.banksListed = first.count;
        await page.locator('bank-selector input[role=combobox]').focus();
        const counts: number[] = [];
        for (const [i, key] of [...query].entries()) {
          await page.keyboard.press(key === ' ' ? 'Space' : key);
          await page.waitForFunction((n) => (window as unknown as { __keys: unknown[] }).__keys.length >= n, i + 1);
        }
        const keys = await page.evaluate(() => (window as unknown as { __keys: { ms: number; count: number }[] }).__keys);
        for (const k of keys) {
          figures.keystrokes.push(k.ms);
          counts.push(k.count);
        }
        figures.matchesPerKey = counts;
      });
    }
    return figures;
  } finally {
    await browser?.close();
    server?.close();
    closeFrame?.();
    rmSync(dir, { recursive: true, force: true });
  }
}
