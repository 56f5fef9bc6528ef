/**
 * The checkout API the elements call with `X-Checkout-Secret`. Every answer is the checkout
 * view; CORS only for the allowed origins; JSON bodies only.
 */
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { CheckoutRecord } from '../store/types.js';
import * as contract from '@bank-checkout/contract/schemas';
import { ApiError, StaleStep, errorResponse } from '../errors.js';
import { corsAllowlist, fromOwnOrigin, jsonBody, type BffEnv } from '../http.js';
import { countRequest, RATE_LIMIT_HEADERS } from '../guards.js';
import { json, jsonRequest, jsonText, router, SECURITY, withErrors } from '../openapi.js';
import { toApiError } from '../upstream.js';
import type { RouteDeps } from '../parts.js';

/** Bodies that may be left out (an action without data; a hand-off without a language). */
const isEmpty = (schema: z.ZodType) => schema === contract.emptyBody || schema === contract.handoffBody;

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

export function checkoutRoutes(p: RouteDeps) {
  const app = router<CheckoutEnv>();
  const publicBase = p.config.publicUrl.replace(/\/+$/, '');
  const publicOrigin = new URL(p.config.publicUrl).origin;
  /**
   * A request a browser made from a document of the BFF's own origin, as it says itself: a
   * same-origin fetch carries `Sec-Fetch-Site: same-origin` and the `Origin` of its document.
   * A server, or a page elsewhere, cannot pass for the frame.
   */
  const fromTheFrame = (c: Context) => c.req.header('Sec-Fetch-Site') === 'same-origin' && c.req.header('Origin') === publicOrigin;
  const corsMiddleware = corsAllowlist(p.config.allowedOrigins, {
    methods: ['GET', 'POST'],
    headers: ['Content-Type', 'X-Checkout-Secret'],
    expose: ['X-Request-Id', 'Retry-After', ...RATE_LIMIT_HEADERS],
    maxAgeSeconds: 600,
  });
  // By path, so that preflights (OPTIONS) are answered too; `/checkout/*` also matches `/checkout`.
  for (const path of ['/banks', '/checkout/*']) app.use(path, corsMiddleware);

  /** The address a proof must name for this request: the BFF's public address and the API path, no query. */
  const proofUrl = (c: Context) => `${publicBase}${c.req.path.slice(Math.max(0, c.req.path.indexOf('/v1/')))}`;

  /** Finds the caller's checkout (a frame key with its proof of possession) and counts the request against its rate limit. */
  const checkoutAuth: MiddlewareHandler<CheckoutEnv> = async (c, next) => {
    const rec = await p.guards.checkout(c, () =>
      p.service.bySecret(c.req.header('X-Checkout-Secret'), { proof: c.req.header('DPoP'), method: c.req.method, url: proofUrl(c) }),
    );
    // An isolated checkout answers its own frame only: no other origin (the shop's page included).
    if (rec.isolation === 'isolated' && !fromOwnOrigin(c, p.config.publicUrl)) throw originRefused();
    countRequest(c, p.limiter, `checkout:${rec.id}`);
    p.telemetry.checkout(rec.id);
    c.set('checkout', rec);
    await next();
  };

  /** The parts every route of the checkout API shares: the tag, the client secret and the error answers. */
  const checkoutRoute = <R extends Omit<RouteConfig, 'tags' | 'security'>>(def: R) =>
    createRoute(withErrors({ ...def, tags: ['checkout'], security: SECURITY.checkout }));

  /** A route that reads the checkout: the client secret, then the handler. */
  const checkoutRead = <S extends z.ZodType>(path: string, summary: string, response: S) =>
    checkoutRoute({ method: 'get', path, summary, middleware: [checkoutAuth], responses: { 200: json(response, 'The checkout view') } });

  /** A route that acts on the checkout: the client secret, then the JSON body, then the handler. */
  const checkoutAction = <B extends z.ZodType, S extends z.ZodType>(path: string, summary: string, body: B, response: S) =>
    checkoutRoute({
      method: 'post',
      path,
      summary,
      middleware: [checkoutAuth, jsonBody({ allowEmpty: isEmpty(body) })],
      request: { body: jsonRequest(body, !isEmpty(body)) },
      responses: { 200: json(response, 'The checkout view') },
    });

  const banksOf = p.banksView;

  app.openapi(
    checkoutRoute({
      method: 'get',
      path: '/banks',
      summary: 'Bank groups of the native service (cached; revalidate with If-None-Match)',
      middleware: [checkoutAuth],
      responses: {
        200: json(contract.banksResponse, 'The bank groups and their banks'),
        304: { description: 'Not modified: the ETag given in If-None-Match is still current' },
      },
    }),
    async (c) => {
      const groups = await p.upstream.nativeBanks().catch((err: unknown) => {
        throw toApiError(err);
      });
      // The browser may keep the list, but asks each time whether it is still current: a 304
      // then costs a few hundred bytes instead of the list (after "choose another bank", say).
      const { json, etag } = banksOf(groups);
      c.header('ETag', etag);
      c.header('Cache-Control', 'private, no-cache');
      if (matchesEtag(c.req.header('If-None-Match'), etag)) return c.body(null, 304);
      return jsonText<contract.BanksResponse>(c, json);
    },
  );

  app.openapi(checkoutRead('/checkout', 'The checkout view', contract.checkoutView), async (c) => c.json(await p.service.view(c.get('checkout')), 200));

  /** The first screen, as JSON: the view, and the bank list when the view opens on it. */
  const startOf = async (rec: CheckoutRecord): Promise<string> => {
    const view = await p.service.view(rec);
    const listed = view.state === 'select-bank' && view.mode === 'native';
    // Without the list (the provider did not answer), the element asks GET /v1/banks, which says why.
    const groups = listed ? await p.upstream.nativeBanks().catch(() => null) : null;
    return `{"view":${JSON.stringify(view)},"banks":${groups ? banksOf(groups).json : 'null'}}`;
  };

  app.openapi(
    checkoutRead('/checkout/start', 'The checkout view, with the bank list when the view opens on it (the first screen in one call)', contract.checkoutStart),
    async (c) => jsonText<contract.CheckoutStart>(c, await startOf(c.get('checkout'))),
  );

  /** A payer's action: the checkout's view after `run`, or (the step left meanwhile) a 409 with the view as it is now. */
  const act = async (c: Context<CheckoutEnv>, run: (rec: CheckoutRecord) => Promise<CheckoutRecord>) => {
    const rec = c.get('checkout');
    try {
      return c.json(await p.service.view(await run(rec)), 200);
    } catch (err) {
      if (!(err instanceof StaleStep)) throw err;
      // Another window (or time) moved the checkout on: the answer shows where it is now.
      const now = await p.service.settle((await p.service.find(rec.id)) ?? rec);
      return errorResponse(c, err, { view: await p.service.view(now) });
    }
  };
  const action = <B extends z.ZodType>(path: string, summary: string, body: B) => checkoutAction(path, summary, body, contract.checkoutView);

  /**
   * The isolated checkout's frame redeems its page's launch token, once, from the BFF's own origin
   * (as its browser says), with a proof signed by its key pair (`DPoP`), for the key it proves
   * itself with from then on (kept in its memory only), bound to that key pair. The answer carries
   * the first screen.
   */
  app.openapi(
    createRoute(
      withErrors({
        method: 'post',
        path: '/frame/launch',
        summary: "Redeem a launch token for the frame's key (the isolated checkout's frame only, from the BFF's own origin, with a DPoP proof)",
        tags: ['checkout'],
        middleware: [jsonBody()],
        request: { body: jsonRequest(contract.frameLaunchBody) },
        responses: { 200: json(contract.frameLaunchAnswer, "The frame's key, for X-Checkout-Secret, and the first screen") },
      }),
    ),
    async (c) => {
      if (!fromTheFrame(c)) throw originRefused();
      const { token } = c.req.valid('json');
      const { record, key, resumed } = await p.guards
        .checkout(c, async () => {
          const { jkt } = await p.service.proofs.verify(c.req.header('DPoP'), { method: 'POST', url: proofUrl(c) });
          return p.service.redeemLaunch(token, jkt);
        })
        .catch((err: unknown) => {
          // A token presented again: its event for the merchant is in the outbox, delivered now.
          if (err instanceof ApiError && err.code === 'launch_used') p.webhook.kick();
          throw err;
        });
      const start = await startOf(await p.service.settle(record));
      return jsonText<contract.FrameLaunchAnswer>(c, `{"key":${JSON.stringify(key)},"resumed":${resumed},"start":${start}}`);
    },
  );

  app.openapi(
    action(
      '/checkout/bank',
      "The payer chose a bank in the list, before its sign-in (one in maintenance too): it counts as chosen in the merchant's funnel. Nothing is sent to the bank; the checkout's state stays",
      contract.bankChoiceBody,
    ),
    (c) => act(c, (rec) => p.service.chooseBank(rec, c.req.valid('json').bankId)),
  );
  app.openapi(action('/checkout/login', 'Log in at the chosen bank', contract.loginBody), (c) => act(c, (rec) => p.service.login(rec, c.req.valid('json'))));
  app.openapi(action('/checkout/second-login', 'Answer the second login', contract.secondLoginBody), (c) =>
    act(c, (rec) => p.service.secondLogin(rec, c.req.valid('json').value)),
  );
  app.openapi(action('/checkout/contract', 'Choose a contract', contract.contractBody), (c) =>
    act(c, (rec) => p.service.contract(rec, c.req.valid('json').contractId)),
  );
  app.openapi(action('/checkout/transfer', 'Choose the account and start the transfer', contract.transferBody), (c) =>
    act(c, (rec) => p.service.transfer(rec, c.req.valid('json').accountId)),
  );
  app.openapi(action('/checkout/validate', 'Answer a round of validations', contract.validateBody), (c) =>
    act(c, (rec) => p.service.validate(rec, c.req.valid('json').values)),
  );
  app.openapi(action('/checkout/cancel', 'Cancel the checkout', contract.emptyBody), (c) => act(c, (rec) => p.service.cancel(rec)));
  app.openapi(action('/checkout/back', 'One step back (another bank, person type, contract or account)', contract.emptyBody), (c) =>
    act(c, (rec) => p.service.back(rec)),
  );
  app.openapi(action('/checkout/restart', 'Start again after a failure or a cancellation', contract.emptyBody), (c) => act(c, (rec) => p.service.restart(rec)));
  app.openapi(action('/checkout/redirect', 'Create the signed payment URL', contract.emptyBody), (c) => act(c, (rec) => p.service.redirect(rec)));
  app.openapi(action('/checkout/periodic', 'Create the signed periodic-payment URL', contract.periodicBody), (c) =>
    act(c, (rec) => p.service.periodic(rec, c.req.valid('json'))),
  );
  app.openapi(
    checkoutAction(
      '/checkout/handoff',
      "A single-use link that opens this checkout's bank page on the payer's phone (while it waits there), its page in `locale`",
      contract.handoffBody,
      contract.handoffAnswer,
    ),
    async (c) => c.json(await p.service.handoff.create(c.get('checkout'), c.req.valid('json').locale), 200),
  );
  app.openapi(action('/checkout/mode', 'Choose native, redirect or periodic', contract.modeBody), (c) =>
    act(c, (rec) => p.service.chooseMode(rec, c.req.valid('json').mode)),
  );
  return app;
}
