/**
 * Packages meet only through their published names. A test, benchmark, app or package that
 * reaches into another package's sources by relative path (`../../packages/bff/src/…`,
 * `../../sandbox/src/…`) would pass here and break for anyone using the published packages,
 * where only the `exports` of each package.json exist. Tests of a package may import that
 * same package's own sources.
 *
 * The rule lives in the lint configuration (eslint.config.mjs, `npm run lint` checks every
 * file); this suite checks that the configuration really catches each kind of crossing and lets
 * the allowed imports through.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const root = new URL('../..', import.meta.url).pathname;
// The configuration's own boundary rules, alone: the rules that need type information (and the
// program they build, seconds a run) have nothing to say about imports.
const BOUNDARY = new Set(['no-restricted-imports', 'no-restricted-syntax']);
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => BOUNDARY.has(ruleId),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

/** The package-boundary messages ESLint gives `code` as the file at repository path `file`. */
async function crossings(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('imports between packages (the lint rule)', () => {
  // `P/` stands for `../../packages/`, so that this file does not import what it describes.
  const P = (s: string) => s.replaceAll('P/', '../../packages/');

  it("refuses another package's sources by relative path, in every kind of import", async () => {
    const cases: [string, string][] = [
      ['test/security/rig.ts', P("import { a } from 'P/bff/src/index.js';")],
      ['test/security/rig.ts', P("import type { B } from 'P/bff/src/app.js';")],
      ['bench/lib/x.ts', P("import 'P/elements/src/index.js';")],
      ['test/e2e/x.ts', P("export { c } from 'P/contract/src/index.js';")],
      ['test/e2e/x.ts', P("const d = await import('P/sandbox/src/index.js');")],
      ['packages/bff/test/flow.ts', "import { e } from '../../sandbox/src/native/catalogue.js';"],
      ['packages/bff/src/checkout/x.ts', "import { e } from '../../../provider/src/index.js';"],
      ['apps/demo/test/demo.test.ts', "import { f } from '../../../packages/contract/src/index.js';"],
      ['packages/elements/src/x.ts', "import { g } from '../../../apps/demo/src/index.js';"],
    ];
    for (const [file, code] of cases) {
      const found = await crossings(file, code);
      assert.equal(found.length, 1, `${file}: ${code}`);
      assert.match(found[0]!, /published name/);
    }
  });

  it("lets through a package's own sources, test helpers, published names and other files", async () => {
    const cases: [string, string][] = [
      ['packages/bff/test/flow.ts', "import { a } from '../src/app.js';"],
      ['packages/sandbox/src/native/index.ts', "import { b } from '../context.js';"],
      ['test/faults/support.ts', P("import { c } from 'P/bff/test/harness.js';")],
      ['bench/lib/size.ts', "import d from '../../vite.config.js';"],
      ['test/e2e/x.ts', "import { e } from '@bank-checkout/sandbox/testing';"],
      ['test/e2e/x.ts', "const f = await import('@bank-checkout/bff');"],
    ];
    for (const [file, code] of cases) assert.deepEqual(await crossings(file, code), [], `${file}: ${code}`);
  });
});
