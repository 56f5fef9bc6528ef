/**
 * The handlers of the provider's calls (provider.routes.ts), each taking only what it uses of the
 * routes' parts (parts.ts `RouteDeps`): the result's signature verified first, then the
 * notification receiver stores and applies it; the checkout a return names is the service's answer.
 */
import type { Context } from 'hono';
import type { RETURN_RESULTS } from '@bank-checkout/contract/schemas';
import { ApiError, errors } from '../../errors.js';
import { bodyText, limitBody, type BffEnv } from '../../http.js';
import type { AuthGuard } from '../../guards.js';
import { verifiesResult } from '../../result-signature.js';
import type { RouteDeps } from '../../parts.js';
import type { Handler } from '../declare.js';
import type * as r from './provider.routes.js';

type ReturnResult = (typeof RETURN_RESULTS)[number];
type Result = { dataReturn: unknown; signatureDataReturn: unknown };

const MAX_FORM = 40 * 1024;
const limit = limitBody(MAX_FORM);

/** Reads `dataReturn` and `signatureDataReturn` from a form or a JSON body of at most MAX_FORM bytes. */
async function readResult(c: Context<BffEnv, string>): Promise<Result> {
  let result: Result | undefined;
  await limit(c, async () => {
    result = await parseResult(c);
  });
  return result!;
}

async function parseResult(c: Context): Promise<Result> {
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

/**
 * The result's signature, verified before anything is counted: a genuine result always passes,
 * whatever was sent from its address before; forged ones count against their address (each
 * kind on its own guard: notifications, returns) and past the limit are answered 429 without
 * a log line each. A result without its two fields goes on, to be refused for its shape.
 */
async function signed(d: Pick<RouteDeps, 'config' | 'logger'>, c: Context, guard: AuthGuard, input: Result) {
  try {
    await guard(c, async () => {
      const { dataReturn, signatureDataReturn } = input;
      if (typeof dataReturn !== 'string' || typeof signatureDataReturn !== 'string' || !dataReturn || !signatureDataReturn) return;
      if (!(await verifiesResult(d.config.provider, dataReturn, signatureDataReturn)))
        throw new ApiError(401, 'invalid_signature', 'The notification signature does not verify.');
    });
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) d.logger.log('warn', 'notification.rejected', { reason: 'signature' });
    throw err;
  }
}

export const notification =
  (d: Pick<RouteDeps, 'config' | 'logger' | 'guards' | 'notifications'>): Handler<typeof r.notification> =>
  async (c) => {
    const input = await readResult(c);
    await signed(d, c, d.guards.notifications, input);
    const { duplicate, notification } = await d.notifications.receive({ ...input, hint: c.req.query('c') }, 'notification');
    return c.json({ received: true as const, duplicate, id: notification.id }, 200);
  };

/** The payer back at `/return/ok` or `/return/error`: the result verified and applied, then this checkout's state told to the shop. */
export const returned =
  (d: Pick<RouteDeps, 'config' | 'logger' | 'guards' | 'notifications' | 'service'>, kind: 'ok' | 'error'): Handler<typeof r.returnOk> =>
  async (c) => {
    const hint = c.req.query('c');
    const rec = hint && /^[A-Za-z0-9_-]{1,64}$/.test(hint) ? await d.service.find(hint) : null;
    if (!rec) throw errors.notFound('Checkout');
    const target = (kind === 'ok' ? rec.urlOk : rec.urlError) ?? rec.urlOk ?? rec.urlError;
    let result: ReturnResult;
    try {
      const input = await readResult(c);
      await signed(d, c, d.guards.returns, input);
      await d.notifications.receive({ ...input, hint: rec.id }, 'return');
      // What the shop is told is this checkout's own state as stored now, whatever result
      // was posted: another checkout's genuine result never speaks for this one.
      result = (await d.service.find(rec.id))?.state ?? 'unmatched';
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      result = 'unverified';
    }
    const q = `checkout=${encodeURIComponent(rec.id)}&result=${encodeURIComponent(result)}`;
    if (!target) return c.json({ checkout: rec.id, result }, 200);
    return c.redirect(`${target}${target.includes('?') ? '&' : '?'}${q}`, 303);
  };
