import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { loadConfig, ConfigError } from '../src/config.js';
import { cliArgs } from '../../../test/support/cli.mjs';

describe('configuration from the environment', () => {
  it('boots with no configuration at all against the local simulator', () => {
    const c = loadConfig({});
    assert.equal(c.port, 4020);
    assert.equal(c.provider.env, 'san');
    assert.equal(c.sandbox, true);
    assert.equal(c.provider.nativeUrl, 'http://127.0.0.1:4010');
    assert.equal(c.databaseUrl, 'file:./data/bff.db');
    assert.deepEqual(c.allowedOrigins, ['http://127.0.0.1:5173', 'http://localhost:5173']);
    assert.equal(c.provider.sessionQuietMs, 60_000);
    assert.equal(loadConfig({ PROVIDER_SESSION_QUIET_SECONDS: '900' }).provider.sessionQuietMs, 900_000);
  });

  it('names every bad variable', () => {
    const bad: Record<string, string> = {
      PORT: 'eighty',
      PROVIDER_ENV: 'prod',
      PROVIDER_LINKS_URL: 'ftp://x',
      ALLOWED_ORIGINS: 'https://ok.example,not an origin',
      DATABASE_URL: 'mysql://x',
      BFF_MERCHANT_SECRET: 'short',
      MERCHANT_IBAN: 'ES00123',
      RATE_LIMIT_PER_MINUTE: '0',
      PROVIDER_SESSION_QUIET_SECONDS: '0',
    };
    for (const [name, value] of Object.entries(bad)) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (err: Error) => err instanceof ConfigError && err.message.includes(name),
        name,
      );
    }
  });

  it('refuses the development merchant secret in production, and boots with a complete production set', () => {
    assert.throws(() => loadConfig({ PROVIDER_ENV: 'pro' }), /BFF_MERCHANT_SECRET/);
    const c = loadConfig({
      PROVIDER_ENV: 'pro',
      BFF_MERCHANT_SECRET: 'q8Z2vN5xR1tW7yB4mK9pL3sD6fH0jG2c',
      PROVIDER_API_KEY: 'live-key',
      PROVIDER_API_TOKEN: 'live-token',
      PROVIDER_LEGACY_API_KEY: 'live-legacy-key',
      PROVIDER_LEGACY_API_TOKEN: 'live-legacy-token',
      PROVIDER_LINKS_URL: 'https://links.provider.example',
      PROVIDER_NATIVE_URL: 'https://native.provider.example',
      BFF_PUBLIC_URL: 'https://pay.shop.example',
      MERCHANT_NAME: 'Shop S.L.',
      MERCHANT_IBAN: 'ES7921000813610123456789',
      ALLOWED_ORIGINS: 'https://shop.example',
      PROVIDER_NATIVE_ENV: 'production',
    });
    assert.equal(c.sandbox, false);
  });

  it('stops `npm run bff` with a message naming the variable', () => {
    const r = spawnSync(process.execPath, cliArgs('packages/bff/src/cli.ts'), {
      cwd: new URL('../../..', import.meta.url).pathname,
      env: { ...process.env, PROVIDER_ENV: 'nope' },
      encoding: 'utf8',
      timeout: 120_000, // a safety net for a hang only: a loaded machine may take long to start tsx
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /PROVIDER_ENV/);
  });
});
