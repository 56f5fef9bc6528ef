/**
 * What `create-bank-checkout` does with its command line (cli.ts runs it): writes a new shop
 * (index.ts) and says what to run next. `--framework express|hono` chooses the server framework;
 * without it, a terminal is asked (`ask`), and anything else gets Express.
 */
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FRAMEWORKS, ScaffoldError, scaffold, type Framework } from './index.js';

export const USAGE = `Usage: npm create bank-checkout@latest <folder> [-- --framework express|hono]
       create-bank-checkout <folder> [--framework express|hono]

Writes a shop that takes pay-by-bank payments into <folder> (new, or empty): the product page,
the payment page with the isolated checkout, a verified webhook receiver, and a .env with fresh
secrets. Then: cd <folder> && npm install && npm start.

Options:
  --framework  express (default) or hono
  --help       this text`;

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Asks a question in a terminal; absent when there is none to ask. */
  ask?: (question: string) => Promise<string>;
}

/** Runs the command; the exit status: 0 written, 1 refused (a folder that is not empty), 2 a bad command line. */
export async function main(argv: string[], io: Io, cwd = process.cwd()): Promise<number> {
  const usage = (message: string) => {
    io.err(`create-bank-checkout: ${message}\n\n${USAGE}`);
    return 2;
  };
  let values: { framework?: string | undefined; help?: boolean | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { framework: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    }));
  } catch (err) {
    return usage(err instanceof Error ? err.message : String(err));
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (positionals.length > 1) return usage('one folder at a time');
  let dir = positionals[0];
  if (!dir && io.ask) dir = (await io.ask('Folder of the new shop (my-shop): ')) || 'my-shop';
  if (!dir) return usage('name the folder of the new shop');
  let framework = values.framework?.toLowerCase();
  if (!framework && io.ask) {
    const answer = (await io.ask('Server framework: 1) Express  2) Hono  (1): ')).toLowerCase();
    framework = answer === '2' || answer === 'hono' ? 'hono' : 'express';
  }
  framework ??= 'express';
  if (!(FRAMEWORKS as readonly string[]).includes(framework)) return usage(`--framework is ${FRAMEWORKS.join(' or ')}, not ${framework}`);
  try {
    const made = scaffold({ dir: resolve(cwd, dir), framework: framework as Framework });
    const where = relative(cwd, made.dir) || '.';
    io.out(`A shop on ${framework === 'hono' ? 'Hono' : 'Express'} in ${where} (${made.files.length} files, .env with fresh secrets).

Next:
  cd ${where}
  npm install
  npm start

Then open http://127.0.0.1:3000, order, and pay at Banco Aurora with its test values.`);
    return 0;
  } catch (err) {
    if (!(err instanceof ScaffoldError)) throw err;
    // The folder as it was given.
    io.err(`create-bank-checkout: ${err.message.replace(resolve(cwd, dir), dir)}`);
    return 1;
  }
}
