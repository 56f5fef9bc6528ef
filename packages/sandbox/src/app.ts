/**
 * The simulator: the provider's test environment on one machine. Payment-link service under
 * `/san` and `/pro` (with its hosted gateway pages and short URLs), native service under
 * `/<nativeEnv>` (default `/test`), and a fault switch under `/__sandbox` for tests.
 */
import { Hono } from 'hono';
import { resolveConfig, type SandboxConfig } from './context.js';
import { createFaults } from './faults.js';
import { createLinksService } from './links/index.js';
import { createNativeService } from './native/index.js';

export interface Sandbox {
  app: Hono;
  config: SandboxConfig;
  faults: ReturnType<typeof createFaults>;
}

export function createSandbox(partial: Partial<SandboxConfig> = {}): Sandbox {
  const faults = createFaults(partial.now ?? Date.now);
  // The simulator's clock is the fault switch's clock, so tests can move time forward.
  const config = resolveConfig({ ...partial, now: faults.now });
  const app = new Hono();
  app.use('*', faults.middleware);
  app.route('/__sandbox', faults.routes);
  app.route('/', createLinksService(config).app);
  app.route('/', createNativeService(config).app);
  app.notFound((c) => c.json({ status: 'E301', description: `Unknown path ${c.req.method} ${c.req.path}` }, 404));
  app.onError((err, c) => {
    console.error(`sandbox: ${c.req.method} ${c.req.path}: ${err instanceof Error ? err.message : String(err)}`);
    return c.json({ status: 'E300', description: 'Internal error of the simulator' }, 500);
  });
  return { app, config, faults };
}
