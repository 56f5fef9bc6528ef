#!/usr/bin/env node
/**
 * `npm create bank-checkout@latest <folder>` (which runs `create-bank-checkout <folder>`):
 * writes a new shop (index.ts) and says what to run next. `--framework express|hono` chooses
 * the server framework; without it, a terminal is asked, and anything else gets Express.
 */
import { createInterface } from 'node:readline/promises';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { FRAMEWORKS, ScaffoldError, scaffold, type Framework } from './index.js';

const USAGE = `Usage: npm create bank-checkout@latest <folder> [-- --framework express|hono]
       create-bank-checkout <folder> [--framework express|hono]

Writes a shop that takes pay-by-bank payments into <folder> (new, or empty): the product page,
the payment page with the isolated checkout, a verified webhook receiver, and a .env with fresh
secrets. Then: cd <folder> && npm install && npm start.

Options:
  --framework  express (default) or hono
  --help       this text`;

const fail = (message: string, status = 1): never => {
  console.error(`create-bank-checkout: ${message}`);
  process.exit(status);
};

let values: { framework?: string | undefined; help?: boolean | undefined };
let positionals: string[];
try {
  ({ values, positionals } = parseArgs({ options: { framework: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true }));
} catch (err) {
  fail(`${err instanceof Error ? err.message : err}\n\n${USAGE}`, 2);
}
if (values!.help) {
  console.log(USAGE);
  process.exit(0);
}
if (positionals!.length > 1) fail(`one folder at a time\n\n${USAGE}`, 2);

const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
const ask = async (question: string) => {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
};

let dir = positionals![0];
if (!dir && interactive) dir = (await ask('Folder of the new shop (my-shop): ')) || 'my-shop';
if (!dir) fail(`name the folder of the new shop\n\n${USAGE}`, 2);

let framework = values!.framework?.toLowerCase();
if (!framework && interactive) {
  const answer = (await ask('Server framework: 1) Express  2) Hono  (1): ')).toLowerCase();
  framework = answer === '2' || answer === 'hono' ? 'hono' : 'express';
}
framework ??= 'express';
if (!(FRAMEWORKS as readonly string[]).includes(framework)) fail(`--framework is ${FRAMEWORKS.join(' or ')}, not ${framework}`, 2);

try {
  const made = scaffold({ dir: dir!, framework: framework as Framework });
  const where = relative(process.cwd(), made.dir) || '.';
  console.log(`A shop on ${framework === 'hono' ? 'Hono' : 'Express'} in ${where} (${made.files.length} files, .env with fresh secrets).

Next:
  cd ${where}
  npm install
  npm start

Then open http://127.0.0.1:3000, order, and pay at Banco Aurora with its test values.`);
} catch (err) {
  if (err instanceof ScaffoldError) fail(err.message);
  throw err;
}
