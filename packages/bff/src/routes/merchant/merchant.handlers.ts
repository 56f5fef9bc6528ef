/**
 * The merchant API's handlers, one per route of merchant.routes.ts, each taking only what it uses
 * of the routes' parts (parts.ts `RouteDeps`): a checkout is read and changed through the service,
 * the lists through the store's reader, the payment-link service through the relayed clients.
 */
import type { Context } from 'hono';
import type { z } from '@hono/zod-openapi';
import type { links as L } from '@bank-checkout/provider';
import * as m from '@bank-checkout/contract/schemas';
import { errors } from '../../errors.js';
import { countFunnel, oneRowPerBank } from '../../checkout/funnel.js';
import { notificationView } from '../../notifications.js';
import { toApiError } from '../../upstream.js';
import { changeCursor, changePosition, listPosition, nextCursor } from '../../cursor.js';
import type { CheckoutRecord } from '../../store/types.js';
import type { RouteDeps } from '../../parts.js';
import type { Handler } from '../declare.js';
import type * as r from './merchant.routes.js';
import { eventEntry, merchantCheckoutView, pageCredential } from './merchant.views.js';
import { idempotencyKey, replayable } from './replies.js';

/** The funnel's period when none is given: the last week. */
const FUNNEL_DEFAULT_DAYS = 7;
/** The most checkouts one funnel counts (a narrower period counts the rest). */
const FUNNEL_MAX_CHECKOUTS = 20_000;

/** A call of the payment-link service, its failure as the merchant is told it (a provider's description included). */
const provider = async <T>(fn: () => Promise<T>): Promise<T> => {
  try {
    return await fn();
  } catch (err) {
    throw toApiError(err, { forMerchant: true });
  }
};

/** The merchant's ceiling (MAX_AMOUNT_CENTS): a mistyped amount is refused, never sent. */
const withinCeiling = (d: Pick<RouteDeps, 'config'>, amount: number | undefined) => {
  if (amount !== undefined && amount > d.config.maxAmountCents) {
    throw errors.validation([{ path: 'amount', message: `at most ${d.config.maxAmountCents} cents (MAX_AMOUNT_CENTS)` }]);
  }
};

/** The checkout a path's `{id}` names, or 404 (a malformed id names none). */
async function named(d: Pick<RouteDeps, 'service' | 'telemetry'>, raw: string | undefined): Promise<CheckoutRecord> {
  const id = m.idParam.safeParse(raw);
  const rec = id.success ? await d.service.find(id.data) : null;
  if (!rec) throw errors.notFound('Checkout');
  d.telemetry.checkout(rec.id);
  return rec;
}

/* ---------- checkouts ---------- */

export const createCheckout =
  (d: Pick<RouteDeps, 'config' | 'upstream' | 'service' | 'telemetry'>): Handler<typeof r.createCheckout> =>
  async (c) => {
    const body = c.req.valid('json');
    withinCeiling(d, body.amount);
    const { created, record, ...credential } = await d.service.create(body, idempotencyKey(c));
    d.telemetry.checkout(record.id);
    return c.json({ ...merchantCheckoutView(d, record), ...pageCredential(record, credential) }, created ? 201 : 200);
  };

export const listCheckouts =
  (d: Pick<RouteDeps, 'config' | 'upstream' | 'reader'>): Handler<typeof r.listCheckouts> =>
  async (c) => {
    const q = c.req.valid('query');
    const view = (rec: CheckoutRecord) => merchantCheckoutView(d, rec);
    if (q.after !== undefined) {
      if (q.state || q.cursor) throw errors.validation([{ path: 'after', message: 'reads the feed of every change: it takes no state or cursor' }]);
      const rows = await d.reader.listChanges({ after: changePosition(q.after), limit: q.limit });
      const last = rows.at(-1)?.position;
      return c.json({ checkouts: rows.map((row) => view(row.record)), next: last ? changeCursor(last) : q.after }, 200);
    }
    const rows = await d.reader.listCheckouts({
      ...(q.state ? { state: q.state } : {}),
      limit: q.limit,
      ...(q.cursor ? { before: listPosition('checkouts', q.cursor) } : {}),
    });
    return c.json({ checkouts: rows.map(view), next: nextCursor('checkouts', rows, q.limit, (row) => ({ at: row.updatedAt, id: row.id })) }, 200);
  };

export const readCheckout =
  (d: Pick<RouteDeps, 'config' | 'upstream' | 'service' | 'telemetry'>): Handler<typeof r.readCheckout> =>
  async (c) =>
    c.json(merchantCheckoutView(d, await d.service.settle(await named(d, c.req.param('id')))), 200);

export const launchCheckout =
  (d: Pick<RouteDeps, 'config' | 'upstream' | 'service' | 'telemetry'>): Handler<typeof r.launchCheckout> =>
  async (c) => {
    const { record, token } = await d.service.relaunch(await named(d, c.req.param('id')));
    // Its state and modes, as the page is written (a checkout at its bank list gets the list drawn in its frame's page).
    const { state, modes } = merchantCheckoutView(d, record);
    return c.json({ id: record.id, state, modes, launchToken: token, launchExpiresAt: new Date(record.launch!.tokenExpiresAt).toISOString() }, 200);
  };

export const resolveCheckout =
  (d: Pick<RouteDeps, 'config' | 'upstream' | 'service' | 'telemetry'>): Handler<typeof r.resolveCheckout> =>
  async (c) => {
    const body = c.req.valid('json');
    const rec = await named(d, c.req.param('id'));
    return c.json(merchantCheckoutView(d, await d.service.resolve(rec, body.outcome, body.note)), 200);
  };

export const cancelCheckout =
  (d: Pick<RouteDeps, 'config' | 'upstream' | 'service' | 'telemetry'>): Handler<typeof r.cancelCheckout> =>
  async (c) =>
    c.json(merchantCheckoutView(d, await d.service.cancelByMerchant(await named(d, c.req.param('id')))), 200);

export const funnel =
  (d: Pick<RouteDeps, 'reader' | 'upstream' | 'now'>): Handler<typeof r.funnel> =>
  async (c) => {
    const q = c.req.valid('query');
    const to = q.to ?? d.now();
    const from = q.from ?? to - FUNNEL_DEFAULT_DAYS * 86_400_000;
    if (from >= to) throw errors.validation([{ path: 'from', message: 'must be before to' }]);
    const rows = await d.reader.listCheckoutsCreated({ from, to, limit: FUNNEL_MAX_CHECKOUTS + 1 });
    const truncated = rows.length > FUNNEL_MAX_CHECKOUTS;
    // The native bank list (cached) names the rows: a bank of the other service counts under the native one of its name.
    const groups = (await d.upstream.nativeBanks().catch(() => null)) ?? d.upstream.nativeBanks.last() ?? [];
    const sameBank = oneRowPerBank(groups.flatMap((g) => g.types));
    const { total, banks } = countFunnel(truncated ? rows.slice(0, FUNNEL_MAX_CHECKOUTS) : rows, sameBank);
    return c.json({ from: new Date(from).toISOString(), to: new Date(to).toISOString(), total, banks, truncated }, 200);
  };

/* ---------- payment links ---------- */

/** Where the provider notifies the results of links made here. */
const notifyAt = (d: Pick<RouteDeps, 'config'>) => `${d.config.publicUrl}/v1/notifications/provider`;

export const link =
  (d: Pick<RouteDeps, 'config' | 'upstream' | 'replies' | 'now'>): Handler<typeof r.link> =>
  async (c) => {
    const body = c.req.valid('json');
    withinCeiling(d, body.amount);
    return replayable(d, c, 'links', body, () => provider(() => d.upstream.links.signer({ ...body, urlNotif: notifyAt(d) })));
  };

export const periodicLink =
  (d: Pick<RouteDeps, 'config' | 'upstream' | 'replies' | 'now'>): Handler<ReturnType<typeof r.periodicLink>> =>
  async (c) => {
    const body = c.req.valid('json');
    withinCeiling(d, body.amount);
    return replayable(d, c, 'links/periodic', body, () => provider(() => d.upstream.links.periodicSigner({ ...body, urlNotif: notifyAt(d) })));
  };

export const cancelPeriodic =
  (d: Pick<RouteDeps, 'config' | 'upstream' | 'replies' | 'now'>): Handler<typeof r.cancelPeriodic> =>
  async (c) => {
    const body = c.req.valid('json');
    return replayable(d, c, 'links/periodic/cancel', body, () => provider(() => d.upstream.links.cancelPeriodic({ ...body, urlNotif: notifyAt(d) })));
  };

/** The orders query's arguments: the last 30 days by default. */
const ordersArgs = (d: Pick<RouteDeps, 'now'>, q: z.output<ReturnType<typeof m.ordersQuery>>) => {
  const to = q.dateTo ?? d.now();
  const from = q.dateFrom ?? to - 30 * 24 * 3600_000;
  if (from > to) throw errors.validation([{ path: 'dateFrom', message: 'must not be after dateTo' }]);
  return { dateFrom: from, dateTo: to, pageRequest: q.page, pageSize: q.pageSize, orderAsc: q.order === 'asc' };
};

export const orders =
  (d: Pick<RouteDeps, 'upstream' | 'now'>): Handler<typeof r.orders> =>
  async (c) => {
    const args = ordersArgs(d, c.req.valid('query'));
    return c.json(await provider(() => d.upstream.readOnly(() => d.upstream.links.paymentOrders(args))), 200);
  };

export const toggle =
  (d: Pick<RouteDeps, 'upstream'>, enable: boolean, legacy: boolean): Handler<ReturnType<typeof r.toggle>> =>
  async (c) => {
    const id = m.idParam.safeParse(c.req.param('id'));
    if (!id.success) throw errors.validation([{ path: 'id', message: 'is not a valid order id' }]);
    const res = await provider(() =>
      legacy ? d.upstream.legacyLinks!.legacyEnableDisable({ idProvider: id.data, enable }) : d.upstream.links.enableDisable({ idDebt: id.data, enable }),
    );
    return c.json(res, 200);
  };

export const linkBanks =
  (d: Pick<RouteDeps, 'upstream'>): Handler<typeof r.linkBanks> =>
  async (c) => {
    const q = c.req.valid('query');
    const res = await provider(() =>
      d.upstream.readOnly(() =>
        d.upstream.links.banks({
          ...(q.country ? { country: q.country.toUpperCase() } : {}),
          ...(q.enabled ? { enabled: q.enabled } : {}),
          ...(q.periodic ? { enabledPeriodicPayment: q.periodic } : {}),
        }),
      ),
    );
    return c.json(res, 200);
  };

/* ---------- earlier variant ---------- */

/** Signs once per Idempotency-Key, within the merchant's ceiling. */
const legacySigned = (
  d: Pick<RouteDeps, 'config' | 'replies' | 'now'>,
  c: Context,
  variant: 'commerce' | 'business',
  body: { amount?: number },
  sign: () => Promise<L.SignerResponse>,
) => {
  withinCeiling(d, body.amount);
  return replayable(d, c, `legacy/${variant}`, body, async () => ({ variant, ...(await provider(sign)) }));
};

/** The earlier signer with the commerce variant's body. */
export const legacyCommerceSigner =
  (d: Pick<RouteDeps, 'config' | 'upstream' | 'replies' | 'now'>): Handler<ReturnType<typeof r.legacySigner<typeof m.legacyCommerceBody>>> =>
  async (c) => {
    const body = c.req.valid('json');
    return legacySigned(d, c, 'commerce', body, () => d.upstream.legacyLinks!.legacySigner({ variant: 'commerce', body: { ...body, urlNotif: notifyAt(d) } }));
  };

/** The earlier signer with the business variant's body. */
export const legacyBusinessSigner =
  (d: Pick<RouteDeps, 'config' | 'upstream' | 'replies' | 'now'>): Handler<ReturnType<typeof r.legacySigner<typeof m.legacyBusinessBody>>> =>
  async (c) => {
    const body = c.req.valid('json');
    return legacySigned(d, c, 'business', body, () => d.upstream.legacyLinks!.legacySigner({ variant: 'business', body: { ...body, urlNotif: notifyAt(d) } }));
  };

export const legacyDebts =
  (d: Pick<RouteDeps, 'upstream' | 'now'>): Handler<typeof r.legacyDebts> =>
  async (c) => {
    const args = ordersArgs(d, c.req.valid('query'));
    return c.json(await provider(() => d.upstream.readOnly(() => d.upstream.legacyLinks!.debts(args))), 200);
  };

/* ---------- notifications and the webhook's events ---------- */

export const notifications =
  (d: Pick<RouteDeps, 'reader'>): Handler<typeof r.notifications> =>
  async (c) => {
    const q = c.req.valid('query');
    const rows = await d.reader.listNotifications({ limit: q.limit, ...(q.cursor ? { before: listPosition('notifications', q.cursor) } : {}) });
    return c.json(
      {
        notifications: rows.map(notificationView),
        next: nextCursor('notifications', rows, q.limit, (n) => ({ at: n.receivedAt, id: n.id })),
      },
      200,
    );
  };

export const webhookEvents =
  (d: Pick<RouteDeps, 'reader'>): Handler<typeof r.webhookEvents> =>
  async (c) => {
    const q = c.req.valid('query');
    const rows = await d.reader.listEvents({
      limit: q.limit,
      ...(q.status ? { status: q.status } : {}),
      ...(q.cursor ? { before: listPosition('events', q.cursor) } : {}),
    });
    return c.json({ events: rows.map(eventEntry), next: nextCursor('events', rows, q.limit, (e) => ({ at: e.createdAt, id: e.id })) }, 200);
  };

export const redeliverEvent =
  (d: Pick<RouteDeps, 'webhook' | 'redelivery' | 'now'>): Handler<typeof r.redeliverEvent> =>
  async (c) => {
    const id = c.req.param('id') ?? '';
    if (!/^evt_[A-Za-z0-9_-]{1,64}$/.test(id)) throw errors.notFound('Event');
    if (!d.webhook.enabled) throw errors.conflict('webhook_off', 'No webhook is configured (MERCHANT_WEBHOOK_URL).');
    const queued = await d.redelivery.redeliverEvent(id, d.now());
    if (!queued) throw errors.notFound('Event');
    d.webhook.kick();
    return c.json(eventEntry(queued), 200);
  };
