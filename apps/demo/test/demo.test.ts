/**
 * The shop server without a browser: `createDemo()` against a fake BFF (the fetch it is given),
 * driven through `app.request()`; and the pure pieces (webhook signatures, form bodies, the
 * escaping template).
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { createDemo } from '../src/app.js';
import { createFeed, type FeedEvent } from '../src/feed.js';
import type { MerchantClient, StoredNotification } from '../src/merchant.js';
import { CANCEL_FORM, LINK_FORM, issuesByField, toBody } from '../src/forms.js';
import { html, toText } from '../src/layout.js';
import { bodyText, urlOf } from '../../../test/support/fake-fetch.js';

const MERCHANT_SECRET = 'merchant-secret-for-tests-0123456789';
const WEBHOOK_SECRET = 'webhook-secret-for-tests-0123456789';
const SHOP = 'http://shop.test';
const BFF = 'https://bff.test'; // isolatedCheckoutHtml writes frames from https:// only (http:// on loopback)

interface Call {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

/** A BFF that answers the merchant API from fixed data and records what it was asked. */
function fakeBff() {
  const calls: Call[] = [];
  const checkouts = new Map<string, { id: string; clientSecret?: string; launchToken?: string; reference: string; amount: number; state: string }>();
  let launches = 0;
  /** What GET /v1/checkouts/:id answers beyond `succeeded`, by checkout id. */
  const views = new Map<string, Record<string, unknown>>();
  const resolved = new Set<string>();
  /** Checkouts whose call is with the bank: the merchant's cancel is refused (409 checkout_busy). */
  const busy = new Set<string>();
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(urlOf(input));
    const headers = new Headers(init?.headers);
    const body = init?.body ? JSON.parse(bodyText(init.body)) : undefined;
    calls.push({ method: init?.method ?? 'GET', path: url.pathname + url.search, headers, body });
    if (headers.get('Authorization') !== `Bearer ${MERCHANT_SECRET}`) return json(401, { error: { code: 'unauthorized', message: 'no' } });
    if (url.pathname === '/v1/checkouts' && init?.method === 'POST') {
      const key = headers.get('Idempotency-Key')!;
      const existing = checkouts.get(key);
      if (existing) return json(200, { ...existing, state: 'select-bank' });
      const n = checkouts.size + 1;
      const created = {
        id: `chk_${n}`,
        ...(body.isolation === 'inline' ? { clientSecret: `cs_secret_${n}` } : { launchToken: `lt_chk_${n}.first` }),
        reference: body.reference,
        amount: body.amount,
        state: 'select-bank',
      };
      checkouts.set(key, created);
      return json(201, created);
    }
    const l = /^\/v1\/checkouts\/([^/]+)\/launch$/.exec(url.pathname);
    if (l && init?.method === 'POST') return json(200, { id: l[1], launchToken: `lt_${l[1]}.load${++launches}`, launchExpiresAt: '2026-11-20T10:05:00.000Z' });
    const m = /^\/v1\/checkouts\/([^/]+)$/.exec(url.pathname);
    if (m) {
      const found = [...checkouts.values()].find((c) => c.id === m[1]);
      return found
        ? json(200, { ...found, clientSecret: undefined, state: 'succeeded', actions: [], ...views.get(found.id) })
        : json(404, { error: { code: 'not_found', message: 'Checkout not found.' } });
    }
    if (url.pathname === '/v1/links') {
      if (body.subject === 'bad')
        return json(422, {
          error: { code: 'validation_failed', message: 'The request is not valid.', issues: [{ path: 'subject', message: 'subject is wrong' }] },
        });
      return json(201, { status: '200', url: 'http://gateway.test/pay/1', idDebt: 'd1' });
    }
    if (url.pathname === '/v1/notifications') return json(200, { notifications: [], next: null });
    if (url.pathname === '/v1/checkouts' && url.searchParams.get('state') === 'unknown') {
      const unknown = { id: 'chk_u1', reference: 'ORD-U1', subject: 'Order U1', amount: 4200, state: 'unknown', updatedAt: '2026-11-20T10:00:00.000Z' };
      return json(200, { checkouts: resolved.has('chk_u1') ? [] : [unknown], next: null });
    }
    if (url.pathname === '/v1/checkouts' && !url.searchParams.has('state')) {
      const open = {
        id: 'chk_o1',
        reference: 'ORD-O1',
        subject: 'Order O1',
        amount: 1500,
        state: 'login',
        actions: ['login', 'cancel', 'back'],
        updatedAt: '2026-11-20T10:00:00.000Z',
      };
      const paid = { ...open, id: 'chk_p1', reference: 'ORD-P1', state: 'succeeded', actions: [] };
      return json(200, { checkouts: resolved.has('chk_o1') ? [paid] : [open, paid], next: null });
    }
    const x = /^\/v1\/checkouts\/([^/]+)\/cancel$/.exec(url.pathname);
    if (x && init?.method === 'POST') {
      if (busy.has(x[1]!)) return json(409, { error: { code: 'checkout_busy', message: 'A call with the bank is under way.' } });
      const own = [...checkouts.values()].find((c) => c.id === x[1]);
      if (own) {
        views.set(own.id, { state: 'cancelled', actions: [] });
        return json(200, { ...own, clientSecret: undefined, state: 'cancelled', actions: [] });
      }
      resolved.add(x[1]!);
      return json(200, { id: x[1], reference: 'ORD-O1', amount: 1500, state: 'cancelled', actions: [] });
    }
    const r = /^\/v1\/checkouts\/([^/]+)\/resolve$/.exec(url.pathname);
    if (r && init?.method === 'POST') {
      resolved.add(r[1]!);
      return json(200, { id: r[1], reference: 'ORD-U1', amount: 4200, state: body.outcome });
    }
    if (url.pathname === '/v1/orders') return json(200, { currentPage: 1, totalPages: 0, totalItems: 0, paymentOrders: [] });
    return json(404, { error: { code: 'not_found', message: 'Route not found.' } });
  };
  return { fetch, calls, checkouts, views, busy };
}

const bff = fakeBff();
const demo = createDemo({ bffUrl: BFF, merchantSecret: MERCHANT_SECRET, publicUrl: SHOP, webhookSecret: WEBHOOK_SECRET, fetch: bff.fetch, minify: false });
after(() => demo.close());

const form = (body: Record<string, string>, cookie?: string, origin = SHOP) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin, ...(cookie ? { Cookie: cookie } : {}) },
  body: new URLSearchParams(body).toString(),
});
const cookieOf = (res: Response) => res.headers.get('Set-Cookie')?.split(';')[0] ?? '';

describe('shop server', () => {
  it('keeps the session in an HttpOnly SameSite=Lax cookie and sends the strict policy', async () => {
    const res = await demo.request(`${SHOP}/`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('Set-Cookie') ?? '', /^shop_sid=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    const csp = res.headers.get('Content-Security-Policy') ?? '';
    assert.match(csp, /default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self' https:\/\/bff\.test;/);
    assert.match(csp, /require-trusted-types-for 'script'; trusted-types lit-html$/);
  });

  it('creates one checkout per cart and choice (Idempotency-Key), gives its secret only to that session', async () => {
    const first = await demo.request(`${SHOP}/`);
    const cookie = cookieOf(first);
    assert.equal((await demo.request(`${SHOP}/cart/add`, form({ productId: 'mug', quantity: '2' }, cookie))).status, 303);
    const a = await demo.request(`${SHOP}/checkout`, form({ mode: 'redirect' }, cookie));
    const b = await demo.request(`${SHOP}/checkout`, form({ mode: 'redirect' }, cookie));
    assert.equal(a.status, 303);
    assert.equal(a.headers.get('Location'), b.headers.get('Location'), 'a double submit finds the same checkout');
    const creations = bff.calls.filter((c) => c.path === '/v1/checkouts');
    assert.equal(creations.length, 2);
    assert.equal(creations[0]!.headers.get('Idempotency-Key'), creations[1]!.headers.get('Idempotency-Key'));
    assert.deepEqual(creations[0]!.body, creations[1]!.body);
    const sent = creations[0]!.body as { amount: number; modes: string[]; urlOk: string };
    assert.equal(sent.amount, 3700);
    assert.deepEqual(sent.modes, ['redirect', 'native', 'periodic']);
    assert.equal(sent.urlOk, `${SHOP}/result`);

    const page = await (await demo.request(`${SHOP}${a.headers.get('Location')}`, { headers: { Cookie: cookie } })).text();
    // Isolated: a fresh single-use launch token on each load of the page, never a client secret.
    const token =
      /<bank-checkout isolate id="bank-checkout" api="https:\/\/bff\.test" launch-token="(lt_chk_1\.load\d+)" locale="en" mode="redirect"><template shadowrootmode="open" shadowrootdelegatesfocus><iframe part="frame" src="https:\/\/bff\.test\/v1\/frame" /.exec(
        page,
      )?.[1];
    assert.ok(token, page);
    // The checkout's frame is titled "Pay by bank" with its own level-one heading: the page adds no second one.
    assert.deepEqual(page.match(/<h[1-6][^>]*>[^<]*/g), ['<h1 id="order-title">Checkout']);
    assert.ok(!page.includes('checkout-secret'));
    assert.ok(!page.includes(MERCHANT_SECRET), 'the merchant secret never reaches a page');

    // Built once the bundles are: the checkout's modules are preloaded with its script, and the BFF connected to ahead.
    await demo.ready;
    const again = await (await demo.request(`${SHOP}${a.headers.get('Location')}`, { headers: { Cookie: cookie } })).text();
    assert.ok(!again.includes(token), 'a reload gets a token of its own');
    const preloaded = [...again.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]!);
    assert.ok(preloaded.length > 0, 'the checkout script’s chunks are preloaded');
    for (const href of preloaded) {
      const asset = await demo.request(`${SHOP}${href}`);
      assert.equal(asset.status, 200, href);
      assert.match(await asset.text(), /\S/, href);
    }
    const entry = await (await demo.request(`${SHOP}/assets/checkout.js`)).text();
    const imported = [...entry.matchAll(/(?:from|import)\s*"\.\/(chunks\/[^"]+)"/g)].map((m) => `/assets/${m[1]}`);
    assert.ok(imported.length > 0);
    for (const chunk of imported) assert.ok(preloaded.includes(chunk), `${chunk} is preloaded`);
    assert.ok(again.indexOf('rel="modulepreload"') < again.indexOf('<script type="module" src="/assets/checkout.js">'), 'the links come before the script');
    assert.match(again, /<link rel="preconnect" href="https:\/\/bff\.test">/, 'the frame’s origin, connected to ahead');
    // An isolated order's page never hands out a client secret, whatever its address asks.
    const asked = await (await demo.request(`${SHOP}${a.headers.get('Location')}&embed=inline`, { headers: { Cookie: cookie } })).text();
    assert.match(asked, /<bank-checkout isolate id="bank-checkout" api="https:\/\/bff\.test" launch-token="lt_chk_1\.load\d+"/);
    assert.ok(!asked.includes('checkout-secret') && !asked.includes('cs_secret'), 'no client secret on an isolated order’s page');
    const made = bff.calls.filter((c) => c.path === '/v1/checkouts').length;
    // The isolated checkout is still open: the inline one made for the same cart cancels it first (one open checkout a payer).
    bff.views.set('chk_1', { state: 'select-bank', actions: ['cancel'] });
    // The inline demonstration is an order made inline from the cart: a checkout of its own (the weaker mode), its client secret on its page.
    const own = await demo.request(`${SHOP}/checkout`, form({ mode: 'redirect', embed: 'inline' }, cookie));
    assert.equal(own.status, 303);
    assert.notEqual(own.headers.get('Location'), a.headers.get('Location'), 'another checkout');
    const creation = bff.calls.filter((c) => c.path === '/v1/checkouts').at(-1)!;
    assert.equal(bff.calls.filter((c) => c.path === '/v1/checkouts').length, made + 1);
    assert.equal((creation.body as { isolation: string }).isolation, 'inline');
    assert.ok(
      bff.calls.some((c) => c.method === 'POST' && c.path === '/v1/checkouts/chk_1/cancel'),
      'the isolated checkout of the same cart is cancelled',
    );
    bff.views.delete('chk_1');
    assert.notEqual(creation.headers.get('Idempotency-Key'), creations[0]!.headers.get('Idempotency-Key'));
    const inline = await (await demo.request(`${SHOP}${own.headers.get('Location')}`, { headers: { Cookie: cookie } })).text();
    assert.match(inline, /<link rel="preconnect" href="https:\/\/bff\.test" crossorigin>/);
    assert.match(inline, /<bank-checkout id="bank-checkout" checkout-secret="cs_secret_2" locale="en"/);
    assert.equal((await demo.request(`${SHOP}/checkout`, form({ mode: 'native', embed: 'frame' }, cookie))).status, 400, 'an unknown embedding');

    const other = await demo.request(`${SHOP}${a.headers.get('Location')}`);
    assert.equal(other.status, 303, 'another session is sent to its own cart');
    assert.ok(!(await other.text()).includes('lt_chk_1'));
  });

  it('cancels the open checkout when the cart changes; one with the bank keeps the cart as it is, said on the cart; a paid one empties it', async () => {
    const cookie = cookieOf(await demo.request(`${SHOP}/`));
    const cart = async () => (await demo.request(`${SHOP}/cart`, { headers: { Cookie: cookie } })).text();
    const cancels = () => bff.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/cancel')).map((c) => c.path);
    await demo.request(`${SHOP}/cart/add`, form({ productId: 'mug', quantity: '1' }, cookie));
    const first = await demo.request(`${SHOP}/checkout`, form({ mode: 'native' }, cookie));
    const firstId = /order=(chk_\d+)/.exec(first.headers.get('Location') ?? '')![1]!;
    // The payer is at the accounts when one more mug goes in the cart (another tab, or back to the cart): the first checkout can no longer be paid.
    bff.views.set(firstId, { state: 'select-account', actions: ['transfer', 'cancel', 'back'] });
    const changed = await demo.request(`${SHOP}/cart/update`, form({ productId: 'mug', quantity: '2' }, cookie));
    assert.equal(changed.headers.get('Location'), '/cart');
    assert.ok(cancels().includes(`/v1/checkouts/${firstId}/cancel`), 'the first checkout is cancelled as the cart changes');
    const changedCart = await cart();
    assert.match(changedCart, /id="q-mug"[^>]*value="2"/, 'the cart changed');
    assert.match(
      changedCart,
      /<div class="flash notice" role="status"[^>]*>\s*<p>Your cart changed, so the payment you had started, ORD-\w+ \(€\d+[.,]\d\d\), was cancelled: no money was moved\. Pay the new total when you are ready\.<\/p>/,
      'the payer is told the payment under way was cancelled',
    );
    const second = await demo.request(`${SHOP}/checkout`, form({ mode: 'native' }, cookie));
    const secondId = /order=(chk_\d+)/.exec(second.headers.get('Location') ?? '')![1]!;
    assert.notEqual(secondId, firstId);
    assert.ok(!cancels().includes(`/v1/checkouts/${secondId}/cancel`));

    // The second checkout's transfer is with the bank when the payer changes the cart again: the cart stays as it is (the payment is for it), the payer told why.
    bff.views.set(secondId, { state: 'validate', actions: ['validate', 'cancel'] });
    bff.busy.add(secondId);
    for (const [path, fields] of [
      ['/cart/update', { productId: 'mug', quantity: '3' }],
      ['/cart/add', { productId: 'notebook', quantity: '1' }],
    ] as const) {
      const refused = await demo.request(`${SHOP}${path}`, form(fields, cookie));
      assert.equal(refused.headers.get('Location'), '/cart');
      const page = await cart();
      assert.match(page, /Your payment ORD-\w+ is being confirmed with your bank\. Try again in a moment\./);
      assert.match(page, /id="q-mug"[^>]*value="2"/, 'the cart as it was');
      assert.doesNotMatch(page, /Dot-grid notebook/);
    }
    // Paid meanwhile, before the shop heard of it: the next change empties the cart it paid and says so; a product added goes in a new cart.
    bff.busy.delete(secondId);
    bff.views.set(secondId, { state: 'succeeded', actions: [] });
    await demo.request(`${SHOP}/cart/add`, form({ productId: 'notebook', quantity: '1' }, cookie));
    const fresh = await cart();
    assert.match(fresh, /Your payment ORD-\w+ of €\d+[.,]\d\d went through\. Dot-grid notebook is in a new cart\./);
    assert.doesNotMatch(fresh, /id="q-mug"/, 'the mugs it paid are no longer in the cart');
    assert.match(fresh, /id="q-notebook"[^>]*value="1"/);
    const third = await demo.request(`${SHOP}/checkout`, form({ mode: 'native' }, cookie));
    assert.match(third.headers.get('Location') ?? '', /^\/checkout\?order=chk_\d+/);
    for (const id of [firstId, secondId]) bff.views.delete(id);
  });

  it('counts the cart for the badge of a page whose payment ended, from what the BFF says of the payment', async () => {
    const cookie = cookieOf(await demo.request(`${SHOP}/`));
    const count = async () => {
      const res = await demo.request(`${SHOP}/cart/count`, { headers: { Cookie: cookie } });
      assert.equal(res.headers.get('Cache-Control'), 'no-store');
      return ((await res.json()) as { count: number }).count;
    };
    await demo.request(`${SHOP}/cart/add`, form({ productId: 'mug', quantity: '2' }, cookie));
    const order = await demo.request(`${SHOP}/checkout`, form({ mode: 'native' }, cookie));
    const id = /order=(chk_\d+)/.exec(order.headers.get('Location') ?? '')![1]!;
    bff.views.set(id, { state: 'validate', actions: ['validate', 'cancel'] });
    assert.equal(await count(), 2, 'not paid yet: the cart as it is');
    bff.views.set(id, { state: 'succeeded', actions: [] });
    assert.equal(await count(), 0, 'paid: the cart it bought is emptied');
    bff.views.delete(id);
  });

  it('says nothing of a checkout the cart change cancelled before the payer began it (at the bank list)', async () => {
    const cookie = cookieOf(await demo.request(`${SHOP}/`));
    await demo.request(`${SHOP}/cart/add`, form({ productId: 'mug', quantity: '1' }, cookie));
    const first = await demo.request(`${SHOP}/checkout`, form({ mode: 'native' }, cookie));
    const id = /order=(chk_\d+)/.exec(first.headers.get('Location') ?? '')![1]!;
    bff.views.set(id, { state: 'select-bank', actions: ['login', 'cancel'] });
    await demo.request(`${SHOP}/cart/add`, form({ productId: 'notebook', quantity: '1' }, cookie));
    const page = await (await demo.request(`${SHOP}/cart`, { headers: { Cookie: cookie } })).text();
    assert.ok(
      bff.calls.some((c) => c.method === 'POST' && c.path === `/v1/checkouts/${id}/cancel`),
      'cancelled all the same',
    );
    assert.match(page, /<div class="flash success" role="status"[^>]*>\s*<p>Dot-grid notebook is in your cart\.<\/p>/);
    bff.views.delete(id);
  });

  it("marks the page's own link in the navigation as the current page, its section's otherwise, and counts the cart in words", async () => {
    const cookie = cookieOf(await demo.request(`${SHOP}/`));
    const nav = async (path: string) => (await (await demo.request(`${SHOP}${path}`, { headers: { Cookie: cookie } })).text()).match(/<nav[\s\S]*?<\/nav>/)![0];
    await demo.request(`${SHOP}/cart/add`, form({ productId: 'mug', quantity: '1' }, cookie));
    assert.match(await nav('/cart'), /<a href="\/cart" aria-current="page">Cart <span class="badge" aria-label="1 item">1<\/span>/);
    const made = await demo.request(`${SHOP}/checkout`, form({ mode: 'native' }, cookie));
    const checkoutNav = await nav(made.headers.get('Location')!);
    assert.match(checkoutNav, /<a href="\/cart" aria-current="true">/, "the checkout is in the cart's section, not the cart page");
    assert.doesNotMatch(checkoutNav, /aria-current="page"/);
    const id = new URL(made.headers.get('Location')!, SHOP).searchParams.get('order')!;
    bff.views.set(id, { state: 'select-bank', actions: ['cancel'] });
    await demo.request(`${SHOP}/cart/update`, form({ productId: 'mug', quantity: '2' }, cookie));
    assert.match(await nav('/cart'), /aria-label="2 items">2</);
    bff.views.delete(id);
  });

  it('shows the outcome read from the BFF on /result, not the one in the address', async () => {
    const res = await demo.request(`${SHOP}/result?checkout=chk_1&result=failed`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /Thank you: your payment is complete/);
    assert.equal((await demo.request(`${SHOP}/result?checkout=chk_404`)).status, 404);
    assert.equal((await demo.request(`${SHOP}/result?checkout=${encodeURIComponent('../x')}`)).status, 404);
  });

  it('speaks the payment’s language on /result, offers the next step the checkout offers, and writes dates with Intl', async () => {
    const cookie = cookieOf(await demo.request(`${SHOP}/`));
    await demo.request(`${SHOP}/cart/add`, form({ productId: 'tote', quantity: '1' }, cookie));
    const made = await demo.request(`${SHOP}/checkout`, form({ mode: 'redirect' }, cookie));
    const id = new URL(made.headers.get('Location')!, SHOP).searchParams.get('order')!;
    const result = async (language: string) => {
      const res = await demo.request(`${SHOP}/result?checkout=${id}&result=failed`, { headers: { Cookie: `${cookie}; checkout-language=${language}` } });
      assert.equal(res.status, 200);
      return res.text();
    };

    bff.views.set(id, { state: 'failed', mode: 'redirect', actions: ['restart'] });
    const es = await result('es');
    assert.match(es, /<div class="result-page" lang="es" data-state="failed" data-again/);
    assert.match(es, /<h1 id="result-title">El pago no se ha realizado<\/h1>/);
    assert.match(es, /No se ha cobrado nada\. Puedes volver a intentarlo aquí abajo\./, 'the step the checkout below offers, not the cart');
    assert.match(es, /<a href="\/cart" data-word="backToCart">Volver a tu carrito<\/a>/);
    assert.match(es, /<bank-checkout isolate id="bank-checkout" api="[^"]+" launch-token="[^"]+" locale="es"/);
    const en = await result('en');
    assert.match(en, /lang="en"[\s\S]*The payment did not go through[\s\S]*Nothing was charged\. You can try again below\./);

    bff.views.set(id, { state: 'failed', mode: 'redirect', actions: [] });
    assert.match(await result('en'), /Nothing was charged\. You can try again from your cart\./, 'no way to pay again below: the cart');
    assert.match(await result('gl'), /lang="gl"[\s\S]*O pagamento non se realizou[\s\S]*Podes tentalo de novo desde o teu carro\./);
    assert.match(await result('fr'), /lang="en"/, 'a language the shop has no words in reads English, and says so');

    bff.views.set(id, { state: 'succeeded', mode: 'periodic', actions: [], schedule: { frequency: 'Monthly', startDate: '2026-11-30' } });
    const mandate = await result('es');
    assert.match(mandate, /Tu pago periódico está autorizado/);
    assert.match(mandate, /Mensual desde el 30 de noviembre de 2026 hasta que lo canceles/);
    assert.ok(!mandate.includes('>2026-11-30'), 'no ISO date shown');
    bff.views.set(id, {
      state: 'succeeded',
      mode: 'periodic',
      actions: [],
      schedule: { frequency: 'Quarterly', startDate: '2026-11-30', endDate: '2027-11-30' },
    });
    assert.match(await result('en'), /Every three months from 30 November 2026 until 30 November 2027/);
    bff.views.delete(id);
  });

  it('refuses changes from other origins, bad input and oversized bodies with 4xx', async () => {
    assert.equal((await demo.request(`${SHOP}/cart/add`, form({ productId: 'mug' }, undefined, 'http://evil.test'))).status, 403);
    assert.equal((await demo.request(`${SHOP}/cart/add`, form({ productId: 'nope', quantity: '1' }))).status, 400);
    assert.equal((await demo.request(`${SHOP}/cart/add`, form({ productId: 'mug', quantity: '1000' }))).status, 400);
    assert.equal((await demo.request(`${SHOP}/cart/add`, form({ productId: 'mug', quantity: 'x'.repeat(70_000) }))).status, 413);
    const api = await demo.request(`${SHOP}/examples/api/checkout`, {
      method: 'POST',
      headers: { Origin: SHOP, 'Content-Type': 'application/json' },
      body: '{',
    });
    assert.equal(api.status, 400);
    const mode = await demo.request(`${SHOP}/examples/api/checkout`, {
      method: 'POST',
      headers: { Origin: SHOP, 'Content-Type': 'application/json' },
      body: '{"mode":"cash"}',
    });
    assert.equal(mode.status, 422);
    // JSON's null names no mode, as an empty body does: the default one, not a 500.
    const none = await demo.request(`${SHOP}/examples/api/checkout`, {
      method: 'POST',
      headers: { Origin: SHOP, 'Content-Type': 'application/json' },
      body: 'null',
    });
    assert.equal(none.status, 201);
  });

  it('puts the BFF error next to the field it names and keeps what was typed', async () => {
    const res = await demo.request(`${SHOP}/console/links`, form({ subject: 'bad', amount: '12.50', reference: 'R-1' }));
    assert.equal(res.status, 422);
    const page = await res.text();
    assert.match(
      page,
      /id="link-subject" name="subject" required aria-describedby="link-subject-hint link-subject-error" aria-invalid="true" type="text" value="bad"/,
    );
    assert.match(page, /<p class="error" id="link-subject-error">subject is wrong<\/p>/);
    const ok = await demo.request(`${SHOP}/console/links`, form({ subject: 'Good', amount: '12,05', reference: 'R-2' }));
    assert.equal(ok.status, 303);
    assert.deepEqual(bff.calls.at(-1)!.body, { subject: 'Good', amount: 1205, reference: 'R-2' });
  });
});

describe('webhook', () => {
  const sign = (body: string, t = Date.now(), secret = WEBHOOK_SECRET) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
  const body = JSON.stringify({
    type: 'checkout.updated',
    data: { checkoutId: 'chk_9', reference: 'ORD-9', amount: 500, state: 'succeeded', previousState: 'redirect', source: 'notification' },
  });
  const post = (signature: string, payload = body) =>
    demo.request(`${SHOP}/webhooks/bank-checkout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Bank-Checkout-Signature': signature },
      body: payload,
    });

  it('refuses a delivery whose signature is off (another body, another secret, too old, malformed, missing), and handles an event id once', async () => {
    const now = Date.now();
    assert.equal((await post(sign(body, now), `${body} `)).status, 401, 'another body');
    assert.equal((await post(sign(body, now, 'another-secret-0123456789'))).status, 401, 'another secret');
    assert.equal((await post(sign(body, now - 6 * 60_000))).status, 401, 'too old');
    assert.equal((await post('t=abc,v1=zz')).status, 401, 'malformed');
    const unsigned = await demo.request(`${SHOP}/webhooks/bank-checkout`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    assert.equal(unsigned.status, 401, 'missing');
    const withId = JSON.stringify({ id: 'evt_once', ...JSON.parse(body) });
    const first = await post(sign(withId, now), withId);
    assert.deepEqual([first.status, await first.json()], [200, { received: true, duplicate: false }]);
    const again = await post(sign(withId, now), withId);
    assert.deepEqual([again.status, await again.json()], [200, { received: true, duplicate: true }], 'a repeated delivery is acknowledged and changes nothing');
  });

  it('accepts a signed delivery, shows it on the console and streams it to listeners', async () => {
    assert.equal((await post(`t=${Date.now()},v1=${'a'.repeat(64)}`)).status, 401);
    assert.equal((await post(sign('{'), '{')).status, 400);
    const events = await demo.request(`${SHOP}/console/events`);
    assert.equal(events.headers.get('Content-Type'), 'text/event-stream');
    const reader = events.body!.getReader();
    assert.equal((await post(sign(body))).status, 200);
    let text = '';
    while (!text.includes('event: checkout')) text += new TextDecoder().decode((await reader.read()).value);
    assert.match(text, /"announce":"Checkout ORD-9 succeeded\."/);
    await reader.cancel();
    const console = await (await demo.request(`${SHOP}/console`)).text();
    assert.match(console, /<tr data-id="chk_9:succeeded">/);
  });

  it('empties the cart a payment paid as soon as its verified update arrives, and only that cart', async () => {
    const cookie = cookieOf(await demo.request(`${SHOP}/`));
    await demo.request(`${SHOP}/cart/add`, form({ productId: 'coffee', quantity: '1' }, cookie));
    const made = await demo.request(`${SHOP}/checkout`, form({ mode: 'native' }, cookie));
    const id = new URL(made.headers.get('Location')!, SHOP).searchParams.get('order')!;
    bff.views.set(id, { state: 'select-bank' });
    const cart = async () => (await demo.request(`${SHOP}/cart`, { headers: { Cookie: cookie } })).text();
    assert.match(await cart(), /Single-origin coffee/);

    const update = (state: string) =>
      JSON.stringify({
        id: `evt_${id}_${state}`,
        type: 'checkout.updated',
        data: { checkoutId: id, reference: 'ORD-X', amount: 2990, state, previousState: 'validate' },
      });
    assert.equal((await post(sign(update('failed')), update('failed'))).status, 200);
    assert.match(await cart(), /Single-origin coffee/, 'a failure keeps the cart');
    assert.equal((await post(sign(update('succeeded')), update('succeeded'))).status, 200);
    const after = await cart();
    assert.match(after, /Your cart is empty/, 'emptied on the verified outcome, before the order page is opened');
    assert.doesNotMatch(after, /class="badge"/);
    bff.views.delete(id);
  });

  it('empties a paid cart on its next view when no webhook came (the outcome read from the BFF), and keeps a cart changed since', async () => {
    const cookie = cookieOf(await demo.request(`${SHOP}/`));
    await demo.request(`${SHOP}/cart/add`, form({ productId: 'notebook', quantity: '1' }, cookie));
    const made = await demo.request(`${SHOP}/checkout`, form({ mode: 'native' }, cookie));
    const id = new URL(made.headers.get('Location')!, SHOP).searchParams.get('order')!;
    const cart = async () => (await demo.request(`${SHOP}/cart`, { headers: { Cookie: cookie } })).text();
    bff.views.set(id, { state: 'login' });
    assert.match(await cart(), /Dot-grid notebook/, 'not paid yet');
    bff.views.set(id, { state: 'succeeded' });
    assert.match(await cart(), /Your cart is empty/);

    await demo.request(`${SHOP}/cart/add`, form({ productId: 'notebook', quantity: '1' }, cookie));
    const second = new URL((await demo.request(`${SHOP}/checkout`, form({ mode: 'native' }, cookie))).headers.get('Location')!, SHOP).searchParams.get(
      'order',
    )!;
    bff.views.set(second, { state: 'select-bank' });
    await demo.request(`${SHOP}/cart/add`, form({ productId: 'mug', quantity: '1' }, cookie));
    bff.views.set(second, { state: 'succeeded' });
    assert.match(await cart(), /Stoneware mug/, 'a cart changed after the payment began is not the one it paid');
    bff.views.delete(id);
    bff.views.delete(second);
  });

  it('streams a payment link’s notification as it arrives, once, and ignores a malformed one', async () => {
    const notification = {
      id: 'ntf_link_1',
      receivedAt: '2026-11-20T10:00:00.000Z',
      status: '200',
      transactionId: 'TX-77',
      reference: 'LNK-77',
      amount: 1999,
      verified: true,
      checkoutId: null,
      outcome: 'unmatched',
    };
    const delivery = JSON.stringify({ type: 'notification.received', data: notification });
    const events = await demo.request(`${SHOP}/console/events`);
    const reader = events.body!.getReader();
    assert.equal((await post(sign(delivery), delivery)).status, 200);
    let text = '';
    while (!text.includes('ntf_link_1')) text += new TextDecoder().decode((await reader.read()).value);
    assert.match(text, /event: notification/);
    assert.match(text, /"announce":"Notification OK for LNK-77, /);
    assert.match(text, /payment link \(no checkout\) · transaction TX-77/);

    // The same delivery again, and one with a wrong field: nothing more is streamed.
    assert.equal((await post(sign(delivery), delivery)).status, 200);
    const malformed = JSON.stringify({ type: 'notification.received', data: { ...notification, id: 'ntf_link_2', amount: 'lots' } });
    assert.equal((await post(sign(malformed), malformed)).status, 200);
    const marker = JSON.stringify({
      type: 'checkout.updated',
      data: { checkoutId: 'chk_marker', reference: 'MARK', amount: 1, state: 'failed', previousState: 'redirect', source: 'notification' },
    });
    assert.equal((await post(sign(marker), marker)).status, 200);
    let rest = '';
    while (!rest.includes('chk_marker')) rest += new TextDecoder().decode((await reader.read()).value);
    assert.ok(!rest.includes('ntf_link_1') && !rest.includes('ntf_link_2'), rest);
    await reader.cancel();
  });
});

/** A result notification as the BFF lists it. */
const NOTIFICATION: StoredNotification = {
  id: 'ntf_1',
  receivedAt: '2026-11-20T10:00:00.000Z',
  status: '200',
  transactionId: 'TX-1',
  reference: 'LNK-1',
  amount: 1999,
  verified: true,
  checkoutId: null,
  outcome: 'unmatched',
  description: null,
  customData: null,
  accountDestiny: null,
};

describe('console feed', () => {
  it('a notification first read as a console opens reaches every open console, not only the one opening', async () => {
    const stored: StoredNotification[] = [];
    const merchant = { notifications: async () => ({ ok: true, data: { notifications: [...stored].reverse() } }) } as unknown as MerchantClient;
    const feed = createFeed({ merchant, intervalMs: 60_000, now: Date.now });
    const heard = (into: string[]) => (e: FeedEvent) => into.push(e.row.id);
    const first: string[] = [];
    feed.subscribe(heard(first));
    await new Promise((r) => setImmediate(r));
    // A notification the feed has not announced yet (its webhook is late) when a second console opens.
    stored.push({ ...NOTIFICATION, id: 'ntf_late' });
    const second: string[] = [];
    feed.subscribe(heard(second));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(second, ['ntf_late']);
    assert.deepEqual(first, ['ntf_late'], 'the console open before hears it too');
    // Opening a third sends it that one only: the others have it.
    const third: string[] = [];
    feed.subscribe(heard(third));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual([first, second, third], [['ntf_late'], ['ntf_late'], ['ntf_late']]);
    feed.close();
  });
});

describe('forms and escaping', () => {
  it('turns a posted form into the BFF body: euros to cents, numbers, IBAN, empty fields left out', () => {
    const { body, errors } = toBody(LINK_FORM, {
      subject: ' Seat ',
      amount: '45.9',
      reference: 'R',
      expireMinutes: '60',
      accountDestiny: 'es91 2100 0418',
      customData: '',
    });
    assert.deepEqual(errors, {});
    assert.deepEqual(body, { subject: 'Seat', amount: 4590, reference: 'R', expireMinutes: 60, accountDestiny: 'ES9121000418' });
    assert.deepEqual(toBody(LINK_FORM, { amount: '12.345', expireMinutes: '1e3' }).errors, {
      amount: ['Write an amount in euros, such as 12.50.'],
      expireMinutes: ['Write a whole number.'],
    });
    assert.deepEqual(
      toBody(CANCEL_FORM, { transactionId: 't', reference: 'r', order: 'o' }).body,
      { transactionId: 't', reference: 'r' },
      'hidden values stay in the console',
    );
  });

  it('puts issues on their fields and the rest on the form', () => {
    const out = issuesByField(LINK_FORM, {
      code: 'validation_failed',
      message: 'The request is not valid.',
      issues: [
        { path: 'amount', message: 'too big' },
        { path: 'urlNotif', message: 'is set by the BFF' },
      ],
    });
    assert.deepEqual(out.fields, { amount: ['too big'] });
    assert.deepEqual(out.form, ['urlNotif: is set by the BFF']);
  });

  it('escapes every interpolated value', () => {
    assert.equal(toText(html`<p title="${'"><script>'}">${'<b>&'}</p>`), '<p title="&quot;&gt;&lt;script&gt;">&lt;b&gt;&amp;</p>');
    assert.equal(toText(html`<ul>${['<a>', html`<li>ok</li>`]}</ul>`), '<ul>&lt;a&gt;<li>ok</li></ul>');
    assert.equal(toText(html`<p>${true}${false}${null}${undefined}${0}</p>`), '<p>0</p>', 'booleans and nothing render nothing; numbers render');
  });
});

describe('open checkouts', () => {
  it('lists the open ones among the latest and cancels one', async () => {
    const before = await (await demo.request(`${SHOP}/console`)).text();
    assert.match(before, /Open checkouts \(1\)/);
    assert.match(before, /action="\/console\/checkouts\/chk_o1\/cancel"/);
    assert.doesNotMatch(before, /chk_p1\/cancel/, 'a paid checkout offers no cancel');
    const res = await demo.request(`${SHOP}/console/checkouts/chk_o1/cancel`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: SHOP },
      body: '',
    });
    assert.equal(res.status, 303);
    assert.deepEqual([bff.calls.at(-1)?.method, bff.calls.at(-1)?.path], ['POST', '/v1/checkouts/chk_o1/cancel']);
    const after = await (await demo.request(`${SHOP}/console`, { headers: { Cookie: res.headers.get('Set-Cookie') ?? '' } })).text();
    assert.match(after, /Checkout ORD-O1 cancelled/);
    assert.doesNotMatch(after, /Open checkouts/);
  });
});

describe('checkouts waiting for a decision', () => {
  it("lists the unknown ones on the console and records the bank's answer", async () => {
    const before = await (await demo.request(`${SHOP}/console`)).text();
    assert.match(before, /Waiting for your decision \(1\)/);
    assert.match(before, /ORD-U1/);
    const res = await demo.request(`${SHOP}/console/checkouts/chk_u1/resolve`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: SHOP },
      body: 'outcome=succeeded',
    });
    assert.equal(res.status, 303);
    assert.deepEqual(bff.calls.at(-1)?.body, { outcome: 'succeeded' });
    const after = await (await demo.request(`${SHOP}/console`, { headers: { Cookie: res.headers.get('Set-Cookie') ?? '' } })).text();
    assert.doesNotMatch(after, /Waiting for your decision/);
  });
});
