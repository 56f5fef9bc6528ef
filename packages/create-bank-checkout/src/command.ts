/**
 * What `create-bank-checkout` does with its command line (cli.ts runs it): writes a new shop
 * (index.ts) and says what to run next. `--framework express|hono` chooses the server framework,
 * `--port`, `--bff-port` and `--sandbox-port` the ports; for what the command line leaves out, a
 * terminal is asked (`ask`), and anything else gets Express and the default ports. `--kit`
 * installs the kit from local tarballs or package folders instead of the registry.
 */
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PORTS, FRAMEWORKS, ScaffoldError, scaffold, type Framework, type Ports } from './index.js';

export const USAGE = `Usage: npm create bank-checkout@latest <folder> [-- options]
       create-bank-checkout <folder> [options]

Writes a shop that takes pay-by-bank payments into <folder> (new, or empty): the product page,
the payment page with the isolated checkout, a verified webhook receiver, and a .env with fresh
secrets. Then: cd <folder> && npm install && npm start.

Options:
  --framework     express (default) or hono
  --port          the shop's port (${DEFAULT_PORTS.shop})
  --bff-port      the BFF's port (${DEFAULT_PORTS.bff})
  --sandbox-port  the provider's simulator's port (${DEFAULT_PORTS.sandbox})
  --kit <folder>  install the kit from this folder instead of the registry: the packages'
                  tarballs as npm pack names them (bank-checkout-bff-<version>.tgz, …), or
                  their built package folders (bff/, elements/, …: a checkout's packages/)
  --help          this text

Without --framework or the ports, a terminal is asked for them.`;

/** A port given on the command line or in a terminal, or null when it is none. */
const port = (text: string | undefined): number | null => (text !== undefined && /^\d{1,5}$/.test(text.trim()) ? Number(text) : null);

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
  let values: {
    framework?: string | undefined;
    port?: string | undefined;
    'bff-port'?: string | undefined;
    'sandbox-port'?: string | undefined;
    kit?: string | undefined;
    help?: boolean | undefined;
  };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: {
        framework: { type: 'string' },
        port: { type: 'string' },
        'bff-port': { type: 'string' },
        'sandbox-port': { type: 'string' },
        kit: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
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
  const ports: Partial<Ports> = {};
  for (const [option, key] of [
    ['port', 'shop'],
    ['bff-port', 'bff'],
    ['sandbox-port', 'sandbox'],
  ] as const) {
    const given = values[option];
    if (given === undefined) continue;
    const n = port(given);
    if (n === null) return usage(`--${option} is a port number, not ${given}`);
    ports[key] = n;
  }
  if (!Object.keys(ports).length && io.ask) {
    const defaults = `${DEFAULT_PORTS.shop} ${DEFAULT_PORTS.bff} ${DEFAULT_PORTS.sandbox}`;
    const answer = (await io.ask(`Ports of the shop, the BFF and the simulator (${defaults}): `)).trim();
    if (answer) {
      const [shop, bff, sandbox] = answer.split(/[\s,]+/).map(port);
      if (shop == null || bff === null || sandbox === null) return usage(`the ports are three numbers such as ${defaults}, not ${answer}`);
      Object.assign(ports, { shop, ...(bff !== undefined ? { bff } : {}), ...(sandbox !== undefined ? { sandbox } : {}) });
    }
  }
  try {
    const made = scaffold({
      dir: resolve(cwd, dir),
      framework: framework as Framework,
      ports,
      ...(values.kit !== undefined ? { kit: resolve(cwd, values.kit) } : {}),
    });
    const where = relative(cwd, made.dir) || '.';
    io.out(`A shop on ${framework === 'hono' ? 'Hono' : 'Express'} in ${where} (${made.files.length} files, .env with fresh secrets${values.kit !== undefined ? `, the kit from ${values.kit}` : ''}).

Next:
  cd ${where}
  npm install
  npm start

Then open http://127.0.0.1:${made.ports.shop}, order, and pay at Banco Aurora with its test values.`);
    return 0;
  } catch (err) {
    if (!(err instanceof ScaffoldError)) throw err;
    // The folder as it was given.
    io.err(`create-bank-checkout: ${err.message.replace(resolve(cwd, dir), dir)}`);
    return 1;
  }
}
