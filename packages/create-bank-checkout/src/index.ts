/**
 * `create-bank-checkout`: writes a small shop that takes pay-by-bank payments with bank-checkout,
 * on Express or Hono: the product page, the order and its checkout (made on the BFF with the
 * merchant secret), the payment page with `<bank-checkout isolate>` and a fresh launch token,
 * a webhook receiver that verifies each event and handles it once, and `npm start`, which runs
 * the shop beside the BFF and the provider's simulator with a `.env` that works as it is (fresh
 * random secrets). `npm install && npm start` in the new folder pays a test payment.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FRAMEWORKS = ['express', 'hono'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

/** How each framework is named in the new shop's README. */
const FRAMEWORK_NAMES: Record<Framework, string> = { express: 'Express', hono: 'Hono' };

/** The dependencies of each framework's shop, besides the kit's. */
const FRAMEWORK_DEPENDENCIES: Record<Framework, Record<string, string>> = {
  express: { express: '^5.1.0' },
  hono: { hono: '^4.13.0' },
};
/** And its development dependencies: the types an editor (and `tsc --checkJs`) reads the shop's JSDoc with. */
const FRAMEWORK_DEV_DEPENDENCIES: Record<Framework, Record<string, string>> = {
  express: { '@types/express': '^5.0.0' },
  hono: {},
};

export interface Ports {
  shop: number;
  bff: number;
  sandbox: number;
}

/** The ports a new shop runs on unless told otherwise. */
export const DEFAULT_PORTS: Readonly<Ports> = { shop: 3000, bff: 4020, sandbox: 4010 };

export interface ScaffoldOptions {
  /** The folder to write: it must not exist yet, or be empty. */
  dir: string;
  framework: Framework;
  /** The ports of the shop, the BFF and the simulator (DEFAULT_PORTS for any not given): three different ports. */
  ports?: Partial<Ports>;
  /**
   * Where the kit's packages come from instead of the registry: a folder holding their tarballs
   * as `npm pack` names them (`bank-checkout-bff-0.1.0.tgz`, …), or their package folders
   * (`bff/`, `elements/`, …: the repository's `packages/`, built). See `kitFrom`.
   */
  kit?: string;
}

export interface Scaffolded {
  /** The folder written, absolute. */
  dir: string;
  /** The package name given to the shop. */
  name: string;
  /** The files written, relative to `dir`, sorted. */
  files: string[];
  /** The ports it runs on. */
  ports: Ports;
}

/** Refused options (a folder that is not empty, a framework it does not know). */
export class ScaffoldError extends Error {
  override readonly name = 'ScaffoldError';
}

const TEMPLATES = fileURLToPath(new URL('../templates/', import.meta.url));
/** The kit's version: the release this starter belongs to (all packages share one version). */
export const KIT_VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** A package name from a folder's name: lower case, npm's characters, never empty. */
export function packageName(dir: string): string {
  const name = basename(resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '');
  return name.slice(0, 214) || 'my-shop';
}

/** The kit's packages a shop installs: the BFF, the elements and the simulator, and what they depend on. */
export const KIT_PACKAGES = ['bff', 'elements', 'sandbox', 'contract', 'provider'] as const;
export type KitPackage = (typeof KIT_PACKAGES)[number];

/**
 * Where each of the kit's packages is in `dir`, as an npm dependency (`file:` and an absolute
 * path): its tarball as `npm pack` names it (`bank-checkout-<name>-<version>.tgz`; this release's
 * when there are several), else its package folder (`<name>/` with the package's package.json).
 * Refused, naming what is missing, when any is not there.
 */
export function kitFrom(dir: string): Record<KitPackage, string> {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new ScaffoldError(`--kit ${dir} is not a folder`);
  const files = readdirSync(root);
  const found = {} as Record<KitPackage, string>;
  for (const name of KIT_PACKAGES) {
    const tarballs = files.filter((f) => f.startsWith(`bank-checkout-${name}-`) && /-\d[\w.+-]*\.tgz$/.test(f));
    const tarball = tarballs.find((f) => f === `bank-checkout-${name}-${KIT_VERSION}.tgz`) ?? (tarballs.length === 1 ? tarballs[0] : undefined);
    const folder = join(root, name, 'package.json');
    if (tarball) found[name] = `file:${join(root, tarball)}`;
    else if (existsSync(folder) && (JSON.parse(readFileSync(folder, 'utf8')) as { name?: string }).name === `@bank-checkout/${name}`)
      found[name] = `file:${join(root, name)}`;
    else
      throw new ScaffoldError(
        `--kit ${dir} has no @bank-checkout/${name}: its tarball (bank-checkout-${name}-${KIT_VERSION}.tgz, as npm pack names it) or its package folder (${name}/)`,
      );
  }
  return found;
}

/** A secret of 256 random bits in Standard Webhooks' form (`whsec_` and base64), as `bank-checkout-bff secret` makes. */
const secret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The `.env` of a new shop: development on this machine, fresh secrets. */
export function envFile(ports: Ports): string {
  const shop = `http://127.0.0.1:${ports.shop}`;
  const bff = `http://127.0.0.1:${ports.bff}`;
  const sim = `http://127.0.0.1:${ports.sandbox}`;
  return `# Development on this machine: \`npm start\` runs the shop, the BFF and the provider's simulator.
# Made with fresh random secrets: keep this file out of version control.

# The shop
SHOP_PORT=${ports.shop}
SHOP_URL=${shop}

# The BFF, on an origin of its own (the payer types the bank password in its frame)
PORT=${ports.bff}
BFF_URL=${bff}
BFF_PUBLIC_URL=${bff}
ALLOWED_ORIGINS=${shop}
BFF_MERCHANT_SECRET=${secret()}
MERCHANT_NAME="Coffee shop"
DATABASE_URL=file:./data/bff.db
LOG_LEVEL=warn

# The BFF's signed events about each payment, to this shop
MERCHANT_WEBHOOK_URL=${shop}/webhooks/bank-checkout
MERCHANT_WEBHOOK_SECRET=${secret()}

# The provider: its simulator, with its published test keys. Going live: the real provider's
# addresses and keys, PROVIDER_ENV=pro, and an https:// BFF_PUBLIC_URL (the BFF refuses less).
SANDBOX_PORT=${ports.sandbox}
PROVIDER_LINKS_URL=${sim}
PROVIDER_NATIVE_URL=${sim}
`;
}

/** The new shop's package.json: the kit of this release from the registry, or from `local` (kitFrom). */
function manifest(name: string, framework: Framework, local?: Record<KitPackage, string>): string {
  const kit = (p: KitPackage) => local?.[p] ?? `^${KIT_VERSION}`;
  return `${JSON.stringify(
    {
      name,
      version: '0.1.0',
      private: true,
      type: 'module',
      engines: { node: '>=22.15' },
      scripts: {
        start: 'node --env-file=.env dev.js',
        serve: 'node server.js',
      },
      dependencies: {
        '@bank-checkout/bff': kit('bff'),
        '@bank-checkout/elements': kit('elements'),
        '@hono/node-server': '^2.1.8',
        ...FRAMEWORK_DEPENDENCIES[framework],
      },
      devDependencies: { '@bank-checkout/sandbox': kit('sandbox'), ...FRAMEWORK_DEV_DEPENDENCIES[framework] },
      // What the kit's packages depend on, from the same place.
      ...(local ? { overrides: { '@bank-checkout/contract': local.contract, '@bank-checkout/provider': local.provider } } : {}),
    },
    null,
    2,
  )}\n`;
}

/** The ports of `given`, DEFAULT_PORTS for the rest; refused unless each is a port and the three differ. */
export function portsOf(given: Partial<Ports> = {}): Ports {
  const ports: Ports = { shop: given.shop ?? DEFAULT_PORTS.shop, bff: given.bff ?? DEFAULT_PORTS.bff, sandbox: given.sandbox ?? DEFAULT_PORTS.sandbox };
  for (const [what, port] of Object.entries(ports))
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ScaffoldError(`the ${what} port is a number from 1 to 65535, not ${port}`);
  if (new Set(Object.values(ports)).size < 3)
    throw new ScaffoldError(`the shop, the BFF and the simulator need three different ports (${ports.shop}, ${ports.bff}, ${ports.sandbox})`);
  return ports;
}

/** Every file under `dir`, relative to `root`. */
function walk(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name), root) : [relative(root, join(dir, e.name))]));
}

/** Writes a new shop into `opts.dir`. */
export function scaffold(opts: ScaffoldOptions): Scaffolded {
  if (!(FRAMEWORKS as readonly string[]).includes(opts.framework))
    throw new ScaffoldError(`the framework is ${FRAMEWORKS.join(' or ')}, not ${opts.framework}`);
  const dir = resolve(opts.dir);
  if (existsSync(dir) && readdirSync(dir).length) throw new ScaffoldError(`${opts.dir} is not empty: choose a new folder`);
  const ports = portsOf(opts.ports);
  const local = opts.kit === undefined ? undefined : kitFrom(opts.kit);
  const name = packageName(dir);
  mkdirSync(dir, { recursive: true });
  for (const part of ['common', opts.framework]) cpSync(join(TEMPLATES, part), dir, { recursive: true });
  // npm leaves a package's .gitignore out of its tarball: the template is named without the dot.
  renameSync(join(dir, 'gitignore'), join(dir, '.gitignore'));
  const readme = join(dir, 'README.md');
  writeFileSync(
    readme,
    readFileSync(readme, 'utf8')
      .replaceAll('{{NAME}}', name)
      .replaceAll('{{FRAMEWORK}}', FRAMEWORK_NAMES[opts.framework])
      .replaceAll('{{SHOP_URL}}', `http://127.0.0.1:${ports.shop}`),
  );
  writeFileSync(join(dir, 'package.json'), manifest(name, opts.framework, local));
  // The secrets: readable by their owner alone.
  writeFileSync(join(dir, '.env'), envFile(ports), { mode: 0o600 });
  return { dir, name, files: walk(dir).sort(), ports };
}
