/**
 * The build's template minifier (scripts/template-minify.ts): what it changes in `html` and `css`
 * templates, and that the published JavaScript gets the same templates as the vite build.
 * Whether each minified sheet means the same is checked rule by rule in Chromium
 * (css-minify.browser.test.ts); the browser suites run on the sources.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { minifyCss } from '../../../scripts/css-minify.js';
import { minifyHtmlParts, minifyTemplates } from '../../../scripts/template-minify.js';

const SRC = new URL('../src/', import.meta.url).pathname;
const sources = (dir = SRC): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

/** Every `css`/`html` template of a module: tag and static parts, as JavaScript reads them. */
function templates(code: string, fileName: string): { tag: string; parts: string[] }[] {
  const sf = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found: { tag: string; parts: string[] }[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(n) && ts.isIdentifier(n.tag) && (n.tag.text === 'css' || n.tag.text === 'html')) {
      const t = n.template;
      const parts = ts.isNoSubstitutionTemplateLiteral(t)
        ? [t.rawText ?? t.text]
        : [t.head.rawText ?? t.head.text, ...t.templateSpans.map((s) => s.literal.rawText ?? s.literal.text)];
      found.push({ tag: n.tag.text, parts });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

test('html: a whitespace run with a line break becomes one space; other runs stay', () => {
  assert.deepEqual(minifyHtmlParts(['<div class="a">\n    <p>x  y</p>\n  </div>']), ['<div class="a"> <p>x  y</p> </div>']);
  // Between attributes and around interpolations, across the parts.
  assert.deepEqual(minifyHtmlParts(['<input\n  id=', '\n  part="input"\n  ?disabled=', '\n/>\n']), ['<input id=', ' part="input" ?disabled=', ' /> ']);
});

test('html: quoted values, comments and pre/textarea/script/style keep their whitespace', () => {
  assert.deepEqual(minifyHtmlParts(['<p title="a\n   b" data-x=\'c\n  d\'>\n</p>']), ['<p title="a\n   b" data-x=\'c\n  d\'> </p>']);
  // A quoted value that spans an interpolation.
  assert.deepEqual(minifyHtmlParts(['<p class="a\n ', '\n b">\n', '</p>']), ['<p class="a\n ', '\n b"> ', '</p>']);
  assert.deepEqual(minifyHtmlParts(['<!-- a\n  b -->\n<pre>\n  x\n</pre>\n<textarea>\n y</textarea>\n']), [
    '<!-- a\n  b --> <pre>\n  x\n</pre> <textarea>\n y</textarea> ',
  ]);
  assert.deepEqual(minifyHtmlParts(['<PRE class="x">\n', '\n</PRE>\n']), ['<PRE class="x">\n', '\n</PRE> ']);
  // `<` that opens no tag is text.
  assert.deepEqual(minifyHtmlParts(['a < b\n  c']), ['a < b c']);
});

test('css templates without interpolations are minified; with one, left whole', () => {
  const code = 'const a = css`\n  :host { display: block; }\n`;\nconst b = css`a { color: ${x}; }`;\nconst c = `\n  plain\n`;';
  assert.equal(minifyTemplates(code, 'a.ts'), 'const a = css`:host{display:block}`;\nconst b = css`a { color: ${x}; }`;\nconst c = `\n  plain\n`;');
});

test('nested templates, strings and comments are read as JavaScript reads them', () => {
  const code = "/* html`\n  not a template` */\nconst s = 'html`\\n  x`';\nconst t = html`<ul>\n  ${items.map((i) => html`<li>\n    ${i}\n  </li>`)}\n</ul>`;";
  assert.equal(
    minifyTemplates(code, 'a.js'),
    "/* html`\n  not a template` */\nconst s = 'html`\\n  x`';\nconst t = html`<ul> ${items.map((i) => html`<li> ${i} </li>`)} </ul>`;",
  );
});

test('the published JavaScript gets the same templates as the vite build (tsc writes `css `…`` and keeps the text)', () => {
  for (const file of sources()) {
    const source = readFileSync(file, 'utf8');
    const js = ts.transpileModule(source, {
      fileName: file,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, experimentalDecorators: true, useDefineForClassFields: false },
    }).outputText;
    const fromSource = templates(minifyTemplates(source, file), file);
    const fromJs = templates(minifyTemplates(js, file.replace(/\.ts$/, '.js')), file.replace(/\.ts$/, '.js'));
    assert.deepEqual(fromJs, fromSource, file);
  }
});

test('every style sheet of the kit becomes exactly minifyCss of its text (checked rule by rule in Chromium)', () => {
  let sheets = 0;
  for (const file of sources()) {
    const source = readFileSync(file, 'utf8');
    const before = templates(source, file);
    const after = templates(minifyTemplates(source, file), file);
    assert.equal(after.length, before.length, file);
    before.forEach((t, i) => {
      if (t.tag !== 'css') return;
      sheets++;
      assert.deepEqual(after[i]!.parts, t.parts.length === 1 ? [minifyCss(t.parts[0]!)] : t.parts, file);
    });
  }
  assert.ok(sheets >= 10, `found ${sheets} style sheets`);
});
