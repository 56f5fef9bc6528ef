/**
 * How a test starts one of the product's command-line programs (or the servers benchmarks and
 * journeys start: bench/lib/servers.ts) as a process of its own: under
 * `npm test` the runner compiles them with the test files (scripts/test-bundle.mjs) and names
 * the compiled files in TEST_COMPILED_CLIS, so the process starts as plain JavaScript; run
 * any other way, the TypeScript source runs through tsx.
 */
import { join } from 'node:path';

export type Cli = 'packages/bff/src/cli.ts' | 'packages/sandbox/src/cli.ts' | 'bench/lib/servers.ts';

const root = join(import.meta.dirname, '../..');

/** The arguments for `node` that run `cli` (a path from the repository's root), then `args`. */
export function cliArgs(cli: Cli, ...args: string[]): string[] {
  const compiled = (JSON.parse(process.env.TEST_COMPILED_CLIS ?? '{}') as Partial<Record<Cli, string>>)[cli];
  return compiled ? [compiled, ...args] : ['--import', 'tsx', join(root, cli), ...args];
}
