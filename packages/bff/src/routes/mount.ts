/**
 * The middleware of a route, from its declaration: a route that names the merchant's bearer
 * scheme gets the secret check and its class's rate limit, then (with a body) the JSON reader,
 * in that order; a route declared any other way gets no merchant authentication, and the
 * route-walking test (packages/bff/test/routes.test.ts) refuses it.
 */
import type { RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { jsonBody } from '../http.js';
import { countRequest, merchantAuth } from '../guards.js';
import type { RouteDeps } from '../parts.js';
import { merchantClassOf } from './declare.js';

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
    const schemes = (route.security ?? []).flatMap((s) => Object.keys(s));
    if (!schemes.includes('merchantBearer')) throw new Error(`${route.method} ${route.path}: not declared as a merchant route`);
    return { ...route, middleware: [auth, limit(merchantClassOf(route)), ...(route.request?.body ? [jsonBody()] : [])] };
  };
}
