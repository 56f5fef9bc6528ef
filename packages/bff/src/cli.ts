#!/usr/bin/env node
/** `npm run bff`: the BFF as a Node server, configured only by environment variables. */
import { serve } from '@hono/node-server';
import { loadConfig, ConfigError } from './config.js';
import { createBff } from './app.js';

let config;
try {
  config = loadConfig(process.env);
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`bff: ${err.message}`);
    process.exit(1);
  }
  throw err;
}
const app = createBff(config);
try {
  await app.ready;
} catch (err) {
  console.error(`bff: the store could not start (DATABASE_URL): ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  console.log(`bff: listening on http://${config.host}:${info.port} (provider ${config.provider.env}, store ${app.parts.store.engine})`);
});
const stop = () => server.close(() => void app.close().finally(() => process.exit(0)));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
