/**
 * How a route of the merchant API is declared: it names the bearer scheme, and gets the secret
 * check, its class's rate limit and (with a body) the JSON reader, in that order, from the
 * declaration itself. A route declared any other way has no merchant authentication, and the
 * route-walking test refuses it.
 */
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { jsonBody } from '../http.js';
import { countRequest, merchantAuth } from '../guards.js';
import { SECURITY, withErrors } from '../openapi.js';
import type { RouteDeps } from '../parts.js';

export function merchantRouteFactory(p: RouteDeps) {
  const auth = merchantAuth(p.config.merchantSecret, p.guards.merchant);
  /** Each class of merchant call has its own budget: a burst of reads never stops creations. */
  const limit =
    (kind: 'create' | 'read' | 'update'): MiddlewareHandler =>
    async (c, next) => {
      countRequest(c, p.merchantLimiter, `merchant:${kind}`);
      await next();
    };
  return <R extends RouteConfig>(def: R) =>
    createRoute(
      withErrors({
        ...def,
        tags: ['merchant'],
        security: SECURITY.merchant,
        middleware: [auth, limit(def.method === 'get' ? 'read' : def.path.includes('{id}') ? 'update' : 'create'), ...(def.request?.body ? [jsonBody()] : [])],
      }),
    );
}
