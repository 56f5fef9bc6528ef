/**
 * Reading the checkouts through the merchant API: the list pages by an opaque cursor that never
 * skips or repeats a checkout (40 made in the same millisecond, at limits 1, 3 and 7), the feed
 * (`after`) gives every change once in order, and the webhook events and notifications page the
 * same way. A cursor the BFF did not make, or made for another list, is a 422 that names it.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createMerchantClient, type MerchantClient } from '../src/merchant-client.js';
import { BFF_HOST, MERCHANT_SECRET, createHarness, type Harness } from './harness.js';

type Page = { checkouts: { id: string; state: string; reference: string }[]; next: string | null };

describe('paging and the feed of changes', () => {
  let h: Harness;
  let bff: MerchantClient;
  const made: string[] = [];
  before(async () => {
    h = await createHarness({ MERCHANT_WEBHOOK_URL: 'http://merchant.test/hook', MERCHANT_WEBHOOK_SECRET: 'webhook-secret-0123456789' });
    bff = createMerchantClient({ url: BFF_HOST, secret: MERCHANT_SECRET, fetch: ((u: string, i: RequestInit) => h.bff.request(u, i)) as typeof fetch });
    // Forty at once: the clock does not move, so they share their creation and update time.
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) => bff.createCheckout({ amount: 100 + i, subject: 'Paged', reference: `ORD-PAGE-${i}` })),
    );
    made.push(...created.map((c) => c.id));
  });
  after(() => h.close());

  const get = async (query: string) => {
    const res = await h.merchant(`/v1/checkouts?${query}`);
    return { status: res.status, body: (await res.json()) as Page & { error?: { code: string; issues?: { path: string }[] } } };
  };

  it('lists 40 checkouts made in the same millisecond each exactly once, at limits 1, 3 and 7', async () => {
    for (const limit of [1, 3, 7]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const { status, body } = await get(`limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(status, 200);
        assert.ok(body.checkouts.length <= limit);
        seen.push(...body.checkouts.map((c) => c.id));
        cursor = body.next;
        pages++;
      } while (cursor && pages < 100);
      assert.equal(seen.length, 40, `limit ${limit}: 40 listed`);
      assert.deepEqual([...seen].sort(), [...made].sort(), `limit ${limit}: each exactly once`);
      assert.equal(pages, Math.ceil(40 / limit) + (40 % limit === 0 ? 1 : 0), `limit ${limit}: the last page says it is the last`);
    }
  });

  it('the typed client pages the same way, by state too', async () => {
    const seen = new Set<string>();
    let page = await bff.listCheckouts({ state: 'select-bank', limit: 7 });
    for (;;) {
      for (const c of page.checkouts) {
        assert.ok(!seen.has(c.id), 'never twice');
        seen.add(c.id);
      }
      if (!page.next) break;
      page = await bff.listCheckouts({ state: 'select-bank', limit: 7, cursor: page.next });
    }
    assert.equal(seen.size, 40);
  });

  it('the feed gives every change once, in order, and its next position reads on from there', async () => {
    const all: string[] = [];
    let after = '0';
    for (;;) {
      const { status, body } = await get(`after=${after}&limit=3`);
      assert.equal(status, 200);
      assert.ok(body.next, 'the feed always gives where to read on from');
      all.push(...body.checkouts.map((c) => c.id));
      if (body.checkouts.length < 3) {
        assert.equal(body.next, body.checkouts.length ? body.next : after);
        after = body.next;
        break;
      }
      after = body.next;
    }
    assert.deepEqual(all, made, 'in the order they were made');
    // Nothing new: the same position back.
    assert.deepEqual((await get(`after=${after}`)).body, { checkouts: [], next: after });

    // Two changes of one checkout and one of another, then the feed reads each once, at its last change.
    const [first, second] = [made[5]!, made[17]!];
    await bff.cancelCheckout(second);
    await bff.cancelCheckout(first);
    h.clock.advance(1000);
    const again = await bff.listCheckouts({ after });
    assert.deepEqual(
      again.checkouts.map((c) => [c.id, c.state]),
      [
        [second, 'cancelled'],
        [first, 'cancelled'],
      ],
    );
    assert.deepEqual((await bff.listCheckouts({ after: again.next! })).checkouts, []);
    // The payer reading the checkout changes nothing in the feed; a repeated cancel neither.
    await bff.getCheckout(first);
    await bff.cancelCheckout(first);
    assert.deepEqual((await bff.listCheckouts({ after: again.next! })).checkouts, []);
  });

  it('refuses a cursor it did not make, one of another list, and the feed with a state or a cursor (422, naming the parameter)', async () => {
    const listCursor = (await get('limit=1')).body.next!;
    const feedCursor = (await get('after=0&limit=1')).body.next!;
    const events = (await (await h.merchant('/v1/webhooks/events?limit=1')).json()) as { next: string | null };
    for (const [query, param] of [
      ['cursor=garbage', 'cursor'],
      ['cursor=' + Buffer.from('["checkouts",-1,"x"]').toString('base64url'), 'cursor'],
      ['cursor=' + Buffer.from('["checkouts",1,"a b"]').toString('base64url'), 'cursor'],
      ['cursor=' + feedCursor, 'cursor'],
      ['cursor=not%20base64', 'cursor'],
      ['after=' + listCursor, 'after'],
      ['after=-1', 'after'],
      ['after=0&state=unknown', 'after'],
      ['after=0&cursor=' + listCursor, 'after'],
      ['before=1', 'before'],
    ] as const) {
      const { status, body } = await get(query);
      assert.equal(status, 422, query);
      assert.equal(body.error?.code, 'validation_failed', query);
      assert.ok(
        body.error.issues?.some((i) => i.path === param),
        `${query}: names ${param}`,
      );
    }
    if (events.next) {
      const res = await h.merchant(`/v1/notifications?cursor=${events.next}`);
      assert.equal(res.status, 422, "an events cursor is not the notifications'");
    }
  });

  it('pages webhook events made in the same millisecond each once', async () => {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await h.merchant(`/v1/webhooks/events?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      const page = (await res.json()) as { events: { id: string; createdAt: string }[]; next: string | null };
      ids.push(...page.events.map((e) => e.id));
      cursor = page.next;
    } while (cursor);
    const stored = await h.bff.parts.store.listEvents({ limit: 500 });
    assert.ok(stored.length >= 2);
    assert.ok(new Set(stored.map((e) => e.createdAt)).size < stored.length, 'some share a millisecond');
    assert.deepEqual([...ids].sort(), stored.map((e) => e.id).sort());
  });
});
