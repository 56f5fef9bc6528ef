/**
 * `create-bank-checkout` writes a shop that works as it is: for Express and for Hono, the files,
 * a package.json that names the kit's release and the framework (or the kit's local tarballs or
 * folders, `--kit`), a `.env` of its own fresh secrets readable by its owner alone, on the ports
 * it is given, and pages served with the embedding guide's policy, as it is. It refuses a folder
 * that is not empty, a framework it does not know, ports that are none or the same; its command
 * says how it is used. The whole journey (install from the packed packages with `--kit`, the
 * shop's code type-checked against the published kit, start, 10 payments on a CPU 4× slower,
 * webhook) runs in `npm run check:install`.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FRAMEWORKS, KIT_PACKAGES, KIT_VERSION, ScaffoldError, envFile, kitFrom, packageName, scaffold } from '../src/index.js';
import { USAGE, main } from '../src/command.js';
import { cliArgs } from '../../../test/support/cli.mjs';
import { docPolicy } from '../../../test/support/doc-csp.mjs';

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
        'lib/policy.js',
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

  it('runs on the ports it is given, and refuses ports that are none or the same', () => {
    const made = scaffold({ dir: join(temp, 'ported'), framework: 'hono', ports: { shop: 5400, bff: 5401, sandbox: 5402 } });
    assert.deepEqual(made.ports, { shop: 5400, bff: 5401, sandbox: 5402 });
    const env = parseEnv(readFileSync(join(made.dir, '.env'), 'utf8'));
    assert.deepEqual(
      [env.SHOP_PORT, env.SHOP_URL, env.PORT, env.BFF_PUBLIC_URL, env.ALLOWED_ORIGINS, env.SANDBOX_PORT, env.PROVIDER_NATIVE_URL],
      ['5400', 'http://127.0.0.1:5400', '5401', 'http://127.0.0.1:5401', 'http://127.0.0.1:5400', '5402', 'http://127.0.0.1:5402'],
    );
    assert.match(readFileSync(join(made.dir, 'README.md'), 'utf8'), /`SHOP_URL` in `\.env`, http:\/\/127\.0\.0\.1:5400\)/);
    assert.equal(scaffold({ dir: join(temp, 'one-port'), framework: 'hono', ports: { shop: 8080 } }).ports.bff, 4020, 'the others as by default');
    for (const ports of [{ shop: 0 }, { bff: 70000 }, { sandbox: 1.5 }, { shop: 4020 }, { bff: 3000 }])
      assert.throws(() => scaffold({ dir: join(temp, `bad-${JSON.stringify(ports)}`), framework: 'hono', ports }), ScaffoldError, JSON.stringify(ports));
  });

  it('installs the kit from local tarballs or package folders (--kit), naming what is missing', () => {
    const tarballs = join(temp, 'tarballs');
    mkdirSync(tarballs);
    for (const name of KIT_PACKAGES) writeFileSync(join(tarballs, `bank-checkout-${name}-${KIT_VERSION}.tgz`), '');
    writeFileSync(join(tarballs, `create-bank-checkout-${KIT_VERSION}.tgz`), '');
    const made = scaffold({ dir: join(temp, 'from-tarballs'), framework: 'express', kit: tarballs });
    const pkg = JSON.parse(readFileSync(join(made.dir, 'package.json'), 'utf8'));
    const file = (name: string) => `file:${join(tarballs, `bank-checkout-${name}-${KIT_VERSION}.tgz`)}`;
    assert.equal(pkg.dependencies['@bank-checkout/bff'], file('bff'));
    assert.equal(pkg.dependencies['@bank-checkout/elements'], file('elements'));
    assert.equal(pkg.devDependencies['@bank-checkout/sandbox'], file('sandbox'));
    assert.deepEqual(
      pkg.overrides,
      { '@bank-checkout/contract': file('contract'), '@bank-checkout/provider': file('provider') },
      'what the kit depends on, from there too',
    );
    // The repository's packages/ folder: each package's folder.
    const packages = fileURLToPath(new URL('../../', import.meta.url));
    assert.deepEqual(kitFrom(packages), Object.fromEntries(KIT_PACKAGES.map((name) => [name, `file:${join(packages, name)}`])));
    // From the registry without it.
    assert.equal(JSON.parse(readFileSync(join(temp, 'ported/package.json'), 'utf8')).overrides, undefined);
    const partial = join(temp, 'partial');
    mkdirSync(partial);
    writeFileSync(join(partial, `bank-checkout-bff-${KIT_VERSION}.tgz`), '');
    assert.throws(
      () => scaffold({ dir: join(temp, 'from-partial'), framework: 'express', kit: partial }),
      (err: unknown) => err instanceof ScaffoldError && /no @bank-checkout\/elements/.test(err.message),
    );
    assert.equal(existsSync(join(temp, 'from-partial')), false, 'nothing written');
    assert.throws(() => kitFrom(join(temp, 'nowhere')), /is not a folder/);
  });

  it("serves its pages with the embedding guide's policy for an isolated page, as it is", async () => {
    // The shop's own module (plain JavaScript of the template, typed by its JSDoc in the shop).
    const policy = new URL('../templates/common/lib/policy.js', import.meta.url).href;
    const { contentSecurityPolicy } = (await import(policy)) as { contentSecurityPolicy: (bffOrigin: string) => string };
    const bff = 'http://127.0.0.1:4020';
    assert.equal(contentSecurityPolicy(bff), docPolicy('isolated', bff));
    assert.doesNotMatch(contentSecurityPolicy(bff), /connect-src/);
    assert.match(readFileSync(new URL('../templates/common/lib/shop.js', import.meta.url), 'utf8'), /'Content-Security-Policy': policy/);
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
    assert.match(made.out, /^A shop on Express in cli-shop \(12 files/);
    assert.match(made.out, /cd cli-shop\n {2}npm install\n {2}npm start/);
    const hono = await run(['cli-hono', '--framework', 'Hono']);
    assert.equal(hono.status, 0, hono.err);
    assert.match(readFileSync(join(temp, 'cli-hono/package.json'), 'utf8'), /"hono"/);
    // A terminal is asked for what the command line leaves out.
    const asked = await run([], ['asked-shop', '2', '5300 5301 5302']);
    assert.equal(asked.status, 0, asked.err);
    assert.equal(asked.asked.length, 3);
    assert.match(readFileSync(join(temp, 'asked-shop/package.json'), 'utf8'), /"hono"/);
    assert.match(readFileSync(join(temp, 'asked-shop/.env'), 'utf8'), /^SHOP_PORT=5300$[\s\S]*^PORT=5301$[\s\S]*^SANDBOX_PORT=5302$/m);
    assert.match(asked.out, /open http:\/\/127\.0\.0\.1:5300,/);
    // Enter keeps the default ports; ports on the command line are not asked for.
    const kept = await run([], ['kept-shop', '1', '']);
    assert.match(readFileSync(join(temp, 'kept-shop/.env'), 'utf8'), /^SHOP_PORT=3000$/m);
    const given = await run(['given-shop', '--port', '5500', '--bff-port', '5501', '--sandbox-port', '5502'], ['1']);
    assert.deepEqual([given.status, given.asked.length], [0, 1], given.err);
    assert.match(readFileSync(join(temp, 'given-shop/.env'), 'utf8'), /^SHOP_PORT=5500$[\s\S]*^PORT=5501$[\s\S]*^SANDBOX_PORT=5502$/m);
    assert.equal(kept.status, 0);
    assert.equal((await run(['x-port', '--port', 'http'])).status, 2);
    assert.equal((await run(['same-ports', '--port', '4020'])).status, 1, 'the BFF’s port by default');
    assert.equal((await run([], ['typo-shop', '1', '5300 oops'])).status, 2);
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
