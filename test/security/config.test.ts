/**
 * Secrets at boot: a bad value stops the BFF with a message that names the variable and never
 * repeats the value, and no address the BFF calls or hands out may carry a user or password
 * (Node's fetch refuses such a URL and puts it, password included, in its error message, which
 * would then reach the logs on every attempt).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '@bank-checkout/bff';
import { findLeaks, SECRETS } from './lib/canary.js';

const PASSWORD = 'CANARY-url-password-Qe7Zr2';

describe('configuration', () => {
  for (const name of ['MERCHANT_WEBHOOK_URL', 'PROVIDER_LINKS_URL', 'PROVIDER_NATIVE_URL', 'BFF_PUBLIC_URL']) {
    it(`${name} with a user and password in it is refused at boot, without repeating them`, () => {
      const env = { MERCHANT_WEBHOOK_SECRET: SECRETS.webhookSecret, [name]: `https://hook-user:${PASSWORD}@merchant.example/hook` };
      let message = '';
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => {
          message = err instanceof Error ? err.message : '';
          return err instanceof ConfigError;
        },
      );
      assert.match(message, new RegExp(`${name}: `));
      assert.deepEqual(findLeaks([{ where: 'boot message', text: message }], [PASSWORD]), []);
    });
  }

  it('a bad value of any variable is named, never repeated', () => {
    const bad = {
      PORT: SECRETS.apiKey,
      PROVIDER_ENV: SECRETS.apiToken,
      BFF_MERCHANT_SECRET: 'CANARY-short',
      ALLOWED_ORIGINS: `https://shop.example/${SECRETS.legacyApiKey}`,
      DATABASE_URL: `mysql://root:${PASSWORD}@db/x`,
      MERCHANT_WEBHOOK_SECRET: 'CANARY-tiny',
      LOG_LEVEL: SECRETS.legacyApiToken,
      MERCHANT_IBAN: 'CANARY-not-an-iban',
    };
    for (const [name, value] of Object.entries(bad)) {
      let message = '';
      assert.throws(
        () => loadConfig({ [name]: value }),
        (err: unknown) => {
          message = err instanceof Error ? err.message : '';
          return err instanceof ConfigError;
        },
        name,
      );
      assert.match(message, new RegExp(`${name}: `), name);
      assert.deepEqual(findLeaks([{ where: 'boot message', text: message }], [value, PASSWORD]), [], name);
    }
  });

  it('the production environment refuses the development merchant secret', () => {
    assert.throws(() => loadConfig({ PROVIDER_ENV: 'pro' }), /BFF_MERCHANT_SECRET/);
    const live = {
      PROVIDER_ENV: 'pro',
      BFF_MERCHANT_SECRET: SECRETS.merchantSecret,
      PROVIDER_API_KEY: SECRETS.apiKey,
      PROVIDER_API_TOKEN: SECRETS.apiToken,
      PROVIDER_LEGACY_API_KEY: SECRETS.legacyApiKey,
      PROVIDER_LEGACY_API_TOKEN: SECRETS.legacyApiToken,
      PROVIDER_LINKS_URL: 'https://links.provider.example',
      PROVIDER_NATIVE_URL: 'https://native.provider.example',
      BFF_PUBLIC_URL: 'https://pay.shop.example',
      MERCHANT_NAME: 'Shop S.L.',
      MERCHANT_IBAN: 'ES7921000813610123456789',
      ALLOWED_ORIGINS: 'https://shop.example',
      PROVIDER_NATIVE_ENV: 'production',
    };
    assert.equal(loadConfig(live).merchantSecret, SECRETS.merchantSecret);
  });
});
