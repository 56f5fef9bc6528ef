/**
 * The merchant API (server to server, `Authorization: Bearer <BFF_MERCHANT_SECRET>`):
 * checkouts, payment links, orders, link banks, the earlier variant, notifications.
 */
import { Hono, type Context } from 'hono';
import { links as L } from '@bank-checkout/provider';
import type { CheckoutMode } from '@bank-checkout/contract';
import { errors } from '../errors.js';
import { jsonBody, merchantAuth, query, type BffEnv } from '../http.js';
import * as m from '@bank-checkout/contract/schemas';
import { clientSecretFor, hashSecret, newId, sha256Hex } from '../checkout/secrets.js';
import { internalOf, toView, viewError } from '../checkout/machine.js';
import type { CheckoutRecord } from '../store/types.js';
import { toApiError } from '../upstream.js';
import { notificationView } from '../notifications.js';
import type { AppParts } from '../app.js';

export const MERCHANT_PATHS = ['/checkouts', '/checkouts/*', '/links', '/links/*', '/orders/*', '/orders', '/link-banks', '/legacy/*', '/notifications'];

export function merchantRoutes(p: AppParts) {
  const app = new Hono<BffEnv>();
  // Registered per path: a sub-app's `use('*')` would also cover the checkout routes mounted
  // beside it under /v1.
  const auth = merchantAuth(p.config.merchantSecret, p.authGuard);
  for (const path of MERCHANT_PATHS) {
    app.use(path, auth);
    app.use(path, async (_c, next) => {
      const wait = p.limiter.hit('merchant');
      if (wait) throw errors.rateLimited(wait);
      await next();
    });
  }

  /** What the merchant sees of a checkout: the view plus link-service ids, never session data. */
  const merchantView = (rec: CheckoutRecord) => {
    const i = internalOf(rec);
    return {
      ...toView(rec, { sandbox: p.config.sandbox, payeeName: p.config.merchant.name }),
      modes: rec.modes,
      customData: rec.customData,
      createdAt: new Date(rec.createdAt).toISOString(),
      updatedAt: new Date(rec.updatedAt).toISOString(),
      ...(i.idDebt ? { idDebt: i.idDebt } : {}),
      ...(i.linkTransactionId ? { providerTransactionId: i.linkTransactionId } : {}),
    };
  };

  const provider = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw toApiError(err, { forMerchant: true });
    }
  };

  /* ---------- checkouts ---------- */

  app.post('/checkouts', async (c) => {
    const body = await jsonBody(c, m.createCheckoutBody);
    const key = c.req.header('Idempotency-Key');
    if (key !== undefined && !/^[\x21-\x7e]{1,128}$/.test(key)) {
      throw errors.validation([{ path: 'Idempotency-Key', message: 'must be 1 to 128 visible ASCII characters' }]);
    }
    const fingerprint = await sha256Hex(JSON.stringify(body));
    const replay = async (checkoutId: string, storedFingerprint: string) => {
      if (storedFingerprint !== fingerprint) {
        throw errors.conflict('idempotency_mismatch', 'This Idempotency-Key was used with a different request body.');
      }
      const rec = await p.store.getCheckout(checkoutId);
      if (!rec) throw errors.notFound('Checkout');
      return c.json({ ...merchantView(rec), clientSecret: await clientSecretFor(p.config.merchantSecret, rec.id) }, 200);
    };
    if (key) {
      const existing = await p.store.getIdempotency(key);
      if (existing) return replay(existing.checkoutId, existing.fingerprint);
    }
    const now = p.now();
    const id = newId('chk');
    const clientSecret = await clientSecretFor(p.config.merchantSecret, id);
    const modes: CheckoutMode[] = body.modes ?? ['native', 'redirect', 'periodic'];
    const record: CheckoutRecord = {
      id,
      secretHash: await hashSecret(clientSecret),
      mode: modes[0]!,
      state: modes[0] === 'periodic' ? 'periodic' : 'select-bank',
      version: 1,
      amount: body.amount,
      subject: body.subject,
      reference: body.reference,
      holderDestiny: body.holderDestiny ?? p.config.merchant.name,
      accountDestiny: body.accountDestiny ?? p.config.merchant.iban,
      customData: body.customData ?? null,
      urlOk: body.urlOk ?? null,
      urlError: body.urlError ?? null,
      modes,
      attemptsLeft: p.config.maxAttempts,
      createdAt: now,
      updatedAt: now,
      expiresAt: now + (body.expiresInMinutes ?? p.config.checkoutTtlMinutes) * 60_000,
      internal: { explicitDestiny: body.accountDestiny !== undefined },
      error: null,
    };
    const result = await p.store.createCheckout(record, key ? { key, fingerprint, createdAt: now } : undefined);
    if (!result.created) return replay(result.existing.checkoutId, result.existing.fingerprint);
    p.logger.log('info', 'checkout.created', { checkoutId: id, amount: record.amount, modes });
    return c.json({ ...merchantView(result.record), clientSecret }, 201);
  });

  app.get('/checkouts/:id', async (c) => {
    const id = m.idParam.safeParse(c.req.param('id'));
    const rec = id.success ? await p.store.getCheckout(id.data) : null;
    if (!rec) throw errors.notFound('Checkout');
    return c.json(merchantView(await p.service.settle(rec)));
  });

  /** Reconciliation of a checkout left `unknown` by an upstream timeout, after checking with the bank. */
  app.post('/checkouts/:id/resolve', async (c) => {
    const body = await jsonBody(c, m.resolveBody);
    const id = m.idParam.safeParse(c.req.param('id'));
    const rec = id.success ? await p.store.getCheckout(id.data) : null;
    if (!rec) throw errors.notFound('Checkout');
    if (rec.state !== 'unknown') throw errors.conflict('invalid_state', `Only an unknown checkout can be resolved; this one is ${rec.state}.`);
    const next = await p.store.updateCheckout(rec.id, rec.version, {
      state: body.outcome,
      error: body.outcome === 'failed' ? viewError('unknown') : null,
      updatedAt: p.now(),
    });
    if (!next) throw errors.conflict('checkout_busy', 'The checkout changed meanwhile; read it again.');
    p.service.announce(rec, next, 'merchant');
    return c.json(merchantView(next));
  });

  /* ---------- payment links ---------- */

  const notif = `${p.config.publicUrl}/v1/notifications/provider`;

  app.post('/links', async (c) => {
    const body = await jsonBody(c, m.linkBody);
    return c.json(await provider(() => p.upstream.links.signer({ ...body, urlNotif: notif })), 201);
  });

  app.post('/links/periodic', async (c) => {
    const body = await jsonBody(c, m.periodicLinkBody(p.now));
    return c.json(await provider(() => p.upstream.links.periodicSigner({ ...body, urlNotif: notif })), 201);
  });

  app.post('/links/periodic/cancel', async (c) => {
    const body = await jsonBody(c, m.cancelPeriodicBody);
    return c.json(await provider(() => p.upstream.links.cancelPeriodic({ ...body, urlNotif: notif })), 201);
  });

  const ordersArgs = (c: Context, max: number | null) => {
    const q = query(c, m.ordersQuery(max));
    const to = q.dateTo ?? p.now();
    const from = q.dateFrom ?? to - 30 * 24 * 3600_000;
    if (from > to) throw errors.validation([{ path: 'dateFrom', message: 'must not be after dateTo' }]);
    return { dateFrom: from, dateTo: to, pageRequest: q.page, pageSize: q.pageSize, orderAsc: q.order === 'asc' };
  };

  app.get('/orders', async (c) => {
    const args = ordersArgs(c, L.LIMITS.pageSizeMax);
    return c.json(await provider(() => p.upstream.readOnly(() => p.upstream.links.paymentOrders(args))));
  });

  const toggle = (path: string, enable: boolean, legacy: boolean) =>
    app.post(path, async (c) => {
      const id = m.idParam.safeParse(c.req.param('id'));
      if (!id.success) throw errors.validation([{ path: 'id', message: 'is not a valid order id' }]);
      const res = await provider(() =>
        legacy
          ? p.upstream.legacyLinks.legacyEnableDisable({ idProvider: id.data, enable })
          : p.upstream.links.enableDisable({ idDebt: id.data, enable }),
      );
      return c.json(res);
    });
  toggle('/orders/:id/enable', true, false);
  toggle('/orders/:id/disable', false, false);

  app.get('/link-banks', async (c) => {
    const q = query(c, m.linkBanksQuery);
    const res = await provider(() =>
      p.upstream.readOnly(() =>
        p.upstream.links.banks({
          ...(q.country ? { country: q.country.toUpperCase() } : {}),
          ...(q.enabled ? { enabled: q.enabled } : {}),
          ...(q.periodic ? { enabledPeriodicPayment: q.periodic } : {}),
        }),
      ),
    );
    return c.json(res);
  });

  /* ---------- earlier variant ---------- */

  app.post('/legacy/links', async (c) => {
    const variant = p.config.provider.legacy.variant;
    const body = await jsonBody(c, variant === 'commerce' ? m.legacyCommerceBody : m.legacyBusinessBody);
    const res = await provider(() =>
      variant === 'commerce'
        ? p.upstream.legacyLinks.legacySigner({ variant, body: { ...(body as L.LegacyCommerceSignerRequest), urlNotif: notif } })
        : p.upstream.legacyLinks.legacySigner({ variant, body: { ...(body as L.LegacyBusinessSignerRequest), urlNotif: notif } }),
    );
    return c.json({ variant, ...res }, 201);
  });

  app.get('/legacy/debts', async (c) => {
    const args = ordersArgs(c, null);
    return c.json(await provider(() => p.upstream.readOnly(() => p.upstream.legacyLinks.debts(args))));
  });
  toggle('/legacy/links/:id/enable', true, true);
  toggle('/legacy/links/:id/disable', false, true);

  /* ---------- notifications ---------- */

  app.get('/notifications', async (c) => {
    const q = query(c, m.notificationsQuery);
    const rows = await p.store.listNotifications({ limit: q.limit, ...(q.before ? { before: q.before } : {}) });
    return c.json({
      notifications: rows.map(notificationView),
      next: rows.length === q.limit ? rows.at(-1)!.receivedAt : null,
    });
  });

  return app;
}
