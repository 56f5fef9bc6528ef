/**
 * Minifies the static text of Lit's tagged templates at build time, with one mechanism for every
 * build: the library's vite build applies it to the TypeScript sources, the package build to
 * the JavaScript that `tsc` writes to `dist/` (what merchants bundle). Templates are found with
 * TypeScript's parser, so nested templates, strings and comments are read as JavaScript reads
 * them.
 *
 * - `css` templates without interpolations: `minifyCss` (scripts/css-minify.ts).
 * - `html` templates: a run of whitespace that holds a line break becomes one space. HTML
 *   collapses such a run to one space anyway, wherever `white-space` collapses (the kit never
 *   sets `pre`, `pre-wrap`, `pre-line` or `break-spaces`), and between attributes one space is
 *   as good as many; so only what is inside a quoted attribute value, a comment, or a `<pre>`,
 *   `<textarea>`, `<script>` or `<style>` element is left as written. Runs without a line break
 *   stay as they are.
 */
import ts from 'typescript';
import { minifyCss } from './css-minify.js';

/** Elements whose text keeps its whitespace (or is not HTML). */
const RAW_TEXT = ['pre', 'textarea', 'script', 'style'];

/**
 * The static parts of one `html` template, minified. The parts are read as one document with
 * the interpolations between them, so a quoted value or a comment may span an interpolation.
 */
export function minifyHtmlParts(parts: readonly string[]): string[] {
  type Where = 'text' | 'tag' | 'quoted' | 'comment' | 'raw';
  let where: Where = 'text';
  let quote = '';
  let raw = '';
  return parts.map((part) => {
    let out = '';
    let i = 0;
    while (i < part.length) {
      const c = part[i]!;
      if (where === 'comment') {
        const end = part.indexOf('-->', i);
        if (end < 0) return out + part.slice(i);
        out += part.slice(i, end + 3);
        i = end + 3;
        where = 'text';
      } else if (where === 'raw') {
        const end = part.toLowerCase().indexOf(`</${raw}`, i);
        if (end < 0) return out + part.slice(i);
        out += part.slice(i, end);
        i = end;
        where = 'text';
      } else if (where === 'quoted') {
        out += c;
        i++;
        if (c === quote) where = 'tag';
      } else if (/\s/.test(c)) {
        let j = i;
        while (j < part.length && /\s/.test(part[j]!)) j++;
        const run = part.slice(i, j);
        out += /[\n\r]/.test(run) ? ' ' : run;
        i = j;
      } else if (where === 'text') {
        if (part.startsWith('<!--', i)) {
          where = 'comment';
          out += '<!--';
          i += 4;
          continue;
        }
        const open = /^<([a-zA-Z][\w-]*)/.exec(part.slice(i));
        if (open) {
          where = 'tag';
          raw = RAW_TEXT.includes(open[1]!.toLowerCase()) ? open[1]!.toLowerCase() : '';
        } else if (part.startsWith('</', i)) {
          where = 'tag';
          raw = '';
        }
        out += c;
        i++;
      } else {
        // In a tag: attribute names, `=`, quoted or bare values, up to `>`.
        out += c;
        i++;
        if (c === '"' || c === "'") {
          where = 'quoted';
          quote = c;
        } else if (c === '>') {
          where = raw ? 'raw' : 'text';
        }
      }
    }
    return out;
  });
}

/** A module's source (TypeScript or JavaScript) with its `css` and `html` templates minified. */
export function minifyTemplates(code: string, fileName = 'module.ts'): string {
  if (!/\b(css|html)\s*`/.test(code)) return code;
  const kind = /\.[cm]?tsx?$/.test(fileName) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, kind);
  /** Replacements as [start, end, text], in source order. */
  const edits: [number, number, string][] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && (node.tag.text === 'css' || node.tag.text === 'html')) {
      const tpl = node.template;
      // Each static part's raw text lies between its delimiters (` … ${, } … ${, } … `).
      const pieces: ts.Node[] = ts.isNoSubstitutionTemplateLiteral(tpl) ? [tpl] : [tpl.head, ...tpl.templateSpans.map((s) => s.literal)];
      const spans = pieces.map((p) => {
        const start = p.getStart(sf) + 1;
        const end = p.getEnd() - (ts.isTemplateHead(p) || ts.isTemplateMiddle(p) ? 2 : 1);
        return [start, end] as const;
      });
      const texts = spans.map(([s, e]) => code.slice(s, e));
      let minified: string[] | null = null;
      if (node.tag.text === 'css') {
        if (texts.length === 1) minified = [minifyCss(texts[0]!)];
      } else {
        minified = minifyHtmlParts(texts);
      }
      if (minified) minified.forEach((text, i) => text !== texts[i] && edits.push([spans[i]![0], spans[i]![1], text]));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (!edits.length) return code;
  edits.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end, text] of edits) {
    out += code.slice(at, start) + text;
    at = end;
  }
  return out + code.slice(at);
}
