/**
 * How a test starts one of the product's command-line programs (or the servers benchmarks and
 * journeys start: bench/lib/servers.ts) as a process of its own: under `npm test` the runner
 * compiles them with the test files (scripts/test-bundle.mjs) and names the compiled files in
 * TEST_COMPILED_CLIS, so the process starts as plain JavaScript; run any other way, the
 * TypeScript source runs through tsx. Plain JavaScript, so the browser suites' config
 * (web-test-runner.config.mjs) starts its journey servers the same way.
 */
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');

/** The arguments for `node` that run `cli` (a path from the repository's root), then `args`. */
export function cliArgs(cli, ...args) {
  const compiled = JSON.parse(process.env.TEST_COMPILED_CLIS ?? '{}')[cli];
  return compiled ? [compiled, ...args] : ['--import', 'tsx', join(root, cli), ...args];
}
