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
    return doc;
  };
}
