/**
 * How a route is declared (the definitions of routes/<area>/<area>.routes.ts): with
 * `createRoute`, its tag, the security scheme it asks for and the error answers. A declaration
 * depends on nothing at run time; the middleware a route gets follows from what it declares
 * (mount.ts), so a route's authentication is part of its definition, never a list of paths.
 */
import { createRoute, type RouteConfig, type RouteHandler } from '@hono/zod-openapi';
import type { Env } from 'hono';
import type { BffEnv } from '../http.js';
import type { CheckoutRecord } from '../store/types.js';
import { SECURITY, withErrors } from '../openapi.js';

/** A route of the merchant API: the merchant's bearer secret, its class's rate limit, its JSON body (mount.ts). */
export const merchantRoute = <R extends Omit<RouteConfig, 'tags' | 'security' | 'middleware'>>(def: R) =>
  createRoute(withErrors({ ...def, tags: ['merchant'], security: SECURITY.merchant }));

/** The three classes of merchant call, each with its own rate limit: a burst of reads never stops creations. */
export type MerchantClass = 'create' | 'read' | 'update';
export const merchantClassOf = (route: Pick<RouteConfig, 'method' | 'path'>): MerchantClass =>
  route.method === 'get' ? 'read' : route.path.includes('{id}') ? 'update' : 'create';

/** A route of the checkout API: the checkout's client secret (or the frame's key), checked before its JSON body (mount.ts). */
export const checkoutRoute = <R extends Omit<RouteConfig, 'tags' | 'security' | 'middleware'>>(def: R) =>
  createRoute(withErrors({ ...def, tags: ['checkout'], security: SECURITY.checkout }));

/** What a route of the checkout API finds once its secret is checked: the caller's checkout. */
export type CheckoutEnv = { Variables: BffEnv['Variables'] & { checkout: CheckoutRecord } };

/** A route's handler, typed by its declaration (its path, query, body and answers). */
export type Handler<R extends RouteConfig, E extends Env = BffEnv> = RouteHandler<R, E>;
