#!/usr/bin/env node
/**
 * `bank-checkout-bff` (`npm run bff` in the repository): the BFF as a Node server, configured
 * only by environment variables. A bad configuration, or a store that cannot open, stops it with
 * one line naming the variable; SIGINT and SIGTERM stop it cleanly. `bank-checkout-bff prune`
 * applies the retention settings once (`--dry-run`: says what would go) and exits.
 */
import { loadConfig, ConfigError, type BffConfig } from './config.js';
import { createBff, type BffApp } from './app.js';
import { serveBff } from './server.js';
import { pruneCommand } from './retention.js';

const fail = (message: string): never => {
  console.error(`bff: ${message}`);
  process.exit(1);
};
const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

let config!: BffConfig;
try {
  config = loadConfig(process.env);
} catch (err) {
  if (err instanceof ConfigError) fail(err.message);
  throw err;
}
// `bank-checkout-bff prune [--dry-run]`: the retention settings applied once (retention.ts).
if (process.argv[2] === 'prune') {
  try {
    console.log(`bff: ${await pruneCommand(config, process.argv.slice(3))}`);
    process.exit(0);
  } catch (err) {
    fail(`prune: ${reason(err)}`);
  }
}
let app!: BffApp;
try {
  app = createBff(config);
  await app.ready;
} catch (err) {
  fail(`the store could not start (DATABASE_URL): ${reason(err)}`);
}
const { server, listening } = serveBff(app.fetch, { port: config.port, hostname: config.host, maxConnectionsPerAddress: config.maxConnectionsPerAddress });
server.on('error', (err) => fail(`cannot listen on ${config.host}:${config.port} (PORT, HOST): ${reason(err)}`));
const info = await listening;
console.log(`bff: listening on http://${config.host}:${info.port} (provider ${config.provider.env}, store ${app.parts.store.engine})`);
const stop = () => server.close(() => void app.close().finally(() => process.exit(0)));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
