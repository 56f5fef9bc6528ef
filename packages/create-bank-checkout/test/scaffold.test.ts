/**
 * `create-bank-checkout` writes a shop that works as it is: for Express and for Hono, the files,
 * a package.json that names the kit's release and the framework, a `.env` of its own fresh
 * secrets readable by its owner alone. It refuses a folder that is not empty and a framework it
 * does not know; its command says how it is used. The whole journey (install, the shop's code
 * type-checked against the published kit, start, pay, webhook) runs from the packed packages in
 * `npm run check:install`.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FRAMEWORKS, KIT_VERSION, ScaffoldError, envFile, packageName, scaffold } from '../src/index.js';
import { USAGE, main } from '../src/command.js';
import { cliArgs } from '../../../test/support/cli.mjs';

const temp = mkdtempSync(join(tmpdir(), 'create-bank-checkout-'));
after(() => rmSync(temp, { recursive: true, force: true }));

/** The `.env` as variables. */
const parseEnv = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1).replace(/^"|"$/g, '')]),
  );

describe('create-bank-checkout', () => {
  it('writes a shop for each framework, with the kit of its release and a .env of fresh secrets for its owner alone', () => {
    const secrets: string[] = [];
    for (const framework of FRAMEWORKS) {
      const made = scaffold({ dir: join(temp, `My Shop ${framework}`), framework });
      assert.equal(made.name, `my-shop-${framework}`);
      assert.deepEqual(made.files, [
        '.env',
        '.gitignore',
        'README.md',
        'dev.js',
        'lib/orders.js',
        'lib/pages.js',
        'lib/shop.js',
        'package.json',
        'public/shop.css',
        'server.js',
        'shop.js',
      ]);
      const pkg = JSON.parse(readFileSync(join(made.dir, 'package.json'), 'utf8'));
      assert.equal(pkg.scripts.start, 'node --env-file=.env dev.js');
      assert.deepEqual(Object.keys(pkg.dependencies).sort(), ['@bank-checkout/bff', '@bank-checkout/elements', '@hono/node-server', framework].sort());
      assert.equal(pkg.dependencies['@bank-checkout/bff'], `^${KIT_VERSION}`);
      assert.deepEqual(pkg.devDependencies, {
        '@bank-checkout/sandbox': `^${KIT_VERSION}`,
        ...(framework === 'express' ? { '@types/express': '^5.0.0' } : {}),
      });
      const shop = readFileSync(join(made.dir, 'shop.js'), 'utf8');
      assert.match(shop, framework === 'express' ? /from 'express'/ : /from 'hono'/);
      assert.equal(statSync(join(made.dir, '.env')).mode & 0o777, 0o600);
      const env = parseEnv(readFileSync(join(made.dir, '.env'), 'utf8'));
      for (const name of [
        'SHOP_URL',
        'BFF_URL',
        'BFF_PUBLIC_URL',
        'ALLOWED_ORIGINS',
        'MERCHANT_WEBHOOK_URL',
        'PROVIDER_LINKS_URL',
        'PROVIDER_NATIVE_URL',
        'DATABASE_URL',
      ])
        assert.ok(env[name], `${name} is set`);
      assert.equal(env.ALLOWED_ORIGINS, env.SHOP_URL, 'the shop may embed the checkout');
      assert.notEqual(new URL(env.BFF_PUBLIC_URL!).origin, new URL(env.SHOP_URL!).origin, 'the BFF has an origin of its own');
      for (const name of ['BFF_MERCHANT_SECRET', 'MERCHANT_WEBHOOK_SECRET']) {
        assert.match(env[name]!, /^whsec_[A-Za-z0-9+/]{43}=$/);
        secrets.push(env[name]!);
      }
      assert.match(readFileSync(join(made.dir, '.gitignore'), 'utf8'), /^\.env$/m);
      assert.match(
        readFileSync(join(made.dir, 'README.md'), 'utf8'),
        new RegExp(`^# my-shop-${framework}\\n[\\s\\S]*on ${framework === 'express' ? 'Express' : 'Hono'}\\.`),
      );
    }
    assert.equal(new Set(secrets).size, secrets.length, 'every secret fresh');
    assert.match(
      envFile({ shop: 5400, bff: 5401, sandbox: 5402 }),
      /^SHOP_URL=http:\/\/127\.0\.0\.1:5400$[\s\S]*^PROVIDER_NATIVE_URL=http:\/\/127\.0\.0\.1:5402$/m,
    );
  });

  it('refuses a folder that is not empty and a framework it does not know, and names the shop after its folder', () => {
    const taken = join(temp, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'index.html'), '<p>mine</p>');
    assert.throws(
      () => scaffold({ dir: taken, framework: 'express' }),
      (err: unknown) => err instanceof ScaffoldError && /is not empty/.test(err.message),
    );
    assert.equal(readFileSync(join(taken, 'index.html'), 'utf8'), '<p>mine</p>', 'nothing written');
    assert.throws(() => scaffold({ dir: join(temp, 'koa'), framework: 'koa' as never }), ScaffoldError);
    // An empty folder is fine.
    mkdirSync(join(temp, 'empty'));
    assert.equal(scaffold({ dir: join(temp, 'empty'), framework: 'hono' }).name, 'empty');
    assert.equal(packageName('/x/__Café Shop!__'), 'caf-shop-__');
    assert.equal(packageName('/x/...'), 'my-shop');
  });

  it('as a command: --help, Express when no terminal is asked, the answers of a terminal, a clear refusal otherwise', async () => {
    const run = async (args: string[], answers?: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const asked: string[] = [];
      const status = await main(
        args,
        {
          out: (t) => out.push(t),
          err: (t) => err.push(t),
          ...(answers ? { ask: async (q: string) => (asked.push(q), answers.shift() ?? '') } : {}),
        },
        temp,
      );
      return { status, out: out.join('\n'), err: err.join('\n'), asked };
    };
    const help = await run(['--help']);
    assert.deepEqual([help.status, help.out], [0, USAGE]);
    const made = await run(['cli-shop']);
    assert.equal(made.status, 0, made.err);
    assert.match(made.out, /^A shop on Express in cli-shop \(11 files/);
    assert.match(made.out, /cd cli-shop\n {2}npm install\n {2}npm start/);
    const hono = await run(['cli-hono', '--framework', 'Hono']);
    assert.equal(hono.status, 0, hono.err);
    assert.match(readFileSync(join(temp, 'cli-hono/package.json'), 'utf8'), /"hono"/);
    // A terminal is asked for what the command line leaves out.
    const asked = await run([], ['asked-shop', '2']);
    assert.equal(asked.status, 0, asked.err);
    assert.equal(asked.asked.length, 2);
    assert.match(readFileSync(join(temp, 'asked-shop/package.json'), 'utf8'), /"hono"/);
    const again = await run(['cli-shop']);
    assert.deepEqual([again.status, again.err], [1, 'create-bank-checkout: cli-shop is not empty: choose a new folder']);
    assert.equal((await run(['x', '--framework', 'koa'])).status, 2);
    assert.equal((await run([])).status, 2, 'no folder, and no terminal to ask');
    assert.equal((await run(['a', 'b'])).status, 2);
    assert.equal((await run(['a', '--frame', 'hono'])).status, 2);
    // The published bin runs it (one process).
    const bin = spawnSync(process.execPath, cliArgs('packages/create-bank-checkout/src/cli.ts', 'bin-shop', '--framework', 'hono'), {
      cwd: temp,
      encoding: 'utf8',
      input: '',
    });
    assert.equal(bin.status, 0, bin.stderr);
    assert.match(bin.stdout, /^A shop on Hono in bin-shop/);
  });
});
