/**
 * The merchant API, mounted: each route of merchant.routes.ts with the middleware its
 * declaration asks for (mount.ts) and its handler (merchant.handlers.ts). The earlier variant's
 * routes are served only when its keys are configured.
 */
import * as m from '@bank-checkout/contract/schemas';
import { router } from '../../openapi.js';
import type { RouteDeps } from '../../parts.js';
import { merchantMount } from '../mount.js';
import * as h from './merchant.handlers.js';
import * as r from './merchant.routes.js';

export function merchantRouter(d: RouteDeps) {
  const app = router();
  const mount = merchantMount(d);

  app.openapi(mount(r.createCheckout), h.createCheckout(d));
  app.openapi(mount(r.link), h.link(d));
  app.openapi(mount(r.periodicLink(d.now)), h.periodicLink(d));
  app.openapi(mount(r.cancelPeriodic), h.cancelPeriodic(d));
  app.openapi(mount(r.orders), h.orders(d));
  app.openapi(mount(r.toggle('/orders/{id}/enable', true, false)), h.toggle(d, true, false));
  app.openapi(mount(r.toggle('/orders/{id}/disable', false, false)), h.toggle(d, false, false));
  app.openapi(mount(r.linkBanks), h.linkBanks(d));

  // Off when going live without its keys: its routes are not served.
  const legacy = d.config.provider.legacy;
  if (legacy && d.upstream.legacyLinks) {
    if (legacy.variant === 'commerce') app.openapi(mount(r.legacySigner(m.legacyCommerceBody)), h.legacyCommerceSigner(d));
    else app.openapi(mount(r.legacySigner(m.legacyBusinessBody)), h.legacyBusinessSigner(d));
    app.openapi(mount(r.legacyDebts), h.legacyDebts(d));
    app.openapi(mount(r.toggle('/legacy/links/{id}/enable', true, true)), h.toggle(d, true, true));
    app.openapi(mount(r.toggle('/legacy/links/{id}/disable', false, true)), h.toggle(d, false, true));
  }

  app.openapi(mount(r.notifications), h.notifications(d));
  app.openapi(mount(r.listCheckouts), h.listCheckouts(d));
  app.openapi(mount(r.readCheckout), h.readCheckout(d));
  app.openapi(mount(r.launchCheckout), h.launchCheckout(d));
  app.openapi(mount(r.resolveCheckout), h.resolveCheckout(d));
  app.openapi(mount(r.cancelCheckout), h.cancelCheckout(d));
  app.openapi(mount(r.funnel), h.funnel(d));
  app.openapi(mount(r.webhookEvents), h.webhookEvents(d));
  app.openapi(mount(r.redeliverEvent), h.redeliverEvent(d));
  return app;
}
