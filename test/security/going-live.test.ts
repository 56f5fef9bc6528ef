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
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, createBff, createStore, loadConfig } from '@bank-checkout/bff';
import { signNotification } from '@bank-checkout/provider';
import fc from 'fast-check';
import { createRig, json } from './lib/rig.js';
import { FUZZ_RUNS, oddString } from './lib/fuzz.js';
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

/** The message a refused configuration stops with ('' when it is accepted). */
function message(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message;
  }
  return '';
}

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
    // Secrets reused across roles: one leaked opens the other door too.
    ['the merchant secret as the webhook secret', { MERCHANT_WEBHOOK_SECRET: STRONG }, 'MERCHANT_WEBHOOK_SECRET'],
    ['the merchant secret as the provider key', { PROVIDER_API_KEY: STRONG }, 'PROVIDER_API_KEY'],
    ['the merchant secret as the provider token', { PROVIDER_API_TOKEN: STRONG }, 'PROVIDER_API_TOKEN'],
    ['the provider key as its token', { PROVIDER_API_TOKEN: 'live-key' }, 'PROVIDER_API_TOKEN'],
    ['the provider key as the earlier variant key', { PROVIDER_LEGACY_API_KEY: 'live-key' }, 'PROVIDER_LEGACY_API_KEY'],
    ['the webhook secret as the earlier variant token', { PROVIDER_LEGACY_API_TOKEN: LIVE.MERCHANT_WEBHOOK_SECRET }, 'PROVIDER_LEGACY_API_TOKEN'],
    [
      'the merchant secret as the webhook key in whsec_ form',
      { MERCHANT_WEBHOOK_SECRET: `whsec_${Buffer.from(STRONG).toString('base64')}` },
      'MERCHANT_WEBHOOK_SECRET',
    ],
    [
      'the webhook secret inside the merchant secret',
      { BFF_MERCHANT_SECRET: `${LIVE.MERCHANT_WEBHOOK_SECRET}x9`, MERCHANT_WEBHOOK_SECRET: LIVE.MERCHANT_WEBHOOK_SECRET },
      'MERCHANT_WEBHOOK_SECRET',
    ],
    // Weak by an estimate of how people build secrets, though they pass the patterns' checks.
    ['a webhook secret of words', { MERCHANT_WEBHOOK_SECRET: 'MyShopWebhookSecretForProduction2025' }, 'MERCHANT_WEBHOOK_SECRET'],
    ['a merchant secret of leet words', { BFF_MERCHANT_SECRET: 'P@ssw0rdP@ssw0rdTr0ub4dour&3Summer2024' }, 'BFF_MERCHANT_SECRET'],
    ['a keyboard walk', { MERCHANT_WEBHOOK_SECRET: 'qwertyuiopasdfghjklzxcvbnm1234567890' }, 'MERCHANT_WEBHOOK_SECRET'],
    ['a phrase with a year', { BFF_MERCHANT_SECRET: 'CorrectHorseBatteryStaple2024!!Shop' }, 'BFF_MERCHANT_SECRET'],
    // The shop's origins: never the BFF's own.
    ["the BFF's own origin among the shop's", { ALLOWED_ORIGINS: 'https://shop.example,https://pay.shop.example' }, 'ALLOWED_ORIGINS'],
    ["the BFF's own origin with its default port spelled", { ALLOWED_ORIGINS: 'https://PAY.shop.example:443' }, 'ALLOWED_ORIGINS'],
    // Webhook hosts that lead into a private network by name.
    ['a webhook under .lan', { MERCHANT_WEBHOOK_URL: 'https://hooks.shop.lan/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook under .home.arpa', { MERCHANT_WEBHOOK_URL: 'https://nas.home.arpa/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook under .internal', { MERCHANT_WEBHOOK_URL: 'https://hooks.corp.internal/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook under .local', { MERCHANT_WEBHOOK_URL: 'https://shop.local/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook under nip.io', { MERCHANT_WEBHOOK_URL: 'https://127.0.0.1.nip.io/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook under sslip.io', { MERCHANT_WEBHOOK_URL: 'https://10-0-0-1.sslip.io/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook under nip.io in hex', { MERCHANT_WEBHOOK_URL: 'https://shop-c0a80001.nip.io/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook whose name carries a private address', { MERCHANT_WEBHOOK_URL: 'https://192.168.1.20.attacker.example/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on a single-label host', { MERCHANT_WEBHOOK_URL: 'https://hooks/x' }, 'MERCHANT_WEBHOOK_URL'],
    // Every IPv6 form of a private address.
    ['a webhook on IPv6 loopback', { MERCHANT_WEBHOOK_URL: 'https://[::1]/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on IPv6 unspecified', { MERCHANT_WEBHOOK_URL: 'https://[::]/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on IPv6 unique-local', { MERCHANT_WEBHOOK_URL: 'https://[fd12:3456::1]/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on IPv6 link-local', { MERCHANT_WEBHOOK_URL: 'https://[fe80::1]/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on IPv6 site-local', { MERCHANT_WEBHOOK_URL: 'https://[fec0::1]/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on NAT64 of a private address', { MERCHANT_WEBHOOK_URL: 'https://[64:ff9b::10.0.0.1]/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on NAT64 of the metadata address', { MERCHANT_WEBHOOK_URL: 'https://[64:ff9b::a9fe:a9fe]/x' }, 'MERCHANT_WEBHOOK_URL'],
    ["a webhook on NAT64's local-use prefix", { MERCHANT_WEBHOOK_URL: 'https://[64:ff9b:1::808:808]/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on IPv4-mapped loopback', { MERCHANT_WEBHOOK_URL: 'https://[::ffff:127.0.0.1]/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on IPv4-mapped metadata', { MERCHANT_WEBHOOK_URL: 'https://[::ffff:a9fe:a9fe]/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on IPv4-compatible private', { MERCHANT_WEBHOOK_URL: 'https://[::10.0.0.1]/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on 6to4 of a private address', { MERCHANT_WEBHOOK_URL: 'https://[2002:c0a8:101::1]/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on IPv6 documentation', { MERCHANT_WEBHOOK_URL: 'https://[2001:db8::1]/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a provider on IPv4-mapped private', { PROVIDER_LINKS_URL: 'https://[::ffff:10.1.2.3]' }, 'PROVIDER_LINKS_URL'],
    ['a webhook on the shared address space', { MERCHANT_WEBHOOK_URL: 'https://100.64.0.1/x' }, 'MERCHANT_WEBHOOK_URL'],
    ['a webhook on an address written as one number', { MERCHANT_WEBHOOK_URL: 'https://2130706433/x' }, 'MERCHANT_WEBHOOK_URL'],
    // The native service's other environments.
    ['a native pre-production environment', { PROVIDER_NATIVE_ENV: 'pre' }, 'PROVIDER_NATIVE_ENV'],
    ['a native acceptance environment', { PROVIDER_NATIVE_ENV: 'uat' }, 'PROVIDER_NATIVE_ENV'],
    ['a native integration environment', { PROVIDER_NATIVE_ENV: 'int' }, 'PROVIDER_NATIVE_ENV'],
    // Ports no client can reach.
    ['an origin with port 99999', { ALLOWED_ORIGINS: 'https://shop.example:99999' }, 'ALLOWED_ORIGINS'],
    ['an origin with port 0', { ALLOWED_ORIGINS: 'https://shop.example:0' }, 'ALLOWED_ORIGINS'],
    ['a public address with port 70000', { BFF_PUBLIC_URL: 'https://pay.shop.example:70000' }, 'BFF_PUBLIC_URL'],
    ['a webhook with port 0', { MERCHANT_WEBHOOK_URL: 'https://shop.example:0/hooks' }, 'MERCHANT_WEBHOOK_URL'],
    ['a provider with port 65536', { PROVIDER_NATIVE_URL: 'https://native.provider.example:65536' }, 'PROVIDER_NATIVE_URL'],
    // Proxies: named, not believed blindly.
    ['proxy trust without naming the proxies', { TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    ['a proxy range that is no CIDR', { TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    // The earlier signer variant: both of its credentials, or neither.
    ['the earlier variant key without its token', { PROVIDER_LEGACY_API_KEY: 'live-legacy-key', PROVIDER_LEGACY_API_TOKEN: '' }, 'PROVIDER_LEGACY_API_TOKEN'],
    // The red team's fifteen (round 5), and their near kin.
    ['99 proxy hops', { TRUST_PROXY: '99' }, 'TRUST_PROXY'],
    ['more proxy hops than a CDN, a load balancer and an ingress', { TRUST_PROXY: '4' }, 'TRUST_PROXY'],
    ['every IPv4 address as a proxy', { TRUST_PROXY: '0.0.0.0/0' }, 'TRUST_PROXY'],
    ['every IPv6 address as a proxy', { TRUST_PROXY: '::/0' }, 'TRUST_PROXY'],
    ['the IPv4 internet in two halves', { TRUST_PROXY: '0.0.0.0/1,128.0.0.0/1' }, 'TRUST_PROXY'],
    ['the IPv4 internet in IPv6 clothing', { TRUST_PROXY: '::ffff:0:0/96' }, 'TRUST_PROXY'],
    ['a private range beside half the internet', { TRUST_PROXY: '10.0.0.0/8, 64.0.0.0/2' }, 'TRUST_PROXY'],
    ['a million wrong secrets a minute', { AUTH_FAILURES_PER_MINUTE: '1000000' }, 'AUTH_FAILURES_PER_MINUTE'],
    ['just past the sane range of wrong secrets', { AUTH_FAILURES_PER_MINUTE: '101' }, 'AUTH_FAILURES_PER_MINUTE'],
    ['the merchant secret upper-cased as the provider key', { PROVIDER_API_KEY: STRONG.toUpperCase() }, 'PROVIDER_API_KEY'],
    ['the merchant secret in hex as the webhook secret', { MERCHANT_WEBHOOK_SECRET: Buffer.from(STRONG).toString('hex') }, 'MERCHANT_WEBHOOK_SECRET'],
    [
      'the webhook secret in base64url as the provider token',
      { PROVIDER_API_TOKEN: Buffer.from(LIVE.MERCHANT_WEBHOOK_SECRET).toString('base64url') },
      'PROVIDER_API_TOKEN',
    ],
    ['the hex of a date, repeated', { BFF_MERCHANT_SECRET: Buffer.from('2026-03-14T09:30:00Z').toString('hex').repeat(2) }, 'BFF_MERCHANT_SECRET'],
    ['base64url of "password" four times', { BFF_MERCHANT_SECRET: Buffer.from('password'.repeat(4)).toString('base64url') }, 'BFF_MERCHANT_SECRET'],
    ['sha256("password") in hex', { BFF_MERCHANT_SECRET: createHash('sha256').update('password').digest('hex') }, 'BFF_MERCHANT_SECRET'],
    ['sha256("password") in base64', { MERCHANT_WEBHOOK_SECRET: createHash('sha256').update('password').digest('base64') }, 'MERCHANT_WEBHOOK_SECRET'],
    [
      'sha1 of a common password echoed into sha1sum, in hex',
      { MERCHANT_WEBHOOK_SECRET: createHash('sha1').update('dragon\n').digest('hex') },
      'MERCHANT_WEBHOOK_SECRET',
    ],
    ['md5 of a common password, in hex', { BFF_MERCHANT_SECRET: createHash('md5').update('iloveyou').digest('hex') }, 'BFF_MERCHANT_SECRET'],
    ["the shop's name, the role, a year and the environment", { BFF_MERCHANT_SECRET: 'ShopLtd-merchant-secret-2026-prod!' }, 'BFF_MERCHANT_SECRET'],
    ['a passphrase doubled', { BFF_MERCHANT_SECRET: 'Tq7!wexing-quartz9-Plume$harbor-Tq7!wexing-quartz9-Plume$harbor' }, 'BFF_MERCHANT_SECRET'],
    [
      'a passphrase doubled with a space between',
      { MERCHANT_WEBHOOK_SECRET: 'gravel Ostrich 41 velvet! gravel Ostrich 41 velvet!' },
      'MERCHANT_WEBHOOK_SECRET',
    ],
    ["the BFF's own origin with a trailing dot", { ALLOWED_ORIGINS: 'https://shop.example,https://pay.shop.example.' }, 'ALLOWED_ORIGINS'],
    ["the BFF's own origin in capitals with a trailing dot", { ALLOWED_ORIGINS: 'https://PAY.Shop.Example.:443' }, 'ALLOWED_ORIGINS'],
    [
      "the BFF's public address with a trailing dot among the shop's origins",
      { BFF_PUBLIC_URL: 'https://pay.shop.example./', ALLOWED_ORIGINS: 'https://pay.shop.example' },
      'ALLOWED_ORIGINS',
    ],
    ['a native address on the test path', { PROVIDER_NATIVE_URL: 'https://native.provider.example/test' }, 'PROVIDER_NATIVE_URL'],
    ["the links address on the simulator's /san path", { PROVIDER_LINKS_URL: 'https://links.provider.example/san' }, 'PROVIDER_LINKS_URL'],
    ['a native address on a sandbox path, in capitals', { PROVIDER_NATIVE_URL: 'https://native.provider.example/api/SANDBOX/' }, 'PROVIDER_NATIVE_URL'],
  ];

  for (const [what, change, variable] of UNSAFE) {
    it(`refuses ${what} when going live, naming ${variable}`, () => {
      assert.deepEqual(refused({ ...LIVE, ...change }), [variable]);
      // One line, naming the variable: never a value of a secret.
      const lines = message({ ...LIVE, ...change })
        .split('\n')
        .slice(1);
      assert.equal(lines.length, 1, lines.join('\n'));
      for (const secret of [STRONG, LIVE.MERCHANT_WEBHOOK_SECRET, 'live-key', 'live-token']) assert.ok(!lines[0]!.includes(secret), lines[0]);
    });
  }

  /** What going live still accepts: each over the safe configuration. */
  const SAFE: [string, Record<string, string>][] = [
    ['proxies named by hop count', { TRUST_PROXY: '1' }],
    ['proxies named by CIDR', { TRUST_PROXY: '10.0.0.0/8, fd00::/8, 203.0.113.7' }],
    ['a webhook on NAT64 of a public address', { MERCHANT_WEBHOOK_URL: 'https://[64:ff9b::808:808]/x' }],
    ['a webhook on a public IPv6 address', { MERCHANT_WEBHOOK_URL: 'https://[2606:4700::1111]/x' }],
    ['a webhook whose name carries a public address', { MERCHANT_WEBHOOK_URL: 'https://hooks-8-8-8-8.shop.example/x' }],
    ['a secret made by the CLI', { MERCHANT_WEBHOOK_SECRET: 'whsec_Qm9vbWFoZ2hiN2ZQZ2VtN2dLcU1wWEx4cjNmNG1zS1E=' }],
    ['the earlier variant with both of its keys', { PROVIDER_LEGACY_API_KEY: 'live-legacy-key', PROVIDER_LEGACY_API_TOKEN: 'live-legacy-token' }],
    ['no earlier variant at all', { PROVIDER_LEGACY_API_KEY: '', PROVIDER_LEGACY_API_TOKEN: '' }],
    ['three proxy hops', { TRUST_PROXY: '3' }],
    ["a CDN's published ranges", { TRUST_PROXY: '173.245.48.0/20,103.21.244.0/22,104.16.0.0/13,172.64.0.0/13,2400:cb00::/32,2606:4700::/32,2a06:98c0::/29' }],
    ['private space as wide as it comes', { TRUST_PROXY: '10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,100.64.0.0/10,fc00::/7' }],
    ['a hundred wrong secrets a minute', { AUTH_FAILURES_PER_MINUTE: '100' }],
    ['secrets from openssl rand -hex 32', { BFF_MERCHANT_SECRET: randomBytes(32).toString('hex'), MERCHANT_WEBHOOK_SECRET: randomBytes(32).toString('hex') }],
    [
      'secrets from openssl rand -hex 16',
      { BFF_MERCHANT_SECRET: randomBytes(16).toString('hex'), MERCHANT_WEBHOOK_SECRET: randomBytes(16).toString('hex').toUpperCase() },
    ],
    [
      'secrets from openssl rand -base64 32',
      { BFF_MERCHANT_SECRET: randomBytes(32).toString('base64'), MERCHANT_WEBHOOK_SECRET: randomBytes(24).toString('base64url') },
    ],
    [
      'provider addresses with a path of their own',
      { PROVIDER_LINKS_URL: 'https://api.provider.example/links/v2', PROVIDER_NATIVE_URL: 'https://api.provider.example/native' },
    ],
    ["a shop's origin with a trailing dot", { ALLOWED_ORIGINS: 'https://shop.example.,https://www.shop.example' }],
  ];
  for (const [what, change] of SAFE) {
    it(`accepts ${what} when going live`, () => {
      assert.deepEqual(refused({ ...LIVE, ...change }), []);
    });
  }

  it('judges any value of the settings it checks without crashing: accepted, or refused naming only variables (property)', () => {
    const piece = fc.oneof(
      oddString,
      fc.constantFrom(
        '0.0.0.0/0',
        '::/0',
        '::ffff:0:0/96',
        '10.0.0.0/8',
        '99',
        'true',
        '1000000',
        '0',
        '-1',
        'https://pay.shop.example.',
        'https://[::1]/test',
        'whsec_',
        'whsec_====',
      ),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.string({ unit: 'binary' }),
      fc.uint8Array({ minLength: 0, maxLength: 48 }).map((b) => Buffer.from(b).toString(['hex', 'base64', 'base64url'][b.length % 3] as BufferEncoding)),
    );
    const names = [
      'TRUST_PROXY',
      'AUTH_FAILURES_PER_MINUTE',
      'BFF_MERCHANT_SECRET',
      'MERCHANT_WEBHOOK_SECRET',
      'PROVIDER_API_KEY',
      'PROVIDER_API_TOKEN',
      'BFF_PUBLIC_URL',
      'ALLOWED_ORIGINS',
      'PROVIDER_LINKS_URL',
      'PROVIDER_NATIVE_URL',
      'MERCHANT_NAME',
      'HOST',
    ] as const;
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...names), piece, { maxKeys: 4 }), (change) => {
        // Never a crash: the configuration loads, or says which variables are wrong and nothing else.
        const text = message({ ...LIVE, ...change });
        for (const line of text.split('\n').slice(1)) assert.match(line, /^ {2}[A-Z_]+: \S/, line);
      }),
      { numRuns: FUZZ_RUNS },
    );
  });

  it('going live without the earlier variant keys leaves its routes off and its key out of verification', async () => {
    const config = loadConfig({ ...LIVE, PROVIDER_LEGACY_API_KEY: '', PROVIDER_LEGACY_API_TOKEN: '' });
    assert.equal(config.provider.legacy, undefined);
    const bff = createBff(config, { store: createStore(':memory:'), fetch: () => Promise.reject(new Error('no provider here')), frame: null, sweepMs: 0 });
    try {
      const res = await bff.request('/v1/legacy/debts', { headers: { Authorization: `Bearer ${STRONG}` } });
      assert.equal(res.status, 404);
      const doc = (await (await bff.request('/v1/openapi.json')).json()) as { paths: Record<string, unknown> };
      assert.deepEqual(
        Object.keys(doc.paths).filter((p) => p.includes('legacy')),
        [],
      );
      // A result signed with the simulator's key of the earlier variant (public) verifies nothing.
      const dataReturn = Buffer.from(JSON.stringify({ reference: 'LIVE-1', status: 'OK' })).toString('base64');
      const forged = await bff.request('/v1/notifications/provider', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ dataReturn, signatureDataReturn: await signNotification(dataReturn, 'sandbox-business-key') }),
      });
      assert.equal(forged.status, 401);
    } finally {
      await bff.close();
    }
    assert.ok(loadConfig({ ...LIVE }).provider.legacy, 'with both keys, the variant is on');
  });

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
    assert.match(r.stderr, /^ {2}PROVIDER_NATIVE_ENV: "test" is not the native service's production environment; set its production segment \(production\)/m);
    assert.match(r.stderr, /^ {2}ALLOWED_ORIGINS: "http:\/\/shop\.example" is not an exact https:\/\/host\[:port\] origin/m);
    assert.doesNotMatch(r.stderr, /^\s+at /m);
    const wildcard = bff({ ...LIVE, ALLOWED_ORIGINS: 'https://*' });
    assert.equal(wildcard.status, 1);
    assert.match(wildcard.stderr, /^ {2}ALLOWED_ORIGINS: each origin must be exactly scheme:\/\/host\[:port\] \(no wildcard, path or separator\)$/m);
  });

  it('the rest of the unsafe settings stop boot together, one line per variable, no stack trace', () => {
    // A port past 65535 used to crash boot with a stack trace: now a sentence, before the rest.
    const port = bff({ ...LIVE, ALLOWED_ORIGINS: 'https://shop.example:99999', PROVIDER_NATIVE_ENV: 'uat' });
    assert.equal(port.status, 1);
    assert.doesNotMatch(port.stderr, /^\s+at |Error:/m);
    assert.deepEqual(
      [...port.stderr.matchAll(/^ {2}([A-Z_]+): /gm)].map((m) => m[1]),
      ['ALLOWED_ORIGINS'],
    );
    assert.match(port.stderr, /^ {2}ALLOWED_ORIGINS: each origin's port must be from 1 to 65535$/m);
    // The rest together (the CLI prints this message as it is, as the test above shows).
    const text = message({
      ...LIVE,
      BFF_MERCHANT_SECRET: 'CorrectHorseBatteryStaple2024!!Shop',
      PROVIDER_API_TOKEN: 'live-key',
      MERCHANT_WEBHOOK_URL: 'https://[64:ff9b::10.0.0.1]/hooks',
      ALLOWED_ORIGINS: 'https://shop.example,https://pay.shop.example',
      TRUST_PROXY: 'true',
      PROVIDER_NATIVE_ENV: 'uat',
    });
    assert.equal(text.split('\n').length, 1 + 6);
    assert.deepEqual([...text.matchAll(/^ {2}([A-Z_]+): /gm)].map((m) => m[1]).sort(), [
      'ALLOWED_ORIGINS',
      'BFF_MERCHANT_SECRET',
      'MERCHANT_WEBHOOK_URL',
      'PROVIDER_API_TOKEN',
      'PROVIDER_NATIVE_ENV',
      'TRUST_PROXY',
    ]);
    for (const secret of ['CorrectHorseBatteryStaple2024!!Shop', 'live-key']) assert.ok(!text.includes(secret), 'no secret is repeated');
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

/**
 * The going-live block of docs/provider.md as an operator fills it in: the placeholders (`…`)
 * with the values the comments point to, the database where this machine can write it.
 */
function documentedLiveBlock(): Record<string, string> {
  const doc = readFileSync(join(root, 'docs/provider.md'), 'utf8');
  const block = /## The variables that change[\s\S]*?```sh\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(block, 'docs/provider.md has its going-live block');
  const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
  /** What an operator puts for each placeholder: the provider's keys, new secrets, the shop's IBAN. */
  const fill: Record<string, () => string> = {
    PROVIDER_API_KEY: () => `pk_live_${randomBytes(12).toString('hex')}`,
    PROVIDER_API_TOKEN: () => `tk_live_${randomBytes(12).toString('hex')}`,
    PROVIDER_LEGACY_API_KEY: () => `lk_live_${randomBytes(12).toString('hex')}`,
    PROVIDER_LEGACY_API_TOKEN: () => `lt_live_${randomBytes(12).toString('hex')}`,
    BFF_MERCHANT_SECRET: secret,
    MERCHANT_WEBHOOK_SECRET: secret,
    MERCHANT_IBAN: () => 'ES7921000813610123456789',
  };
  const env: Record<string, string> = {};
  for (const line of block.split('\n')) {
    const m = /^([A-Z_]+)=("[^"]*"|\S*)/.exec(line);
    if (!m) continue;
    const [, name, raw] = m as unknown as [string, string, string];
    const value = raw.replace(/^"|"$/g, '');
    if (value.includes('…')) {
      assert.ok(fill[name], `docs/provider.md: no value known for the placeholder of ${name}`);
      env[name] = fill[name]();
    } else env[name] = value;
  }
  return env;
}

describe('the documented going-live configuration', () => {
  it("docs/provider.md's block, filled in, boots a BFF in production; the going-live checklist names each of its variables", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'bff-documented-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const documented = documentedLiveBlock();
    assert.equal(documented.PROVIDER_ENV, 'pro');
    const child = spawn(process.execPath, cliArgs('packages/bff/src/cli.ts'), {
      cwd: root,
      env: { ...process.env, ...documented, DATABASE_URL: `file:${join(dir, 'bff.db')}`, PORT: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const listening = new Promise<boolean>((resolve) => {
      const look = () => output.includes('bff: listening on') && resolve(true);
      child.stdout.on('data', look);
      void exited.then(() => resolve(false));
    });
    assert.ok(await listening, output);
    assert.match(output, /provider pro/);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, output);
    // docs/releases.md's checklist sends the operator through the same variables.
    const releases = readFileSync(join(root, 'docs/releases.md'), 'utf8');
    const checklist = releases.slice(releases.indexOf('## Going live'));
    for (const name of Object.keys(documented)) assert.match(checklist, new RegExp(`\`${name}[\`=]`), `docs/releases.md's going-live checklist names ${name}`);
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
