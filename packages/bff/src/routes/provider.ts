/**
 * What the provider calls: the result notification (form or JSON), and the payer's browser
 * posting the same result to urlOk/urlError, which the BFF verifies and turns into a 303 to
 * the merchant's page.
 */
import { Hono, type Context } from 'hono';
import { ApiError, errors } from '../errors.js';
import { readText, type BffEnv } from '../http.js';
import type { AppParts } from '../app.js';

const MAX_FORM = 40 * 1024;

/** Reads `dataReturn` and `signatureDataReturn` from a form or a JSON body. */
async function readResult(c: Context): Promise<{ dataReturn: unknown; signatureDataReturn: unknown }> {
  const type = (c.req.header('Content-Type') ?? '').toLowerCase();
  if (Number(c.req.header('Content-Length') ?? 0) > MAX_FORM) throw errors.tooLarge();
  if (type.startsWith('application/json')) {
    let body: unknown;
    try {
      body = JSON.parse(await readText(c, MAX_FORM));
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw errors.badJson();
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw errors.badJson();
    const b = body as Record<string, unknown>;
    return { dataReturn: b.dataReturn, signatureDataReturn: b.signatureDataReturn };
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(await readText(c, MAX_FORM));
    return { dataReturn: form.get('dataReturn') ?? undefined, signatureDataReturn: form.get('signatureDataReturn') ?? undefined };
  }
  throw new ApiError(415, 'unsupported_media_type', 'Send application/x-www-form-urlencoded or application/json.');
}

export function providerRoutes(p: AppParts) {
  const app = new Hono<BffEnv>();

  app.post('/notifications/provider', async (c) => {
    const input = await readResult(c);
    const { duplicate, notification } = await p.notifications.receive({ ...input, hint: c.req.query('c') }, 'notification');
    return c.json({ received: true, duplicate, id: notification.id });
  });

  const ret = (kind: 'ok' | 'error') =>
    app.post(`/return/${kind}`, async (c) => {
      const hint = c.req.query('c');
      const rec = hint && /^[A-Za-z0-9_-]{1,64}$/.test(hint) ? await p.store.getCheckout(hint) : null;
      if (!rec) throw errors.notFound('Checkout');
      const target = (kind === 'ok' ? rec.urlOk : rec.urlError) ?? rec.urlOk ?? rec.urlError;
      let result: string;
      try {
        const input = await readResult(c);
        const { checkout } = await p.notifications.receive({ ...input, hint: rec.id }, 'return');
        result = checkout?.state ?? 'unmatched';
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        result = 'unverified';
      }
      const q = `checkout=${encodeURIComponent(rec.id)}&result=${encodeURIComponent(result)}`;
      if (!target) return c.json({ checkout: rec.id, result });
      return c.redirect(`${target}${target.includes('?') ? '&' : '?'}${q}`, 303);
    });
  ret('ok');
  ret('error');

  return app;
}
