/**
 * Every route the BFF registers: who may call it, what /v1/openapi.json says about it, and the
 * request id that ties a request's log lines together.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createHarness, BFF_HOST, type Harness } from './harness.js';
import { OPERATION_IDS, operationIdOf } from '../src/openapi.js';
import { createMerchantClient } from '../src/merchant-client.js';

type Json = Record<string, any>;

/** Routes a caller without the merchant secret may reach; each has its own proof or none. */
const PUBLIC: [RegExp, string][] = [
  [/^\/health$/, 'none'],
  [/^\/ready$/, 'none'],
  [/^\/v1\/openapi\.json$/, 'none'],
  [/^\/v1\/banks$/, 'checkoutSecret'],
  [/^\/v1\/checkout(\/[a-z-]+)?$/, 'checkoutSecret'],
  [/^\/v1\/notifications\/provider$/, 'none'],
  [/^\/v1\/return\/(ok|error)$/, 'none'],
  [/^\/v1\/frame(\/assets\/\{name\}|\/launch)?$/, 'none'],
  [/^\/v1\/handoff\/\{token\}$/, 'none'],
];

/** Routes that answer something other than JSON (the isolated checkout's page and modules). */
const NOT_JSON: Record<string, string> = { '/v1/frame': 'text/html', '/v1/frame/assets/{name}': 'text/javascript', '/v1/handoff/{token}': 'text/html' };

/** The operations registered on the app (middleware entries left out), as `METHOD /path/{param}`. */
function registered(h: Harness): { method: string; path: string }[] {
  const seen = new Map<string, { method: string; path: string }>();
  for (const r of h.bff.routes) {
    if (r.method === 'ALL' || r.path.includes('*')) continue;
    const path = r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    seen.set(`${r.method} ${path}`, { method: r.method, path });
  }
  return [...seen.values()];
}

const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'chk_missing');

describe('routes', () => {
  let h: Harness;
  let doc: Json;
  before(async () => {
    h = await createHarness();
    doc = (await (await h.bff.request(`${BFF_HOST}/v1/openapi.json`)).json()) as Json;
  });
  after(() => h.close());

  const op = (r: { method: string; path: string }) => doc.paths?.[r.path]?.[r.method.toLowerCase()] as Json | undefined;

  it('describes every registered route in /v1/openapi.json, with a schema for every 2xx', () => {
    const routes = registered(h);
    assert.ok(routes.length >= 29, `found ${routes.length} routes`);
    for (const r of routes) {
      const o = op(r);
      assert.ok(o, `${r.method} ${r.path} is in the document`);
      const ok = Object.keys(o.responses).filter((s) => /^2\d\d$/.test(s));
      // A route that only redirects (the phone's hand-off link's button) documents its 303 instead.
      assert.ok(ok.length > 0 || o.responses['303'], `${r.method} ${r.path} has a 2xx`);
      for (const s of ok) assert.ok(o.responses[s].content?.[NOT_JSON[r.path] ?? 'application/json']?.schema, `${r.method} ${r.path} ${s} has a schema`);
      for (const name of r.path.match(/\{([^}]+)\}/g) ?? []) {
        assert.ok(
          o.parameters?.some((p: Json) => p.in === 'path' && `{${p.name}}` === name),
          `${r.method} ${r.path} documents ${name}`,
        );
      }
    }
  });

  it('documents the request fields of each operation', () => {
    const bodies: Record<string, string[]> = {
      'POST /v1/checkout/login': ['bankId', 'loginId', 'fields'],
      'POST /v1/checkout/periodic': ['bankId', 'frequency', 'debtorAccount', 'startDate'],
      'POST /v1/checkouts': ['amount', 'subject', 'reference'],
      'POST /v1/checkouts/{id}/resolve': ['outcome'],
      'POST /v1/links': ['amount', 'subject', 'reference'],
      'POST /v1/links/periodic': ['amount', 'subject', 'reference', 'frequency', 'debtorAccount', 'startDate'],
      'POST /v1/links/periodic/cancel': ['transactionId', 'reference'],
      'POST /v1/notifications/provider': ['dataReturn', 'signatureDataReturn'],
      'POST /v1/return/ok': ['dataReturn', 'signatureDataReturn'],
    };
    for (const [key, fields] of Object.entries(bodies)) {
      const [method, path] = key.split(' ') as [string, string];
      const body = op({ method, path })?.requestBody?.content;
      assert.ok(body, `${key} has a body`);
      for (const [type, media] of Object.entries(body as Json)) {
        const required: string[] = media.schema.required ?? [];
        for (const f of fields) assert.ok(required.includes(f), `${key} ${type} requires ${f}`);
      }
    }
    assert.ok(op({ method: 'POST', path: '/v1/links' })!.requestBody.content['application/json'].schema.properties.expireMinutes, 'optional fields too');
    const legacy = op({ method: 'POST', path: '/v1/legacy/links' })!.requestBody.content['application/json'].schema;
    assert.ok(legacy.properties?.amount ?? legacy.anyOf ?? legacy.oneOf, 'the legacy signer body is described');
    const queries: Record<string, string[]> = {
      'GET /v1/orders': ['dateFrom', 'dateTo', 'page', 'pageSize', 'order'],
      'GET /v1/legacy/debts': ['dateFrom', 'dateTo', 'page', 'pageSize', 'order'],
      'GET /v1/link-banks': ['country', 'enabled', 'periodic'],
      'GET /v1/notifications': ['limit', 'cursor'],
      'GET /v1/checkouts': ['after', 'cursor', 'limit', 'state'],
      'GET /v1/webhooks/events': ['cursor', 'limit', 'status'],
    };
    for (const [key, names] of Object.entries(queries)) {
      const [method, path] = key.split(' ') as [string, string];
      const params = (op({ method, path })?.parameters ?? []).filter((p: Json) => p.in === 'query').map((p: Json) => p.name);
      assert.deepEqual(params.sort(), [...names].sort(), key);
    }
  });

  it('is a valid OpenAPI document', async () => {
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors ?? null, null, 1).slice(0, 2000));
    assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['checkoutSecret', 'merchantBearer']);
  });

  it('names every operation (operationId), each name once; the merchant API by the calls of createMerchantClient', () => {
    const ids: string[] = [];
    const merchant: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      for (const [method, operation] of Object.entries(methods)) {
        const key = `${method.toUpperCase()} ${path}`;
        const id = String(operation.operationId);
        assert.equal(id, OPERATION_IDS[key], `${key} is named in OPERATION_IDS`);
        ids.push(id);
        if (operation.tags?.includes('merchant')) merchant.push(id);
      }
    }
    assert.equal(new Set(ids).size, ids.length, 'each name once');
    assert.deepEqual(Object.keys(OPERATION_IDS).length, ids.length, 'no name left over for a route that is gone');
    const calls = Object.keys(createMerchantClient({ url: 'http://bff.test', secret: 'x' }));
    assert.deepEqual(
      merchant.filter((id) => !calls.includes(id)),
      [],
      'a merchant operation is named after its client call',
    );
    assert.equal(operationIdOf('post', '/v1/things/{id}/do-it'), 'postV1ThingsByIdDoIt', 'an unlisted route still gets a name');
  });

  it('requires the merchant secret on every route outside the public list, and says so in the document', async () => {
    const routes = registered(h);
    let merchantRoutes = 0;
    for (const r of routes) {
      const pub = PUBLIC.find(([re]) => re.test(r.path));
      const security = (op(r)?.security ?? []).flatMap((s: Json) => Object.keys(s));
      if (pub) {
        assert.deepEqual(security, pub[1] === 'none' ? [] : [pub[1]], `${r.method} ${r.path} security`);
        continue;
      }
      merchantRoutes++;
      assert.deepEqual(security, ['merchantBearer'], `${r.method} ${r.path} is a merchant route`);
    }
    assert.ok(merchantRoutes >= 15, `found ${merchantRoutes} merchant routes`);
  });

  it('answers 401 without credentials on every route that declares a security scheme', async () => {
    let checked = 0;
    for (const r of registered(h)) {
      const security = (op(r)?.security ?? []).flatMap((s: Json) => Object.keys(s));
      if (security.length === 0) continue;
      for (const headers of [{}, { Authorization: 'Bearer wrong', 'X-Checkout-Secret': 'cs_wrong' }] as Record<string, string>[]) {
        // Wrong secrets count per address: a new minute keeps the guard out of this walk.
        h.clock.advance(60_000);
        const res = await h.bff.request(`${BFF_HOST}${concrete(r.path)}`, {
          method: r.method,
          headers: { ...headers, ...(r.method === 'POST' ? { 'Content-Type': 'application/json' } : {}) },
          ...(r.method === 'POST' ? { body: '{}' } : {}),
        });
        assert.equal(res.status, 401, `${r.method} ${r.path} without valid credentials`);
        assert.equal(((await res.json()) as Json).error.code, 'unauthorized');
      }
      checked++;
    }
    assert.ok(checked >= 26, `checked ${checked}`);
  });

  it('answers schema failures of body, query and content type in the BFF error shape', async () => {
    const cases: [Response, number, string, string?][] = [
      [
        await h.merchant('/v1/links', { body: { amount: 2500, subject: 's', reference: 'r', urlNotif: 'https://elsewhere.example/n' } }),
        422,
        'validation_failed',
        'urlNotif',
      ],
      [await h.merchant('/v1/orders?pageSize=0'), 422, 'validation_failed', 'pageSize'],
      [await h.merchant('/v1/notifications?unknown=1'), 422, 'validation_failed'],
      [await h.merchant('/v1/checkouts', { body: '{"amount":' }), 400, 'invalid_json'],
      [await h.merchant('/v1/checkouts', { body: 'x', headers: { 'Content-Type': 'text/plain' } }), 415, 'unsupported_media_type'],
      [await h.merchant('/v1/checkouts', { body: JSON.stringify({ pad: 'x'.repeat(70_000) }) }), 413, 'payload_too_large'],
    ];
    for (const [res, status, code, path] of cases) {
      assert.equal(res.status, status, code);
      const err = ((await res.json()) as Json).error;
      assert.equal(err.code, code);
      assert.match(err.requestId, /^req_/);
      if (path)
        assert.ok(
          err.issues.some((i: Json) => i.path === path),
          `${code}: ${JSON.stringify(err.issues)}`,
        );
    }
  });

  it('answers the public routes without any secret', async () => {
    assert.equal((await h.bff.request(`${BFF_HOST}/health`)).status, 200);
    assert.equal((await h.bff.request(`${BFF_HOST}/v1/openapi.json`)).status, 200);
  });
});

describe('request ids', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());

  const lines = (id: string) => h.logs.map((l) => JSON.parse(l) as Json).filter((l) => l.requestId === id);

  it('keeps a sane incoming X-Request-Id and puts it on every log line of the request, upstream calls included', async () => {
    const id = 'shop-42.order:7_a';
    const res = await h.merchant('/v1/link-banks?country=ES', { headers: { 'X-Request-Id': id } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('X-Request-Id'), id);
    const events = lines(id).map((l) => l.event);
    assert.ok(events.includes('upstream.call'), `upstream call logged with the id: ${events.join(', ')}`);
    assert.ok(events.includes('http.request'), 'access log line carries the id');
  });

  it('ties transitions of a checkout action to the request', async () => {
    const c = await h.createCheckout();
    const id = 'pay-cancel-1';
    const res = await h.checkout(c.clientSecret, '/v1/checkout/cancel', {}, { 'X-Request-Id': id });
    assert.equal(res.status, 200);
    const events = lines(id).map((l) => l.event);
    assert.ok(events.includes('checkout.transition'), `the transition is logged with the id: ${events.join(', ')}`);
    assert.ok(events.includes('http.request'));
  });

  it('replaces an incoming id that is too long or has other characters', async () => {
    for (const bad of ['x'.repeat(129), 'two words', 'a/b', '<script>', '']) {
      const res = await h.bff.request(`${BFF_HOST}/health`, { headers: { 'X-Request-Id': bad } });
      const got = res.headers.get('X-Request-Id') ?? '';
      assert.match(got, /^req_[0-9a-f-]{36}$/, JSON.stringify(bad));
      assert.equal(lines(got).length, 1, 'the access line carries the new id');
    }
  });

  it('gives each request its own id', async () => {
    const [a, b] = await Promise.all([h.bff.request(`${BFF_HOST}/health`), h.bff.request(`${BFF_HOST}/health`)]);
    assert.notEqual(a.headers.get('X-Request-Id'), b.headers.get('X-Request-Id'));
  });
});
