/**
 * The middleware of a route, from its declaration: a route that names the merchant's bearer
 * scheme gets the secret check and its class's rate limit, then (with a body) the JSON reader,
 * in that order; a route declared any other way gets no merchant authentication, and the
 * route-walking test (packages/bff/test/routes.test.ts) refuses it. A route of the checkout API
 * that names the checkout's secret gets the caller's checkout found (and counted), then (with a
 * body) the JSON reader; one that names no scheme (the frame's redemption) only the reader.
 */
import type { RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { errors } from '../errors.js';
import { fromOwnOrigin, jsonBody, proofUrlOf } from '../http.js';
import { countRequest, merchantAuth } from '../guards.js';
import type { RouteDeps } from '../parts.js';
import { merchantClassOf, type CheckoutEnv } from './declare.js';

const schemesOf = (route: RouteConfig) => (route.security ?? []).flatMap((s) => Object.keys(s));

/** Gives a merchant route its middleware (what its declaration asks for). */
export function merchantMount(d: Pick<RouteDeps, 'config' | 'guards' | 'merchantLimiter'>) {
  const auth = merchantAuth(d.config.merchantSecret, d.guards.merchant);
  const limit =
    (kind: string): MiddlewareHandler =>
    async (c, next) => {
      countRequest(c, d.merchantLimiter, `merchant:${kind}`);
      await next();
    };
  return <R extends RouteConfig>(route: R): R => {
    if (!schemesOf(route).includes('merchantBearer')) throw new Error(`${route.method} ${route.path}: not declared as a merchant route`);
    return { ...route, middleware: [auth, limit(merchantClassOf(route)), ...(route.request?.body ? [jsonBody()] : [])] };
  };
}

/** Gives a route of the checkout API its middleware (what its declaration asks for). */
export function checkoutMount(d: Pick<RouteDeps, 'config' | 'guards' | 'service' | 'limiter' | 'telemetry'>) {
  const proofUrl = proofUrlOf(d.config.publicUrl);
  /** Finds the caller's checkout (a frame key with its proof of possession) and counts the request against its rate limit. */
  const checkoutAuth: MiddlewareHandler<CheckoutEnv> = async (c, next) => {
    const rec = await d.guards.checkout(c, () =>
      d.service.bySecret(c.req.header('X-Checkout-Secret'), { proof: c.req.header('DPoP'), method: c.req.method, url: proofUrl(c) }),
    );
    // An isolated checkout answers its own frame only: no other origin (the shop's page included).
    if (rec.isolation === 'isolated' && !fromOwnOrigin(c, d.config.publicUrl)) throw errors.originRefused();
    countRequest(c, d.limiter, `checkout:${rec.id}`);
    d.telemetry.checkout(rec.id);
    c.set('checkout', rec);
    await next();
  };
  return <R extends RouteConfig>(route: R): R => {
    const body = route.request?.body;
    const read = body ? [jsonBody({ allowEmpty: body.required === false })] : [];
    return { ...route, middleware: schemesOf(route).includes('checkoutSecret') ? [checkoutAuth, ...read] : read };
  };
}
