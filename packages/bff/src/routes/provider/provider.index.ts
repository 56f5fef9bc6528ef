/** The provider's calls, mounted: no middleware of ours, each result verified by its handler (provider.handlers.ts). */
import { router } from '../../openapi.js';
import type { RouteDeps } from '../../parts.js';
import * as h from './provider.handlers.js';
import * as r from './provider.routes.js';

export function providerRouter(d: RouteDeps) {
  const app = router();
  app.openapi(r.notification, h.notification(d));
  app.openapi(r.returnOk, h.returned(d, 'ok'));
  app.openapi(r.returnError, h.returned(d, 'error'));
  return app;
}
