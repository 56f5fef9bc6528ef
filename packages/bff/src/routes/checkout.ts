/**
 * The checkout API the elements call with `X-Checkout-Secret`. Every answer is the checkout
 * view; CORS only for the allowed origins; JSON bodies only.
 */
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import type { CheckoutRecord } from '../store/types.js';
import * as contract from '@bank-checkout/contract/schemas';
import { errors } from '../errors.js';
import { bankView } from '../checkout/machine.js';
import { corsAllowlist, jsonBody, type BffEnv } from '../http.js';
import { toApiError } from '../upstream.js';
import type { AppParts } from '../app.js';

export function checkoutRoutes(p: AppParts) {
  const app = new Hono<BffEnv>();
  const corsMiddleware = corsAllowlist(p.config.allowedOrigins, {
    methods: ['GET', 'POST'],
    headers: ['Content-Type', 'X-Checkout-Secret'],
    expose: ['X-Request-Id', 'Retry-After'],
    maxAgeSeconds: 600,
  });
  // `/checkout/*` also matches `/checkout` itself.
  for (const path of ['/banks', '/checkout/*']) app.use(path, corsMiddleware);

  /** Finds the caller's checkout and counts the request against its rate limit. */
  const checkoutOf = async (c: Context) => {
    const rec = await p.authGuard(c, () => p.service.bySecret(c.req.header('X-Checkout-Secret')));
    const wait = p.limiter.hit(`checkout:${rec.id}`);
    if (wait) throw errors.rateLimited(wait);
    return rec;
  };

  /** The bank list as the elements get it, serialised once per cached upstream list. */
  let banksBody: { from: unknown; json: string } | null = null;
  const banksJson = (groups: Awaited<ReturnType<typeof p.upstream.nativeBanks>>) => {
    if (banksBody?.from !== groups) {
      const body: contract.BanksResponse = {
        groups: groups.map((g) => ({ group: g.group, name: g.name, defaultType: g.defaultType, types: g.types.map((t) => bankView(t, p.config.sandbox)) })),
      };
      banksBody = { from: groups, json: JSON.stringify(body) };
    }
    return banksBody.json;
  };

  app.get('/banks', async (c) => {
    await checkoutOf(c);
    const groups = await p.upstream.nativeBanks().catch((err) => {
      throw toApiError(err);
    });
    c.header('Content-Type', 'application/json');
    return c.body(banksJson(groups));
  });

  app.get('/checkout', async (c) => c.json(await p.service.view(await checkoutOf(c))));

  const action = <S extends z.ZodType>(
    path: string,
    schema: S,
    run: (rec: CheckoutRecord, body: z.output<S>) => Promise<CheckoutRecord>,
  ) =>
    app.post(path, async (c) => {
      const rec = await checkoutOf(c);
      const body = await jsonBody(c, schema, { allowEmpty: (schema as z.ZodType) === contract.emptyBody });
      return c.json(await p.service.view(await run(rec, body)));
    });

  action('/checkout/login', contract.loginBody, (rec, b) => p.service.login(rec, b));
  action('/checkout/second-login', contract.secondLoginBody, (rec, b) => p.service.secondLogin(rec, b.value));
  action('/checkout/contract', contract.contractBody, (rec, b) => p.service.contract(rec, b.contractId));
  action('/checkout/transfer', contract.transferBody, (rec, b) => p.service.transfer(rec, b.accountId));
  action('/checkout/validate', contract.validateBody, (rec, b) => p.service.validate(rec, b.values));
  action('/checkout/cancel', contract.emptyBody, (rec) => p.service.cancel(rec));
  action('/checkout/redirect', contract.emptyBody, (rec) => p.service.redirect(rec));
  action('/checkout/periodic', contract.periodicBody, (rec, b) => p.service.periodic(rec, b));
  action('/checkout/mode', contract.modeBody, (rec, b) => p.service.chooseMode(rec, b.mode));
  return app;
}
