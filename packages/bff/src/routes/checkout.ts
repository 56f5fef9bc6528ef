/**
 * The checkout API the elements call with `X-Checkout-Secret`. Every answer is the checkout
 * view; CORS only for the allowed origins; JSON bodies only.
 */
import { createHash } from 'node:crypto';
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { CheckoutRecord } from '../store/types.js';
import * as contract from '@bank-checkout/contract/schemas';
import { ApiError, StaleStep, errorResponse } from '../errors.js';
import { bankView } from '../checkout/machine.js';
import { corsAllowlist, countRequest, fromOwnOrigin, jsonBody, RATE_LIMIT_HEADERS, type BffEnv } from '../http.js';
import { json, jsonRequest, router, SECURITY, withErrors } from '../openapi.js';
import { toApiError } from '../upstream.js';
import type { AppParts } from '../parts.js';

const isEmpty = (schema: z.ZodType) => schema === (contract.emptyBody as z.ZodType);

/** Whether an If-None-Match header names `etag` (a list, weak or strong, or `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

const originRefused = () => new ApiError(403, 'origin_refused', "This checkout is isolated: it answers its own frame only, on the BFF's origin.");

type CheckoutEnv = { Variables: BffEnv['Variables'] & { checkout: CheckoutRecord } };

export function checkoutRoutes(p: AppParts) {
  const app = router<CheckoutEnv>();
  const corsMiddleware = corsAllowlist(p.config.allowedOrigins, {
    methods: ['GET', 'POST'],
    headers: ['Content-Type', 'X-Checkout-Secret'],
    expose: ['X-Request-Id', 'Retry-After', ...RATE_LIMIT_HEADERS],
    maxAgeSeconds: 600,
  });
  // By path, so that preflights (OPTIONS) are answered too; `/checkout/*` also matches `/checkout`.
  for (const path of ['/banks', '/checkout/*']) app.use(path, corsMiddleware);

  /** Finds the caller's checkout and counts the request against its rate limit. */
  const checkoutAuth: MiddlewareHandler<CheckoutEnv> = async (c, next) => {
    const rec = await p.guards.checkout(c, () => p.service.bySecret(c.req.header('X-Checkout-Secret')));
    // An isolated checkout answers its own frame only: no other origin (the shop's page included).
    if (rec.isolation === 'isolated' && !fromOwnOrigin(c, p.config.publicUrl)) throw originRefused();
    countRequest(c, p.limiter, `checkout:${rec.id}`);
    c.set('checkout', rec);
    await next();
  };

  /** A route of the checkout API: the client secret, then the body, then the handler. */
  const checkoutRoute = <B extends z.ZodType | undefined>(def: {
    method: 'get' | 'post';
    path: string;
    summary: string;
    body?: B;
    response?: z.ZodType;
    notModified?: boolean;
  }) =>
    createRoute(
      withErrors({
        method: def.method,
        path: def.path,
        summary: def.summary,
        tags: ['checkout'],
        security: SECURITY.checkout,
        middleware: def.body ? [checkoutAuth, jsonBody({ allowEmpty: isEmpty(def.body) })] : [checkoutAuth],
        ...(def.body ? { request: { body: jsonRequest(def.body, !isEmpty(def.body)) } } : {}),
        responses: {
          200: json(def.response ?? contract.checkoutView, 'The checkout view'),
          ...(def.notModified ? { 304: { description: 'Not modified: the ETag given in If-None-Match is still current' } } : {}),
        },
      }),
    );

  /** The bank list as the elements get it, serialised (and its ETag made) once per cached upstream list. */
  let banksBody: { from: unknown; json: string; etag: string } | null = null;
  const banksOf = (groups: Awaited<ReturnType<typeof p.upstream.nativeBanks>>) => {
    if (banksBody?.from !== groups) {
      const body: contract.BanksResponse = {
        groups: groups.map((g) => ({ group: g.group, name: g.name, defaultType: g.defaultType, types: g.types.map((t) => bankView(t, p.config.sandbox)) })),
      };
      const json = JSON.stringify(body);
      banksBody = { from: groups, json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
    }
    return banksBody;
  };

  app.openapi(
    checkoutRoute({
      method: 'get',
      path: '/banks',
      summary: 'Bank groups of the native service (cached; revalidate with If-None-Match)',
      response: contract.banksResponse,
      notModified: true,
    }),
    async (c) => {
      const groups = await p.upstream.nativeBanks().catch((err) => {
        throw toApiError(err);
      });
      // The browser may keep the list, but asks each time whether it is still current: a 304
      // then costs a few hundred bytes instead of the list (after "choose another bank", say).
      const { json, etag } = banksOf(groups);
      c.header('ETag', etag);
      c.header('Cache-Control', 'private, no-cache');
      if (matchesEtag(c.req.header('If-None-Match'), etag)) return c.body(null, 304) as never;
      // The cached serialisation, sent as it is (it has the banksResponse shape).
      c.header('Content-Type', 'application/json');
      return c.body(json) as never;
    },
  );

  app.openapi(checkoutRoute({ method: 'get', path: '/checkout', summary: 'The checkout view' }), async (c) =>
    c.json(await p.service.view(c.get('checkout')), 200),
  );

  app.openapi(
    checkoutRoute({
      method: 'get',
      path: '/checkout/start',
      summary: 'The checkout view, with the bank list when the view opens on it (the first screen in one call)',
      response: contract.checkoutStart,
    }),
    async (c) => {
      const view = await p.service.view(c.get('checkout'));
      const listed = view.state === 'select-bank' && view.mode === 'native';
      // Without the list (the provider did not answer), the element asks GET /v1/banks, which says why.
      const groups = listed ? await p.upstream.nativeBanks().catch(() => null) : null;
      c.header('Content-Type', 'application/json');
      return c.body(`{"view":${JSON.stringify(view)},"banks":${groups ? banksOf(groups).json : 'null'}}`) as never;
    },
  );

  const action = <S extends z.ZodType>(path: string, summary: string, schema: S, run: (rec: CheckoutRecord, body: z.output<S>) => Promise<CheckoutRecord>) =>
    app.openapi(checkoutRoute({ method: 'post', path, summary, body: schema }), async (c) => {
      const body = (c.req as unknown as { valid(target: 'json'): z.output<S> }).valid('json');
      const rec = c.get('checkout');
      try {
        return c.json(await p.service.view(await run(rec, body)), 200);
      } catch (err) {
        if (!(err instanceof StaleStep)) throw err;
        // Another window (or time) moved the checkout on: the answer shows where it is now.
        const now = await p.service.settle((await p.store.getCheckout(rec.id)) ?? rec);
        return errorResponse(c, err, { view: await p.service.view(now) }) as never;
      }
    });

  /**
   * The isolated checkout's frame redeems its page's launch token, once, from the BFF's own
   * origin, for the key it proves itself with from then on (kept in its memory only).
   */
  app.openapi(
    createRoute(
      withErrors({
        method: 'post',
        path: '/frame/launch',
        summary: "Redeem a launch token for the frame's key (the isolated checkout's frame only, from the BFF's own origin)",
        tags: ['checkout'],
        middleware: [jsonBody()],
        request: { body: jsonRequest(contract.frameLaunchBody) },
        responses: { 200: json(contract.frameLaunchAnswer, "The frame's key, for X-Checkout-Secret") },
      }),
    ),
    async (c) => {
      if (!fromOwnOrigin(c, p.config.publicUrl)) throw originRefused();
      const { token } = c.req.valid('json');
      const { key } = await p.guards
        .checkout(c, () => p.service.redeemLaunch(token))
        .catch((err: unknown) => {
          // A token presented again: its event for the merchant is in the outbox, delivered now.
          if (err instanceof ApiError && err.code === 'launch_used') p.webhook.kick();
          throw err;
        });
      return c.json({ key }, 200);
    },
  );

  action('/checkout/login', 'Log in at the chosen bank', contract.loginBody, (rec, b) => p.service.login(rec, b));
  action('/checkout/second-login', 'Answer the second login', contract.secondLoginBody, (rec, b) => p.service.secondLogin(rec, b.value));
  action('/checkout/contract', 'Choose a contract', contract.contractBody, (rec, b) => p.service.contract(rec, b.contractId));
  action('/checkout/transfer', 'Choose the account and start the transfer', contract.transferBody, (rec, b) => p.service.transfer(rec, b.accountId));
  action('/checkout/validate', 'Answer a round of validations', contract.validateBody, (rec, b) => p.service.validate(rec, b.values));
  action('/checkout/cancel', 'Cancel the checkout', contract.emptyBody, (rec) => p.service.cancel(rec));
  action('/checkout/back', 'One step back (another bank, person type, contract or account)', contract.emptyBody, (rec) => p.service.back(rec));
  action('/checkout/restart', 'Start again after a failure or a cancellation', contract.emptyBody, (rec) => p.service.restart(rec));
  action('/checkout/redirect', 'Create the signed payment URL', contract.emptyBody, (rec) => p.service.redirect(rec));
  action('/checkout/periodic', 'Create the signed periodic-payment URL', contract.periodicBody, (rec, b) => p.service.periodic(rec, b));
  app.openapi(
    checkoutRoute({
      method: 'post',
      path: '/checkout/handoff',
      summary: "A single-use link that opens this checkout's bank page on the payer's phone (while it waits there)",
      body: contract.emptyBody,
      response: contract.handoffAnswer,
    }),
    async (c) => c.json(await p.service.handoff.create(c.get('checkout')), 200),
  );
  action('/checkout/mode', 'Choose native, redirect or periodic', contract.modeBody, (rec, b) => p.service.chooseMode(rec, b.mode));
  return app;
}
