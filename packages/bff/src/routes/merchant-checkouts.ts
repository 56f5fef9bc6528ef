/**
 * The merchant's reading of its checkouts: one by id, the list by state (the ones left
 * `unknown` wait for the merchant's decision), and that decision (`resolve`) after checking with
 * the bank, the merchant's cancel, and the payers' funnel per bank. Creation is in merchant.ts with the other creations.
 */
import { z } from '@hono/zod-openapi';
import * as m from '@bank-checkout/contract/schemas';
import { errors } from '../errors.js';
import { toView } from '../checkout/view.js';
import { countFunnel, oneRowPerBank } from '../checkout/funnel.js';
import { json, jsonRequest, router } from '../openapi.js';
import type { CheckoutRecord } from '../store/types.js';
import type { RouteDeps } from '../parts.js';
import { merchantRouteFactory } from './merchant-route.js';
import { changeCursor, changePosition, listPosition, nextCursor } from '../cursor.js';

const checkoutId = z.object({ id: z.string().meta({ description: 'The checkout id' }) });

/** What the merchant sees of a checkout: the view plus link-service ids and a periodic order's schedule, never session data. */
export function merchantCheckoutView(p: RouteDeps, rec: CheckoutRecord) {
  const i = rec.internal;
  return {
    ...toView(rec, { sandbox: p.config.sandbox, payeeName: p.config.merchant.name, bankInfo: p.upstream.cachedNativeBank }),
    modes: rec.modes,
    customData: rec.customData,
    createdAt: new Date(rec.createdAt).toISOString(),
    updatedAt: new Date(rec.updatedAt).toISOString(),
    ...(i.idDebt ? { idDebt: i.idDebt } : {}),
    ...(i.linkTransactionId ? { providerTransactionId: i.linkTransactionId } : {}),
    ...(rec.mode === 'periodic' && i.schedule ? { schedule: i.schedule } : {}),
    ...(i.resolution
      ? {
          resolution: { outcome: i.resolution.outcome, at: new Date(i.resolution.at).toISOString(), ...(i.resolution.note ? { note: i.resolution.note } : {}) },
        }
      : {}),
    ...(rec.state === 'unknown' && i.doubt
      ? {
          inDoubt: {
            call: i.doubt.op,
            at: new Date(i.doubt.at).toISOString(),
            why: i.doubt.why,
            ...(i.bank ? { bank: { bankId: i.bank.bankId, label: i.bank.label } } : {}),
            ...(i.transactionId ? { providerTransactionId: i.transactionId } : {}),
          },
        }
      : {}),
    ...(i.reconciliation
      ? {
          reconciliation: {
            checkedAt: new Date(i.reconciliation.checkedAt).toISOString(),
            ...(i.reconciliation.codStatus ? { codStatus: i.reconciliation.codStatus } : {}),
            ...(i.reconciliation.done ? { done: i.reconciliation.done } : {}),
          },
        }
      : {}),
    isolation: rec.isolation ?? ('inline' as const),
    ...(rec.launch ? { launch: launchView(rec.launch) } : {}),
  };
}

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/** What the merchant sees of an isolated checkout's launches (never a hash). */
function launchView(l: NonNullable<CheckoutRecord['launch']>) {
  return { redeemedAt: iso(l.redeemedAt), refusals: l.refusals, lastRefusedAt: iso(l.lastRefusedAt) };
}

/** The page's credential of a checkout, as the merchant API answers it. */
export function pageCredential(rec: CheckoutRecord, c: { clientSecret?: string | undefined; launchToken?: string | undefined }) {
  if (c.launchToken) return { launchToken: c.launchToken, launchExpiresAt: new Date(rec.launch!.tokenExpiresAt).toISOString() };
  return c.clientSecret ? { clientSecret: c.clientSecret } : {};
}

export function merchantCheckoutRoutes(p: RouteDeps) {
  const app = router();
  const merchantRoute = merchantRouteFactory(p);
  const view = (rec: CheckoutRecord) => merchantCheckoutView(p, rec);
  /** The checkout a path's `{id}` names, or 404 (a malformed id names none). */
  const named = async (raw: string | undefined): Promise<CheckoutRecord> => {
    const id = m.idParam.safeParse(raw);
    const rec = id.success ? await p.service.find(id.data) : null;
    if (!rec) throw errors.notFound('Checkout');
    p.telemetry.checkout(rec.id);
    return rec;
  };

  /**
   * Two readings of the checkouts. The list: most recently changed first, paged by an opaque
   * cursor (the last row's update time and id), so rows that share a millisecond are each
   * listed once. The feed (`after`): every checkout whose last change comes after a position, in
   * the order of the changes, for a shop that reads each change once (store `listChanges`).
   */
  const list = merchantRoute({
    method: 'get',
    path: '/checkouts',
    summary:
      'Recent checkouts, or those in one state, most recently changed first (state=unknown: those waiting for your decision); with after, the feed of every change in order',
    request: { query: m.checkoutsQuery },
    responses: { 200: json(m.checkoutsPage) },
  });
  app.openapi(list, async (c) => {
    const q = c.req.valid('query');
    if (q.after !== undefined) {
      if (q.state || q.cursor) throw errors.validation([{ path: 'after', message: 'reads the feed of every change: it takes no state or cursor' }]);
      const rows = await p.reader.listChanges({ after: changePosition(q.after), limit: q.limit });
      const last = rows.at(-1)?.position;
      return c.json({ checkouts: rows.map((r) => view(r.record)), next: last ? changeCursor(last) : q.after }, 200);
    }
    const rows = await p.reader.listCheckouts({
      ...(q.state ? { state: q.state } : {}),
      limit: q.limit,
      ...(q.cursor ? { before: listPosition('checkouts', q.cursor) } : {}),
    });
    return c.json({ checkouts: rows.map(view), next: nextCursor('checkouts', rows, q.limit, (r) => ({ at: r.updatedAt, id: r.id })) }, 200);
  });

  const read = merchantRoute({
    method: 'get',
    path: '/checkouts/{id}',
    summary: 'Read a checkout',
    request: { params: checkoutId },
    responses: { 200: json(m.merchantCheckout) },
  });
  app.openapi(read, async (c) => {
    const rec = await named(c.req.param('id'));
    return c.json(view(await p.service.settle(rec)), 200);
  });

  /**
   * A fresh launch token for an isolated checkout, for each load of the payer's page (a reload
   * mid-payment included). The frame that redeems it replaces the one before; a bank session
   * that frame had opened is closed, and the payer signs in again.
   */
  const launch = merchantRoute({
    method: 'post',
    path: '/checkouts/{id}/launch',
    summary: "A fresh launch token for an isolated checkout's page (each time the page loads)",
    request: { params: checkoutId },
    responses: { 200: json(m.checkoutLaunch) },
  });
  app.openapi(launch, async (c) => {
    const rec = await named(c.req.param('id'));
    const { record, token } = await p.service.relaunch(rec);
    return c.json({ id: record.id, launchToken: token, launchExpiresAt: new Date(record.launch!.tokenExpiresAt).toISOString() }, 200);
  });

  /** Reconciliation of a checkout left `unknown` by an upstream timeout, after checking with the bank. */
  const resolve = merchantRoute({
    method: 'post',
    path: '/checkouts/{id}/resolve',
    summary: 'Record what the bank confirmed about an unknown checkout (409 unless unknown; the same outcome again is answered as is)',
    request: { params: checkoutId, body: jsonRequest(m.resolveBody) },
    responses: { 200: json(m.merchantCheckout) },
  });
  app.openapi(resolve, async (c) => {
    const body = c.req.valid('json');
    const rec = await named(c.req.param('id'));
    return c.json(view(await p.service.resolve(rec, body.outcome, body.note)), 200);
  });

  /**
   * The merchant's cancel of an open checkout (a changed cart, a withdrawn order). The webhook's
   * `checkout.updated` (state `cancelled`, source `merchant`) reports it, as it reports every
   * ending; the reference is then free for a new checkout.
   */
  const cancel = merchantRoute({
    method: 'post',
    path: '/checkouts/{id}/cancel',
    summary:
      'Cancel an open checkout for good, freeing its reference for a new one (a cancelled one is answered as it is; 409 when it ended otherwise, is unknown, or a call is with the bank)',
    request: { params: checkoutId },
    responses: { 200: json(m.merchantCheckout) },
  });
  app.openapi(cancel, async (c) => {
    const rec = await named(c.req.param('id'));
    return c.json(view(await p.service.cancelByMerchant(rec)), 200);
  });

  /** The payers' funnel per bank, counted from the checkouts created in the period. */
  const funnel = merchantRoute({
    method: 'get',
    path: '/funnel',
    summary: 'How far payers got, per bank (started, bank chosen, signed in, confirmed, paid) and where they left, for checkouts created in a period',
    request: { query: m.funnelQuery },
    responses: { 200: json(m.funnelAnswer) },
  });
  app.openapi(funnel, async (c) => {
    const q = c.req.valid('query');
    const to = q.to ?? p.now();
    const from = q.from ?? to - FUNNEL_DEFAULT_DAYS * 86_400_000;
    if (from >= to) throw errors.validation([{ path: 'from', message: 'must be before to' }]);
    const rows = await p.reader.listCheckoutsCreated({ from, to, limit: FUNNEL_MAX_CHECKOUTS + 1 });
    const truncated = rows.length > FUNNEL_MAX_CHECKOUTS;
    // The native bank list (cached) names the rows: a bank of the other service counts under the native one of its name.
    const groups = (await p.upstream.nativeBanks().catch(() => null)) ?? p.upstream.nativeBanks.last() ?? [];
    const sameBank = oneRowPerBank(groups.flatMap((g) => g.types));
    const { total, banks } = countFunnel(truncated ? rows.slice(0, FUNNEL_MAX_CHECKOUTS) : rows, sameBank);
    return c.json({ from: new Date(from).toISOString(), to: new Date(to).toISOString(), total, banks, truncated }, 200);
  });

  return app;
}

/** The funnel's period when none is given: the last week. */
const FUNNEL_DEFAULT_DAYS = 7;
/** The most checkouts one funnel counts (a narrower period counts the rest). */
export const FUNNEL_MAX_CHECKOUTS = 20_000;
