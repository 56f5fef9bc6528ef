/**
 * Idempotent creations: a shop that retries `POST /v1/links` (or a periodic order, its
 * cancellation, or a link of the earlier variant) with the same Idempotency-Key gets the same
 * link back, never a second payable one, even when the retries race; a key reused with another
 * body is refused; a key whose request failed can be used again.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SANDBOX_DEFAULTS } from '@bank-checkout/sandbox';
import { createRig, json, type Rig } from './lib/rig.js';

const DEBTOR = 'ES7921000813610123456789';

describe('Idempotency-Key on merchant creations', () => {
  let rig: Rig;
  before(async () => {
    rig = await createRig();
  });
  after(() => rig.close());

  const signerCalls = (fragment: string) => rig.upstream.filter((u) => u.method === 'POST' && new URL(u.url).pathname.endsWith(fragment)).length;
  const post = (path: string, body: unknown, key?: string) => rig.merchant(path, { body, ...(key ? { headers: { 'Idempotency-Key': key } } : {}) });

  const tomorrow = () => new Date(rig.clock.now + 2 * 86_400_000).toISOString().slice(0, 10);
  const routes = () =>
    [
      ['/v1/links', '/url/signer', { amount: 1999, subject: 'Link order', reference: 'IDEM-1' }],
      [
        '/v1/links/periodic',
        '/url/periodic-payment-signer',
        { amount: 990, subject: 'Cuota mensual', reference: 'IDEM-2', frequency: 'Monthly', debtorAccount: DEBTOR, startDate: tomorrow() },
      ],
      [
        '/v1/legacy/links',
        '/url/signer',
        {
          amount: 1500,
          subject: 'Legacy order',
          reference: 'IDEM-3',
          customRecipient: 'Shop',
          holderDestiny: 'Shop S.L.',
          accountDestiny: SANDBOX_DEFAULTS.merchantIban,
        },
      ],
    ] as const;

  it('answers a retry with the first link (200), calling the provider once', async () => {
    for (const [path, upstreamPath, body] of routes()) {
      const calls = signerCalls(upstreamPath);
      const first = await post(path, body, `key-${path}`);
      assert.equal(first.status, 201, `${path}: ${await first.clone().text()}`);
      const firstBody = await first.json();
      const again = await post(path, body, `key-${path}`);
      assert.equal(again.status, 200, path);
      assert.deepEqual(await again.json(), firstBody, `${path}: the same link`);
      assert.equal(signerCalls(upstreamPath) - calls, 1, `${path}: one provider call`);
      // Without a key, each request is a new link.
      await json(await post(path, { ...body, reference: `${body.reference}-B` }), 201);
    }
  });

  it('makes one link of ten racing retries', async () => {
    const calls = signerCalls('/url/signer');
    const body = { amount: 2500, subject: 'Race', reference: 'IDEM-RACE' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('/v1/links', body, 'race-key')));
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
    for (const a of answers.filter((r) => r.status === 409)) {
      assert.equal((await a.json()).error.code, 'idempotency_in_progress');
      assert.ok(Number(a.headers.get('Retry-After')) > 0);
    }
    assert.equal(signerCalls('/url/signer') - calls, 1);
    const settled = await post('/v1/links', body, 'race-key');
    assert.equal(settled.status, 200);
  });

  it('refuses a key reused with another body, and frees a key whose request failed', async () => {
    await json(await post('/v1/links', { amount: 100, subject: 'One', reference: 'IDEM-M' }, 'mismatch-key'), 201);
    const other = await post('/v1/links', { amount: 101, subject: 'One', reference: 'IDEM-M' }, 'mismatch-key');
    assert.equal(other.status, 409);
    assert.equal((await other.json()).error.code, 'idempotency_mismatch');

    // The provider fails the first try: no link was made, so the key is free for the retry.
    const fault = await rig.sandbox.app.request('/__sandbox/faults', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/san/url/signer', kind: 'status', status: 503, times: 1 }),
    });
    assert.equal(fault.status, 201, await fault.text());
    const body = { amount: 300, subject: 'After a failure', reference: 'IDEM-F' };
    const failed = await post('/v1/links', body, 'free-key');
    assert.ok(failed.status >= 500, `the provider's failure is reported (${failed.status})`);
    const retry = await post('/v1/links', body, 'free-key');
    assert.equal(retry.status, 201);
    assert.equal((await post('/v1/links', body, 'free-key')).status, 200);
    const badKey = await post('/v1/links', { amount: 100, subject: 'x', reference: 'IDEM-K' }, 'key with spaces');
    assert.equal(badKey.status, 422);
  });
});
