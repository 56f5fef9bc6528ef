/**
 * The elements' extras, after `tsc` wrote `dist/`: the custom elements manifest and the editor
 * and JSX data made from it (packages/elements/custom-elements-manifest.config.mjs), the JSX
 * entry points for React, Preact and Solid, and the one-file build `dist/bank-checkout.min.js`
 * whose SRI hash it prints.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { elementsLibrary } from '../vite.config.js';
import { buildFrameHost, buildFramePage } from './frame-build.js';
import { frameManifest } from '../packages/bff/src/frame.js';

const pkg = new URL('../packages/elements/', import.meta.url).pathname;
const editor = `${pkg}dist/editor/`;

const cem = spawnSync(process.execPath, [`${pkg}../../node_modules/@custom-elements-manifest/analyzer/cem.js`, 'analyze', '--quiet'], {
  cwd: pkg,
  stdio: 'inherit',
});
if (cem.status !== 0) throw new Error('custom elements manifest: the analyzer failed');

// The generated typings name events as CustomEvent<CustomEvent<Detail>>; the details come from events.ts.
const details = readFileSync(`${pkg}src/events.ts`, 'utf8')
  .match(/export interface \w+Detail\b/g)!
  .map((s) => s.split(' ').pop()!);
for (const file of ['jsx.d.ts', 'solid.d.ts']) {
  const text = readFileSync(editor + file, 'utf8').replace(/CustomEvent<CustomEvent<(.+?)>>(?=\) => void)/g, 'CustomEvent<$1>');
  const used = details.filter((d) => text.includes(d));
  writeFileSync(editor + file, `import type { ${used.join(', ')} } from '../events.js';\n${text}`);
}

/** `import '@bank-checkout/elements/jsx/<framework>'`: the kit's tags in that framework's JSX. */
const JSX_ENTRIES: Record<string, string> = {
  react: `import type { CustomElements } from './jsx.js';\ndeclare module 'react' {\n  namespace JSX {\n    interface IntrinsicElements extends CustomElements {}\n  }\n}\n`,
  preact: `import type { CustomElements } from './jsx.js';\ndeclare module 'preact' {\n  namespace JSX {\n    interface IntrinsicElements extends CustomElements {}\n  }\n}\n`,
  solid: `import type { CustomElements } from './solid.js';\ndeclare module 'solid-js' {\n  namespace JSX {\n    interface IntrinsicElements extends CustomElements {}\n  }\n}\n`,
};
for (const [name, types] of Object.entries(JSX_ENTRIES)) {
  writeFileSync(`${editor}jsx-${name}.d.ts`, `${types}export {};\n`);
  writeFileSync(`${editor}jsx-${name}.js`, 'export {};\n');
}

// The one-file build: Lit, every element and step, every language and the isolated mode's host in
// one file that loads nothing else, so its one integrity hash covers all a checkout runs.
await build({
  ...elementsLibrary({ entries: { 'bank-checkout.min': 'index.ts' }, outDir: `${pkg}dist`, emptyOutDir: false, sourcemap: false, oneFile: true }),
  configFile: false,
});
const min = readFileSync(`${pkg}dist/bank-checkout.min.js`);
const sri = `sha384-${createHash('sha384').update(min).digest('base64')}`;
writeFileSync(`${pkg}dist/bank-checkout.min.js.sri`, `${sri}\n`);
const extra = readdirSync(`${pkg}dist`).filter((f) => f.startsWith('bank-checkout.min.') && f.endsWith('.js') && f !== 'bank-checkout.min.js');
if (extra.length || /\bimport\s*\(|^import\b|[;}]import[\s{*"']/m.test(min.toString()))
  throw new Error(`bank-checkout.min.js is not one file: ${extra.join(', ') || 'it imports'}`);
console.log(`bank-checkout.min.js: ${min.length} B, ${gzipSync(min, { level: 9 }).length} B gzip, integrity="${sri}"`);

// The isolated mode: the frame page's modules for the BFF to serve (dist/frame-page/, with their
// manifest and the first screen's writer, which the BFF runs), and the thin host as one file with its SRI hash.
const framePage = await buildFramePage();
const pageDir = `${pkg}dist/frame-page/`;
rmSync(pageDir, { recursive: true, force: true });
mkdirSync(pageDir, { recursive: true });
for (const f of [...framePage.files, ...(framePage.firstScreen ? [framePage.firstScreen] : [])]) writeFileSync(pageDir + f.name, f.body);
writeFileSync(`${pageDir}manifest.json`, `${JSON.stringify(frameManifest(framePage), null, 2)}\n`);
const host = await buildFrameHost();
const hostSri = `sha384-${createHash('sha384').update(host).digest('base64')}`;
writeFileSync(`${pkg}dist/bank-checkout-frame.min.js`, host);
writeFileSync(`${pkg}dist/bank-checkout-frame.min.js.sri`, `${hostSri}\n`);
console.log(
  `bank-checkout-frame.min.js: ${host.length} B, ${gzipSync(host, { level: 9 }).length} B gzip, integrity="${hostSri}"; frame page: ${framePage.files.length} modules`,
);
