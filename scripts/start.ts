/**
 * `npm start`: the demonstration shop, the BFF and the simulator on one machine, wired to each
 * other, with no keys and no configuration; prints the URLs (the shop first) and stops cleanly
 * on Ctrl-C. The BFF's store is SQLite under ./data/.
 *
 * Ports: DEMO_PORT (5173), BFF_PORT (4020), SANDBOX_PORT (4010); 0 picks a free one. The BFF
 * reads its other variables from the environment as `npm run bff` does (packages/bff/README.md);
 * ALLOWED_ORIGINS and MERCHANT_WEBHOOK_URL/SECRET are wired to the shop unless set.
 *
 * `startAll(options)` does the same from code (the screenshots script and the end-to-end
 * journeys use it with free ports and a temporary data folder).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createSandbox, type Sandbox } from '../packages/sandbox/src/index.js';
import { createBff, loadConfig, ConfigError, type BffApp } from '../packages/bff/src/index.js';
import { createDemo, WEBHOOK_PATH, type DemoApp } from '../apps/demo/src/index.js';
import { buildFramePage } from './frame-build.js';

export interface StartOptions {
  /** 0 picks a free port. Defaults: DEMO_PORT, BFF_PORT, SANDBOX_PORT, else 5173, 4020, 4010. */
  ports?: { demo?: number; bff?: number; sandbox?: number };
  /** Where the BFF's SQLite file lives (`<dataDir>/bff.db`). Default ./data. */
  dataDir?: string;
  /** The BFF's environment (default `process.env`); the wiring fills what it does not set. */
  env?: Record<string, string | undefined>;
  host?: string;
  /** The clock of the simulator and the BFF (default: `Date.now`); journeys move it to pass a deadline. */
  now?: () => number;
  /** What answers the BFF's requests, given the BFF (default: the BFF): a test's BFF that answers late. */
  bffAnswers?: (bff: FetchFn) => FetchFn;
  /** Where the BFF's log lines go (default: standard output). */
  log?: (line: string) => void;
}

export interface Started {
  urls: { demo: string; bff: string; sandbox: string };
  merchantSecret: string;
  sandbox: Sandbox;
  bff: BffApp;
  demo: DemoApp;
  /** Closes the three servers and the store. */
  stop: () => Promise<void>;
}

/** An app's fetch, given the Node adapter's `{incoming, outgoing}` as its env (the socket: who the client is, whether its body came whole). */
export type FetchFn = (req: Request, env: unknown) => Response | Promise<Response>;

const PORT_VARS = { demo: 'DEMO_PORT', bff: 'BFF_PORT', sandbox: 'SANDBOX_PORT' } as const;
const DEFAULT_PORTS = { demo: 5173, bff: 4020, sandbox: 4010 } as const;

function portOf(name: keyof typeof PORT_VARS, given: number | undefined, env: Record<string, string | undefined>): number {
  const raw = given ?? env[PORT_VARS[name]] ?? DEFAULT_PORTS[name];
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${PORT_VARS[name]} must be a port number, got ${JSON.stringify(raw)}`);
  return port;
}

/** Listens first (so a port of 0 is known), and hands requests to the app built afterwards. */
function listen(name: keyof typeof PORT_VARS, port: number, host: string): Promise<{ server: Server; port: number; route: (f: FetchFn) => void }> {
  let target: FetchFn | null = null;
  return new Promise((resolvePort, reject) => {
    const server = serve(
      { fetch: (req, env) => (target ? target(req, env) : new Response('starting', { status: 503 })), port, hostname: host },
      (info: AddressInfo) => resolvePort({ server, port: info.port, route: (f) => (target = f) }),
    ) as Server;
    // An idle connection is kept longer than a client keeps it for its next request (Node's 5 s
    // default is shorter than some clients', which then send on a connection being closed and get
    // ECONNRESET).
    server.keepAliveTimeout = 65_000;
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'EADDRINUSE' ? `${name}: port ${port} is in use (set ${PORT_VARS[name]})` : `${name}: ${err.message}`)),
    );
  });
}

export async function startAll(opts: StartOptions = {}): Promise<Started> {
  const env = opts.env ?? process.env;
  const host = opts.host ?? '127.0.0.1';
  const dataDir = resolve(opts.dataDir ?? 'data');
  const listening: Server[] = [];
  const closeServers = () =>
    Promise.all(
      listening.map(
        (s) =>
          new Promise<void>((done) => {
            s.close(() => done());
            s.closeAllConnections();
          }),
      ),
    );
  try {
    for (const name of ['sandbox', 'bff', 'demo'] as const) portOf(name, opts.ports?.[name], env);
    const [sp, bp, dp] = await Promise.all(
      (['sandbox', 'bff', 'demo'] as const).map(async (name) => {
        const l = await listen(name, portOf(name, opts.ports?.[name], env), host);
        listening.push(l.server);
        return l;
      }),
    );
    const urls = { sandbox: `http://${host}:${sp!.port}`, bff: `http://${host}:${bp!.port}`, demo: `http://${host}:${dp!.port}` };
    const demoOrigins = [urls.demo, ...(host === '127.0.0.1' ? [`http://localhost:${dp!.port}`] : [])];

    const sandbox = createSandbox({ publicUrl: urls.sandbox, allowLocalNotif: true, ...(opts.now ? { now: opts.now } : {}) });
    sp!.route(sandbox.app.fetch);

    mkdirSync(dataDir, { recursive: true });
    const webhookSecret = env.MERCHANT_WEBHOOK_SECRET || randomBytes(24).toString('base64url');
    const config = loadConfig({
      LOG_LEVEL: 'warn',
      ...env,
      PROVIDER_LINKS_URL: env.PROVIDER_LINKS_URL || urls.sandbox,
      PROVIDER_NATIVE_URL: env.PROVIDER_NATIVE_URL || urls.sandbox,
      BFF_PUBLIC_URL: env.BFF_PUBLIC_URL || urls.bff,
      DATABASE_URL: env.DATABASE_URL || `file:${join(dataDir, 'bff.db')}`,
      ALLOWED_ORIGINS: [...demoOrigins, ...(env.ALLOWED_ORIGINS ? env.ALLOWED_ORIGINS.split(',') : [])].join(','),
      MERCHANT_WEBHOOK_URL: env.MERCHANT_WEBHOOK_URL || `${urls.demo}${WEBHOOK_PATH}`,
      MERCHANT_WEBHOOK_SECRET: webhookSecret,
      PORT: String(bp!.port),
      HOST: host,
    });
    // The isolated checkout's page, built from the kit's sources (a published BFF serves the built package's).
    const frame = buildFramePage();
    const bff = createBff(config, { frame: () => frame, ...(opts.now ? { now: opts.now } : {}), ...(opts.log ? { log: opts.log } : {}) });
    await bff.ready;
    bp!.route(opts.bffAnswers ? opts.bffAnswers(bff.fetch) : bff.fetch);

    const demo = createDemo({
      bffUrl: urls.bff,
      browserBffUrl: config.publicUrl,
      merchantSecret: config.merchantSecret,
      publicUrl: urls.demo,
      aliasOrigins: demoOrigins.slice(1),
      webhookSecret,
    });
    await demo.ready;
    dp!.route(demo.fetch);

    return {
      urls,
      merchantSecret: config.merchantSecret,
      sandbox,
      bff,
      demo,
      stop: async () => {
        demo.close();
        await closeServers();
        await bff.close();
      },
    };
  } catch (err) {
    await closeServers();
    throw err;
  }
}

/* ---------- npm start ---------- */

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);

if (isMain) {
  try {
    const started = await startAll();
    const { urls } = started;
    console.log(`demo     ${urls.demo}   the shop: open this one (console at /console, embedding examples at /examples)`);
    console.log(`bff      ${urls.bff}   checkout and merchant API (OpenAPI at /v1/openapi.json), store ${started.bff.parts.store.engine}`);
    console.log(`sandbox  ${urls.sandbox}   provider simulator (links /san /pro, native /${started.sandbox.config.nativeEnv})`);
    console.log(`ready in ${process.uptime().toFixed(1)} s · data in ./data · Ctrl-C stops`);
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      console.log('stopping…');
      setTimeout(() => process.exit(0), 3000).unref();
      void started.stop().finally(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : `start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
