/**
 * Going live safely: the BFF refuses to serve beyond this machine with the development or a
 * weak merchant secret, refuses the real provider with anything left from development (the
 * simulator's keys, the demo payee, loopback provider addresses, an http public address), refuses
 * a webhook it could not sign, names the variable of every such problem (the SQLite path
 * included) without a stack trace, and tells the operator which variables to check when the
 * provider refuses its credentials.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '@bank-checkout/bff';
import { createRig, json } from './lib/rig.js';

const root = new URL('../..', import.meta.url).pathname;
const STRONG = 'q8Z2vN5xR1tW7yB4mK9pL3sD6fH0jG2c';
const LIVE = {
  PROVIDER_ENV: 'pro',
  BFF_MERCHANT_SECRET: STRONG,
  PROVIDER_API_KEY: 'live-key',
  PROVIDER_API_TOKEN: 'live-token',
  PROVIDER_LEGACY_API_KEY: 'live-legacy-key',
  PROVIDER_LEGACY_API_TOKEN: 'live-legacy-token',
  PROVIDER_LINKS_URL: 'https://links.provider.example',
  PROVIDER_NATIVE_URL: 'https://native.provider.example',
  BFF_PUBLIC_URL: 'https://pay.shop.example',
  MERCHANT_NAME: 'Shop S.L.',
  MERCHANT_IBAN: 'ES7921000813610123456789',
};

/** The variables a refused configuration names. */
function refused(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return [...err.message.matchAll(/^ {2}([A-Z_]+): /gm)].map((m) => m[1]!).sort();
  }
  return [];
}

function bff(env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'packages/bff/src/cli.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 120_000, // a safety net for a hang only: a loaded machine may take long to start tsx
  });
}

describe('going live', () => {
  it('refuses the development or a weak merchant secret beyond loopback, and accepts a strong one', () => {
    assert.deepEqual(refused({ HOST: '0.0.0.0' }), ['BFF_MERCHANT_SECRET']);
    assert.deepEqual(refused({ HOST: '0.0.0.0', BFF_MERCHANT_SECRET: 'a'.repeat(40) }), ['BFF_MERCHANT_SECRET']);
    assert.deepEqual(refused({ HOST: '::', BFF_MERCHANT_SECRET: 'shop-secret-1234' }), ['BFF_MERCHANT_SECRET']);
    assert.deepEqual(refused({ HOST: '0.0.0.0', BFF_MERCHANT_SECRET: STRONG }), []);
    // On loopback the development default stays, so `npm start` needs no configuration.
    for (const HOST of ['127.0.0.1', 'localhost', '::1']) assert.deepEqual(refused({ HOST }), [], HOST);
  });

  it('with PROVIDER_ENV=pro, names everything left from development', () => {
    assert.deepEqual(refused(LIVE), []);
    assert.deepEqual(refused({ PROVIDER_ENV: 'pro', BFF_MERCHANT_SECRET: 'a'.repeat(16) }), [
      'BFF_MERCHANT_SECRET',
      'BFF_PUBLIC_URL',
      'MERCHANT_IBAN',
      'MERCHANT_NAME',
      'PROVIDER_API_KEY',
      'PROVIDER_API_TOKEN',
      'PROVIDER_LEGACY_API_KEY',
      'PROVIDER_LEGACY_API_TOKEN',
      'PROVIDER_LINKS_URL',
      'PROVIDER_NATIVE_URL',
    ]);
    assert.deepEqual(refused({ ...LIVE, BFF_PUBLIC_URL: 'http://pay.shop.example' }), ['BFF_PUBLIC_URL']);
    assert.deepEqual(refused({ ...LIVE, PROVIDER_NATIVE_URL: 'http://127.0.0.1:4010' }), ['PROVIDER_NATIVE_URL']);
  });

  it('refuses a webhook address without the secret that signs it', () => {
    assert.deepEqual(refused({ MERCHANT_WEBHOOK_URL: 'https://shop.example/hooks' }), ['MERCHANT_WEBHOOK_SECRET']);
  });

  it('stops on a store it cannot open with one line naming DATABASE_URL, no stack trace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bff-live-'));
    writeFileSync(join(dir, 'not-a-dir'), '');
    const r = bff({ DATABASE_URL: `file:${join(dir, 'not-a-dir', 'bff.db')}` });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^bff: .*DATABASE_URL/);
    assert.doesNotMatch(r.stderr, /^\s+at /m);
    const exposed = bff({ HOST: '0.0.0.0' });
    assert.equal(exposed.status, 1);
    assert.match(exposed.stderr, /BFF_MERCHANT_SECRET: must be set/);
  });

  it('tells the operator to check the provider keys when the provider refuses them', async () => {
    const rig = await createRig({ env: { PROVIDER_API_KEY: 'a-wrong-key' } });
    try {
      const res = await rig.merchant('/v1/links', { body: { amount: 1999, subject: 'Order', reference: 'LIVE-1' } });
      const body = await json(res, 502);
      assert.equal(body.error.code, 'provider_credentials');
      assert.match(body.error.message, /PROVIDER_API_KEY and PROVIDER_API_TOKEN/);
      assert.ok(rig.logs.some((l) => l.includes('"upstream.credentials"') && l.includes('PROVIDER_API_KEY')), 'a log line for the operator');
    } finally {
      await rig.close();
    }
  });
});

describe('readiness', () => {
  it('/ready answers 200 while the store answers, and 503 when it does not; /health stays up', async () => {
    const rig = await createRig();
    assert.equal((await rig.call('/ready')).status, 200);
    await rig.bff.parts.store.close();
    const down = await rig.call('/ready');
    assert.equal(down.status, 503);
    assert.deepEqual(await down.json(), { ok: false });
    assert.equal((await rig.call('/health')).status, 200);
  });
});
