import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CheckoutApiError, createCheckoutClient, type CheckoutClient } from '../src/client.js';
import { GROUPS, apiError, fakeBff, view } from './fixtures.js';

const ok = view({ state: 'select-bank' });

describe('createCheckoutClient', () => {
  it('sends a fresh proof of possession with every call when given a signer (the isolated frame), made for its method and address; none without', async () => {
    const bff = fakeBff({
      'GET /bff/v1/checkout': () => ok,
      'POST /bff/v1/checkout/cancel': () => ok,
      'GET /bff/v1/banks': () => ({ status: 200, body: { groups: GROUPS } }),
    });
    const asked: string[] = [];
    const proof = async (method: 'GET' | 'POST', url: string) => {
      asked.push(`${method} ${url}`);
      return `proof-${asked.length}`;
    };
    const c = createCheckoutClient({ api: 'https://bff.test/bff/', secret: 'fk_key', fetch: bff.fetch, proof });
    await c.checkout();
    await c.cancel();
    await c.banks();
    assert.deepEqual(asked, ['GET https://bff.test/bff/v1/checkout', 'POST https://bff.test/bff/v1/checkout/cancel', 'GET https://bff.test/bff/v1/banks']);
    assert.deepEqual(
      bff.calls.map((x) => x.headers.dpop),
      ['proof-1', 'proof-2', 'proof-3'],
      'one proof per call, never reused',
    );
    const plain = fakeBff({ 'GET /bff/v1/checkout': () => ok });
    await createCheckoutClient({ api: 'https://bff.test/bff/', secret: 'cs_secret', fetch: plain.fetch }).checkout();
    assert.equal(plain.calls[0]!.headers.dpop, undefined);
  });

  it('calls each endpoint with its method, path and body, the secret only in a header, no cookies', async () => {
    const routes = Object.fromEntries(
      ['/login', '/second-login', '/contract', '/transfer', '/validate', '/cancel', '/redirect', '/periodic', '/mode'].map((p) => [
        `POST /bff/v1/checkout${p}`,
        () => ok,
      ]),
    );
    const bff = fakeBff({ ...routes, 'GET /bff/v1/checkout': () => ok, 'GET /bff/v1/banks': () => ({ status: 200, body: { groups: GROUPS } }) });
    const c = createCheckoutClient({ api: 'https://bff.test/bff/', secret: 'cs_secret', fetch: bff.fetch });
    const banks = await c.banks();
    assert.equal(banks.groups.length, GROUPS.length);
    await c.checkout();
    await c.login({ bankId: 'aurora', loginId: 'dni', fields: { userId: '12345678Z' } });
    await c.secondLogin({ value: '1234' });
    await c.contract({ contractId: 'C1' });
    await c.transfer({ accountId: 'A1' });
    await c.validate({ values: { sms: '482913' } });
    await c.cancel();
    await c.redirect();
    await c.periodic({ bankId: 'b', frequency: 'MONTHLY', debtorAccount: 'ES91', startDate: '2030-01-01' });
    await c.mode({ mode: 'periodic' });
    assert.deepEqual(
      bff.calls.map((x) => `${x.method} ${x.path}`),
      [
        'GET /bff/v1/banks',
        'GET /bff/v1/checkout',
        ...['login', 'second-login', 'contract', 'transfer', 'validate', 'cancel', 'redirect', 'periodic', 'mode'].map((p) => `POST /bff/v1/checkout/${p}`),
      ],
    );
    assert.deepEqual(bff.calls[10]!.body, { mode: 'periodic' });
    assert.deepEqual(bff.calls[2]!.body, { bankId: 'aurora', loginId: 'dni', fields: { userId: '12345678Z' } });
    assert.deepEqual(bff.calls[6]!.body, { values: { sms: '482913' } });
    assert.deepEqual(bff.calls[7]!.body, {});
    for (const call of bff.calls) {
      assert.equal(call.headers['x-checkout-secret'], 'cs_secret');
      assert.equal(call.headers['content-type'], 'application/json');
      assert.equal(call.credentials, 'omit');
      assert.ok(!call.path.includes('cs_secret'));
      // Only the bank list may be kept by the browser, and it is revalidated each time (ETag).
      assert.equal(call.cache, call.path.endsWith('/banks') ? 'no-cache' : 'no-store', call.path);
    }
  });

  it('turns error bodies into CheckoutApiError with status, code, request id and issues', async () => {
    const bff = fakeBff({
      'POST /v1/checkout/login': () => ({
        status: 422,
        body: { error: { code: 'validation_failed', message: 'bad', requestId: 'req-9', issues: [{ path: 'fields.userId', message: 'is required' }] } },
      }),
      'POST /v1/checkout/transfer': () => apiError(409, 'invalid_state'),
    });
    const c = createCheckoutClient({ api: 'https://bff.test', secret: 's', fetch: bff.fetch });
    await assert.rejects(c.login({ bankId: 'a', loginId: 'b', fields: {} }), (e: unknown) => {
      assert.ok(e instanceof CheckoutApiError);
      assert.equal(e.status, 422);
      assert.equal(e.code, 'validation_failed');
      assert.equal(e.requestId, 'req-9');
      assert.deepEqual(e.issues, [{ path: 'fields.userId', message: 'is required' }]);
      return true;
    });
    await assert.rejects(c.transfer({ accountId: 'x' }), { name: 'CheckoutApiError', status: 409, code: 'invalid_state' });
  });

  it('names failures without a contract body: network, gateway errors, unexpected answers', async () => {
    const bff = fakeBff({
      'GET /v1/checkout': () => new Error('offline'),
      'POST /v1/checkout/cancel': () => ({ status: 504, body: '<html>gateway</html>' }),
      'POST /v1/checkout/redirect': () => ({ status: 502, body: null }),
      'POST /v1/checkout/validate': () => ({ status: 200, body: { hello: 'world' } }),
      'GET /v1/banks': () => ({ status: 200, body: { groups: 'nope' } }),
    });
    const c: CheckoutClient = createCheckoutClient({ api: 'https://bff.test', secret: 's', fetch: bff.fetch });
    await assert.rejects(c.checkout(), { status: 0, code: 'network' });
    await assert.rejects(c.cancel(), { status: 504, code: 'upstream_timeout' });
    await assert.rejects(c.redirect(), { status: 502, code: 'upstream' });
    await assert.rejects(c.validate({ values: {} }), { code: 'invalid_response' });
    await assert.rejects(c.banks(), { code: 'invalid_response' });
  });

  it('reports every view to onView', async () => {
    const seen: string[] = [];
    const bff = fakeBff({ 'GET /v1/checkout': () => ok, 'POST /v1/checkout/cancel': () => view({ state: 'cancelled' }) });
    const c = createCheckoutClient({ api: 'https://bff.test', secret: 's', fetch: bff.fetch, onView: (v) => seen.push(v.state) });
    await c.checkout();
    await c.cancel();
    assert.deepEqual(seen, ['select-bank', 'cancelled']);
  });
});
