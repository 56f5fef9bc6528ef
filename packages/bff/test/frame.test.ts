/**
 * The isolated checkout's page and modules: a policy of its own (framed only by
 * ALLOWED_ORIGINS, scripts of this origin and its import map only, Trusted Types, no referrer),
 * integrity for every module, long-lived caching, and a clear 404 when the kit is not installed.
 * A checkout at its bank list (`?state=select-bank&lang=…`) gets the page with that list written
 * in: the same for every checkout (nothing of one in it), one per language and bank list, its
 * styles allowed by their hashes, another ETag once the list changes.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { createBff, frameManifest, frameRoutes, loadConfig, readFrameBundle, type BffApp, type FrameBundle } from '@bank-checkout/bff';
import type { BankGroupView } from '@bank-checkout/contract';

const BFF = 'http://bff.test';
const SHOP = 'https://shop.example';
const enc = new TextEncoder();
const bundle: FrameBundle = {
  entry: 'frame-page-AAAA.js',
  preload: ['chunk-BBBB.js'],
  files: [
    { name: 'frame-page-AAAA.js', body: enc.encode('import "./chunk-BBBB.js";'), type: 'text/javascript; charset=utf-8' },
    { name: 'chunk-BBBB.js', body: enc.encode('export const x = 1;'), type: 'text/javascript; charset=utf-8' },
  ],
};
const sha384 = (s: Uint8Array | string) => `sha384-${createHash('sha384').update(s).digest('base64')}`;

function bffWith(frame: FrameBundle | null, origins = `${SHOP},https://www.shop.example`): BffApp {
  const config = loadConfig({
    PROVIDER_LINKS_URL: 'http://sandbox.test',
    PROVIDER_NATIVE_URL: 'http://sandbox.test',
    BFF_PUBLIC_URL: BFF,
    BFF_MERCHANT_SECRET: 'test-merchant-secret-0123456789',
    DATABASE_URL: ':memory:',
    ALLOWED_ORIGINS: origins,
    LOG_LEVEL: 'error',
  });
  return createBff(config, { frame, sweepMs: 0, log: () => {} });
}

/** A first screen's writer as a bundle carries it: a module that imports nothing, run by the BFF. */
const WRITER = `export function firstScreen({ groups, locale, sandbox, modeLine = false }) {
  if (locale === 'fr') return null;
  const items = groups.flatMap((g) => g.types.map((b) => '<li>' + b.label + (b.active ? '' : ' (maintenance)') + '</li>')).join('');
  return { lang: locale, title: 'T-' + locale, main: '<ul data-locale="' + locale + '" data-sandbox="' + sandbox + '" data-line="' + modeLine + '">' + items + '</ul>', pageStyle: 'main{margin:0}', styles: ['li{color:red}'] };
}`;
const bank = (bankId: string, label: string) => ({ bankId, label, type: 0 as const, active: true, logins: [] });
const GROUPS = [
  { group: 'aurora', name: 'Grupo Aurora', defaultType: 0, types: [bank('aurora', 'Banco Aurora')] },
  { group: 'levante', name: 'Caja Levante', defaultType: 0, types: [bank('levante', 'Caja Levante')] },
] as unknown as BankGroupView[];

function configWith() {
  return loadConfig({
    PROVIDER_LINKS_URL: 'http://sandbox.test',
    PROVIDER_NATIVE_URL: 'http://sandbox.test',
    BFF_PUBLIC_URL: BFF,
    BFF_MERCHANT_SECRET: 'test-merchant-secret-0123456789',
    DATABASE_URL: ':memory:',
    ALLOWED_ORIGINS: SHOP,
    LOG_LEVEL: 'error',
  });
}

const directives = (csp: string) => new Map(csp.split(/;\s*/).map((d) => [d.split(' ')[0]!, d.split(' ').slice(1).join(' ')]));

describe('the isolated checkout frame', () => {
  const apps: BffApp[] = [];
  const make = (...args: Parameters<typeof bffWith>) => {
    const app = bffWith(...args);
    apps.push(app);
    return app;
  };
  after(() => Promise.all(apps.map((a) => a.close())));

  it('tells a page of an origin it does not allow, as its browser names it (Referer), that it refuses it: a page that says only that, framable by any, never cached', async () => {
    const app = make(bundle);
    const page = await app.request(`${BFF}/v1/frame`, { headers: { Referer: `${SHOP}/` } });
    const etag = page.headers.get('ETag')!;
    assert.match(directives(page.headers.get('Content-Security-Policy')!).get('frame-ancestors')!, /^https:\/\/shop\.example /);
    // No Referer (a browser that sends none): the page, framed by the allowed origins only.
    assert.equal((await app.request(`${BFF}/v1/frame`)).headers.get('ETag'), etag);
    for (const referer of ['https://evil.example/', 'https://evil.example/checkout?order=1', 'http://shop.example/', 'https://shop.example:8443/']) {
      // Asked as a page the browser had cached asks again (If-None-Match): still the refusal.
      const res = await app.request(`${BFF}/v1/frame`, { headers: { Referer: referer, 'If-None-Match': etag } });
      assert.equal(res.status, 200, referer);
      const body = await res.text();
      const csp = directives(res.headers.get('Content-Security-Policy')!);
      const script = /<script>(.*)<\/script>/.exec(body)![1]!;
      assert.equal(script, "parent.postMessage({v:1,type:'failed',code:'frame_refused'},'*')", 'it says only that');
      assert.deepEqual(Object.fromEntries(csp), {
        'default-src': "'none'",
        'script-src': `'sha256-${createHash('sha256').update(script).digest('base64')}'`,
        'base-uri': "'none'",
        'form-action': "'none'",
        'frame-ancestors': '*',
      });
      assert.equal(res.headers.get('Cache-Control'), 'no-store');
      assert.equal(res.headers.get('ETag'), null);
      assert.ok(!body.includes('importmap') && !body.includes('bank-checkout-origins') && !body.includes('shop.example'), 'nothing of the page');
    }
  });

  it('serves the page with a policy of its own, framed only by the allowed origins', async () => {
    const res = await make(bundle).request(`${BFF}/v1/frame`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('Content-Type') ?? '', /^text\/html/);
    assert.equal(res.headers.get('X-Frame-Options'), null, 'no blanket DENY: frame-ancestors decides');
    assert.equal(res.headers.get('Referrer-Policy'), 'no-referrer');
    const csp = directives(res.headers.get('Content-Security-Policy') ?? '');
    assert.equal(csp.get('default-src'), "'none'");
    assert.equal(csp.get('frame-ancestors'), `${SHOP} https://www.shop.example`);
    assert.equal(csp.get('connect-src'), "'self'");
    assert.equal(csp.get('style-src'), "'self'");
    assert.equal(csp.get('require-trusted-types-for'), "'script'");
    assert.equal(csp.get('trusted-types'), 'lit-html');
    const body = await res.text();
    assert.match(body, new RegExp(`<meta name="bank-checkout-origins" content="${SHOP} https://www.shop.example">`));
    // The import map pins each module's integrity, and the policy allows exactly that map.
    const map = /<script type="importmap">(.*?)<\/script>/.exec(body)?.[1] ?? '';
    const integrity = (JSON.parse(map) as { integrity: Record<string, string> }).integrity;
    for (const f of bundle.files) assert.equal(integrity[`./frame/assets/${f.name}`], sha384(f.body));
    const mapHash = `'sha256-${createHash('sha256').update(map).digest('base64')}'`;
    assert.equal(csp.get('script-src'), `'self' ${mapHash}`);
    assert.match(
      body,
      new RegExp(
        `<script type="module" src="./frame/assets/frame-page-AAAA.js" integrity="${sha384(bundle.files[0]!.body).replace(/[+/]/g, '\\$&')}"></script>`,
      ),
    );
    assert.match(body, /<link rel="modulepreload" href=".\/frame\/assets\/chunk-BBBB.js" integrity="sha384-/);
    assert.ok(
      body.indexOf('<script type="module" src="./frame/assets/frame-page-AAAA.js"') < body.indexOf('<link rel="modulepreload"'),
      "the page's own script first, then what it loads",
    );
    // Its calls go without credentials, on connections apart from the page's: one is opened while the modules load.
    assert.match(body, /<link rel="preconnect" href="\/" crossorigin>/);
  });

  it('writes an entry that imports nothing by address into the page, allowed by its hash, after the preloads; its kit by the import map', async () => {
    const entry = 'const k = import("bank-checkout-frame-kit"); parent.postMessage("ready", "*");';
    const written: FrameBundle = {
      entry: 'frame-page-DDDD.js',
      preload: ['kit-EEEE.js'],
      imports: { 'bank-checkout-frame-kit': 'kit-EEEE.js' },
      files: [
        { name: 'frame-page-DDDD.js', body: enc.encode(entry), type: 'text/javascript; charset=utf-8' },
        { name: 'kit-EEEE.js', body: enc.encode('export const kit = 1;'), type: 'text/javascript; charset=utf-8' },
      ],
    };
    const res = await make(written).request(`${BFF}/v1/frame`);
    const body = await res.text();
    const csp = directives(res.headers.get('Content-Security-Policy') ?? '');
    const map = /<script type="importmap">(.*?)<\/script>/.exec(body)?.[1] ?? '';
    assert.deepEqual((JSON.parse(map) as { imports: Record<string, string> }).imports, { 'bank-checkout-frame-kit': './frame/assets/kit-EEEE.js' });
    assert.ok(body.includes(`<script type="module">${entry}</script>`), body);
    assert.ok(!body.includes('src="./frame/assets/frame-page-DDDD.js"'), 'not loaded as well');
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    assert.equal(csp.get('script-src'), `'self' ${hash(map)} ${hash(entry)}`, 'the map and the written entry, nothing else inline');
    assert.ok(body.indexOf('<link rel="modulepreload" href="./frame/assets/kit-EEEE.js"') < body.indexOf('<script type="module">'), 'the kit asked for first');
    // An entry that could end its script element is loaded, not written.
    const closing = { ...written, files: [{ ...written.files[0]!, body: enc.encode('x("</script>")') }, written.files[1]!] };
    const loaded = await (await make(closing).request(`${BFF}/v1/frame`)).text();
    assert.match(loaded, /<script type="module" src=".\/frame\/assets\/frame-page-DDDD.js" integrity="sha384-/);
  });

  it('answers 304 to a page it already gave, by ETag', async () => {
    const app = make(bundle);
    const first = await app.request(`${BFF}/v1/frame`);
    const etag = first.headers.get('ETag');
    assert.ok(etag);
    assert.equal(first.headers.get('Cache-Control'), 'no-cache');
    const again = await app.request(`${BFF}/v1/frame`, { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('Content-Security-Policy'), first.headers.get('Content-Security-Policy'), 'the cached page keeps its own policy');
    assert.equal(again.headers.get('X-Frame-Options'), null);
  });

  it('serves the modules cached for a year, and 404 for any other name', async () => {
    const app = make(bundle);
    const res = await app.request(`${BFF}/v1/frame/assets/chunk-BBBB.js`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('Cache-Control'), 'public, max-age=31536000, immutable');
    assert.match(res.headers.get('Content-Type') ?? '', /^text\/javascript/);
    assert.equal(await res.text(), 'export const x = 1;');
    for (const name of ['chunk-CCCC.js', '..%2Fpackage.json', 'x'.repeat(200)]) {
      const miss = await app.request(`${BFF}/v1/frame/assets/${name}`);
      assert.ok(miss.status === 404 || miss.status === 422, `${name}: ${miss.status}`);
      assert.match(miss.headers.get('Content-Type') ?? '', /json/);
    }
  });

  it('sends the page and the modules compressed as the browser accepts them (Brotli, else gzip), the same bytes once decoded', async () => {
    const app = make(bundle);
    const plain = await (await app.request(`${BFF}/v1/frame`)).text();
    for (const path of ['/v1/frame', '/v1/frame/assets/chunk-BBBB.js']) {
      const expected = path === '/v1/frame' ? plain : 'export const x = 1;';
      for (const [accept, encoding, decode] of [
        ['gzip, deflate', 'gzip', gunzipSync],
        ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
        ['br;q=0, gzip', 'gzip', gunzipSync],
        ['identity', null, (b: Buffer) => b],
        ['', null, (b: Buffer) => b],
      ] as const) {
        const res = await app.request(`${BFF}${path}`, { headers: { 'Accept-Encoding': accept } });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('Content-Encoding'), encoding, `${path} for ${accept}`);
        assert.equal(res.headers.get('Vary'), 'Accept-Encoding');
        assert.equal(decode(Buffer.from(await res.arrayBuffer())).toString(), expected, `${path} for ${accept}`);
      }
    }
    // Nothing else changes: the page keeps its policy, the modules their caching.
    const page = await app.request(`${BFF}/v1/frame`, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.match(page.headers.get('Content-Security-Policy') ?? '', /frame-ancestors/);
    assert.match(page.headers.get('Content-Type') ?? '', /^text\/html/);
    const module = await app.request(`${BFF}/v1/frame/assets/chunk-BBBB.js`, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(module.headers.get('Cache-Control'), 'public, max-age=31536000, immutable');
    assert.match(module.headers.get('Content-Type') ?? '', /^text\/javascript/);
  });

  it('says the kit is not installed when there is no bundle', async () => {
    const res = await make(null).request(`${BFF}/v1/frame`);
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'frame_unavailable');
  });

  it('reads a bundle from the folder the elements build writes', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'frame-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    for (const f of bundle.files) writeFileSync(join(dir, f.name), f.body);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(frameManifest(bundle)));
    const read = await readFrameBundle(dir);
    assert.deepEqual(
      { ...read, files: read.files.map((f) => [f.name, Buffer.from(f.body).toString()]) },
      { ...bundle, files: bundle.files.map((f) => [f.name, Buffer.from(f.body).toString()]) },
    );
  });

  it('reads the first screen’s writer from that folder too, and never serves it', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'frame-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const listed = { ...bundle, firstScreen: { name: 'first-screen-CCCC.js', body: enc.encode(WRITER), type: 'text/javascript; charset=utf-8' } };
    for (const f of [...listed.files, listed.firstScreen]) writeFileSync(join(dir, f.name), f.body);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(frameManifest(listed)));
    const read = await readFrameBundle(dir);
    assert.equal(Buffer.from(read.firstScreen!.body).toString(), WRITER);
    const app = new Hono().route(
      '/v1',
      frameRoutes(
        configWith(),
        async () => read,
        async () => ({ groups: GROUPS, etag: '"a"' }),
      ),
    );
    assert.match(await (await app.request(`${BFF}/v1/frame?state=select-bank&lang=es`)).text(), /<li>Banco Aurora<\/li>/);
    assert.equal((await make(read).request(`${BFF}/v1/frame/assets/first-screen-CCCC.js`)).status, 404);
  });

  it('writes the bank list into the page of a checkout at its bank list, in its language: one page for every checkout, kept until the list changes', async () => {
    let groups = GROUPS;
    let etag = '"one"';
    let reads = 0;
    const listed: FrameBundle = { ...bundle, firstScreen: { name: 'first-screen-CCCC.js', body: enc.encode(WRITER), type: 'text/javascript; charset=utf-8' } };
    const app = new Hono().route(
      '/v1',
      frameRoutes(
        configWith(),
        async () => listed,
        async () => (reads++, { groups, etag }),
      ),
    );
    const get = (query: string, headers: Record<string, string> = {}) => app.request(`${BFF}/v1/frame${query}`, { headers });
    const plain = await get('');
    const plainBody = await plain.text();
    assert.ok(!plainBody.includes('Banco Aurora'), 'no list without the state');
    const es = await get('?state=select-bank&lang=es');
    const body = await es.text();
    assert.equal(es.status, 200);
    assert.match(body, /<html lang="es">/);
    assert.match(body, /<title>T-es<\/title>/);
    assert.match(
      body,
      /<main aria-labelledby="frame-title"><ul data-locale="es" data-sandbox="true" data-line="false"><li>Banco Aurora<\/li><li>Caja Levante<\/li><\/ul><\/main>/,
    );
    // Its styles by their hashes, and nothing else inline.
    const csp = directives(es.headers.get('Content-Security-Policy')!);
    const hash = (t: string) => `'sha256-${createHash('sha256').update(t).digest('base64')}'`;
    assert.equal(csp.get('style-src'), `'self' ${hash('main{margin:0}')} ${hash('li{color:red}')}`);
    assert.equal(directives(plain.headers.get('Content-Security-Policy')!).get('style-src'), "'self'");
    assert.equal(es.headers.get('Cache-Control'), 'no-cache');
    const tag = es.headers.get('ETag')!;
    assert.notEqual(tag, plain.headers.get('ETag'));
    // The same page for any checkout (the address names none), and a 304 to a browser that has it.
    assert.equal(await (await get('?state=select-bank&lang=es')).text(), body);
    assert.equal((await get('?state=select-bank&lang=es', { 'If-None-Match': tag })).status, 304);
    // Another language, and the line of the way to pay for a checkout that offers others.
    assert.match(await (await get('?state=select-bank&lang=eu')).text(), /data-locale="eu"/);
    assert.match(await (await get('?state=select-bank&lang=es&mode=native')).text(), /data-line="true"/);
    // Any other state, way to pay or language: the page that waits for the redemption.
    for (const q of [
      '?state=login&lang=es',
      '?state=select-account&lang=es',
      '?state=select-bank',
      '?state=select-bank&lang=fr',
      '?state=select-bank&lang=es&mode=redirect',
    ])
      assert.equal(await (await get(q)).text(), plainBody, q);
    // A bank into maintenance: the list's ETag changes, and so does the page's.
    groups = [{ ...GROUPS[0]!, types: [{ ...GROUPS[0]!.types[0]!, active: false }] }, GROUPS[1]!];
    etag = '"two"';
    const after = await get('?state=select-bank&lang=es', { 'If-None-Match': tag });
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.get('ETag'), tag);
    assert.match(await after.text(), /<li>Banco Aurora \(maintenance\)<\/li>/);
    assert.ok(reads > 0);
  });

  it('writes no list when the provider cannot give it: the page that waits for the redemption', async () => {
    const listed: FrameBundle = { ...bundle, firstScreen: { name: 'first-screen-CCCC.js', body: enc.encode(WRITER), type: 'text/javascript; charset=utf-8' } };
    const app = new Hono().route(
      '/v1',
      frameRoutes(
        configWith(),
        async () => listed,
        async () => null,
      ),
    );
    const plain = await (await app.request(`${BFF}/v1/frame`)).text();
    assert.equal(await (await app.request(`${BFF}/v1/frame?state=select-bank&lang=es`)).text(), plain);
  });
});
