/**
 * Render timings in headless Chromium (playwright-core with the system browser): the elements
 * are built with the library's vite config into a temporary folder and served, with a fake
 * BFF answering from the same origin, by a small static server on loopback.
 *
 * - `<bank-checkout>` first render: from navigation start to the first animation frame in
 *   which the bank list's options exist (bundle download, parse, GET /v1/checkout,
 *   GET /v1/banks, render), in a fresh browser context (cold cache) each run.
 * - `<bank-selector>` first render with 500 banks: from appending the element to its update
 *   done and the list laid out, in a fresh page each run.
 * - Search as you type over those 500 banks: real key presses; from each `input` event's
 *   timestamp to the element's update done and the list laid out.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import type { BankGroupView, BankView, BanksResponse, CheckoutView } from '@bank-checkout/contract';
import { elementsLibrary } from '../../vite.config.js';
import { launchChromium } from '../../scripts/screenshots.js';

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
  selectorFirstRender: number[];
  /** ms per keystroke, every run. */
  keystrokes: number[];
  banksListed: number;
  /** Banks left listed after each keystroke (the same every run). */
  matchesPerKey: number[];
}

const PROVINCES = [
  'Álava', 'Albacete', 'Alicante', 'Almería', 'Ávila', 'Badajoz', 'Baleares', 'Barcelona', 'Burgos', 'Cáceres',
  'Cádiz', 'Castellón', 'Ciudad Real', 'Córdoba', 'A Coruña', 'Cuenca', 'Girona', 'Granada', 'Guadalajara', 'Gipuzkoa',
  'Huelva', 'Huesca', 'Jaén', 'León', 'Lleida', 'La Rioja', 'Lugo', 'Madrid', 'Málaga', 'Murcia',
  'Navarra', 'Ourense', 'Asturias', 'Palencia', 'Las Palmas', 'Pontevedra', 'Salamanca', 'Tenerife', 'Cantabria', 'Segovia',
  'Sevilla', 'Soria', 'Tarragona', 'Teruel', 'Toledo', 'Valencia', 'Valladolid', 'Bizkaia', 'Zamora', 'Zaragoza',
];
const KINDS = ['Banco', 'Caja Rural de', 'Caixa', 'Cooperativa de Crédito de', 'Banca March', 'Caja de Ahorros de', 'Banco Popular de', 'Crédit Agricole', 'Bankinter', 'Unicaja'];

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

/** Marks the first frame in which `<bank-checkout>`'s bank list has options. */
const CHECKOUT_PROBE = `
function deep(root, selector) {
  const hit = root.querySelector(selector);
  if (hit) return hit;
  for (const el of root.querySelectorAll('*')) {
    if (el.shadowRoot) {
      const found = deep(el.shadowRoot, selector);
      if (found) return found;
    }
  }
  return null;
}
function tick() {
  const selector = deep(document, 'bank-selector');
  const option = selector && selector.shadowRoot && selector.shadowRoot.querySelector('[role=option]');
  if (option) {
    option.getBoundingClientRect();
    window.__shown = performance.now();
  } else requestAnimationFrame(tick);
}
requestAnimationFrame(tick);
`;

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
function serveBench(dir: string, opts: RenderOptions): Promise<{ origin: string; server: Server }> {
  const files = new Map<string, { type: string; body: Buffer | string }>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (TYPES[extname(name)]) files.set(`/${name}`, { type: TYPES[extname(name)]!, body: readFileSync(join(dir, name)) });
  }
  files.set('/favicon.ico', { type: 'image/x-icon', body: '' });
  files.set('/probe.js', { type: TYPES['.js']!, body: CHECKOUT_PROBE });
  files.set('/selector-driver.js', { type: TYPES['.js']!, body: SELECTOR_DRIVER });
  files.set('/selector.html', { type: TYPES['.html']!, body: PAGE('<script type="module" src="/selector-driver.js"></script>') });
  files.set('/v1/checkout', { type: 'application/json', body: JSON.stringify(opts.checkout) });
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
      files.set(
        '/checkout.html',
        {
          type: TYPES['.html']!,
          body: PAGE(
            '<script src="/probe.js"></script><script type="module" src="/bank-checkout.js"></script>',
            `<bank-checkout api="${origin}" checkout-secret="cs_bench" locale="en"></bank-checkout>`,
          ),
        },
      );
      resolve({ origin, server });
    });
  });
}

async function inFreshPage<T>(browser: Browser, url: string, fn: (page: import('playwright-core').Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(url);
    const result = await fn(page);
    if (errors.length) throw new Error(`the page reported errors: ${errors.join('; ')}`);
    return result;
  } finally {
    await context.close();
  }
}

export async function measureRender(opts: RenderOptions): Promise<RenderFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-render-'));
  let server: Server | undefined;
  let browser: Browser | undefined;
  try {
    await build({
      ...elementsLibrary({ entries: { 'bank-checkout': 'bank-checkout/bank-checkout.ts', 'bank-selector': 'bank-selector/bank-selector.ts' }, outDir: dir }),
      configFile: false,
    });
    const model = opts.banks.groups.flatMap((g) => g.types).find((b) => b.active && b.type === 0)!;
    const groups = manyBanks(model, opts.manyBanks ?? 500);
    const query = opts.query ?? 'caja rural de s';
    const served = await serveBench(dir, opts);
    server = served.server;
    browser = await launchChromium();

    const figures: RenderFigures = { checkoutFirstRender: [], selectorFirstRender: [], keystrokes: [], banksListed: 0, matchesPerKey: [] };
    for (let run = 0; run < opts.runs; run++) {
      figures.checkoutFirstRender.push(
        await inFreshPage(browser, `${served.origin}/checkout.html`, async (page) => {
          await page.waitForFunction(() => (window as { __shown?: number }).__shown, undefined, { timeout: 30_000 });
          return page.evaluate(() => (window as unknown as { __shown: number }).__shown);
        }),
      );
      await inFreshPage(browser, `${served.origin}/selector.html`, async (page) => {
        await page.waitForFunction(() => 'renderSelector' in window);
        const first = await page.evaluate((g) => (window as unknown as { renderSelector(g: unknown): Promise<{ ms: number; count: number }> }).renderSelector(g), groups);
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
    rmSync(dir, { recursive: true, force: true });
  }
}
