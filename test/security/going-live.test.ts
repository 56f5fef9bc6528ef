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
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '@bank-checkout/bff';
import { createRig, json } from './lib/rig.js';
import { cliArgs } from '../support/cli.mjs';

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
  ALLOWED_ORIGINS: 'https://shop.example,https://www.shop.example:8443',
  PROVIDER_NATIVE_ENV: 'production',
  MERCHANT_WEBHOOK_URL: 'https://shop.example/hooks/bank-checkout',
  MERCHANT_WEBHOOK_SECRET: 'Zr4p9XqL2vT8mN1sK6wB3yH7cF0dJ5gA',
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
  return spawnSync(process.execPath, cliArgs('packages/bff/src/cli.ts'), {
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
      'ALLOWED_ORIGINS',
      'BFF_MERCHANT_SECRET',
      'BFF_PUBLIC_URL',
      'MERCHANT_IBAN',
      'MERCHANT_NAME',
      'PROVIDER_API_KEY',
      'PROVIDER_API_TOKEN',
      'PROVIDER_LEGACY_API_KEY',
      'PROVIDER_LEGACY_API_TOKEN',
      'PROVIDER_LINKS_URL',
      'PROVIDER_NATIVE_ENV',
      'PROVIDER_NATIVE_URL',
    ]);
    assert.deepEqual(refused({ ...LIVE, BFF_PUBLIC_URL: 'http://pay.shop.example' }), ['BFF_PUBLIC_URL']);
    assert.deepEqual(refused({ ...LIVE, PROVIDER_NATIVE_URL: 'http://127.0.0.1:4010' }), ['PROVIDER_NATIVE_URL']);
  });

  /** Each unsafe production setting, alone over a safe configuration: refused, naming its variable. */
  const UNSAFE: [string, Record<string, string>, string][] = [
    ['provider over http', { PROVIDER_LINKS_URL: 'http://links.provider.example' }, 'PROVIDER_LINKS_URL'],
    ['native provider over http', { PROVIDER_NATIVE_URL: 'http://native.provider.example' }, 'PROVIDER_NATIVE_URL'],
    ['provider on a private address', { PROVIDER_NATIVE_URL: 'https://10.0.0.12' }, 'PROVIDER_NATIVE_URL'],
    ['provider on 192.168/16', { PROVIDER_LINKS_URL: 'https://192.168.1.20:8443' }, 'PROVIDER_LINKS_URL'],
    ['provider on localhost', { PROVIDER_LINKS_URL: 'https://localhost:4010' }, 'PROVIDER_LINKS_URL'],
    ['provider on an IPv6 unique-local address', { PROVIDER_NATIVE_URL: 'https://[fd00::5]' }, 'PROVIDER_NATIVE_URL'],
    ['provider at the metadata address', { PROVIDER_NATIVE_URL: 'https://169.254.169.254' }, 'PROVIDER_NATIVE_URL'],
    ['origins left at the development default', { ALLOWED_ORIGINS: '' }, 'ALLOWED_ORIGINS'],
    ['the development default spelled out', { ALLOWED_ORIGINS: 'http://127.0.0.1:5173,http://localhost:5173' }, 'ALLOWED_ORIGINS'],
    ['an http shop origin', { ALLOWED_ORIGINS: 'http://shop.example' }, 'ALLOWED_ORIGINS'],
    ['a wildcard origin', { ALLOWED_ORIGINS: 'https://*' }, 'ALLOWED_ORIGINS'],
    ['a wildcard subdomain', { ALLOWED_ORIGINS: 'https://*.shop.example' }, 'ALLOWED_ORIGINS'],
    ['an origin with a path', { ALLOWED_ORIGINS: 'https://shop.example/pay' }, 'ALLOWED_ORIGINS'],
    ['an origin with a query', { ALLOWED_ORIGINS: 'https://shop.example?x=1' }, 'ALLOWED_ORIGINS'],
    ['a directive injected after an origin', { ALLOWED_ORIGINS: "https://shop.example;script-src 'unsafe-inline'" }, 'ALLOWED_ORIGINS'],
    ['a separator injected', { ALLOWED_ORIGINS: 'https://shop.example;frame-ancestors *' }, 'ALLOWED_ORIGINS'],
    ['a private shop origin', { ALLOWED_ORIGINS: 'https://192.168.0.5' }, 'ALLOWED_ORIGINS'],
    ['the native test environment', { PROVIDER_NATIVE_ENV: 'test' }, 'PROVIDER_NATIVE_ENV'],
    ['another test segment', { PROVIDER_NATIVE_ENV: 'sandbox' }, 'PROVIDER_NATIVE_ENV'],
    ['a webhook over http', { MERCHANT_WEBHOOK_URL: 'http://shop.example/hooks' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook at the metadata address', { MERCHANT_WEBHOOK_URL: 'https://169.254.169.254/latest/meta-data' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on a private address', { MERCHANT_WEBHOOK_URL: 'https://172.20.1.1/hooks' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on this machine', { MERCHANT_WEBHOOK_URL: 'https://127.0.0.1/hooks' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook secret of one repeated character', { MERCHANT_WEBHOOK_SECRET: 'a'.repeat(40) }, 'MERCHANT_WEBHOOK_SECRET'],
    ['a short webhook secret', { MERCHANT_WEBHOOK_SECRET: 'Zr4p9XqL2vT8mN1s' }, 'MERCHANT_WEBHOOK_SECRET'],
    ['a repeated short pattern', { MERCHANT_WEBHOOK_SECRET: 'abc123'.repeat(7) }, 'MERCHANT_WEBHOOK_SECRET'],
    ['a run of characters', { MERCHANT_WEBHOOK_SECRET: 'abcdefghijklmnopqrstuvwxyzABCDEFGH' }, 'MERCHANT_WEBHOOK_SECRET'],
    ['a merchant secret of a repeated pattern', { BFF_MERCHANT_SECRET: 'Secret12'.repeat(5) }, 'BFF_MERCHANT_SECRET'],
    ['the development merchant secret', { BFF_MERCHANT_SECRET: 'dev-merchant-secret-change-me' }, 'BFF_MERCHANT_SECRET'],
    ["the simulator's API key", { PROVIDER_API_KEY: 'sandbox-api-key' }, 'PROVIDER_API_KEY'],
    ['a public address over http', { BFF_PUBLIC_URL: 'http://pay.shop.example' }, 'BFF_PUBLIC_URL'],
    ['a public address on a private host', { BFF_PUBLIC_URL: 'https://10.1.2.3' }, 'BFF_PUBLIC_URL'],
  ];

  for (const [what, change, variable] of UNSAFE) {
    it(`refuses ${what} when going live, naming ${variable}`, () => {
      assert.deepEqual(refused({ ...LIVE, ...change }), [variable]);
    });
  }

  it('starts with a safe production configuration, and keeps test mode as easy as before', () => {
    assert.deepEqual(refused(LIVE), []);
    assert.deepEqual(refused({ ...LIVE, MERCHANT_WEBHOOK_URL: '', MERCHANT_WEBHOOK_SECRET: '' }), [], 'no webhook at all');
    // Test mode: loopback addresses, http origins, the test segment, a plain webhook.
    assert.deepEqual(refused({ MERCHANT_WEBHOOK_URL: 'http://127.0.0.1:9999/hook', MERCHANT_WEBHOOK_SECRET: 'a-test-secret-16' }), []);
    assert.deepEqual(refused({}), []);
    // But no origin that could widen the frame's policy, in any mode.
    for (const ALLOWED_ORIGINS of ['https://*', 'http://127.0.0.1:5173;script-src *', 'http://shop.test/path'])
      assert.deepEqual(refused({ ALLOWED_ORIGINS }), ['ALLOWED_ORIGINS'], ALLOWED_ORIGINS);
  });

  it('a refused live setting stops boot with one line per variable, naming what it must be', () => {
    const r = bff({ ...LIVE, PROVIDER_NATIVE_ENV: 'test', MERCHANT_WEBHOOK_URL: 'https://169.254.169.254/x', ALLOWED_ORIGINS: 'http://shop.example' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^ {2}MERCHANT_WEBHOOK_URL: must be on a public host, not 169\.254\.169\.254/m);
    assert.match(r.stderr, /^ {2}PROVIDER_NATIVE_ENV: "test" is a test environment .* set its production segment/m);
    assert.match(r.stderr, /^ {2}ALLOWED_ORIGINS: "http:\/\/shop\.example" is not an exact https:\/\/host\[:port\] origin/m);
    assert.doesNotMatch(r.stderr, /^\s+at /m);
    const wildcard = bff({ ...LIVE, ALLOWED_ORIGINS: 'https://*' });
    assert.equal(wildcard.status, 1);
    assert.match(wildcard.stderr, /^ {2}ALLOWED_ORIGINS: each origin must be exactly scheme:\/\/host\[:port\] \(no wildcard, path or separator\)$/m);
  });

  it('refuses a webhook address without the secret that signs it', () => {
    assert.deepEqual(refused({ MERCHANT_WEBHOOK_URL: 'https://shop.example/hooks' }), ['MERCHANT_WEBHOOK_SECRET']);
  });

  it('stops on a store it cannot open with one line naming DATABASE_URL, no stack trace', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'bff-live-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
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
      assert.ok(
        rig.logs.some((l) => l.includes('"upstream.credentials"') && l.includes('PROVIDER_API_KEY')),
        'a log line for the operator',
      );
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
