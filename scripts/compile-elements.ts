/**
 * Compiles packages/elements for publishing, as `tsc -p tsconfig.build.json` does (type check,
 * one JavaScript module and one `.d.ts` per source module in `dist/`), with two build steps on
 * the JavaScript:
 *
 * - Lit's own idiomatic-decorators transform (@lit/ts-transformers): `@customElement`,
 *   `@property` and `@state` become `customElements.define(…)` and `static properties`, the
 *   vanilla Lit that needs no decorator helper in every module nor Lit's decorator functions;
 * - the `css` and `html` templates minified (scripts/template-minify.ts, as in the vite build).
 *
 * The `.d.ts` files are TypeScript's, from the sources as written.
 */
import ts from 'typescript';
import { idiomaticDecoratorsTransformer } from '@lit/ts-transformers';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { minifyTemplates } from './template-minify.js';

const pkg = new URL('../packages/elements/', import.meta.url).pathname;

const host: ts.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => pkg, getNewLine: () => '\n' };
const config = ts.getParsedCommandLineOfConfigFile(`${pkg}tsconfig.build.json`, undefined, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.formatDiagnostic(d, host));
  },
});
if (!config) throw new Error('packages/elements/tsconfig.build.json could not be read');

const program = ts.createProgram(config.fileNames, config.options);
const result = program.emit(
  undefined,
  (fileName, text) => {
    mkdirSync(dirname(fileName), { recursive: true });
    writeFileSync(fileName, fileName.endsWith('.js') ? minifyTemplates(text, fileName) : text);
  },
  undefined,
  false,
  { before: [idiomaticDecoratorsTransformer(program)] },
);
const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
if (diagnostics.length) {
  console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  process.exit(1);
}
