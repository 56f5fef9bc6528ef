/**
 * The merchant API reference (docs/merchant-api.md) is what `npm run docs:api` makes from the
 * OpenAPI document today; the typed client has a call for every merchant operation; the
 * document's version is the BFF package's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BFF_VERSION, createBff, loadConfig } from '@bank-checkout/bff';
import { merchantApiReference, REFERENCE_PATH } from '../../scripts/merchant-api-reference.js';

const root = new URL('../../', import.meta.url);

async function openApi() {
  const bff = createBff(loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'silent' }));
  try {
    return (await (await bff.request('http://127.0.0.1/v1/openapi.json')).json()) as {
      info: { version: string };
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
  } finally {
    await bff.close();
  }
}

describe('merchant API reference', () => {
  it('docs/merchant-api.md is up to date (run `npm run docs:api` after changing a merchant route)', async () => {
    const fresh = await merchantApiReference();
    assert.ok(fresh === readFileSync(REFERENCE_PATH, 'utf8'), 'docs/merchant-api.md differs from what the OpenAPI document gives: run `npm run docs:api`');
    for (const needle of ['### POST /v1/checkouts', '### GET /v1/webhooks/events', '`idempotency_mismatch`', 'RateLimit-Remaining', 'webhook-signature'])
      assert.ok(fresh.includes(needle), needle);
  });

  it('createMerchantClient has a call for every merchant operation of the document', async () => {
    const doc = await openApi();
    const client = readFileSync(new URL('packages/bff/src/merchant-client.ts', root), 'utf8');
    const missing: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!op.tags?.includes('merchant')) continue;
        // `/v1/orders/{id}/enable` is called as `/v1/orders/${id(idDebt)}/enable`.
        const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '\\$\\{[^}]+\\}');
        const verb = method === 'get' ? 'get' : 'post';
        if (!new RegExp(`${verb}<[^>]+>\\(['\`]${pattern}['\`]`).test(client)) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    assert.deepEqual(missing, [], 'operations without a call in packages/bff/src/merchant-client.ts');
  });

  it('the document’s version is the BFF package’s', async () => {
    const pkg = JSON.parse(readFileSync(new URL('packages/bff/package.json', root), 'utf8')) as { version: string };
    assert.equal(BFF_VERSION, pkg.version);
    assert.equal((await openApi()).info.version, pkg.version);
  });
});
