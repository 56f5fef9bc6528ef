/**
 * One writer of a checkout, by types: code that reaches the store's writes of a checkout from
 * where it must not does not compile. A route is given the service and the store's lists
 * (packages/bff/src/parts.ts `RouteDeps`), never a checkout by its id (the service answers); an
 * action module is given the engine without the door's raw commit nor the store's writes
 * (packages/bff/src/checkout/core.ts `Core`). Each probe is type-checked as a file of its
 * package would be, with the repository's compiler settings (one program for all of them), and
 * must be refused for that reason, and only that one (the same probe with an allowed call
 * compiles).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = new URL('../../', import.meta.url).pathname;

const route = (call: string) => `import type { RouteDeps } from '../parts.js';\nexport const probe = async (p: RouteDeps) => ${call};\n`;
const action = (call: string) => `import type { Core } from './core.js';\nexport const probe = async (core: Core) => ${call};\n`;

/** Each probe: the file of the repository it stands as, and its text. */
const PROBES = {
  routeReads: ['packages/bff/src/routes/probe-read.ts', route('p.reader.listCheckouts({ limit: 1 })')],
  routeChecks: ['packages/bff/src/routes/probe-check.ts', route("p.reader.getCheckout('chk_1')")],
  routeWrites: ['packages/bff/src/routes/probe-write.ts', route("p.reader.updateCheckout('chk_1', 1, { state: 'succeeded' })")],
  routeStore: ['packages/bff/src/routes/probe-store.ts', route("p.store.updateCheckout('chk_1', 1, { state: 'succeeded' })")],
  actionReads: ['packages/bff/src/checkout/probe-read.ts', action("core.reader.getCheckout('chk_1')")],
  actionCommits: ['packages/bff/src/checkout/probe-commit.ts', action('core.commit')],
  actionWrites: ['packages/bff/src/checkout/probe-write.ts', action("core.reader.updateCheckout('chk_1', 1, {})")],
  actionStore: ['packages/bff/src/checkout/probe-store.ts', action("core.store.updateCheckout('chk_1', 1, {})")],
} as const;

/** The diagnostics of every probe, type-checked in one program with the repository's settings. */
function checkAll(): Record<keyof typeof PROBES, string[]> {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
  const files = new Map(Object.values(PROBES).map(([path, text]) => [join(ROOT, path), text]));
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => {
    const text = files.get(name);
    return text === undefined ? getSourceFile(name, version, ...rest) : ts.createSourceFile(name, text, version);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => files.has(name) || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  const out = {} as Record<keyof typeof PROBES, string[]>;
  for (const [key, [path]] of Object.entries(PROBES) as [keyof typeof PROBES, (typeof PROBES)[keyof typeof PROBES]][])
    out[key] = ts.getPreEmitDiagnostics(program, program.getSourceFile(join(ROOT, path))).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return out;
}

describe('one writer of a checkout, by types', () => {
  const d = checkAll();

  it('a route reaching the store’s checkout writer does not compile; its reader does', () => {
    assert.deepEqual(d.routeReads, [], 'a read compiles');
    assert.equal(d.routeWrites.length, 1, d.routeWrites.join('\n'));
    assert.match(d.routeWrites[0]!, /Property 'updateCheckout' does not exist/);
    assert.match(d.routeStore.join('\n'), /Property 'store' does not exist/);
  });

  it('a route reading a checkout from the store does not compile: the service answers', () => {
    assert.equal(d.routeChecks.length, 1, d.routeChecks.join('\n'));
    assert.match(d.routeChecks[0]!, /Property 'getCheckout' does not exist/);
  });

  it('an action module reaching the door’s raw commit, or the store’s writes, does not compile; its reads do', () => {
    assert.deepEqual(d.actionReads, [], 'a read compiles');
    assert.match(d.actionCommits.join('\n'), /Property 'commit' does not exist/);
    assert.match(d.actionWrites.join('\n'), /Property 'updateCheckout' does not exist/);
    assert.match(d.actionStore.join('\n'), /Property 'store' does not exist/);
  });
});
