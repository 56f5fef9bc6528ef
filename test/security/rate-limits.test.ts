/**
 * Rate limits that protect without denying service: a busy shop creates at least 1,000
 * checkouts a minute (each counted once); wrong secrets lock an address out of that API only
 * (and never the right merchant secret out), and preflights count for nothing; behind a proxy, the client is the address the trusted proxy
 * appended (proxies named by number, address or CIDR), so a guesser cannot rotate the left-most
 * X-Forwarded-For entry; forged notifications are limited per address and stop filling the log,
 * but never lock out a genuine one (verified first), nor the payer's returns (a guard of their own).
 */
import { proved } from '../../packages/bff/test/frame-proof.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeDataReturn, signNotification } from '@bank-checkout/provider';
import { SECRETS } from './lib/canary.js';
import { BFF_HOST, createRig, type Rig } from './lib/rig.js';

/** A request as the Node server hands it to the app: with the socket's peer address. */
const from = async (rig: Rig, peer: string, path: string, init: RequestInit = {}) =>
  rig.bff.request(`${BFF_HOST}${path}`, await proved(`${BFF_HOST}${path}`, init, rig.clock.now), { incoming: { socket: { remoteAddress: peer } } });

/** The defaults under test (the rig raises them for other suites). */
const DEFAULTS = { AUTH_FAILURES_PER_MINUTE: '30', MERCHANT_RATE_LIMIT_PER_MINUTE: '3000' };

const merchantGet = (secret: string, headers: Record<string, string> = {}): RequestInit => ({ headers: { Authorization: `Bearer ${secret}`, ...headers } });

describe('rate limits', () => {
  it('lets a busy shop create 1,000 checkouts in a minute, each counted once', async () => {
    const rig = await createRig({ env: DEFAULTS });
    try {
      const started = performance.now();
      const statuses: number[] = [];
      for (let batch = 0; batch < 20; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            rig.merchant('/v1/checkouts', { body: { amount: 100 + i, subject: 'Burst', reference: `BURST-${batch}-${i}` } }).then((r) => r.status),
          ),
        );
        statuses.push(...answers);
      }
      const ms = performance.now() - started;
      assert.deepEqual([...new Set(statuses)], [201], 'every creation accepted');
      if (process.env.FIGURES) console.log(`1000 creations in ${ms.toFixed(0)} ms`);
      // The default budget of a class is 3,000 a minute: the 3,001st creation waits.
      for (let i = 0; i < 2000; i++)
        statuses.push((await rig.merchant('/v1/checkouts', { body: { amount: 100, subject: 'Burst', reference: `MORE-${i}` } })).status);
      const limited = await rig.merchant('/v1/checkouts', { body: { amount: 100, subject: 'Burst', reference: 'LAST' } });
      assert.equal(limited.status, 429);
      // Reads have their own budget.
      assert.equal((await rig.merchant('/v1/notifications')).status, 200);
    } finally {
      await rig.close();
    }
  });

  it('locks an address out of the API it guessed at only; preflights count for nothing', async () => {
    const rig = await createRig({ env: DEFAULTS });
    try {
      const c = await rig.createCheckout();
      const peer = '198.51.100.7';
      for (let i = 0; i < 100; i++) {
        const pre = await from(rig, peer, '/v1/checkout', {
          method: 'OPTIONS',
          headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
        });
        assert.ok(pre.status < 300);
      }
      for (let i = 0; i < 30; i++) assert.equal((await from(rig, peer, '/v1/checkout', { headers: { 'X-Checkout-Secret': `cs_wrong_${i}` } })).status, 401);
      assert.equal(
        (await from(rig, peer, '/v1/checkout', { headers: { 'X-Checkout-Secret': c.clientSecret } })).status,
        429,
        'the checkout API is locked for this address',
      );
      assert.equal((await from(rig, peer, `/v1/checkouts/${c.id}`, merchantGet(SECRETS.merchantSecret))).status, 200, 'the merchant API is not');
      assert.equal(
        (await from(rig, '198.51.100.8', '/v1/checkout', { headers: { 'X-Checkout-Secret': c.clientSecret } })).status,
        200,
        'nor is another address',
      );
    } finally {
      await rig.close();
    }
  });

  it('behind a trusted proxy, counts the address the proxy appended, never the one the client wrote', async () => {
    for (const TRUST_PROXY of ['1', '10.0.0.1']) {
      const rig = await createRig({ env: { ...DEFAULTS, TRUST_PROXY } });
      try {
        const c = await rig.createCheckout();
        let guessed = 0;
        for (let i = 0; i < 200; i++) {
          const res = await from(rig, '10.0.0.1', `/v1/checkouts/${c.id}`, merchantGet(`wrong-${i}`, { 'X-Forwarded-For': `192.0.2.${i % 250}, 203.0.113.9` }));
          if (res.status === 401) guessed++;
        }
        assert.equal(guessed, 30, `TRUST_PROXY=${TRUST_PROXY}: only 30 guesses reached the secret check`);
        const honest = await from(rig, '10.0.0.1', `/v1/checkouts/${c.id}`, merchantGet(SECRETS.merchantSecret, { 'X-Forwarded-For': '203.0.113.10' }));
        assert.equal(honest.status, 200, `TRUST_PROXY=${TRUST_PROXY}: another client behind the same proxy is served`);
      } finally {
        await rig.close();
      }
    }
    // Without TRUST_PROXY, X-Forwarded-For is not believed at all: every guess counts against the peer.
    const rig = await createRig({ env: DEFAULTS });
    try {
      const c = await rig.createCheckout();
      for (let i = 0; i < 30; i++) await from(rig, '10.0.0.1', `/v1/checkouts/${c.id}`, merchantGet(`wrong-${i}`, { 'X-Forwarded-For': `203.0.113.${i}` }));
      assert.equal((await from(rig, '10.0.0.1', `/v1/checkouts/${c.id}`, merchantGet('wrong-again', { 'X-Forwarded-For': '203.0.113.99' }))).status, 429);
    } finally {
      await rig.close();
    }
  });

  it('40 wrong merchant secrets from one address never lock the right one out of it: the wrong ones are refused past the limit', async () => {
    const rig = await createRig({ env: DEFAULTS });
    try {
      const c = await rig.createCheckout();
      const peer = '198.51.100.40';
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await from(rig, peer, `/v1/checkouts/${c.id}`, merchantGet(`wrong-${i}`))).status);
      assert.deepEqual(statuses, [...Array<number>(30).fill(401), ...Array<number>(10).fill(429)], 'wrong secrets: 401, then 429 past the limit');
      // The shop's own calls from that address go on, reads and writes, and interleaved with more guesses.
      assert.equal((await from(rig, peer, `/v1/checkouts/${c.id}`, merchantGet(SECRETS.merchantSecret))).status, 200);
      assert.equal((await from(rig, peer, `/v1/checkouts/${c.id}`, merchantGet('wrong-41'))).status, 429);
      const created = await from(rig, peer, '/v1/checkouts', {
        method: 'POST',
        headers: { Authorization: `Bearer ${SECRETS.merchantSecret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ amount: 1850, subject: 'After the guesses', reference: 'GUESSED-1' }),
      });
      assert.equal(created.status, 201);
      // A secret that only differs in case, or is cut short, is no right secret.
      for (const near of [SECRETS.merchantSecret.toUpperCase(), SECRETS.merchantSecret.slice(0, -1)])
        assert.equal((await from(rig, peer, `/v1/checkouts/${c.id}`, merchantGet(near))).status, 429);
    } finally {
      await rig.close();
    }
  });

  it('limits forged notifications per address, and stops logging each one', async () => {
    const rig = await createRig({ env: DEFAULTS });
    try {
      const forged = {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ dataReturn: 'eyJhIjoxfQ==', signatureDataReturn: 'QUFB' }).toString(),
      };
      const statuses: number[] = [];
      for (let i = 0; i < 200; i++) statuses.push((await from(rig, '198.51.100.20', '/v1/notifications/provider', forged)).status);
      assert.equal(statuses.filter((s) => s === 401).length, 30);
      assert.equal(statuses.filter((s) => s === 429).length, 170);
      assert.equal(rig.logs.filter((l) => l.includes('"notification.rejected"')).length, 30);
      // The provider, from its own address, is still heard.
      const other = await from(rig, '198.51.100.21', '/v1/notifications/provider', forged);
      assert.equal(other.status, 401);
    } finally {
      await rig.close();
    }
  });

  it('forged notifications never lock out genuine ones, nor the payer returns, from the same address', async () => {
    const rig = await createRig({ env: DEFAULTS });
    try {
      const c = await rig.createCheckout({ modes: ['redirect'], urlOk: 'https://shop.example/ok', urlError: 'https://shop.example/ko' });
      const view = (await (await rig.checkout(c.clientSecret, '/v1/checkout/redirect', {})).json()) as { reference: string; amount: number; state: string };
      assert.equal(view.state, 'redirect');
      const shared = '198.51.100.30';
      const post = (fields: Record<string, string>): RequestInit => ({
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
      const forged = post({ dataReturn: 'eyJhIjoxfQ==', signatureDataReturn: 'QUFB' });
      for (let i = 0; i < 60; i++) await from(rig, shared, '/v1/notifications/provider', forged);
      assert.equal((await from(rig, shared, '/v1/notifications/provider', forged)).status, 429, 'forgeries past the limit are refused');
      // The payer's return has its own guard: the forged notifications did not spend it.
      const unverified = await from(rig, shared, `/v1/return/ok?c=${c.id}`, forged);
      assert.equal(unverified.status, 303);
      assert.match(unverified.headers.get('Location') ?? '', /result=unverified/);
      const dataReturn = encodeDataReturn({
        status: '200',
        description: 'OK',
        transactionId: 'TX-GENUINE-1',
        amount: view.amount,
        reference: view.reference,
        dateInitPayment: rig.clock.now,
      });
      const genuine = post({ dataReturn, signatureDataReturn: await signNotification(dataReturn, SECRETS.apiKey) });
      const heard = await from(rig, shared, '/v1/notifications/provider', genuine);
      assert.equal(heard.status, 200, 'a valid signature always passes');
      assert.equal((await rig.bff.parts.store.getCheckout(c.id))?.state, 'succeeded');
      // Forged returns lock out forged returns only: the payer's genuine return is still told its result.
      for (let i = 0; i < 60; i++) await from(rig, shared, `/v1/return/ok?c=${c.id}`, forged);
      const back = await from(rig, shared, `/v1/return/ok?c=${c.id}`, genuine);
      assert.equal(back.status, 303);
      assert.match(back.headers.get('Location') ?? '', /result=succeeded/);
      // Past the limit, forged notifications stop being logged one by one.
      assert.equal(rig.logs.filter((l) => l.includes('"notification.rejected"')).length, 60);
    } finally {
      await rig.close();
    }
  });

  it('behind proxies named by CIDR, counts the address the nearest untrusted hop appended', async () => {
    const rig = await createRig({ env: { ...DEFAULTS, TRUST_PROXY: '10.0.0.0/8, fd00::/8' } });
    try {
      const c = await rig.createCheckout();
      let guessed = 0;
      for (let i = 0; i < 60; i++) {
        // Two proxies of the range in front (one seen over IPv4-mapped IPv6): the client is 203.0.113.9.
        const res = await from(
          rig,
          '::ffff:10.1.2.3',
          `/v1/checkouts/${c.id}`,
          merchantGet(`wrong-${i}`, { 'X-Forwarded-For': `192.0.2.${i}, 203.0.113.9, 10.200.0.1` }),
        );
        if (res.status === 401) guessed++;
      }
      assert.equal(guessed, 30, 'only 30 guesses reached the secret check');
      const honest = await from(rig, 'fd00::7', `/v1/checkouts/${c.id}`, merchantGet(SECRETS.merchantSecret, { 'X-Forwarded-For': '203.0.113.10' }));
      assert.equal(honest.status, 200, 'another client behind the proxies is served');
      // A peer outside the range is the client itself, whatever it writes.
      const outside = await from(rig, '198.51.100.40', `/v1/checkouts/${c.id}`, merchantGet(SECRETS.merchantSecret, { 'X-Forwarded-For': '203.0.113.9' }));
      assert.equal(outside.status, 200);
    } finally {
      await rig.close();
    }
  });
});
