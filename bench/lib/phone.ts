/**
 * The payer's first screen on a throttled phone (`npm run bench:phone`): the demonstration
 * shop's isolated checkout page, from its navigation to the first frame in which a bank of the
 * list shows inside the checkout's frame and the frame itself shows (the host has taken its
 * placeholder away), against a floor measured in the same run: the same page with the bank
 * list written in as static HTML (the checkout's scripts, preloads and preconnect taken out),
 * with its stylesheet and icon, served over the same network as the shop serves them (the page
 * as it is, the stylesheet and icon gzipped).
 *
 * The phone: a 375 px wide screen (twice as dense, touch), the CPU throttled 4× and the
 * network at 150 ms round trips and 1.6 Mbps down (750 kbps up) through the DevTools protocol
 * (`Emulation.setCPUThrottlingRate`, `Network.emulateNetworkConditions`), a fresh browser
 * context each run with the cache disabled. The two pages take turns (floor, checkout;
 * checkout, floor; …) so that a slow phase of the shared machine falls on both.
 *
 * The shop, the BFF and the simulator run in this process (scripts/start.ts `startAll`, a store
 * in a temporary folder); the shop's page and the frame are on two origins of one site
 * (127.0.0.1 on two ports), as on a shop and its payment subdomain, so the frame runs in the
 * page's process and both are throttled by the page's session.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, CDPSession } from 'playwright-core';
import { startAll, type Started } from '../../scripts/start.js';
import { launchChromium } from '../../test/support/stack.js';
import { pageErrors } from './page.js';

export interface PhoneOptions {
  /** Runs of each page (the median is reported). */
  runs: number;
  /** Network round trip, ms (150). */
  latency?: number;
  /** Download throughput, bits per second (1.6 Mbps). */
  download?: number;
  /** CPU slowdown (4). */
  cpu?: number;
}

/** One request of a run, ms from the navigation's start. */
export interface RequestSpan {
  url: string;
  method: string;
  start: number;
  /** Its response's headers received. */
  headers: number;
  end: number;
  bytes: number;
  status: number;
  fromCache: boolean;
}

export interface PhoneRun {
  /** ms from navigation start to the first bank shown. */
  shown: number;
  /**
   * The checkout's milestones, ms from the navigation start: the host element defined (`host`),
   * the frame's page read and its script run (`frameRead`), the host's `hello` and `init` in the
   * frame (`hello`, `init`), the redemption sent and answered
   * (`launchSent`, `launchAnswered`), the kit's `<bank-checkout>` defined in the frame (`kit`), the
   * first bank in the frame (`bank`: the written first screen's, or the kit's), the host showing
   * the frame (`shown`), the kit's own screen with the checkout's facts (`kitShown`).
   */
  marks?: Record<string, number>;
  /** Each request the page and its frame made before that. */
  requests: RequestSpan[];
}

export interface PhoneFigures {
  checkout: PhoneRun[];
  floor: PhoneRun[];
  /** Banks the floor lists (the checkout's first screen, as text). */
  banks: number;
}

/** The phone the runs emulate. */
export const PHONE = { latency: 150, download: 1_600_000, upload: 750_000, cpu: 4, width: 375, height: 812 } as const;

/**
 * Marks the first animation frame in which the first bank shows. In the checkout's frame (the
 * BFF's `/v1/frame`): its bank list has an option; in the shop's page: the frame is shown (the
 * element defined, its frame no longer `hidden` as the page wrote it nor `inert` under the
 * placeholder); in the floor: the list's first item exists. Each keeps
 * the absolute time, and the page tells the bench once both are there (one console message:
 * nothing of the bench runs in the page before it).
 */
const PROBE = `
(() => {
  const at = () => performance.timeOrigin + performance.now();
  const find = (root, ...sel) => { let n = root; for (const s of sel) { n = n && (n.shadowRoot || n).querySelector(s); } return n; };
  const loop = (check, done) => { const tick = () => { const el = check(); if (el) { el.getBoundingClientRect(); done(at()); } else requestAnimationFrame(tick); }; requestAnimationFrame(tick); };
  if (location.pathname === '/v1/frame') {
    // Milestones on the way (passive: a listener, a promise, the resource timings), told to the page as they come.
    const marks = {};
    const tell = () => parent.postMessage({ benchMarks: marks }, '*');
    const mark = (name) => { if (!marks[name]) { marks[name] = at(); tell(); } };
    addEventListener('message', (e) => { if (e.data && (e.data.type === 'init' || e.data.type === 'hello')) mark(e.data.type); }, true);
    customElements.whenDefined('bank-checkout').then(() => mark('kit'));
    // The frame's page read and its own script run (module scripts run before this event).
    document.addEventListener('DOMContentLoaded', () => mark('frameRead'));
    const launchTimes = () => {
      const r = performance.getEntriesByType('resource').find((x) => x.name.endsWith('/v1/frame/launch'));
      if (r && r.responseEnd) { marks.launchSent = performance.timeOrigin + r.startTime; marks.launchAnswered = performance.timeOrigin + r.responseEnd; }
    };
    // The kit's bank list, or the one the page was written with (its first screen, before the kit and the redemption).
    loop(() => find(document, 'bank-checkout', 'bank-selector', '[role=option]') || find(document, '.first-screen', '.first-selector', '[role=option]'), (t) => { launchTimes(); parent.postMessage({ benchShown: t, marks }, '*'); });
    // The kit's own screen shown (the checkout redeemed, its facts in).
    loop(() => { const c = document.querySelector('bank-checkout'); return c && !c.hidden && find(document, 'bank-checkout', 'bank-selector', '[role=option]'); }, (t) => { launchTimes(); marks.kitShown = t; tell(); });
  } else if (location.pathname === '/bench-floor') {
    loop(() => document.querySelector('#bench-banks li'), (t) => { window.__shownAt = t; console.debug('bench:shown'); });
  } else if (window === top) {
    let inFrame = 0, frameShown = 0;
    const report = () => { if (inFrame && frameShown) { window.__shownAt = Math.max(inFrame, frameShown); console.debug('bench:shown'); } };
    customElements.whenDefined('bank-checkout').then(() => { window.__hostDefined = at(); });
    window.__frameMarks = {};
    addEventListener('message', (e) => {
      if (e.data && e.data.benchMarks) Object.assign(window.__frameMarks, e.data.benchMarks);
      if (e.data && typeof e.data.benchShown === 'number' && !inFrame) { inFrame = e.data.benchShown; window.__marks = { host: window.__hostDefined, bank: inFrame }; report(); }
    });
    // Shown by the host: defined, its frame neither hidden (as the page wrote it) nor inert (under the placeholder).
    loop(() => { const f = customElements.get('bank-checkout') && find(document, 'bank-checkout', 'iframe'); return f && !f.inert && !f.hidden ? f : null; }, (t) => { frameShown = t; if (window.__marks) window.__marks.shown = t; report(); });
  }
})();
`;

/** A phone's context: 375 px, touch, the probe in every document. */
async function phoneContext(browser: Browser, storage?: Awaited<ReturnType<BrowserContext['storageState']>>): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: PHONE.width, height: PHONE.height },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    ...(storage ? { storageState: storage } : {}),
  });
  await context.addInitScript({ content: PROBE });
  return context;
}

/** Records every request of the page's session (its frame's too: one process), ms from the first one. */
function recordRequests(cdp: CDPSession): () => RequestSpan[] {
  const spans = new Map<string, RequestSpan & { t0: number }>();
  let origin = -1;
  const ms = (t: number) => (t - origin) * 1000;
  cdp.on('Network.requestWillBeSent', (e) => {
    if (origin < 0) origin = e.timestamp;
    spans.set(e.requestId, {
      url: e.request.url,
      method: e.request.method,
      start: ms(e.timestamp),
      headers: NaN,
      end: NaN,
      bytes: 0,
      status: 0,
      fromCache: false,
      t0: e.timestamp,
    });
  });
  cdp.on('Network.responseReceived', (e) => {
    const s = spans.get(e.requestId);
    if (!s) return;
    s.headers = ms(e.timestamp);
    s.status = e.response.status;
    s.fromCache = Boolean(e.response.fromDiskCache || e.response.fromPrefetchCache);
  });
  cdp.on('Network.loadingFinished', (e) => {
    const s = spans.get(e.requestId);
    if (!s) return;
    s.end = ms(e.timestamp);
    s.bytes = e.encodedDataLength;
  });
  return () => [...spans.values()].map(({ t0: _t0, ...s }) => s).sort((a, b) => a.start - b.start);
}

/** One cold run of `url` on the phone: ms from its navigation to the first bank shown, and its requests. */
async function phoneRun(
  browser: Browser,
  url: string,
  opts: Required<Omit<PhoneOptions, 'runs'>>,
  storage?: Awaited<ReturnType<BrowserContext['storageState']>>,
): Promise<PhoneRun> {
  const context = await phoneContext(browser, storage);
  try {
    const page = await context.newPage();
    const errors = pageErrors(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: opts.latency,
      downloadThroughput: opts.download / 8,
      uploadThroughput: PHONE.upload / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: opts.cpu });
    const requests = recordRequests(cdp);
    const shown = page.waitForEvent('console', { predicate: (m) => m.text() === 'bench:shown', timeout: 60_000 });
    await page.goto(url, { waitUntil: 'commit' });
    await shown;
    // The checkout's later milestones (the kit's own screen, the checkout's facts in), read once they are in, still on the phone.
    if (await page.evaluate(() => '__frameMarks' in window))
      await page.waitForFunction(() => (window as unknown as { __frameMarks: { kitShown?: number } }).__frameMarks.kitShown, null, { timeout: 30_000 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const { started, shownAt, marks } = await page.evaluate(() => ({
      started: performance.timeOrigin,
      shownAt: (window as unknown as { __shownAt: number }).__shownAt,
      marks: {
        ...(window as unknown as { __frameMarks?: Record<string, number> }).__frameMarks,
        ...(window as unknown as { __marks?: Record<string, number> }).__marks,
      },
    }));
    if (errors.length) throw new Error(`${url}: the page reported errors: ${errors.join('; ')}`);
    const ms = shownAt - started;
    const since = marks && Object.fromEntries(Object.entries(marks).flatMap(([k, v]) => (typeof v === 'number' ? [[k, v - started]] : [])));
    return { shown: ms, requests: requests().filter((r) => r.start <= ms), ...(since ? { marks: since } : {}) };
  } finally {
    await context.close();
  }
}

/** The shop's isolated checkout page of a fresh order, with the session that made it. */
async function orderPage(browser: Browser, started: Started) {
  const context = await browser.newContext();
  const send = async (path: string, form: Record<string, string>) => {
    const res = await context.request.post(`${started.urls.demo}${path}`, { form, headers: { Origin: started.urls.demo }, maxRedirects: 0 });
    if (res.status() !== 303) throw new Error(`${path}: ${res.status()} ${(await res.text()).slice(0, 300)}`);
    return new URL(res.headers().location ?? '', started.urls.demo).href;
  };
  await send('/cart/add', { productId: 'mug', quantity: '1' });
  const url = await send('/checkout', { mode: 'native' });
  // One run unthrottled: the servers warmed up, and the bank list's labels as the payer sees them first.
  const page = await context.newPage();
  await page.goto(url);
  const options = page.frameLocator('bank-checkout iframe').locator('bank-selector [role=option]');
  await options.first().waitFor({ timeout: 30_000 });
  const banks = (await options.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
  const html = await (await context.request.get(url)).text();
  const storage = await context.storageState();
  await context.close();
  return { url, storage, banks, html };
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The floor: the checkout page as the shop served it, with the element replaced by its bank
 * list as static HTML and the checkout's scripts, preloads and preconnect taken out; served
 * with the page's stylesheet and icon from a server of its own.
 */
async function serveFloor(started: Started, html: string, banks: string[]): Promise<{ url: string; server: Server }> {
  const list = `<ul id="bench-banks">${banks.map((b) => `<li>${escapeHtml(b)}</li>`).join('')}</ul>`;
  const page = html
    .replace(/<bank-checkout[\s\S]*?<\/bank-checkout>/, list)
    .replace(/<script type="module"[^>]*><\/script>/g, '')
    .replace(/<link rel="(modulepreload|preconnect)"[^>]*>\n?/g, '');
  if (!page.includes('bench-banks')) throw new Error('the checkout page has no <bank-checkout> to replace');
  const files = new Map<string, { type: string; body: Buffer | string; gzipped?: Buffer }>([
    ['/bench-floor', { type: 'text/html; charset=utf-8', body: page }],
  ]);
  for (const [path, type] of [
    ['/assets/demo.css', 'text/css; charset=utf-8'],
    ['/assets/favicon.svg', 'image/svg+xml'],
  ] as const) {
    const body = Buffer.from(await (await fetch(`${started.urls.demo}${path}`)).arrayBuffer());
    files.set(path, { type, body, gzipped: gzipSync(body) });
  }
  // As the shop serves them: the page as it is, its stylesheet and icon gzipped when asked.
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = files.get(path);
    if (!file) return void res.writeHead(404).end();
    const zipped = file.gzipped && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') ? file.gzipped : null;
    res
      .writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding', ...(zipped ? { 'Content-Encoding': 'gzip' } : {}) })
      .end(zipped ?? file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench-floor`, server };
}

export async function measureFirstScreen(opts: PhoneOptions): Promise<PhoneFigures> {
  const settings = { latency: opts.latency ?? PHONE.latency, download: opts.download ?? PHONE.download, cpu: opts.cpu ?? PHONE.cpu };
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-phone-'));
  let started: Started | undefined;
  let browser: Browser | undefined;
  let floor: Server | undefined;
  try {
    started = await startAll({
      ports: { demo: 0, bff: 0, sandbox: 0 },
      dataDir,
      env: { LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000' },
    });
    browser = await launchChromium();
    const order = await orderPage(browser, started);
    const served = await serveFloor(started, order.html, order.banks);
    floor = served.server;
    const figures: PhoneFigures = { checkout: [], floor: [], banks: order.banks.length };
    for (let run = 0; run < opts.runs; run++) {
      const pair = [
        async () => figures.floor.push(await phoneRun(browser!, served.url, settings)),
        async () => figures.checkout.push(await phoneRun(browser!, order.url, settings, order.storage)),
      ];
      if (run % 2) pair.reverse();
      for (const leg of pair) await leg();
    }
    return figures;
  } finally {
    await browser?.close();
    floor?.close();
    await started?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
