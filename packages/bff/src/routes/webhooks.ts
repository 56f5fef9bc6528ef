/**
 * The merchant's view of its webhook: every event with how its delivery went (newest first,
 * filtered by status), and a call to send one again (a failed one, or one the merchant lost).
 */
import { z } from '@hono/zod-openapi';
import { webhookEventsPage, webhookEventsQuery, webhookEventEntry } from '@bank-checkout/contract/schemas';
import { errors } from '../errors.js';
import { json, router } from '../openapi.js';
import type { OutboxRecord } from '../store/types.js';
import type { RouteDeps } from '../parts.js';
import { merchantRouteFactory } from './merchant-route.js';
import { listPosition, nextCursor } from '../cursor.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** An outbox row as the merchant sees it. */
export function eventEntry(e: OutboxRecord): z.output<typeof webhookEventEntry> {
  return {
    id: e.id,
    type: e.type,
    createdAt: new Date(e.createdAt).toISOString(),
    status: e.deliveredAt !== null ? 'delivered' : e.failedAt !== null ? 'failed' : 'pending',
    attempts: e.attempts,
    nextAttemptAt: e.deliveredAt === null && e.failedAt === null ? iso(e.nextAttemptAt) : null,
    deliveredAt: iso(e.deliveredAt),
    failedAt: iso(e.failedAt),
    lastError: e.lastError,
    data: e.data,
  };
}

export function webhookRoutes(p: RouteDeps) {
  const app = router();
  const merchantRoute = merchantRouteFactory(p);

  const list = merchantRoute({
    method: 'get',
    path: '/webhooks/events',
    summary: 'Webhook events and their delivery, newest first',
    request: { query: webhookEventsQuery },
    responses: { 200: json(webhookEventsPage) },
  });
  app.openapi(list, async (c) => {
    const q = c.req.valid('query');
    const rows = await p.reader.listEvents({
      limit: q.limit,
      ...(q.status ? { status: q.status } : {}),
      ...(q.cursor ? { before: listPosition('events', q.cursor) } : {}),
    });
    return c.json({ events: rows.map(eventEntry), next: nextCursor('events', rows, q.limit, (e) => ({ at: e.createdAt, id: e.id })) }, 200);
  });

  const redeliver = merchantRoute({
    method: 'post',
    path: '/webhooks/events/{id}/redeliver',
    summary: 'Send an event again (at once, then with the usual retries)',
    request: { params: z.object({ id: z.string().meta({ description: 'The event id (evt_…)' }) }) },
    responses: { 200: json(webhookEventEntry, 'Queued again') },
  });
  app.openapi(redeliver, async (c) => {
    const id = c.req.param('id') ?? '';
    if (!/^evt_[A-Za-z0-9_-]{1,64}$/.test(id)) throw errors.notFound('Event');
    if (!p.webhook.enabled) throw errors.conflict('webhook_off', 'No webhook is configured (MERCHANT_WEBHOOK_URL).');
    const queued = await p.redelivery.redeliverEvent(id, p.now());
    if (!queued) throw errors.notFound('Event');
    p.webhook.kick();
    return c.json(eventEntry(queued), 200);
  });

  return app;
}
