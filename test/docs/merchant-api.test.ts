/**
 * The merchant API reference (docs/merchant-api.md) is what `npm run docs:api` makes from the
 * OpenAPI document today; the typed client has a call for every merchant operation; the
 * document's version is the BFF package's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { API_ERRORS, API_ERROR_CODES } from '@bank-checkout/contract';
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

  it("every error answer in the BFF's sources has the status the contract gives its code (the reference's table)", () => {
    const dir = new URL('packages/bff/src/', root).pathname;
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const found: string[] = [];
    const mismatched: string[] = [];
    const check = (file: string, status: string, code: string) => {
      found.push(code);
      const expected = Object.hasOwn(API_ERRORS, code) ? API_ERRORS[code as keyof typeof API_ERRORS] : undefined;
      if (!expected) mismatched.push(`${file}: ${code} is not a code of the contract`);
      else if (expected.status !== Number(status)) mismatched.push(`${file}: ${code} answered ${status}, the contract says ${expected.status}`);
    };
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const m of text.matchAll(/(?:new ApiError|super)\(\s*(\d{3}),\s*'([a-z0-9_]+)'/g)) check(file, m[1]!, m[2]!);
      for (const m of text.matchAll(/errors\.conflict\(\s*'([a-z0-9_]+)'/g)) check(file, '409', m[1]!);
      for (const m of text.matchAll(/new ApiError\(\s*\w+ \? (\d{3}) : (\d{3}),\s*\w+ \? '([a-z0-9_]+)' : '([a-z0-9_]+)'/g)) {
        check(file, m[1]!, m[3]!);
        check(file, m[2]!, m[4]!);
      }
    }
    assert.deepEqual(mismatched, []);
    // The scan sees the answers: most codes of the contract are found in the sources.
    assert.ok(new Set(found).size >= API_ERROR_CODES.length - 3, `found ${new Set(found).size} of ${API_ERROR_CODES.length}`);
    for (const code of ['reference_in_use', 'invalid_state', 'origin_refused']) assert.ok(found.includes(code), code);
  });
});
