/**
 * Builds of the repository. `vite build` makes the elements library; each build has a name and
 * `vite build --mode <name>` picks another (the demo adds its own entry to `builds`).
 */
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig, type Plugin, type UserConfig } from 'vite';
import { minifyTemplates } from './scripts/template-minify.js';

const root = fileURLToPath(new URL('.', import.meta.url));
export const ELEMENTS_SRC = `${root}packages/elements/src/`;

/** Entry points of the elements library: the whole kit, and each element on its own. */
export const ELEMENT_ENTRIES: Record<string, string> = {
  index: 'index.ts',
  'bank-checkout': 'bank-checkout/bank-checkout.ts',
  'bank-selector': 'bank-selector/bank-selector.ts',
  'bank-login-form': 'bank-login-form/bank-login-form.ts',
  'bank-second-login': 'bank-second-login/bank-second-login.ts',
  'bank-contract-picker': 'bank-contract-picker/bank-contract-picker.ts',
  'bank-account-picker': 'bank-account-picker/bank-account-picker.ts',
  'bank-challenge': 'bank-challenge/bank-challenge.ts',
  'bank-result': 'bank-result/bank-result.ts',
  'bank-periodic-form': 'bank-periodic-form/bank-periodic-form.ts',
};

export interface ElementsBuildOptions {
  /** Entries by output name, paths relative to packages/elements/src (default: all). */
  entries?: Record<string, string>;
  outDir?: string;
  /** Write files (default) or keep the output in memory (the size benchmark). */
  write?: boolean;
  /** Empty the output directory first (default true). */
  emptyOutDir?: boolean;
  /** Source maps (default: when writing). */
  sourcemap?: boolean;
  /**
   * One file: what the entry loads on demand (later steps, forms, languages, the isolated host)
   * is bundled into it, so nothing else is fetched and one integrity hash covers it all.
   */
  oneFile?: boolean;
}

/**
 * The elements' `css` and `html` templates, minified (scripts/template-minify.ts, the same step
 * as in the published `dist/`; it only changes text inside template literals).
 */
function minifyElementTemplates(): Plugin {
  return {
    name: 'bank-checkout:minify-templates',
    transform(code, id) {
      if (!id.startsWith(ELEMENTS_SRC) || !/\.ts$/.test(id)) return null;
      const minified = minifyTemplates(code, id);
      return minified === code ? null : { code: minified, map: null };
    },
  };
}

/**
 * The elements as ES modules in packages/elements/dist: one file per entry, shared code (Lit
 * included, once) in chunks, minified for es2022 with legacy decorators lowered. The BFF is
 * imported for types only, so no zod reaches the output.
 */
export function elementsLibrary(opts: ElementsBuildOptions = {}): UserConfig {
  const entries = opts.entries ?? ELEMENT_ENTRIES;
  return {
    root,
    logLevel: 'warn',
    publicDir: false,
    plugins: [minifyElementTemplates()],
    // The kit's own packages from their TypeScript sources.
    resolve: { conditions: ['bank-checkout-source', ...defaultClientConditions] },
    build: {
      outDir: opts.outDir ?? `${root}packages/elements/dist`,
      emptyOutDir: opts.emptyOutDir ?? true,
      write: opts.write ?? true,
      target: 'es2022',
      minify: true,
      sourcemap: opts.sourcemap ?? opts.write !== false,
      reportCompressedSize: false,
      // Vite keeps whitespace in ES libraries; this kit also ships as a drop-in script, so the
      // output is minified in full (pure annotations are kept for consumers' bundlers).
      rolldownOptions: {
        output: { minify: true, chunkFileNames: `${Object.keys(entries)[0]}.[name]-[hash].js`, ...(opts.oneFile ? { codeSplitting: false } : {}) },
      },
      lib: {
        entry: Object.fromEntries(Object.entries(entries).map(([name, path]) => [name, `${ELEMENTS_SRC}${path}`])),
        formats: ['es'],
        fileName: (_format, name) => `${name}.js`,
      },
    },
  };
}

/** Every named build; the demo build is added here by its owner. */
export const builds: Record<string, () => UserConfig> = {
  elements: () => elementsLibrary(),
};

export default defineConfig(({ mode }) => (builds[mode] ?? builds.elements!)());
