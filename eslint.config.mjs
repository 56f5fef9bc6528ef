// ESLint (flat config): JavaScript's and typescript-eslint's recommended rules everywhere, and on
// the packages' and the demo's sources and on the tests typescript-eslint's strict rules with
// type information (the root tsconfig.json covers all of them)
// (`strict-type-checked`: a floating promise, a switch that misses a case, a needless assertion
// are errors); Lit's, web components' and lit-a11y's rules on the elements and the demo; and the
// one-way package boundary: a package, app, test or benchmark reaches another package through its
// published name, never its sources by relative path. `npm run lint` runs it with
// `prettier --check`; formatting itself is Prettier's (.prettierrc.json). Every rule turned off
// says why beside it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import litA11y from 'eslint-plugin-lit-a11y';

const PACKAGES = ['bff', 'contract', 'elements', 'provider', 'sandbox', 'create-bank-checkout'];
const APPS = ['demo'];
const ELEMENTS = ['packages/elements/src/**/*.ts'];
/** The packages' and the demo's sources, and the tests: linted with type information (scripts and benchmarks without). */
const TESTS = ['test/**/*.ts', 'packages/*/test/**/*.ts', 'apps/*/test/**/*.ts'];
const TYPED = ['packages/*/src/**/*.ts', 'apps/*/src/**/*.ts', ...TESTS];

/** `../…/packages/<name>/src` or `../…/<name>/src` as a relative specifier. */
const sourcesOf = (names) => `^\\.{1,2}/(?:\\.\\./)*(?:(?:packages|apps)/)?(?:${names.join('|')})/src(?:/|$)`;

/**
 * The package boundary for files of `owner` (null: outside any package): the sources of every
 * other package and app are out of reach by relative path, for static, re-exporting and dynamic
 * imports alike. A package's own tests may import its own sources.
 */
function boundary(files, owner) {
  const others = [...PACKAGES, ...APPS].filter((n) => n !== owner);
  const regex = sourcesOf(others);
  const message = 'Import another package by its published name (@bank-checkout/<name>), not its sources by relative path.';
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex, message }] }],
      'no-restricted-syntax': ['error', { selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/]`, message }],
    },
  };
}

export default tseslint.config(
  {
    ignores: ['**/node_modules/', '**/dist/', 'data/', 'coverage/', '.scratch/', '.tmp/', 'test-results/', 'packages/elements/custom-elements.json'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // TypeScript checks names and globals (tsc runs in CI) with the project's own settings.
      'no-undef': 'off',
      'no-redeclare': 'off',
      // An unused name is an error; a leading underscore or a rest sibling says it is on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // `any` and non-null assertions are kept for tests and narrow casts; tsc's strict mode reviews the rest.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Empty interfaces extending one type, and `{}` in generic defaults, are used on purpose.
      '@typescript-eslint/no-empty-object-type': 'off',
      // Declaration merging for custom elements (`interface HTMLElementTagNameMap`) needs namespaces in .d.ts.
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true, allowDefinitionFiles: true }],
      // Input rules reject control characters by naming them.
      'no-control-regex': 'off',
      // A `let` assigned once after the closures that read it (a server's app, built later).
      'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }],
    },
  },
  // The packages' sources, with type information: typescript-eslint's strict rules.
  ...tseslint.configs.strictTypeChecked.map((c) => ({ ...c, files: TYPED })),
  {
    files: TYPED,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A switch over a union names every member (a `default` stands for the rest).
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // Numbers and booleans print as they should in a template; objects, null and undefined are refused.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `() => doSomething()` for a callback that returns nothing reads as what it is.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // Off: an async function with no await is how a function that may throw at once answers
      // with a rejected promise instead (the store's drivers, the secret helpers).
      '@typescript-eslint/require-await': 'off',
      // Off, as above: indexed access is checked by tsc (noUncheckedIndexedAccess); a `!` after a check it cannot follow says so.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Off, as above: `{}` in generic defaults and interfaces that extend one type are meant.
      '@typescript-eslint/no-empty-object-type': 'off',
      // As above: an unused name is an error unless its leading underscore or a rest sibling says it is on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: TESTS,
    rules: {
      // node:test's `describe`, `it` and hooks return promises that the runner itself awaits; and
      // chai's `equal` asserts at once (@open-wc/semantic-dom-diff's types make every `equal` a
      // promise for the sake of its `.dom` comparisons, which no test uses).
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
            { from: 'package', package: '@open-wc/semantic-dom-diff', name: ['Equal', 'equal'] },
          ],
        },
      ],
      // Off for the tests: they read answers as the wire gives them (`await res.json()` is `any`)
      // and send shapes the types refuse on purpose; the assertions that follow are the check.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Off for the tests, as `any` above: a fake's body and a wire answer are read as `any`.
      '@typescript-eslint/no-explicit-any': 'off',
      // Off for the tests: a query helper takes the element type the test expects, as
      // `querySelector<T>` does; a wrong guess fails the test's next line.
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
      // Off for the tests: a test double keeps the method it replaces to wrap it (`.call(this, …)`)
      // or to put it back on the same object, where it is called as a method again.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ELEMENTS,
    rules: {
      // Off for the components: Lit calls a listener of its templates (`@click=${this.onClick}`) with the element as `this`.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  // The components (the demo's pages are server-rendered with hono/html, not Lit): Lit's rules,
  // web components' rules and lit-a11y's.
  { files: ELEMENTS, ...lit.configs['flat/recommended'] },
  { files: ELEMENTS, ...wc.configs['flat/recommended'] },
  { files: ELEMENTS, ...litA11y.configs.recommended },
  {
    // The search box is a combobox labelled by its <label for>, which the rule cannot see; the
    // list's clicks are delegated to the listbox, and the keyboard drives it from the combobox.
    files: ['packages/elements/src/bank-selector/bank-selector.ts'],
    rules: { 'lit-a11y/accessible-name': 'off', 'lit-a11y/click-events-have-key-events': 'off' },
  },
  // Packages meet only through their published names (see each package's `exports`).
  ...PACKAGES.map((name) => boundary([`packages/${name}/src/**`, `packages/${name}/test/**`], name)),
  ...APPS.map((name) => boundary([`apps/${name}/src/**`, `apps/${name}/test/**`], name)),
  boundary(['test/**', 'bench/**'], null),
);
