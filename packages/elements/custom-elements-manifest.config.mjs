/**
 * The custom elements manifest (`custom-elements.json`) and the editor and framework data made
 * from it: VS Code custom data, JetBrains web-types, JSX typings for React/Preact and Solid.
 * Paths in the output are relative to this package and name the published JavaScript.
 */
import { customElementVsCodePlugin } from 'custom-element-vs-code-integration';
import { customElementJetBrainsPlugin } from 'custom-element-jet-brains-integration';
import { customElementJsxPlugin } from 'custom-element-jsx-integration';
import { customElementSolidJsPlugin } from 'custom-element-solidjs-integration';
import { readFileSync } from 'node:fs';

/** `src/x/y.ts` as the published `dist/x/y.js`. */
const published = (path) => path.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js');

/** Each kit event's detail type, read from `BankEventMap` in src/events.ts. */
const eventDetails = Object.fromEntries(
  [
    ...readFileSync(new URL('./src/events.ts', import.meta.url), 'utf8')
      .split('export interface BankEventMap')[1]
      .split('\n}')[0]
      .matchAll(/'([a-z-]+)': ([^;]+);/g),
  ].map((m) => [m[1], m[2]]),
);

function publishedPaths() {
  return {
    name: 'bank-checkout:published-paths',
    packageLinkPhase({ customElementsManifest }) {
      // In path order, so the file is the same whatever order the analyzer read the sources in.
      customElementsManifest.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      for (const mod of customElementsManifest.modules) {
        mod.path = published(mod.path);
        for (const d of mod.declarations ?? []) if (d.inheritedFrom?.module) d.inheritedFrom.module = published(d.inheritedFrom.module);
        for (const e of mod.exports ?? []) if (e.declaration?.module) e.declaration.module = published(e.declaration.module);
        for (const d of mod.declarations ?? []) {
          for (const m of d.members ?? []) if (m.inheritedFrom?.module) m.inheritedFrom.module = published(m.inheritedFrom.module);
          for (const a of d.attributes ?? []) if (a.inheritedFrom?.module) a.inheritedFrom.module = published(a.inheritedFrom.module);
          if (d.superclass?.module) d.superclass.module = published(d.superclass.module);
          for (const e of d.events ?? []) if (!e.type && eventDetails[e.name]) e.type = { text: `CustomEvent<${eventDetails[e.name]}>` };
        }
      }
    },
  };
}

const outdir = 'dist/editor';
/** Where each element's class is published: its own folder, but for the few kept beside the element they serve. */
const ELSEWHERE = { 'bank-rail-offer': '../bank-checkout/rail-offer.js', 'bank-receipt': '../bank-result/receipt.js' };
const componentTypePath = (_name, tag) => ELSEWHERE[tag] ?? `../${tag}/${tag}.js`;

export default {
  globs: ['src/**/*.ts'],
  // The thin host (src/frame/) defines the same tag as <bank-checkout isolate>; the manifest describes the full element.
  exclude: ['src/**/*.test.ts', 'src/frame/**'],
  outdir: '.',
  litelement: true,
  plugins: [
    publishedPaths(),
    customElementVsCodePlugin({ outdir, htmlFileName: 'vscode.html-custom-data.json', cssFileName: 'vscode.css-custom-data.json', hideLogs: true }),
    customElementJetBrainsPlugin({ outdir, fileName: 'web-types.json', packageJson: false, hideLogs: true }),
    customElementJsxPlugin({ outdir, fileName: 'jsx.d.ts', componentTypePath, hideLogs: true }),
    customElementSolidJsPlugin({ outdir, fileName: 'solid.d.ts', componentTypePath, hideLogs: true }),
  ],
};
