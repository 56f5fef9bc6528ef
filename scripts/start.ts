/**
 * `npm start`: runs the simulator (and, as they land, the BFF and the demo) with the embedded
 * defaults, prints the URLs, and stops cleanly on Ctrl-C.
 */
import { serve } from '@hono/node-server';
import { createSandbox } from '../packages/sandbox/src/index.js';

const sandboxPort = Number(process.env.SANDBOX_PORT ?? 4010);
const sandbox = createSandbox({ publicUrl: `http://127.0.0.1:${sandboxPort}`, allowLocalNotif: true });
const server = serve({ fetch: sandbox.app.fetch, port: sandboxPort, hostname: '127.0.0.1' }, () => {
  console.log(`sandbox  http://127.0.0.1:${sandboxPort}  (links /san /pro, native /${sandbox.config.nativeEnv})`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
