/**
 * The OpenAPI side of the routes: every route is declared with `createRoute` (request and
 * response schemas, security, middleware), validated by @hono/zod-openapi, and the document at
 * /v1/openapi.json is generated from those same declarations.
 */
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import type { z } from 'zod';
import { errorBody } from '@bank-checkout/contract/schemas';
import { errors, zodIssues } from './errors.js';
import type { BffEnv } from './http.js';
import { BFF_VERSION } from './version.js';

/** What a failed request schema becomes: the BFF's 422 JSON error, with one issue per field. */
export const validationFailed = (result: { success: boolean; error?: { issues: readonly { path: PropertyKey[]; message: string }[] } }) => {
  if (!result.success) throw errors.validation(zodIssues(result.error?.issues ?? []));
};

/** A router whose request schemas fail with the BFF's JSON errors. */
export const router = <E extends BffEnv = BffEnv>() => new OpenAPIHono<E>({ defaultHook: (result) => validationFailed(result) });

export type Router = ReturnType<typeof router>;

/** The `security` of a route of the checkout API, and of the merchant API. */
export const SECURITY = {
  get checkout() {
    return [{ checkoutSecret: [] as string[] }];
  },
  get merchant() {
    return [{ merchantBearer: [] as string[] }];
  },
};

const errorContent = { 'application/json': { schema: errorBody } };

/** Error answers every route may give, in the one error shape. */
export const errorResponses = {
  422: { description: 'The request is not valid', content: errorContent },
  default: { description: 'An error (4xx or 5xx)', content: errorContent },
} as const;

/** A JSON response of `schema`. */
export const json = <S extends z.ZodType>(schema: S, description = 'OK') => ({ description, content: { 'application/json': { schema } } });

/** A JSON request body of `schema`; `required: false` for bodies that may be left out. */
export const jsonRequest = <S extends z.ZodType>(schema: S, required = true) => ({ required, content: { 'application/json': { schema } } });

/** A JSON answer as a route declares it: what `c.json(value, status)` gives for a `T`. */
export type JsonAnswer<T, U extends ContentfulStatusCode> = Response & TypedResponse<JSONParsed<T>, U, 'json'>;

/**
 * A JSON answer whose text was made beforehand (the cached bank list, a stored reply), sent as
 * it is. Hono types an answer by the value given to `c.json`; here there is only the text, so
 * this is the one place an answer's type is asserted: the caller names the `T` it was made from.
 */
export function jsonText<T>(c: Context, text: string): JsonAnswer<T, 200> {
  return c.body(text, 200, { 'Content-Type': 'application/json' }) as Response as JsonAnswer<T, 200>;
}

/** Adds the error answers to a route's responses. */
export const withErrors = <R extends RouteConfig>(route: R) => ({ ...route, responses: { ...errorResponses, ...route.responses } });

/**
 * The `operationId` of every operation, by `METHOD /path` as the document has it: what client
 * generators name their calls after. The merchant API's are the calls of `createMerchantClient`
 * (`@bank-checkout/bff/client`); a test keeps every operation named, each name once.
 */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  // The service
  'GET /health': 'health',
  'GET /ready': 'ready',
  'GET /v1/openapi.json': 'openApiDocument',
  // The checkout API (the elements, the checkout's frame)
  'GET /v1/banks': 'listBanks',
  'GET /v1/checkout': 'readCheckout',
  'GET /v1/checkout/start': 'startCheckout',
  'POST /v1/frame/launch': 'redeemLaunchToken',
  'GET /v1/frame': 'framePage',
  'GET /v1/frame/assets/{name}': 'frameAsset',
  'POST /v1/checkout/bank': 'chooseBank',
  'POST /v1/checkout/login': 'login',
  'POST /v1/checkout/second-login': 'secondLogin',
  'POST /v1/checkout/contract': 'chooseContract',
  'POST /v1/checkout/transfer': 'startTransfer',
  'POST /v1/checkout/validate': 'validate',
  'POST /v1/checkout/cancel': 'cancel',
  'POST /v1/checkout/back': 'back',
  'POST /v1/checkout/restart': 'restart',
  'POST /v1/checkout/redirect': 'redirect',
  'POST /v1/checkout/periodic': 'setUpPeriodic',
  'POST /v1/checkout/handoff': 'handOff',
  'POST /v1/checkout/mode': 'chooseMode',
  'GET /v1/handoff/{token}': 'openHandoff',
  'POST /v1/handoff/{token}': 'continueHandoff',
  // The merchant API
  'POST /v1/checkouts': 'createCheckout',
  'GET /v1/checkouts': 'listCheckouts',
  'GET /v1/checkouts/{id}': 'getCheckout',
  'POST /v1/checkouts/{id}/launch': 'launchCheckout',
  'POST /v1/checkouts/{id}/resolve': 'resolveCheckout',
  'POST /v1/checkouts/{id}/cancel': 'cancelCheckout',
  'GET /v1/funnel': 'funnel',
  'POST /v1/links': 'createLink',
  'POST /v1/links/periodic': 'createPeriodicLink',
  'POST /v1/links/periodic/cancel': 'cancelPeriodicLink',
  'GET /v1/orders': 'listOrders',
  'POST /v1/orders/{id}/enable': 'enableOrder',
  'POST /v1/orders/{id}/disable': 'disableOrder',
  'GET /v1/link-banks': 'linkBanks',
  'POST /v1/legacy/links': 'createLegacyLink',
  'GET /v1/legacy/debts': 'listLegacyDebts',
  'POST /v1/legacy/links/{id}/enable': 'enableLegacyLink',
  'POST /v1/legacy/links/{id}/disable': 'disableLegacyLink',
  'GET /v1/notifications': 'listNotifications',
  'GET /v1/webhooks/events': 'listWebhookEvents',
  'POST /v1/webhooks/events/{id}/redeliver': 'redeliverWebhookEvent',
  // The provider's calls
  'POST /v1/notifications/provider': 'receiveNotification',
  'POST /v1/return/ok': 'returnOk',
  'POST /v1/return/error': 'returnError',
};

/** The operation's id (OPERATION_IDS), or one made of its method and path for a route not listed there yet. */
export const operationIdOf = (method: string, path: string): string =>
  OPERATION_IDS[`${method.toUpperCase()} ${path}`] ??
  `${method.toLowerCase()}${path.replace(/\{([^}]+)\}/g, 'by-$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, ch?: string) => (ch ? ch.toUpperCase() : ''))}`;

/** The document of every route registered on `app` (built once, on first use). */
export function openApiDocument(app: OpenAPIHono<BffEnv>, serverUrl: string) {
  let doc: (ReturnType<typeof app.getOpenAPI31Document> & { paths: object }) | undefined;
  return () => {
    if (doc) return doc;
    app.openAPIRegistry.registerComponent('securitySchemes', 'checkoutSecret', { type: 'apiKey', in: 'header', name: 'X-Checkout-Secret' });
    app.openAPIRegistry.registerComponent('securitySchemes', 'merchantBearer', { type: 'http', scheme: 'bearer' });
    const generated = app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: { title: 'bank-checkout BFF', version: BFF_VERSION, description: 'Checkout API for the elements, merchant API, provider callbacks.' },
      servers: [{ url: serverUrl }],
    });
    // Typed for what it always has: the paths of the routes (the type leaves them optional).
    doc = { ...generated, paths: generated.paths ?? {} };
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>))
      for (const [method, op] of Object.entries(item))
        if (op && typeof op === 'object') (op as { operationId?: string }).operationId ??= operationIdOf(method, path);
    return doc;
  };
}
