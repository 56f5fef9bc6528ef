/**
 * The merchant API's routes, declared (server to server, `Authorization: Bearer
 * <BFF_MERCHANT_SECRET>`): checkouts (create, list and feed, read, launch, resolve, cancel, the
 * funnel), payment links, orders, link banks, the earlier variant, notifications and the
 * webhook's events. Their handlers are merchant.handlers.ts; merchant.index.ts mounts them.
 */
import { z } from '@hono/zod-openapi';
import { links as L } from '@bank-checkout/provider';
import * as m from '@bank-checkout/contract/schemas';
import { json, jsonRequest } from '../../openapi.js';
import { merchantRoute } from '../declare.js';
import { idempotencyHeader } from './replies.js';

const checkoutId = z.object({ id: z.string().meta({ description: 'The checkout id' }) });
/** A path parameter; its rules are checked by the handler, which answers 404 or 422 as each route says. */
const orderId = z.object({ id: z.string().meta({ description: "The order's idDebt (idProvider in the earlier variant)" }) });

/* ---------- checkouts ---------- */

export const createCheckout = merchantRoute({
  method: 'post',
  path: '/checkouts',
  summary: 'Create a checkout (an Idempotency-Key makes retries safe)',
  parameters: [idempotencyHeader],
  request: { body: jsonRequest(m.createCheckoutBody) },
  responses: { 201: json(m.createdCheckout, 'Created'), 200: json(m.createdCheckout, 'The checkout this Idempotency-Key created') },
});

/**
 * Two readings of the checkouts. The list: most recently changed first, paged by an opaque
 * cursor (the last row's update time and id), so rows that share a millisecond are each
 * listed once. The feed (`after`): every checkout whose last change comes after a position, in
 * the order of the changes, for a shop that reads each change once (store `listChanges`).
 */
export const listCheckouts = merchantRoute({
  method: 'get',
  path: '/checkouts',
  summary:
    'Recent checkouts, or those in one state, most recently changed first (state=unknown: those waiting for your decision); with after, the feed of every change in order',
  request: { query: m.checkoutsQuery },
  responses: { 200: json(m.checkoutsPage) },
});

export const readCheckout = merchantRoute({
  method: 'get',
  path: '/checkouts/{id}',
  summary: 'Read a checkout',
  request: { params: checkoutId },
  responses: { 200: json(m.merchantCheckout) },
});

/**
 * A fresh launch token for an isolated checkout, for each load of the payer's page (a reload
 * mid-payment included). The frame that redeems it replaces the one before; a bank session
 * that frame had opened is closed, and the payer signs in again.
 */
export const launchCheckout = merchantRoute({
  method: 'post',
  path: '/checkouts/{id}/launch',
  summary: "A fresh launch token for an isolated checkout's page (each time the page loads)",
  request: { params: checkoutId },
  responses: { 200: json(m.checkoutLaunch) },
});

/** Reconciliation of a checkout left `unknown`, after checking with the bank. */
export const resolveCheckout = merchantRoute({
  method: 'post',
  path: '/checkouts/{id}/resolve',
  summary: 'Record what the bank confirmed about an unknown checkout (409 unless unknown; the same outcome again is answered as is)',
  request: { params: checkoutId, body: jsonRequest(m.resolveBody) },
  responses: { 200: json(m.merchantCheckout) },
});

/**
 * The merchant's cancel of an open checkout (a changed cart, a withdrawn order). The webhook's
 * `checkout.updated` (state `cancelled`, source `merchant`) reports it, as it reports every
 * ending; the reference is then free for a new checkout.
 */
export const cancelCheckout = merchantRoute({
  method: 'post',
  path: '/checkouts/{id}/cancel',
  summary:
    'Cancel an open checkout for good, freeing its reference for a new one (a cancelled one is answered as it is; 409 when it ended otherwise, is unknown, or a call is with the bank)',
  request: { params: checkoutId },
  responses: { 200: json(m.merchantCheckout) },
});

/** The payers' funnel per bank, counted from the checkouts created in the period. */
export const funnel = merchantRoute({
  method: 'get',
  path: '/funnel',
  summary: 'How far payers got, per bank (started, bank chosen, signed in, confirmed, paid) and where they left, for checkouts created in a period',
  request: { query: m.funnelQuery },
  responses: { 200: json(m.funnelAnswer) },
});

/* ---------- payment links ---------- */

const signed = <S extends z.ZodType>(path: string, summary: string, schema: S) =>
  merchantRoute({
    method: 'post',
    path,
    summary,
    parameters: [idempotencyHeader],
    request: { body: jsonRequest(schema) },
    responses: { 201: json(m.signedLink, 'Signed'), 200: json(m.signedLink, 'The link this Idempotency-Key made') },
  });

export const link = signed('/links', 'Signed payment URL', m.linkBody);
/** Its body's dates are checked against the clock (`now`). */
export const periodicLink = (now: () => number) => signed('/links/periodic', 'Signed periodic-payment URL', m.periodicLinkBody(now));
export const cancelPeriodic = signed('/links/periodic/cancel', 'Signed periodic-cancellation URL', m.cancelPeriodicBody);

export const orders = merchantRoute({
  method: 'get',
  path: '/orders',
  summary: 'Payment orders',
  request: { query: m.ordersQuery(L.LIMITS.pageSizeMax) },
  responses: { 200: json(m.paymentOrdersPage) },
});

/** Enables or disables an order (or a link of the earlier variant). */
export const toggle = (path: string, enable: boolean, legacy: boolean) =>
  merchantRoute({
    method: 'post',
    path,
    summary: `${enable ? 'Enable' : 'Disable'} ${legacy ? 'a link of the earlier variant' : 'an order'}`,
    request: { params: orderId },
    responses: { 200: json(m.providerStatusAnswer) },
  });

export const linkBanks = merchantRoute({
  method: 'get',
  path: '/link-banks',
  summary: 'Banks of the payment-link service',
  request: { query: m.linkBanksQuery },
  responses: { 200: json(m.linkBanksAnswer) },
});

/* ---------- earlier variant (served only with its keys) ---------- */

/** The earlier signer takes the configured variant's body; the route is declared with it. */
export const legacySigner = <S extends z.ZodType>(body: S) =>
  merchantRoute({
    method: 'post',
    path: '/legacy/links',
    summary: "Earlier signer variant (the body is the configured variant's)",
    parameters: [idempotencyHeader],
    request: { body: jsonRequest(body) },
    responses: { 201: json(m.legacySignedLink, 'Signed'), 200: json(m.legacySignedLink, 'The link this Idempotency-Key made') },
  });

export const legacyDebts = merchantRoute({
  method: 'get',
  path: '/legacy/debts',
  summary: 'Earlier orders query',
  request: { query: m.ordersQuery(null) },
  responses: { 200: json(m.legacyDebtsPage) },
});

/* ---------- notifications and the webhook's events ---------- */

export const notifications = merchantRoute({
  method: 'get',
  path: '/notifications',
  summary: 'Received notifications, newest first',
  request: { query: m.notificationsQuery },
  responses: { 200: json(m.notificationsPage) },
});

export const webhookEvents = merchantRoute({
  method: 'get',
  path: '/webhooks/events',
  summary: 'Webhook events and their delivery, newest first',
  request: { query: m.webhookEventsQuery },
  responses: { 200: json(m.webhookEventsPage) },
});

export const redeliverEvent = merchantRoute({
  method: 'post',
  path: '/webhooks/events/{id}/redeliver',
  summary: 'Send an event again (at once, then with the usual retries)',
  request: { params: z.object({ id: z.string().meta({ description: 'The event id (evt_…)' }) }) },
  responses: { 200: json(m.webhookEventEntry, 'Queued again') },
});
