/** The programs tests start as processes (test/support/cli.mjs). */
export type Cli = 'packages/bff/src/cli.ts' | 'packages/sandbox/src/cli.ts' | 'packages/create-bank-checkout/src/cli.ts' | 'bench/lib/servers.ts';
/** The arguments for `node` that run `cli` (a path from the repository's root), then `args`: compiled under `npm test`, else through tsx. */
export declare function cliArgs(cli: Cli, ...args: string[]): string[];
