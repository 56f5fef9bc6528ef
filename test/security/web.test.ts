/**
 * The BFF as a web server: CORS only for ALLOWED_ORIGINS (never `*`, never with credentials,
 * preflights included), cross-site form posts to JSON routes refused with 415 before they can
 * do anything, and the security headers on every response: successes, redirects, preflights,
 * every 4xx, 5xx, unknown routes, the provider's notification route and the return routes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeDataReturn, signNotification } from '@bank-checkout/provider';
import type { CheckoutView } from '@bank-checkout/contract';
import { SECRETS } from './lib/canary.js';
import { createRig, json, type Rig } from './lib/rig.js';
import { assertBffError } from './lib/shapes.js';

const ALLOWED = ['https://shop.example', 'http://localhost:5173'];
const REFUSED = [
  'https://evil.example',
  'null',
  'https://shop.example.evil.example',
  'https://evil.example.shop.example',
  'http://shop.example',
  'https://shop.example:8443',
  'https://shop.example/',
  'https://SHOP.example',
  'https://evil.example, https://shop.example',
  'http://localhost:5174',
  '*',
];
const CHECKOUT_ROUTES = ['/v1/checkout', '/v1/banks', '/v1/checkout/login', '/v1/checkout/validate', '/v1/checkout/cancel'];
const SERVER_ROUTES = [
  '/v1/checkouts',
  '/v1/checkouts/chk_x',
  '/v1/links',
  '/v1/orders',
  '/v1/notifications',
  '/v1/notifications/provider',
  '/v1/return/ok',
  '/health',
  '/v1/openapi.json',
];

/** What every response carries. */
function assertSecurityHeaders(res: Response, what: string) {
  const h = res.headers;
  assert.equal(h.get('X-Content-Type-Options'), 'nosniff', what);
  assert.equal(h.get('Referrer-Policy'), 'no-referrer', what);
  assert.equal(h.get('X-Frame-Options'), 'DENY', what);
  assert.match(h.get('Content-Security-Policy') ?? '', /default-src 'none'/, what);
  assert.match(h.get('Content-Security-Policy') ?? '', /frame-ancestors 'none'/, what);
  assert.equal(h.get('Cache-Control'), 'no-store', what);
  assert.match(h.get('Strict-Transport-Security') ?? '', /max-age=\d{7,}/, what);
  assert.equal(h.get('Cross-Origin-Resource-Policy'), 'same-site', what);
  assert.match(h.get('X-Request-Id') ?? '', /^req_/, what);
  assert.notEqual(h.get('Access-Control-Allow-Origin'), '*', what);
  assert.equal(h.get('Access-Control-Allow-Credentials'), null, what);
}

describe('web', () => {
  let rig: Rig;
  before(async () => {
    rig = await createRig({ env: { ALLOWED_ORIGINS: ALLOWED.join(',') } });
  });
  after(() => rig.close());

  describe('CORS', () => {
    const preflight = (path: string, origin: string) =>
      rig.call(path, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-checkout-secret' },
      });

    it('answers preflights of the checkout API for the allowed origins only', async () => {
      for (const path of CHECKOUT_ROUTES) {
        for (const origin of ALLOWED) {
          const res = await preflight(path, origin);
          assert.ok(res.status === 204 || res.status === 200, `${path} ${origin}`);
          assert.equal(res.headers.get('Access-Control-Allow-Origin'), origin);
          assert.match(res.headers.get('Access-Control-Allow-Headers') ?? '', /X-Checkout-Secret/i);
          assert.match(res.headers.get('Access-Control-Allow-Methods') ?? '', /POST/);
          assert.match(res.headers.get('Vary') ?? '', /Origin/);
          assertSecurityHeaders(res, `preflight ${path} ${origin}`);
        }
        for (const origin of REFUSED) {
          const res = await preflight(path, origin);
          assert.equal(res.headers.get('Access-Control-Allow-Origin'), null, `${path} ${origin}`);
          assert.equal(res.headers.get('Access-Control-Allow-Headers'), null, `${path} ${origin}`);
          assertSecurityHeaders(res, `preflight ${path} ${origin}`);
        }
      }
    });

    it('grants actual requests to the allowed origins only, without credentials', async () => {
      const c = await rig.createCheckout({ isolation: 'inline' });
      for (const origin of [...ALLOWED, ...REFUSED]) {
        const res = await rig.checkout(c.clientSecret, '/v1/checkout', undefined, { Origin: origin, Cookie: 'session=1' });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('Access-Control-Allow-Origin'), ALLOWED.includes(origin) ? origin : null, origin);
        assert.match(res.headers.get('Vary') ?? '', /Origin/, 'caches keep answers to different origins apart');
        assertSecurityHeaders(res, `GET /v1/checkout from ${origin}`);
      }
    });

    it("lets an allowed page read the checkout API's errors, and no other page", async () => {
      const c = await rig.createCheckout({ isolation: 'inline' });
      for (const [secret, path, body, status] of [
        ['cs_wrong', '/v1/checkout', undefined, 401],
        [c.clientSecret, '/v1/checkout/transfer', { accountId: 'AUR-0001' }, 409],
        [c.clientSecret, '/v1/checkout/login', { bankId: 1 }, 422],
        [c.clientSecret, '/v1/checkout/login', '{', 400],
      ] as const) {
        for (const origin of [ALLOWED[0]!, REFUSED[0]!]) {
          const res = await rig.checkout(secret, path, body, { Origin: origin });
          assert.equal(res.status, status);
          assert.equal(res.headers.get('Access-Control-Allow-Origin'), origin === ALLOWED[0] ? origin : null, `${status} for ${origin}`);
          if (origin === ALLOWED[0]) assert.match(res.headers.get('Access-Control-Expose-Headers') ?? '', /X-Request-Id/);
        }
      }
    });

    it('never opens the merchant API, the provider routes or the rest to a browser', async () => {
      for (const path of SERVER_ROUTES) {
        for (const origin of ALLOWED) {
          const pre = await preflight(path, origin);
          assert.equal(pre.headers.get('Access-Control-Allow-Origin'), null, `preflight ${path}`);
          const res = await rig.call(path, { headers: { Origin: origin, Authorization: `Bearer ${SECRETS.merchantSecret}` } });
          assert.equal(res.headers.get('Access-Control-Allow-Origin'), null, `GET ${path}`);
        }
      }
    });
  });

  describe('cross-site form posts to JSON routes', () => {
    const FORMS: [string, (json: string) => RequestInit][] = [
      ['text/plain', (j) => ({ headers: { 'Content-Type': 'text/plain' }, body: j })],
      ['text/plain;charset=UTF-8', (j) => ({ headers: { 'Content-Type': 'text/plain;charset=UTF-8' }, body: j })],
      ['application/x-www-form-urlencoded', (j) => ({ headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `${j}=` })],
      [
        'multipart/form-data',
        (j) => {
          const fd = new FormData();
          fd.set('json', j);
          return { body: fd };
        },
      ],
      ['application/jsonx', (j) => ({ headers: { 'Content-Type': 'application/jsonx' }, body: j })],
      ['application/json-patch+json', (j) => ({ headers: { 'Content-Type': 'application/json-patch+json' }, body: j })],
    ];

    it('refuses them on the checkout API with 415, and nothing happens', async () => {
      const c = await rig.createCheckout();
      const bodies: [string, unknown][] = [
        ['/v1/checkout/login', { bankId: 'aurora', loginId: 'user', fields: { userId: 'aurora.demo', userSecret: 'Aurora2024' } }],
        ['/v1/checkout/cancel', {}],
        ['/v1/checkout/redirect', {}],
        ['/v1/checkout/mode', { mode: 'periodic' }],
      ];
      const calls = rig.upstream.length;
      const before = await rig.bff.parts.store.getCheckout(c.id);
      for (const [path, body] of bodies) {
        for (const [type, make] of FORMS) {
          const init = make(JSON.stringify(body));
          const res = await rig.call(path, {
            method: 'POST',
            ...init,
            headers: { ...(init.headers as Record<string, string>), 'X-Checkout-Secret': c.clientSecret },
          });
          assert.equal(res.status, 415, `${path} as ${type}`);
          await assertBffError(res, `${path} as ${type}`);
          assertSecurityHeaders(res, `${path} as ${type}`);
        }
      }
      assert.equal(rig.upstream.length, calls, 'nothing went upstream');
      assert.deepEqual(await rig.bff.parts.store.getCheckout(c.id), before, 'the checkout did not change');
      assert.equal((await json<CheckoutView>(await rig.checkout(c.clientSecret, '/v1/checkout'))).state, 'select-bank');
    });

    it('refuses them on the merchant API with 415, and nothing is created', async () => {
      const calls = rig.upstream.length;
      for (const [path, body] of [
        ['/v1/checkouts', { amount: 100, subject: 'CSRF', reference: 'CSRF-1' }],
        ['/v1/links', { amount: 100, subject: 'CSRF', reference: 'CSRF-2' }],
        ['/v1/checkouts/chk_x/resolve', { outcome: 'succeeded' }],
      ] as const) {
        for (const [type, make] of FORMS) {
          const init = make(JSON.stringify(body));
          const res = await rig.call(path, {
            method: 'POST',
            ...init,
            headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${SECRETS.merchantSecret}` },
          });
          assert.equal(res.status, 415, `${path} as ${type}`);
          await assertBffError(res, `${path} as ${type}`);
        }
      }
      assert.deepEqual(await rig.bff.parts.store.findCheckoutsByReference('CSRF-1'), []);
      assert.equal(rig.upstream.length, calls, 'no link was signed');
    });
  });

  describe('security headers', () => {
    it('are on every response: successes, redirects, every error, unknown routes, provider and return routes', async () => {
      const c = await rig.createCheckout({ modes: ['redirect'], urlOk: 'https://shop.example/ok' });
      const v = await json<CheckoutView>(await rig.checkout(c.clientSecret, '/v1/checkout/redirect', {}));
      const dataReturn = encodeDataReturn({
        status: '200',
        description: 'OK',
        transactionId: 'TX-H',
        amount: v.amount,
        reference: v.reference,
        dateInitPayment: rig.clock.now,
      });
      const signed = new URLSearchParams({ dataReturn, signatureDataReturn: await signNotification(dataReturn, SECRETS.apiKey) }).toString();
      const formInit = (body: string): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
      const merchant = { Authorization: `Bearer ${SECRETS.merchantSecret}`, 'Content-Type': 'application/json' };
      const secret = { 'X-Checkout-Secret': c.clientSecret, 'Content-Type': 'application/json' };

      const cases: [string, number, string, RequestInit?][] = [
        ['health', 200, '/health'],
        ['OpenAPI', 200, '/v1/openapi.json'],
        ['checkout view', 200, '/v1/checkout', { headers: secret }],
        ['created', 201, '/v1/checkouts', { method: 'POST', headers: merchant, body: JSON.stringify({ amount: 1, subject: 'h', reference: 'H-1' }) }],
        ['notification accepted', 200, `/v1/notifications/provider?c=${c.id}`, formInit(signed)],
        ['return redirect', 303, `/v1/return/ok?c=${c.id}`, formInit(signed)],
        ['return unverified', 303, `/v1/return/error?c=${c.id}`, formInit('dataReturn=x&signatureDataReturn=y')],
        ['invalid JSON', 400, '/v1/checkouts', { method: 'POST', headers: merchant, body: '{' }],
        ['no secret', 401, '/v1/checkout'],
        ['bad signature', 401, '/v1/notifications/provider', formInit('dataReturn=eyJ9&signatureDataReturn=QUFB')],
        ['unknown route', 404, '/v1/nope'],
        ['root', 404, '/'],
        ['favicon', 404, '/favicon.ico'],
        ['traversal', 404, '/v1/../../etc/passwd'],
        ['wrong method', 404, '/v1/checkouts', { method: 'DELETE', headers: merchant }],
        ['unknown checkout', 404, '/v1/checkouts/chk_unknown', { headers: merchant }],
        ['return to an unknown checkout', 404, '/v1/return/ok?c=chk_unknown', formInit(signed)],
        ['finished', 409, '/v1/checkout/redirect', { method: 'POST', headers: secret, body: '{}' }],
        ['too large', 413, '/v1/checkouts', { method: 'POST', headers: merchant, body: JSON.stringify({ pad: 'x'.repeat(70_000) }) }],
        ['not JSON', 415, '/v1/checkouts', { method: 'POST', headers: { ...merchant, 'Content-Type': 'text/plain' }, body: '{}' }],
        ['notification as text', 415, '/v1/notifications/provider', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: signed }],
        ['invalid', 422, '/v1/checkouts', { method: 'POST', headers: merchant, body: '{"amount":-1}' }],
      ];
      for (const [what, status, path, init] of cases) {
        const res = await rig.call(path, init);
        assert.equal(res.status, status, `${what}: ${path}`);
        assertSecurityHeaders(res, what);
        if (status >= 400) await assertBffError(res, what);
      }
    });

    it('are on 429, 502, 504 and 500 answers too', async () => {
      const limited = await createRig({ env: { RATE_LIMIT_PER_MINUTE: '2', PROVIDER_TIMEOUT_MS: '100' } });
      try {
        const c = await limited.createCheckout();
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) {
          const res = await limited.checkout(c.clientSecret, '/v1/checkout');
          statuses.push(res.status);
          assertSecurityHeaders(res, `request ${i}`);
          if (res.status === 429) {
            assert.match(res.headers.get('Retry-After') ?? '', /^\d+$/);
            await assertBffError(res, '429');
          }
        }
        assert.deepEqual(statuses, [200, 200, 429, 429]);
      } finally {
        await limited.close();
      }

      const faulty = await createRig({ env: { PROVIDER_TIMEOUT_MS: '100' } });
      try {
        // Inline: no frame's first screen has read (and cached) the bank list.
        const c = await faulty.createCheckout({ isolation: 'inline' });
        faulty.sandbox.faults.add({ path: '/test/banks/list', kind: 'status', status: 500, times: 3 });
        const upstream = await faulty.checkout(c.clientSecret, '/v1/banks');
        assert.equal(upstream.status, 502);
        assertSecurityHeaders(upstream, '502');
        await assertBffError(upstream, '502');

        faulty.sandbox.faults.add({ path: '/test/banks/list', kind: 'hang', times: 3 });
        const timeout = await faulty.checkout(c.clientSecret, '/v1/banks');
        assert.equal(timeout.status, 504);
        assertSecurityHeaders(timeout, '504');
        await assertBffError(timeout, '504');

        // The store goes away under the BFF: an internal error, still in the one shape.
        await faulty.bff.parts.store.close();
        const broken = await faulty.checkout('cs_whatever', '/v1/checkout');
        assert.ok(broken.status >= 500, `store closed: ${broken.status}`);
        assertSecurityHeaders(broken, String(broken.status));
        await assertBffError(broken, String(broken.status));
      } finally {
        await faulty.close().catch(() => {});
      }
    });
  });
});
