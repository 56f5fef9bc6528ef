/**
 * The checkout API, mounted: CORS for the allowed origins only, then each route of
 * checkout.routes.ts with the middleware its declaration asks for (mount.ts) and its handler
 * (checkout.handlers.ts).
 */
import { corsAllowlist } from '../../http.js';
import { RATE_LIMIT_HEADERS } from '../../guards.js';
import { router } from '../../openapi.js';
import type { RouteDeps } from '../../parts.js';
import type { CheckoutEnv } from '../declare.js';
import { checkoutMount } from '../mount.js';
import * as h from './checkout.handlers.js';
import * as r from './checkout.routes.js';

export function checkoutRouter(d: RouteDeps) {
  const app = router<CheckoutEnv>();
  const mount = checkoutMount(d);
  // By path, so that preflights (OPTIONS) are answered too; `/checkout/*` also matches `/checkout`.
  const cors = corsAllowlist(d.config.allowedOrigins, {
    methods: ['GET', 'POST'],
    headers: ['Content-Type', 'X-Checkout-Secret'],
    expose: ['X-Request-Id', 'Retry-After', ...RATE_LIMIT_HEADERS],
    maxAgeSeconds: 600,
  });
  for (const path of ['/banks', '/checkout/*']) app.use(path, cors);

  app.openapi(mount(r.banks), h.banks(d));
  app.openapi(mount(r.view), h.view(d));
  app.openapi(mount(r.start), h.start(d));
  app.openapi(mount(r.frameLaunch), h.frameLaunch(d));
  app.openapi(mount(r.chooseBank), h.chooseBank(d));
  app.openapi(mount(r.login), h.login(d));
  app.openapi(mount(r.secondLogin), h.secondLogin(d));
  app.openapi(mount(r.chooseContract), h.chooseContract(d));
  app.openapi(mount(r.transfer), h.transfer(d));
  app.openapi(mount(r.validate), h.validate(d));
  app.openapi(mount(r.cancel), h.cancel(d));
  app.openapi(mount(r.back), h.back(d));
  app.openapi(mount(r.restart), h.restart(d));
  app.openapi(mount(r.redirect), h.redirect(d));
  app.openapi(mount(r.periodic), h.periodic(d));
  app.openapi(mount(r.handoff), h.handoff(d));
  app.openapi(mount(r.chooseMode), h.chooseMode(d));
  return app;
}
