/**
 * `create-bank-checkout` writes a shop that works as it is: for Express and for Hono, the files,
 * a package.json that names the kit's release and the framework, a `.env` of its own fresh
 * secrets readable by its owner alone, and code that type-checks against the kit (strict, the
 * JSDoc types checked). It refuses a folder that is not empty and a framework it does not know;
 * its command says how it is used. The whole journey (install, start, pay, webhook) runs from the
 * packed packages in `npm run check:install`.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { FRAMEWORKS, KIT_VERSION, ScaffoldError, envFile, packageName, scaffold } from '../src/index.js';
import { cliArgs } from '../../../test/support/cli.mjs';

const root = new URL('../../../', import.meta.url).pathname;
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
      assert.deepEqual(pkg.devDependencies, { '@bank-checkout/sandbox': `^${KIT_VERSION}` });
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

  it("the shop's code type-checks against the kit, strictly, its JSDoc types included", () => {
    // Inside the repository, so that the kit's packages (and the frameworks) resolve.
    const work = join(root, 'node_modules/.cache/create-bank-checkout');
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    // One program for both shops: what they load of the kit is loaded once.
    const dirs = FRAMEWORKS.map((framework) => scaffold({ dir: join(work, framework), framework }).dir);
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          allowJs: true,
          checkJs: true,
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          customConditions: ['bank-checkout-source'],
          experimentalDecorators: true,
          useDefineForClassFields: false,
        },
        include: FRAMEWORKS.flatMap((f) => [`${f}/*.js`, `${f}/lib/*.js`]),
      }),
    );
    const config = ts.getParsedCommandLineOfConfigFile(
      join(work, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(String(d.messageText)) },
    )!;
    const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
    const problems: string[] = [];
    for (const dir of dirs) {
      const own = program.getSourceFiles().filter((f) => f.fileName.startsWith(`${dir}/`));
      assert.ok(own.length >= 6, `${dir}: ${own.length} files checked`);
      for (const f of own)
        for (const d of [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)])
          problems.push(`${f.fileName.slice(work.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    }
    rmSync(work, { recursive: true, force: true });
    assert.deepEqual(problems, []);
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

  it('as a command: --help, Express when no terminal is asked, a clear refusal otherwise', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, cliArgs('packages/create-bank-checkout/src/cli.ts', ...args), { cwd: temp, encoding: 'utf8', input: '' });
    const help = run('--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^Usage: npm create bank-checkout@latest <folder>/);
    const made = run('cli-shop');
    assert.equal(made.status, 0, made.stderr);
    assert.match(made.stdout, /^A shop on Express in cli-shop \(11 files/);
    assert.match(made.stdout, /cd cli-shop\n {2}npm install\n {2}npm start/);
    const hono = run('cli-hono', '--framework', 'Hono');
    assert.equal(hono.status, 0, hono.stderr);
    assert.match(readFileSync(join(temp, 'cli-hono/package.json'), 'utf8'), /"hono"/);
    const again = run('cli-shop');
    assert.equal(again.status, 1);
    assert.match(again.stderr, /cli-shop is not empty/);
    assert.equal(run('x', '--framework', 'koa').status, 2);
    assert.equal(run().status, 2, 'no folder, and no terminal to ask');
    assert.equal(run('a', 'b').status, 2);
  });
});
