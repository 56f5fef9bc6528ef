/**
 * What the provider calls: the result notification (form or JSON), and the payer's browser
 * posting the same result to urlOk/urlError, which the BFF verifies and turns into a 303 to
 * the merchant's page.
 */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { notificationAck, returnResult, type RETURN_RESULTS } from '@bank-checkout/contract/schemas';

type ReturnResult = (typeof RETURN_RESULTS)[number];
import { ApiError, errors } from '../errors.js';
import { bodyText, limitBody, type BffEnv } from '../http.js';
import type { AuthGuard } from '../guards.js';
import { verifiesResult } from '../result-signature.js';
import { json, router, withErrors } from '../openapi.js';
import type { RouteDeps } from '../parts.js';

const MAX_FORM = 40 * 1024;

/**
 * The result as the provider sends it. Documented, not validated here: the receiver verifies
 * the signature first, and a validly signed result is never refused for its encoding.
 */
const resultFields = {
  type: 'object' as const,
  properties: {
    dataReturn: { type: 'string' as const, description: 'Base64 JSON of the result' },
    signatureDataReturn: { type: 'string' as const, description: 'HMAC-SHA256 of dataReturn with the API key' },
  },
  required: ['dataReturn', 'signatureDataReturn'],
};
const resultBody = {
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: resultFields }, 'application/json': { schema: resultFields } },
};
/** `?c=<checkout id>`, which the BFF puts on the URLs it gives the provider. */
const checkoutHint = [{ name: 'c', in: 'query' as const, required: false, schema: { type: 'string' as const, maxLength: 64 } }];

const limit = limitBody(MAX_FORM);

/** Reads `dataReturn` and `signatureDataReturn` from a form or a JSON body of at most MAX_FORM bytes. */
async function readResult(c: Context<BffEnv, string>): Promise<{ dataReturn: unknown; signatureDataReturn: unknown }> {
  let result: { dataReturn: unknown; signatureDataReturn: unknown } | undefined;
  await limit(c, async () => {
    result = await parseResult(c);
  });
  return result!;
}

async function parseResult(c: Context): Promise<{ dataReturn: unknown; signatureDataReturn: unknown }> {
  const type = (c.req.header('Content-Type') ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    let body: unknown;
    try {
      body = JSON.parse(await bodyText(c));
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw errors.badJson();
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw errors.badJson();
    const b = body as Record<string, unknown>;
    return { dataReturn: b.dataReturn, signatureDataReturn: b.signatureDataReturn };
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(await bodyText(c));
    return { dataReturn: form.get('dataReturn') ?? undefined, signatureDataReturn: form.get('signatureDataReturn') ?? undefined };
  }
  throw new ApiError(415, 'unsupported_media_type', 'Send application/x-www-form-urlencoded or application/json.');
}

export function providerRoutes(p: RouteDeps) {
  const app = router();

  /**
   * The result's signature, verified before anything is counted: a genuine result always passes,
   * whatever was sent from its address before; forged ones count against their address (each
   * kind on its own guard: notifications, returns) and past the limit are answered 429 without
   * a log line each. A result without its two fields goes on, to be refused for its shape.
   */
  const signed = async (c: Context, guard: AuthGuard, input: { dataReturn: unknown; signatureDataReturn: unknown }) => {
    try {
      await guard(c, async () => {
        const { dataReturn, signatureDataReturn } = input;
        if (typeof dataReturn !== 'string' || typeof signatureDataReturn !== 'string' || !dataReturn || !signatureDataReturn) return;
        if (!(await verifiesResult(p.config.provider, dataReturn, signatureDataReturn)))
          throw new ApiError(401, 'invalid_signature', 'The notification signature does not verify.');
      });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) p.logger.log('warn', 'notification.rejected', { reason: 'signature' });
      throw err;
    }
  };

  const notification = createRoute(
    withErrors({
      method: 'post',
      path: '/notifications/provider',
      summary: 'Result notification from the provider (form or JSON)',
      tags: ['provider'],
      parameters: checkoutHint,
      request: { body: resultBody },
      responses: { 200: json(notificationAck, 'Stored (or already stored): acknowledged') },
    }),
  );
  app.openapi(notification, async (c) => {
    const input = await readResult(c);
    await signed(c, p.guards.notifications, input);
    const { duplicate, notification } = await p.notifications.receive({ ...input, hint: c.req.query('c') }, 'notification');
    return c.json({ received: true as const, duplicate, id: notification.id }, 200);
  });

  const ret = (kind: 'ok' | 'error') =>
    createRoute(
      withErrors({
        method: 'post',
        path: `/return/${kind}`,
        summary: `Payer returning after ${kind === 'ok' ? 'success' : 'failure'}: verified, then 303 to the merchant's page`,
        tags: ['provider'],
        parameters: checkoutHint,
        request: { body: resultBody },
        responses: {
          200: json(returnResult, 'The result, when the checkout has no page to return to'),
          303: { description: "To the merchant's page, with `checkout` and `result` in the query", headers: { Location: { schema: { type: 'string' } } } },
        },
      }),
    );
  for (const kind of ['ok', 'error'] as const) {
    app.openapi(ret(kind), async (c) => {
      const hint = c.req.query('c');
      const rec = hint && /^[A-Za-z0-9_-]{1,64}$/.test(hint) ? await p.service.find(hint) : null;
      if (!rec) throw errors.notFound('Checkout');
      const target = (kind === 'ok' ? rec.urlOk : rec.urlError) ?? rec.urlOk ?? rec.urlError;
      let result: ReturnResult;
      try {
        const input = await readResult(c);
        await signed(c, p.guards.returns, input);
        await p.notifications.receive({ ...input, hint: rec.id }, 'return');
        // What the shop is told is this checkout's own state as stored now, whatever result
        // was posted: another checkout's genuine result never speaks for this one.
        result = (await p.service.find(rec.id))?.state ?? 'unmatched';
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        result = 'unverified';
      }
      const q = `checkout=${encodeURIComponent(rec.id)}&result=${encodeURIComponent(result)}`;
      if (!target) return c.json({ checkout: rec.id, result }, 200);
      return c.redirect(`${target}${target.includes('?') ? '&' : '?'}${q}`, 303);
    });
  }

  return app;
}
