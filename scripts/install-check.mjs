#!/usr/bin/env node
// `npm run check:install`: installs the kit the way a merchant does and uses it from outside the
// repository. Packs every package, installs the tarballs (with esbuild, Vite, TypeScript and
// React from the registry) into an empty project in a temporary folder, then:
//   - plain `node` starts the simulator and the BFF from their bins and the BFF answers /health;
//   - pages importing `@bank-checkout/elements`, bundled by esbuild and by Vite at their default
//     settings, a React 19 page using `@bank-checkout/elements/react`, and a plain HTML page
//     loading only `bank-checkout.min.js` (with its integrity hash) each show the bank list of
//     a checkout created through the merchant API, in Chromium, with no page error; so do two
//     isolated pages (`@bank-checkout/elements/frame` bundled by esbuild, and
//     `bank-checkout-frame.min.js` with its hash), in the frame the installed BFF serves;
//     a whole payment in the esbuild page and in the frame (the steps loaded on demand), and
//     with each one-file build copied alone into the page's folder (the page then fetches
//     nothing else from its own origin);
//   - `tsc` (strict, no skipLibCheck) type-checks a TypeScript page, a React TSX page and a
//     server file using the BFF;
//   - the starter: `create-bank-checkout` (as `npm create bank-checkout@latest` runs it) writes a
//     shop into an empty folder, for Express and for Hono, on ports of its own (`--port`,
//     `--bff-port`, `--sandbox-port`) with the kit from the packed tarballs (`--kit`, in the
//     registry's place); there `npm install` and `npm start` run the shop, the BFF and the
//     simulator, its pages carry the embedding guide's policy as it is, a browser pays a test
//     payment at 375 px, the shop receives its verified webhook, its pages pass axe, 10 more
//     page loads on a CPU 4× slower each pay, and its code type-checks (checkJs, strict) against
//     the published kit.
// Prints one line per check and the tarball sizes; exits 1 if any check failed.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROME_PATH, CHROMIUM_ARGS } from './chromium.mjs';
import { docPolicy } from '../test/support/doc-csp.mjs';

const root = new URL('..', import.meta.url).pathname;
const PACKAGES = ['contract', 'provider', 'sandbox', 'bff', 'elements', 'create-bank-checkout'];
const dir = mkdtempSync(join(tmpdir(), 'bank-checkout-install-'));
const project = join(dir, 'shop');
const keep = process.argv.includes('--keep');
// The merchant's project resolves the published JavaScript, never the repository's sources.
const env = { ...process.env, NODE_OPTIONS: '', npm_config_node_options: '' };
const results = [];
const children = [];

function sh(cmd, args, cwd, opts = {}) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${(r.stdout ?? '').slice(-3000)}\n${(r.stderr ?? '').slice(-3000)}`);
  return r.stdout;
}

async function check(name, fn) {
  const t0 = Date.now();
  try {
    const detail = await fn();
    results.push({ name, ok: true });
    console.log(`ok   ${name}${detail ? `: ${detail}` : ''} (${Date.now() - t0} ms)`);
  } catch (err) {
    results.push({ name, ok: false });
    console.log(`FAIL ${name}: ${err instanceof Error ? err.message : err}`);
  }
}

/** Starts a published bin with plain node; resolves with the first line matching `ready`. */
function start(bin, vars, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin], { cwd: project, env: { ...env, ...vars }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${bin} did not start:\n${out}`)), 20_000);
    const read = (chunk) => {
      out += chunk;
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`${bin} exited (${code}):\n${out}`)));
  });
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.json': 'application/json', '.css': 'text/css' };

/** Serves the shop project; `{{SECRET}}` and `{{API}}` in HTML become a fresh checkout. */
function serveShop(newCheckout, api) {
  // api: a function, since the BFF starts after the shop (its allowed origin is the shop's).
  return new Promise((resolve) => {
    const server = createServer(async (req, res) => {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (path === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      const file = join(project, path.endsWith('/') ? `${path}index.html` : path);
      if (!file.startsWith(project) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
        res.writeHead(404).end();
        return;
      }
      let body = readFileSync(file);
      if (extname(file) === '.html') {
        const text = body.toString();
        // An isolated page gets a launch token (its frame redeems it); an inline one the client secret.
        body = text
          .replaceAll('{{API}}', api())
          .replaceAll('{{SECRET}}', text.includes('launch-token="{{SECRET}}"') ? await newCheckout('isolated') : await newCheckout('inline'));
      }
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const page = (title, script, attrs = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>${script}</head>
<body><main><bank-checkout${attrs} api="{{API}}" ${attrs.includes('isolate') ? 'launch-token' : 'checkout-secret'}="{{SECRET}}" locale="en"></bank-checkout><div id="react-root"></div></main></body></html>
`;

/** A port free now on the loopback address. */
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** How many page loads of the starter's payment page pay, each on a CPU this many times slower. */
const THROTTLED_LOADS = 10;
const THROTTLE = 4;

/**
 * Waits until the checkout has not moved nor changed size for longer than the isolated frame
 * asks before a confirmation counts (600 ms, frame/visibility.ts; 750 with a margin for the
 * frame's own watch). A payer's eyes take that long anyway; a script pressing at once is refused.
 */
async function stillCheckout(tab) {
  await tab.evaluate(
    () =>
      new Promise((done) => {
        const el = document.querySelector('bank-checkout');
        let [last, since] = ['', performance.now()];
        const look = () => {
          const rect = JSON.stringify(el?.getBoundingClientRect());
          if (rect !== last) [last, since] = [rect, performance.now()];
          if (performance.now() - since >= 750) done();
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      }),
  );
}

/**
 * Pays at Banco Aurora in the checkout `ui` (the frame, or the page inline) of `tab`, as a payer
 * does: the account and the challenge's test values chosen with the keyboard (Chromium drops a
 * click that reaches a frame within 500 ms of its moving, as the step just drawn did), each confirmation pressed once the checkout
 * is on the screen and still. `chosen` runs once the bank is chosen. Answers what the checkout says at the end.
 */
async function payAtAurora(tab, ui, chosen = async () => {}) {
  await ui.locator('bank-selector [role=option]#bank-aurora').click();
  await chosen();
  await ui.locator('bank-login-form [part=fill-test]').click();
  await ui.locator('bank-login-form [part=submit]').click();
  const account = ui.locator('bank-account-picker input[type=radio]').first();
  await account.focus();
  await account.press('Space');
  if (!(await account.isChecked())) throw new Error('the first account is not chosen');
  const pay = ui.locator('bank-account-picker button[type=submit]');
  await pay.scrollIntoViewIfNeeded();
  await stillCheckout(tab);
  await pay.click();
  await ui.locator('bank-challenge [part=test-value]').first().waitFor();
  await ui.locator('bank-challenge [part=fill-test]').press('Enter');
  const confirm = ui.locator('bank-challenge [part=submit]');
  await confirm.scrollIntoViewIfNeeded();
  await stillCheckout(tab);
  await confirm.click();
  return (await ui.locator('bank-result [part=title]').textContent())?.trim();
}

/**
 * Orders one bag in the starter's shop and pays at Banco Aurora in `tab`, as a payer does:
 * answers the order's reference and what the checkout says at the end.
 */
async function orderAndPay(tab, shopUrl) {
  await tab.goto(shopUrl);
  await tab.click('button[type=submit]');
  await tab.waitForURL(/\/orders\/ORD-[A-Z0-9]+\/pay$/);
  const reference = new URL(tab.url()).pathname.split('/')[2];
  return { reference, title: await payAtAurora(tab, tab.frameLocator('bank-checkout iframe')) };
}

/** A tab that records its page errors, console errors and the checkout's error events. */
async function watchedTab(browser, viewport) {
  const tab = await browser.newPage({ viewport });
  const errors = [];
  tab.on('pageerror', (e) => errors.push(e.message));
  tab.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await tab.exposeFunction('__checkoutError', (detail) => errors.push(`bank-checkout-error ${JSON.stringify(detail)}`));
  await tab.addInitScript(() => addEventListener('bank-checkout-error', (e) => globalThis.__checkoutError(e.detail), true));
  return { tab, errors };
}

/**
 * `npm create bank-checkout@latest my-shop -- --framework <framework> --port … --kit <tarballs>`
 * from the packed starter, then the new folder's two commands, a test payment in a browser and
 * its verified webhook, and THROTTLED_LOADS payments on a slow phone.
 */
async function starter(framework, packed, tarballs, browser) {
  const axeSource = readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
  const tarball = (name) => packed.find((f) => f.split('/').pop().startsWith(`${name}-0`) || f.split('/').pop().startsWith(`bank-checkout-${name}-`));
  const folder = join(dir, `starter-${framework}`);
  const shopDir = join(folder, 'my-shop');
  mkdirSync(folder);
  const t0 = Date.now();
  // Ports of its own (the defaults may be taken on this machine), and the kit from its tarballs
  // in the registry's place, as the starter's options say.
  const [shopPort, bffPort, simPort] = [await freePort(), await freePort(), await freePort()];
  const shopUrl = `http://127.0.0.1:${shopPort}`;
  const bffUrl = `http://127.0.0.1:${bffPort}`;
  await check(
    `starter (${framework}): create-bank-checkout writes the shop into an empty folder, on the ports it is given, with a .env of its own secrets and the kit from the tarballs (--kit)`,
    () => {
      const options = [
        '--framework',
        framework,
        '--port',
        String(shopPort),
        '--bff-port',
        String(bffPort),
        '--sandbox-port',
        String(simPort),
        '--kit',
        tarballs,
      ];
      sh('npm', ['exec', '--yes', `--package=${tarball('create-bank-checkout')}`, '--', 'create-bank-checkout', 'my-shop', ...options], folder, { input: '' });
      const files = readdirSync(shopDir);
      for (const f of ['.env', '.gitignore', 'package.json', 'shop.js', 'dev.js', 'server.js', 'lib', 'public', 'README.md'])
        if (!files.includes(f)) throw new Error(`no ${f} in ${files.join(', ')}`);
      if ((statSync(join(shopDir, '.env')).mode & 0o777) !== 0o600) throw new Error('.env is readable by others');
      const env = readFileSync(join(shopDir, '.env'), 'utf8');
      if (!/^BFF_MERCHANT_SECRET=whsec_[A-Za-z0-9+/]{43}=$/m.test(env)) throw new Error('no fresh merchant secret');
      if (!env.includes(`\nSHOP_URL=${shopUrl}\n`) || !env.includes(`\nBFF_PUBLIC_URL=${bffUrl}\n`)) throw new Error(`not on the ports given:\n${env}`);
      const { dependencies } = JSON.parse(readFileSync(join(shopDir, 'package.json'), 'utf8'));
      if (dependencies['@bank-checkout/bff'] !== `file:${tarball('bff')}`) throw new Error(`the BFF from ${dependencies['@bank-checkout/bff']}`);
      return `${files.length} entries`;
    },
  );
  let server = null;
  try {
    await check(`starter (${framework}): npm install && npm start run the shop, the BFF and the simulator`, async () => {
      sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], shopDir);
      // Its own process group, stopped as Ctrl-C stops it in a terminal.
      server = spawn('npm', ['start'], { cwd: shopDir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`npm start did not say it was ready:\n${out}`)), 30_000);
        const read = (chunk) => {
          out += chunk;
          if (out.includes(`shop: open ${shopUrl}`)) {
            clearTimeout(timer);
            resolve();
          }
        };
        server.stdout.on('data', read);
        server.stderr.on('data', read);
        server.on('exit', (code) => reject(new Error(`npm start exited (${code}):\n${out}`)));
      });
      return out.trim().split('\n').at(-2);
    });
    await check(`starter (${framework}): a browser pays a test payment at 375 px and the shop receives its verified webhook; its pages pass axe`, async () => {
      const tab = await browser.newPage({ viewport: { width: 375, height: 800 } });
      const errors = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      tab.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      tab.setDefaultTimeout(20_000);
      const axe = async (what) => {
        // Run by the browser's debugger, which the shop's script-src 'self' lets through (a <script> it would refuse).
        await tab.evaluate(axeSource);
        const found = await tab.evaluate(async () => (await globalThis.axe.run(document)).violations.map((v) => `${v.id} (${v.nodes.length})`));
        if (found.length) throw new Error(`axe on ${what}: ${found.join(', ')}`);
      };
      try {
        await tab.goto(shopUrl);
        await axe('the shop page');
        await tab.selectOption('#quantity', '2');
        await tab.click('button[type=submit]');
        await tab.waitForURL(/\/orders\/ORD-[A-Z0-9]+\/pay$/);
        const reference = new URL(tab.url()).pathname.split('/')[2];
        const title = await payAtAurora(tab, tab.frameLocator('bank-checkout iframe'), () => axe('the payment page'));
        if (title !== 'Payment completed') throw new Error(`the checkout says ${title}`);
        // The order is paid once the shop has verified the BFF's webhook (delivered at once; read again until it is in).
        let state = '';
        for (let i = 0; i < 50 && state !== 'Paid'; i++) {
          if (i) await new Promise((r) => setTimeout(r, 100));
          await tab.goto(`${shopUrl}/orders/${reference}`);
          state = (await tab.locator('#order-state').textContent())?.trim() ?? '';
        }
        const confirmed = (await tab.locator('#order-confirmed').textContent())?.trim();
        if (state !== 'Paid' || confirmed !== '1 verified webhook event') throw new Error(`the order says ${state}, confirmed by ${confirmed}`);
        await axe('the order page');
        // A delivery that is not the BFF's is refused.
        const forged = await fetch(`${shopUrl}/webhooks/bank-checkout`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'webhook-id': 'evt_forged',
            'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
            'webhook-signature': 'v1,Zm9yZ2Vk',
          },
          body: JSON.stringify({ id: 'evt_forged', type: 'checkout.updated', createdAt: new Date().toISOString(), data: { reference, state: 'failed' } }),
        });
        if (forged.status !== 400) throw new Error(`a forged webhook was answered ${forged.status}`);
        // One order form sent twice makes one order (and one checkout).
        const form = await (await fetch(shopUrl)).text();
        const cart = /name="cart" value="([A-Z0-9]+)"/.exec(form)?.[1];
        const order = () =>
          fetch(`${shopUrl}/orders`, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: shopUrl },
            body: `cart=${cart}&quantity=1`,
          });
        const [first, second] = [await order(), await order()];
        if (!cart || first.status !== 303 || first.headers.get('location') !== second.headers.get('location'))
          throw new Error(`a form sent twice: ${first.status} ${first.headers.get('location')}, then ${second.status} ${second.headers.get('location')}`);
        if (errors.length) throw new Error(errors.join('; '));
        return `${reference}: ${title}; the order ${state}, confirmed by ${confirmed}`;
      } finally {
        await tab.close();
      }
    });
    await check(`starter (${framework}): its pages carry the embedding guide's policy for an isolated page, as it is`, async () => {
      const policy = (await fetch(shopUrl)).headers.get('content-security-policy');
      if (policy !== docPolicy('isolated', bffUrl)) throw new Error(`the policy is\n  ${policy}\nnot the guide's\n  ${docPolicy('isolated', bffUrl)}`);
      return 'frame-src for the BFF, no connect-src';
    });
    await check(`starter (${framework}): ${THROTTLED_LOADS} page loads on a CPU ${THROTTLE}× slower each pay, with no error event`, async () => {
      const times = [];
      const load = async (i) => {
        const { tab, errors } = await watchedTab(browser, { width: 375, height: 800 });
        tab.setDefaultTimeout(30_000);
        const cdp = await tab.context().newCDPSession(tab);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
        const started = Date.now();
        try {
          const { reference, title } = await orderAndPay(tab, shopUrl);
          if (title !== 'Payment completed') throw new Error(`load ${i + 1}: ${reference} says ${title}`);
          if (errors.length) throw new Error(`load ${i + 1}: ${errors.join('; ')}`);
          times.push(Date.now() - started);
        } finally {
          await tab.close();
        }
      };
      // Two payers at a time (each page's wait for the checkout's stillness is the other's time to run), every load to its end.
      let next = 0;
      const payers = await Promise.allSettled(
        [0, 1].map(async () => {
          while (next < THROTTLED_LOADS) await load(next++);
        }),
      );
      for (const p of payers) if (p.status === 'rejected') throw p.reason;
      times.sort((a, b) => a - b);
      return `${times.length} of ${THROTTLED_LOADS} paid; order to result ${(times[0] / 1000).toFixed(1)}–${(times.at(-1) / 1000).toFixed(1)} s, median ${(times[times.length >> 1] / 1000).toFixed(1)} s`;
    });
  } finally {
    if (server?.pid) {
      const stopped = new Promise((r) => server.once('exit', r));
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      await stopped;
    }
  }
  console.log(`     starter (${framework}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

try {
  console.log(`install check in ${dir}`);
  // 1. Build once, pack each package as npm would publish it.
  sh(process.execPath, [join(root, 'scripts/build-package.mjs')], root, { stdio: ['ignore', 'ignore', 'inherit'] });
  const tarballs = join(dir, 'tarballs');
  mkdirSync(tarballs);
  for (const name of PACKAGES) sh('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', tarballs, join(root, 'packages', name)], root);
  const packed = readdirSync(tarballs).map((f) => join(tarballs, f));
  const sizes = packed.map((f) => `${f.split('/').pop()} ${(statSync(f).size / 1024).toFixed(1)} KB`).join(', ');
  await check('tarballs hold built JavaScript, types, README and licence, and no tests or sources', () => {
    for (const t of packed) {
      const list = sh('tar', ['-tzf', t], dir).split('\n');
      const missing = ['package/dist/index.js', 'package/dist/index.d.ts', 'package/README.md', 'package/LICENSE'].filter((f) => !list.includes(f));
      const stray = list.filter((f) => /\/(test|src)\/|\.test\.|\.ts$/.test(f) && !f.endsWith('.d.ts'));
      if (missing.length || stray.length) throw new Error(`${t}: missing ${missing.join(', ') || '-'}; should not ship ${stray.slice(0, 5).join(', ') || '-'}`);
    }
    return sizes;
  });

  // 2. An empty project that installs the tarballs and the merchant's usual tools.
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }, null, 2));
  sh(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...packed,
      'esbuild@^0.27',
      'vite@^8',
      'typescript@~5.9',
      'react@^19',
      'react-dom@^19',
      '@types/react@^19',
      '@types/react-dom@^19',
    ],
    project,
  );

  // 3. The servers from their bins, with plain node.
  const [, sandboxUrl] = await start('node_modules/.bin/bank-checkout-sandbox', { PORT: '0', HOST: '127.0.0.1' }, /(http:\/\/127\.0\.0\.1:\d+)/);
  let bffUrl = '';
  const newCheckout = async (isolation) => {
    const r = await fetch(`${bffUrl}/v1/checkouts`, {
      method: 'POST',
      headers: { Authorization: 'Bearer dev-merchant-secret-change-me', 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 1999, subject: 'Install check', reference: `IC-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, isolation }),
    });
    if (r.status !== 201) throw new Error(`POST /v1/checkouts answered ${r.status}: ${await r.text()}`);
    const created = await r.json();
    return isolation === 'isolated' ? created.launchToken : created.clientSecret;
  };
  const shop = await serveShop(newCheckout, () => bffUrl);
  const shopPort = shop.address().port;
  const bffPort = String(20000 + Math.floor(Math.random() * 20000));
  bffUrl = `http://127.0.0.1:${bffPort}`;
  await start(
    'node_modules/.bin/bank-checkout-bff',
    {
      PORT: bffPort,
      PROVIDER_LINKS_URL: sandboxUrl,
      PROVIDER_NATIVE_URL: sandboxUrl,
      ALLOWED_ORIGINS: `http://127.0.0.1:${shopPort}`,
      DATABASE_URL: `file:${join(dir, 'bff.db')}`,
      LOG_LEVEL: 'warn',
    },
    /listening on/,
  );
  await check('plain node starts the BFF from its tarball and it answers /health', async () => {
    const r = await fetch(`${bffUrl}/health`);
    if (r.status !== 200) throw new Error(`/health answered ${r.status}`);
    return `${bffUrl}/health ${r.status}`;
  });
  await check('the JSX typings import as the docs write it, in plain node (and bundled, with the React page below)', () => {
    const out = sh(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "for (const f of ['react', 'preact', 'solid']) await import(`@bank-checkout/elements/jsx/${f}`); console.log('3 imported');",
      ],
      project,
    );
    return out.trim();
  });
  await check('the shop server creates a checkout with @bank-checkout/bff/client', () => {
    writeFileSync(
      join(project, 'create-checkout.mjs'),
      `import { createMerchantClient } from '@bank-checkout/bff/client';
const bff = createMerchantClient({ url: process.argv[2], secret: 'dev-merchant-secret-change-me' });
const c = await bff.createCheckout({ amount: 1999, subject: 'Client check', reference: 'IC-CLIENT' }, { idempotencyKey: 'ic-client' });
console.log(c.state, c.amount);
`,
    );
    const out = sh(process.execPath, ['create-checkout.mjs', bffUrl], project).trim();
    if (out !== 'select-bank 1999') throw new Error(`printed ${out}`);
    return out;
  });

  // 4. Pages as merchants write them.
  writeFileSync(join(project, 'src/main.js'), "import '@bank-checkout/elements';\n");
  // The isolated mode: the page carries only the thin host; the installed BFF serves the frame.
  writeFileSync(join(project, 'src/isolated.js'), "import '@bank-checkout/elements/frame';\n");
  sh('node_modules/.bin/esbuild', ['src/isolated.js', '--bundle', '--format=esm', '--minify', '--outfile=isolated/main.js'], project);
  writeFileSync(join(project, 'isolated/index.html'), page('Isolated', '<script type="module" src="/isolated/main.js"></script>', ' isolate'));
  // The one-file builds are copied alone (as to a CDN or the shop's static folder), not served
  // from node_modules, and loaded with the hash they ship with.
  const oneFile = (dir, file, title, attrs = '') => {
    const dist = join(project, 'node_modules/@bank-checkout/elements/dist');
    const sri = readFileSync(join(dist, `${file}.sri`), 'utf8').trim();
    mkdirSync(join(project, dir));
    writeFileSync(join(project, dir, file), readFileSync(join(dist, file)));
    writeFileSync(
      join(project, dir, 'index.html'),
      page(title, `<script type="module" src="/${dir}/${file}" integrity="${sri}" crossorigin="anonymous"></script>`, attrs),
    );
  };
  oneFile('plain-isolated', 'bank-checkout-frame.min.js', 'Plain HTML, isolated', ' isolate');
  const hostBytes = gzipSync(readFileSync(join(project, 'isolated/main.js')), { level: 9 }).length;
  writeFileSync(
    join(project, 'src/react-page.jsx'),
    `import { createRoot } from 'react-dom/client';
import '@bank-checkout/elements/jsx/react';
import { BankCheckout } from '@bank-checkout/elements/react';
const api = document.body.dataset.api;
const secret = document.body.dataset.secret;
createRoot(document.getElementById('react-root')).render(<BankCheckout api={api} checkoutSecret={secret} locale="en" onBankCheckoutStep={(e) => { document.body.dataset.step = e.detail.state; }} />);
`,
  );
  sh('node_modules/.bin/esbuild', ['src/main.js', '--bundle', '--format=esm', '--outfile=esbuild/main.js'], project);
  writeFileSync(join(project, 'esbuild/index.html'), page('esbuild', '<script type="module" src="/esbuild/main.js"></script>'));
  mkdirSync(join(project, 'vite-app'));
  writeFileSync(join(project, 'vite-app/index.html'), page('Vite', '<script type="module" src="../src/main.js"></script>'));
  sh('node_modules/.bin/vite', ['build', 'vite-app', '--outDir', '../vite', '--emptyOutDir', '--logLevel', 'error', '--base', '/vite/'], project);
  sh(
    'node_modules/.bin/esbuild',
    ['src/react-page.jsx', '--bundle', '--format=esm', '--jsx=automatic', '--outfile=react/main.js', '--define:process.env.NODE_ENV="production"'],
    project,
  );
  writeFileSync(
    join(project, 'react/index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>React</title><script type="module" src="/react/main.js"></script></head><body data-api="{{API}}" data-secret="{{SECRET}}"><main id="react-root"></main></body></html>\n`,
  );
  oneFile('plain', 'bank-checkout.min.js', 'Plain HTML');

  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROMIUM_ARGS });
  for (const [name, path] of [
    ['esbuild (default settings) bundle shows the bank list', '/esbuild/'],
    ['Vite (no config) build shows the bank list', '/vite/'],
    ['React 19 page with @bank-checkout/elements/react shows the bank list', '/react/'],
    ['plain HTML page with bank-checkout.min.js copied alone (SRI) shows the bank list', '/plain/'],
    [`isolated: an esbuild page with only @bank-checkout/elements/frame (${hostBytes} B gzip) shows the bank list in the installed BFF's frame`, '/isolated/'],
    ['isolated: a plain HTML page with bank-checkout-frame.min.js copied alone (SRI) shows the bank list in the frame', '/plain-isolated/'],
  ]) {
    await check(name, async () => {
      const tab = await browser.newPage();
      const errors = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      tab.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await tab.goto(`http://127.0.0.1:${shopPort}${path}`);
      const root = path.includes('isolated') ? tab.frameLocator('bank-checkout iframe') : tab;
      const options = root.locator('bank-selector [role=option]');
      await options
        .first()
        .waitFor({ timeout: 15_000 })
        .catch(() => {});
      const count = await options.count();
      await tab.close();
      if (errors.length) throw new Error(errors.join('; '));
      if (count === 0) throw new Error('no bank in the list');
      return `${count} banks`;
    });
  }
  // A whole payment, with the steps and forms the kit loads on demand (and their texts) coming
  // from the published files: bundled by the merchant, and in the installed BFF's frame.
  for (const [name, path] of [
    ['esbuild (default settings) bundle pays at a bank: login, account, validation', '/esbuild/'],
    ["isolated: the installed BFF's frame pays at a bank: login, account, validation", '/isolated/'],
    ['bank-checkout.min.js copied alone pays at a bank and the page fetches nothing else from its origin', '/plain/'],
    ['isolated: bank-checkout-frame.min.js copied alone pays in the frame and the page fetches nothing else from its origin', '/plain-isolated/'],
  ]) {
    await check(name, async () => {
      const tab = await browser.newPage();
      const errors = [];
      const fromShop = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      tab.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      tab.on('request', (r) => new URL(r.url()).port === String(shopPort) && fromShop.push(new URL(r.url()).pathname));
      tab.setDefaultTimeout(15_000);
      await tab.goto(`http://127.0.0.1:${shopPort}${path}`);
      const ui = path.includes('isolated') ? tab.frameLocator('bank-checkout iframe') : tab;
      const title = await payAtAurora(tab, ui);
      await tab.close();
      if (errors.length) throw new Error(errors.join('; '));
      if (title !== 'Payment completed') throw new Error(`the result says ${title}`);
      if (path.startsWith('/plain')) {
        const file = path === '/plain/' ? 'bank-checkout.min.js' : 'bank-checkout-frame.min.js';
        const others = fromShop.filter((p) => p !== path && p !== `${path}${file}` && p !== '/favicon.ico');
        if (others.length) throw new Error(`the page also fetched ${others.join(', ')} from its origin`);
        return `${title}; from the page's origin: ${fromShop.join(', ')}`;
      }
      return title;
    });
  }
  await new Promise((r) => shop.close(r));

  // 5. The starter, from its tarball, in an empty folder.
  for (const framework of ['express', 'hono']) await starter(framework, packed, tarballs, browser);
  await browser.close();

  // 6. Types as a strict merchant project sees them.
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          jsx: 'react-jsx',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          types: ['node'],
        },
        include: ['ts'],
      },
      null,
      2,
    ),
  );
  mkdirSync(join(project, 'ts'));
  writeFileSync(
    join(project, 'ts/page.ts'),
    `import '@bank-checkout/elements';
import type { CheckoutCompleteDetail } from '@bank-checkout/elements';
const el = document.createElement('bank-checkout');
el.api = '/bff';
el.addEventListener('bank-checkout-complete', (e) => {
  const d: CheckoutCompleteDetail = e.detail;
  console.log(d.outcome satisfies 'succeeded' | 'failed' | 'cancelled' | 'expired');
});
document.body.append(el);
`,
  );
  writeFileSync(
    join(project, 'ts/isolated.ts'),
    `import { BankCheckoutFrame, type FrameMessage } from '@bank-checkout/elements/frame';
const el = new BankCheckoutFrame();
el.api = 'https://pay.shop.example';
el.checkoutSecret = 'cs_x';
el.locale = 'es';
el.refreshTheme();
export const ready: FrameMessage = { v: 1, type: 'ready' };
document.body.append(el);
// The tag and its events are typed from the frame entry alone.
const tag = document.querySelector('bank-checkout');
tag?.addEventListener('bank-checkout-complete', (e) => console.log(e.detail.outcome satisfies 'succeeded' | 'failed' | 'cancelled' | 'expired', tag.checkoutSecret));
`,
  );
  writeFileSync(
    join(project, 'ts/react-page.tsx'),
    `import '@bank-checkout/elements/jsx/react';
import { BankCheckout } from '@bank-checkout/elements/react';
export const Pay = ({ secret }: { secret: string }) => (
  <>
    <BankCheckout api="/bff" checkoutSecret={secret} onBankCheckoutComplete={(e) => console.log(e.detail.outcome)} />
    <bank-checkout api="/bff" checkout-secret={secret}></bank-checkout>
  </>
);
`,
  );
  writeFileSync(
    join(project, 'ts/server.ts'),
    `import { createBff, loadConfig } from '@bank-checkout/bff';
import { createMerchantClient, verifyWebhook } from '@bank-checkout/bff/client';
const bff = createBff(loadConfig({ DATABASE_URL: ':memory:' }));
export default { fetch: bff.fetch };
const client = createMerchantClient({ url: 'http://127.0.0.1:4020', secret: 's' });
export async function order(raw: string, headers: Headers): Promise<string> {
  const c = await client.createCheckout({ amount: 100, subject: 'Typed', reference: 'T-1' });
  const event = await verifyWebhook(raw, headers, 'secret');
  return event.type === 'checkout.updated' ? event.data.state : c.id;
}
`,
  );
  sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '@types/node@^20'], project);
  await check('tsc (strict, no skipLibCheck) type-checks a TS page, an isolated page, a React TSX page and a server file', () => {
    sh('node_modules/.bin/tsc', ['-p', '.'], project);
    return 'no errors';
  });
  // The starter's shops, their JSDoc types included, against the kit's published types.
  for (const framework of ['express', 'hono']) {
    await check(`starter (${framework}): the shop's code type-checks (checkJs, strict) against the published kit`, () => {
      const shopDir = join(dir, `starter-${framework}`, 'my-shop');
      writeFileSync(
        join(shopDir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            allowJs: true,
            checkJs: true,
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            typeRoots: [join(project, 'node_modules/@types')],
            types: ['node'],
          },
          include: ['*.js', 'lib/*.js'],
        }),
      );
      sh(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], shopDir);
      return 'no errors';
    });
  }
} catch (err) {
  results.push({ name: 'set-up', ok: false });
  console.log(`FAIL set-up: ${err instanceof Error ? err.stack : err}`);
} finally {
  for (const c of children) c.kill('SIGTERM');
  if (!keep) rmSync(dir, { recursive: true, force: true });
}

const failed = results.filter((r) => !r.ok).length;
console.log(`install check: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
