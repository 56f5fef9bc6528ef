/** The hand-off link's routes, mounted (public: the token is its own proof). */
import { router } from '../../openapi.js';
import type { RouteDeps } from '../../parts.js';
import * as h from './handoff.handlers.js';
import * as r from './handoff.routes.js';

export function handoffRouter(d: RouteDeps) {
  const app = router();
  app.openapi(r.show, h.show(d));
  app.openapi(r.spend, h.spend(d));
  return app;
}
