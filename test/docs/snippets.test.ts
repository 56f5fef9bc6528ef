/**
 * Every code block of README.md, packages/*\/README.md and docs/*.md is checked or marked:
 * - TypeScript and JavaScript blocks are type-checked, strictly, against the packages'
 *   sources (their `bank-checkout-source` export condition: no build needed), all in one
 *   TypeScript program, of which only the snippets are checked (the sources are `npm run
 *   typecheck`'s); `npm run check:install` type-checks the published declarations;
 * - HTML blocks: each `<bank-*>` tag and attribute exists in the custom elements manifest, each
 *   file a script loads from the package's `dist/` is one a build script writes (and is there,
 *   when `dist/` is), and inline module scripts are type-checked like the JavaScript blocks;
 * - CSS blocks: each `--bank-*` property and `::part()` is one the elements document;
 * - a block after `<!-- checked: <test file> -->` is run by that test (which names the doc);
 * - a block after `<!-- excerpt -->` is an excerpt: shell commands, configuration, other
 *   languages' sketches.
 * A block that is none of these, or that fails its check, fails the test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import ts from 'typescript';

const root = new URL('../../', import.meta.url).pathname;
const work = join(root, 'node_modules/.cache/bank-checkout-snippets');

type Block = { file: string; line: number; lang: string; code: string; mark: string };

/** The fenced blocks of a markdown file, with the marker comment before each (if any). */
function blocks(file: string): Block[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j]!)) j++;
    let k = i - 1;
    while (k >= 0 && !lines[k]!.trim()) k--;
    const before = k >= 0 ? lines[k]!.trim() : '';
    const indent = open[1]!.length;
    out.push({
      file,
      line: i + 1,
      lang: open[2]!,
      code: lines
        .slice(i + 1, j)
        .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
        .join('\n'),
      mark: /^<!--\s*(excerpt|checked:.*?)\s*-->$/.exec(before)?.[1] ?? '',
    });
    i = j;
  }
  return out;
}

const DOCS = [
  'README.md',
  ...readdirSync(join(root, 'packages')).map((p) => `packages/${p}/README.md`),
  ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`),
]
  .filter((f) => f.endsWith('.md') && existsSync(join(root, f)))
  .sort();

/** Free names the snippets use for the merchant's own things (their app, database, order key). */
const AMBIENT = `declare const BFF_URL: string;
declare const orderKey: string;
declare const app: import('express').Express;
declare const db: { query(sql: string, params: unknown[]): Promise<{ rowCount: number | null }> };
declare const orders: { settle(reference: string, state: string, mode: string): Promise<void> };
`;

type Manifest = {
  modules: { declarations?: { tagName?: string; attributes?: { name: string }[]; cssProperties?: { name: string }[]; cssParts?: { name: string }[] }[] }[];
};

function htmlProblems(code: string, manifest: Manifest): string[] {
  const decls = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.tagName);
  const problems: string[] = [];
  const global = new Set(['class', 'id', 'slot', 'part', 'lang', 'dir', 'hidden', 'style', 'title']);
  for (const m of code.matchAll(/<(bank-[a-z-]+)([^>]*)>/g)) {
    const decl = decls.find((d) => d.tagName === m[1]);
    if (!decl) {
      problems.push(`<${m[1]}> is no element of the kit`);
      continue;
    }
    for (const a of m[2]!.matchAll(/([a-z][a-z-]*)(?==|\s|$)/g)) {
      if (!global.has(a[1]!) && !a[1]!.startsWith('data-') && !a[1]!.startsWith('aria-') && !decl.attributes?.some((x) => x.name === a[1]))
        problems.push(`<${m[1]}> has no attribute ${a[1]}`);
    }
  }
  for (const m of code.matchAll(/@bank-checkout\/elements(?:@[^/"]+)?\/dist\/([^"'\s]+)/g)) {
    const file = m[1]!;
    if (!ELEMENTS_BUILD.includes(basename(file)))
      problems.push(`packages/elements/dist/${file} is written by no build script (${ELEMENTS_BUILD_SCRIPTS.join(', ')})`);
    else if (existsSync(join(root, 'packages/elements/dist')) && !existsSync(join(root, 'packages/elements/dist', file)))
      problems.push(`packages/elements/dist/${file} is not built`);
  }
  return problems;
}

function cssProblems(code: string, manifest: Manifest): string[] {
  const decls = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.tagName);
  const props = new Set(decls.flatMap((d) => d.cssProperties ?? []).map((p) => p.name));
  const problems: string[] = [];
  for (const m of code.matchAll(/(--bank-[a-z0-9-]+)\s*:/g)) if (!props.has(m[1]!)) problems.push(`${m[1]} is no documented custom property`);
  for (const m of code.matchAll(/(bank-[a-z-]+)::part\(([a-z0-9-]+)\)/g)) {
    const decl = decls.find((d) => d.tagName === m[1]);
    if (!decl?.cssParts?.some((p) => p.name === m[2])) problems.push(`${m[1]} has no part ${m[2]}`);
  }
  return problems;
}

/**
 * What no snippet may show, in any language (excerpts included): a page handed a client secret
 * outside the inline mode (an isolated checkout, the default, opens with its launch token), and,
 * in the guides (docs/), a program run through `npx` (its wrapper does not pass SIGTERM on to a
 * supervised server; `npx bank-checkout-bff secret` in a terminal is fine).
 */
function practiceProblems(b: Block): string[] {
  const problems: string[] = [];
  if (/client[-_]?secret/i.test(b.code) && !/\binline\b/.test(b.code))
    problems.push('hands out a client secret outside the inline mode: the isolated checkout (the default) opens with its launch token');
  if (b.file.startsWith('docs/') && /^\s*(?:[A-Z_]+=\S+\s+)*npx\s+(?!bank-checkout-bff secret\b)/m.test(b.code))
    problems.push('runs a program through npx: run `node …/dist/cli.js` itself');
  return problems;
}

/**
 * The packages a document's snippets import that it never installs (an `npm install` line of
 * one of its blocks): a recipe declares what it imports, a transitive dependency included. A
 * package's own README needs no line for the package itself.
 */
function undeclaredImports(file: string, all: Block[]): string[] {
  const installed = new Set<string>();
  for (const b of all)
    for (const m of b.code.matchAll(/\bnpm (?:install|i)\b([^\n#]*)/g))
      for (const word of m[1]!.trim().split(/\s+/)) if (word && !word.startsWith('-')) installed.add(word.replace(/(?<=.)@[^/]*$/, ''));
  const own = /^packages\/([^/]+)\/README\.md$/.exec(file)?.[1];
  if (own) installed.add(`@bank-checkout/${own}`);
  const imported = new Set<string>();
  for (const b of all.filter((x) => ['ts', 'tsx', 'js', 'jsx', 'mjs', 'html'].includes(x.lang)))
    for (const m of b.code.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"./][^'"]*)['"]/g)) {
      const spec = m[1]!;
      if (spec.startsWith('node:')) continue;
      imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  return [...imported].filter((p) => !installed.has(p));
}

/** The scripts that write the elements' one-file builds, and what they say (the files' names among it). */
const ELEMENTS_BUILD_SCRIPTS = ['scripts/build-elements.ts', 'scripts/frame-build.ts'];
const ELEMENTS_BUILD = ELEMENTS_BUILD_SCRIPTS.map((f) => readFileSync(join(root, f), 'utf8')).join('\n');

describe('documentation snippets', () => {
  it('every code block gives the page the launch token, runs no program through npx in the guides, and imports only what its document installs', () => {
    const problems = DOCS.flatMap(blocks).flatMap((b) => practiceProblems(b).map((p) => `${b.file}:${b.line}: ${p}`));
    for (const file of DOCS) problems.push(...undeclaredImports(file, blocks(file)).map((p) => `${file}: imports ${p} without an npm install line for it`));
    assert.deepEqual(problems, []);
    assert.deepEqual(
      undeclaredImports('docs/x.md', [{ file: 'docs/x.md', line: 1, lang: 'ts', code: "import { getRequestListener } from '@hono/node-server';", mark: '' }]),
      ['@hono/node-server'],
    );
    // The rules catch what they are for.
    const block = (code: string, file = 'docs/x.md'): Block => ({ file, line: 1, lang: 'ts', code, mark: '' });
    assert.equal(practiceProblems(block('const { clientSecret } = await bff.createCheckout(order);')).length, 1);
    assert.equal(practiceProblems(block("const { clientSecret } = await bff.createCheckout({ ...order, isolation: 'inline' });")).length, 0);
    assert.equal(practiceProblems(block('PORT=4020 \\\nnpx bank-checkout-bff')).length, 1);
    assert.equal(practiceProblems(block('npx bank-checkout-bff secret')).length, 0);
  });

  it('every code block is type-checked, checked, or marked as an excerpt, and each check passes', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'packages/elements/custom-elements.json'), 'utf8')) as Manifest;
    const all = DOCS.flatMap(blocks);
    const counts = { typed: 0, html: 0, css: 0, checked: 0, excerpt: 0 };
    const problems: string[] = [];
    const where = (b: Block) => `${b.file}:${b.line}`;
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    /** snippet file → the block it came from. */
    const sources = new Map<string, Block>();
    const typeCheck = (b: Block, code: string, ext: string) => {
      const name = `s${sources.size}-${b.file.replace(/[^a-z0-9]+/gi, '-')}-${b.line}.${ext}`;
      // Each snippet is a module of its own (top-level await, no clashes between snippets).
      writeFileSync(join(work, name), `${code}\nexport {};\n`);
      sources.set(name, b);
    };
    for (const b of all) {
      if (b.mark === 'excerpt') counts.excerpt++;
      else if (b.mark.startsWith('checked:')) {
        const test = b.mark.slice('checked:'.length).trim();
        const text = existsSync(join(root, test)) ? readFileSync(join(root, test), 'utf8') : '';
        if (!text.includes(b.file.split('/').pop()!)) problems.push(`${where(b)}: ${test} does not run this block (it should exist and name ${b.file})`);
        counts.checked++;
      } else if (['ts', 'tsx', 'js', 'jsx', 'mjs'].includes(b.lang)) {
        typeCheck(b, b.code, b.lang === 'mjs' ? 'js' : b.lang);
        counts.typed++;
      } else if (b.lang === 'html') {
        problems.push(...htmlProblems(b.code, manifest).map((p) => `${where(b)}: ${p}`));
        for (const s of b.code.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)) typeCheck(b, s[1]!, 'js');
        counts.html++;
      } else if (b.lang === 'css') {
        problems.push(...cssProblems(b.code, manifest).map((p) => `${where(b)}: ${p}`));
        counts.css++;
      } else problems.push(`${where(b)}: a \`${b.lang || 'plain'}\` block neither checked nor marked <!-- excerpt -->`);
    }
    // The checker itself: a snippet with a type error must be reported.
    writeFileSync(
      join(work, 'canary.ts'),
      "import '@bank-checkout/elements/frame';\nconst n: number = document.createElement('bank-checkout').checkoutSecret;\nexport {};\n",
    );
    writeFileSync(join(work, 'ambient.d.ts'), AMBIENT);
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          allowJs: true,
          checkJs: true,
          jsx: 'react-jsx',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          types: ['node'],
          // The packages' TypeScript sources, as inside the repository: no build is needed
          // first. The published declarations are type-checked by the install check.
          customConditions: ['bank-checkout-source'],
          experimentalDecorators: true,
          useDefineForClassFields: false,
        },
        include: ['*.ts', '*.tsx', '*.js', '*.jsx'],
      }),
    );
    // Only the snippets' own diagnostics: what they use of the sources is checked as they use
    // it, without checking every source file too (about half the CPU of running tsc).
    const config = ts.getParsedCommandLineOfConfigFile(
      join(work, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
      },
    )!;
    const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
    const snippets = program.getSourceFiles().filter((f) => f.fileName.startsWith(`${work}/`) && !f.fileName.endsWith('.d.ts'));
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...snippets.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
    ];
    const errors = diagnostics.map((d) => ({
      file: d.file ? relative(work, d.file.fileName) : '',
      line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
      text: `error TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    }));
    assert.ok(
      errors.some((e) => e.file === 'canary.ts'),
      `the type-check did not catch the canary's error:\n${errors.map((e) => `${e.file}(${e.line}): ${e.text}`).join('\n')}`,
    );
    for (const e of errors.filter((x) => x.file !== 'canary.ts')) {
      const b = sources.get(e.file);
      problems.push(b ? `${b.file}:${b.line + e.line}: ${e.text}` : `${e.file}(${e.line}): ${e.text}`);
    }
    const total = all.length;
    console.log(
      `snippets: ${total} code blocks in ${DOCS.length} files: ${counts.typed} type-checked, ${counts.html} HTML and ${counts.css} CSS checked, ${counts.checked} run by other tests, ${counts.excerpt} excerpts`,
    );
    assert.deepEqual(problems, []);
    assert.equal(counts.typed + counts.html + counts.css + counts.checked + counts.excerpt, total);
    assert.ok(counts.typed >= 10, `only ${counts.typed} blocks were type-checked (${relative(root, work)})`);
  });
});
