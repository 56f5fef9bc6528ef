/**
 * The merchant API (server to server, `Authorization: Bearer <BFF_MERCHANT_SECRET>`):
 * checkouts, payment links, orders, link banks, the earlier variant, notifications.
 */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { links as L } from '@bank-checkout/provider';
import { errors } from '../errors.js';
import { json, jsonRequest, router } from '../openapi.js';
import * as m from '@bank-checkout/contract/schemas';
import type { CheckoutRecord } from '../store/types.js';
import { toApiError } from '../upstream.js';
import { notificationView } from '../notifications.js';
import type { RouteDeps } from '../parts.js';
import { merchantRouteFactory } from './merchant-route.js';
import { merchantCheckoutView, pageCredential } from './merchant-checkouts.js';
import { listPosition, nextCursor } from '../cursor.js';
import { idempotencyHeader, idempotencyKey, replayable } from './idempotency.js';

/** A path parameter; its rules are checked by the handler, which answers 404 or 422 as each route says. */
const orderId = z.object({ id: z.string().meta({ description: "The order's idDebt (idProvider in the earlier variant)" }) });

export function merchantRoutes(p: RouteDeps) {
  const app = router();
  const merchantRoute = merchantRouteFactory(p);

  const merchantView = (rec: CheckoutRecord) => merchantCheckoutView(p, rec);

  const provider = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw toApiError(err, { forMerchant: true });
    }
  };

  /** The merchant's ceiling (MAX_AMOUNT_CENTS): a mistyped amount is refused, never sent. */
  const withinCeiling = (amount: number | undefined) => {
    if (amount !== undefined && amount > p.config.maxAmountCents) {
      throw errors.validation([{ path: 'amount', message: `at most ${p.config.maxAmountCents} cents (MAX_AMOUNT_CENTS)` }]);
    }
  };

  /* ---------- checkouts ---------- */

  const createCheckout = merchantRoute({
    method: 'post',
    path: '/checkouts',
    summary: 'Create a checkout (an Idempotency-Key makes retries safe)',
    parameters: [idempotencyHeader],
    request: { body: jsonRequest(m.createCheckoutBody) },
    responses: { 201: json(m.createdCheckout, 'Created'), 200: json(m.createdCheckout, 'The checkout this Idempotency-Key created') },
  });
  app.openapi(createCheckout, async (c) => {
    const body = c.req.valid('json');
    withinCeiling(body.amount);
    const { created, record, ...credential } = await p.service.create(body, idempotencyKey(c));
    p.telemetry.checkout(record.id);
    return c.json({ ...merchantView(record), ...pageCredential(record, credential) }, created ? 201 : 200);
  });

  /* ---------- payment links ---------- */

  const notif = `${p.config.publicUrl}/v1/notifications/provider`;

  const signed = <S extends z.ZodType>(path: string, summary: string, schema: S) =>
    merchantRoute({
      method: 'post',
      path,
      summary,
      parameters: [idempotencyHeader],
      request: { body: jsonRequest(schema) },
      responses: { 201: json(m.signedLink, 'Signed'), 200: json(m.signedLink, 'The link this Idempotency-Key made') },
    });

  app.openapi(signed('/links', 'Signed payment URL', m.linkBody), async (c) => {
    const body = c.req.valid('json');
    withinCeiling(body.amount);
    return replayable(p, c, 'links', body, () => provider(() => p.upstream.links.signer({ ...body, urlNotif: notif })));
  });

  const periodicLinkBody = m.periodicLinkBody(p.now);
  app.openapi(signed('/links/periodic', 'Signed periodic-payment URL', periodicLinkBody), async (c) => {
    const body = c.req.valid('json');
    withinCeiling(body.amount);
    return replayable(p, c, 'links/periodic', body, () => provider(() => p.upstream.links.periodicSigner({ ...body, urlNotif: notif })));
  });

  app.openapi(signed('/links/periodic/cancel', 'Signed periodic-cancellation URL', m.cancelPeriodicBody), async (c) => {
    const body = c.req.valid('json');
    return replayable(p, c, 'links/periodic/cancel', body, () => provider(() => p.upstream.links.cancelPeriodic({ ...body, urlNotif: notif })));
  });

  const ordersArgs = (q: z.output<ReturnType<typeof m.ordersQuery>>) => {
    const to = q.dateTo ?? p.now();
    const from = q.dateFrom ?? to - 30 * 24 * 3600_000;
    if (from > to) throw errors.validation([{ path: 'dateFrom', message: 'must not be after dateTo' }]);
    return { dateFrom: from, dateTo: to, pageRequest: q.page, pageSize: q.pageSize, orderAsc: q.order === 'asc' };
  };

  const ordersRoute = merchantRoute({
    method: 'get',
    path: '/orders',
    summary: 'Payment orders',
    request: { query: m.ordersQuery(L.LIMITS.pageSizeMax) },
    responses: { 200: json(m.paymentOrdersPage) },
  });
  app.openapi(ordersRoute, async (c) => {
    const args = ordersArgs(c.req.valid('query'));
    return c.json(await provider(() => p.upstream.readOnly(() => p.upstream.links.paymentOrders(args))), 200);
  });

  const toggle = (path: string, enable: boolean, legacy: boolean) =>
    app.openapi(
      merchantRoute({
        method: 'post',
        path,
        summary: `${enable ? 'Enable' : 'Disable'} ${legacy ? 'a link of the earlier variant' : 'an order'}`,
        request: { params: orderId },
        responses: { 200: json(m.providerStatusAnswer) },
      }),
      async (c) => {
        const id = m.idParam.safeParse(c.req.param('id'));
        if (!id.success) throw errors.validation([{ path: 'id', message: 'is not a valid order id' }]);
        const res = await provider(() =>
          legacy ? p.upstream.legacyLinks!.legacyEnableDisable({ idProvider: id.data, enable }) : p.upstream.links.enableDisable({ idDebt: id.data, enable }),
        );
        return c.json(res, 200);
      },
    );
  toggle('/orders/{id}/enable', true, false);
  toggle('/orders/{id}/disable', false, false);

  const linkBanks = merchantRoute({
    method: 'get',
    path: '/link-banks',
    summary: 'Banks of the payment-link service',
    request: { query: m.linkBanksQuery },
    responses: { 200: json(m.linkBanksAnswer) },
  });
  app.openapi(linkBanks, async (c) => {
    const q = c.req.valid('query');
    const res = await provider(() =>
      p.upstream.readOnly(() =>
        p.upstream.links.banks({
          ...(q.country ? { country: q.country.toUpperCase() } : {}),
          ...(q.enabled ? { enabled: q.enabled } : {}),
          ...(q.periodic ? { enabledPeriodicPayment: q.periodic } : {}),
        }),
      ),
    );
    return c.json(res, 200);
  });

  /* ---------- earlier variant ---------- */

  // Off when going live without its keys: its routes are not served.
  const legacy = p.config.provider.legacy;
  const legacyLinks = p.upstream.legacyLinks;
  if (legacy && legacyLinks) {
    /** The earlier signer takes the configured variant's body; the route is declared with it. */
    const legacySigner = <S extends z.ZodType>(body: S) =>
      merchantRoute({
        method: 'post',
        path: '/legacy/links',
        summary: "Earlier signer variant (the body is the configured variant's)",
        parameters: [idempotencyHeader],
        request: { body: jsonRequest(body) },
        responses: { 201: json(m.legacySignedLink, 'Signed'), 200: json(m.legacySignedLink, 'The link this Idempotency-Key made') },
      });
    /** Signs once per Idempotency-Key, within the merchant's ceiling. */
    const legacySigned = (c: Context, variant: 'commerce' | 'business', body: { amount?: number }, sign: () => Promise<L.SignerResponse>) => {
      withinCeiling(body.amount);
      return replayable(p, c, `legacy/${variant}`, body, async () => ({ variant, ...(await provider(sign)) }));
    };
    const { variant } = legacy;
    if (variant === 'commerce') {
      app.openapi(legacySigner(m.legacyCommerceBody), async (c) => {
        const body = c.req.valid('json');
        return legacySigned(c, variant, body, () => legacyLinks.legacySigner({ variant, body: { ...body, urlNotif: notif } }));
      });
    } else {
      app.openapi(legacySigner(m.legacyBusinessBody), async (c) => {
        const body = c.req.valid('json');
        return legacySigned(c, variant, body, () => legacyLinks.legacySigner({ variant, body: { ...body, urlNotif: notif } }));
      });
    }

    const legacyDebts = merchantRoute({
      method: 'get',
      path: '/legacy/debts',
      summary: 'Earlier orders query',
      request: { query: m.ordersQuery(null) },
      responses: { 200: json(m.legacyDebtsPage) },
    });
    app.openapi(legacyDebts, async (c) => {
      const args = ordersArgs(c.req.valid('query'));
      return c.json(await provider(() => p.upstream.readOnly(() => legacyLinks.debts(args))), 200);
    });
    toggle('/legacy/links/{id}/enable', true, true);
    toggle('/legacy/links/{id}/disable', false, true);
  }

  /* ---------- notifications ---------- */

  const notificationsRoute = merchantRoute({
    method: 'get',
    path: '/notifications',
    summary: 'Received notifications, newest first',
    request: { query: m.notificationsQuery },
    responses: { 200: json(m.notificationsPage) },
  });
  app.openapi(notificationsRoute, async (c) => {
    const q = c.req.valid('query');
    const rows = await p.reader.listNotifications({ limit: q.limit, ...(q.cursor ? { before: listPosition('notifications', q.cursor) } : {}) });
    return c.json(
      {
        notifications: rows.map(notificationView),
        next: nextCursor('notifications', rows, q.limit, (n) => ({ at: n.receivedAt, id: n.id })),
      },
      200,
    );
  });

  return app;
}
