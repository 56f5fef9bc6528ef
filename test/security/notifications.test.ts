/**
 * Provider notifications and the payer's return: anything altered, unsigned, empty or huge is
 * refused and changes nothing (no row, no state, no merchant event); a genuine result arrives
 * in any Base64 spelling and with a numeric status; a signed result that cannot be understood
 * is kept, flagged for the merchant, and the provider asked to retry; concurrent
 * duplicates change the checkout once and tell the merchant once; a late PENDING or error
 * never undoes a success; and a BFF killed with SIGKILL right after acknowledging keeps every
 * notification it acknowledged.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { encodeDataReturn, signNotification } from '@bank-checkout/provider';
import type { CheckoutView } from '@bank-checkout/contract';
import { SECRETS } from './lib/canary.js';
import { createRig, json, twoInstancesOnPostgres, type Rig } from './lib/rig.js';
import { withPostgres } from '../../packages/bff/test/store-fixtures.js';
import { assertBffError } from './lib/shapes.js';
import { cliArgs } from '../support/cli.mjs';
import { until } from '../../packages/bff/test/until.js';

type Json = Record<string, unknown>;

async function signed(data: Json | string, key: string = SECRETS.apiKey) {
  const dataReturn = typeof data === 'string' ? data : encodeDataReturn(data);
  return { dataReturn, signatureDataReturn: await signNotification(dataReturn, key) };
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const asJson = (fields: Json): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(fields) });
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);

describe('notifications', () => {
  let rig: Rig;
  before(async () => {
    rig = await createRig();
  });
  after(() => rig.close());

  async function linkCheckout() {
    const c = await rig.createCheckout({ modes: ['redirect'], urlOk: 'https://shop.example/ok', urlError: 'https://shop.example/ko' });
    const v = await json<CheckoutView>(await rig.checkout(c.clientSecret, '/v1/checkout/redirect', {}));
    assert.equal(v.state, 'redirect');
    return { id: c.id, secret: c.clientSecret, reference: v.reference, amount: v.amount };
  }

  const result = (c: { reference: string; amount: number }, status = '200', tx = `TX-${Math.random().toString(36).slice(2)}`) => ({
    status,
    description: status === '200' ? 'OK' : 'Error',
    transactionId: tx,
    amount: c.amount,
    reference: c.reference,
    dateInitPayment: rig.clock.now,
  });

  /** Everything a notification can change: rows, the checkout, the merchant's events and webhooks. */
  async function sideEffects(checkoutId: string) {
    // Webhooks go out from the outbox after the answer: count them once all due ones are sent.
    await rig.bff.parts.webhook.drain();
    const rec = await rig.bff.parts.store.getCheckout(checkoutId);
    return {
      rows: (await rig.bff.parts.store.listNotifications({ limit: 500 })).length,
      state: rec?.state,
      version: rec?.version,
      events: rig.events.length,
      webhooks: rig.webhooks.length,
    };
  }

  /** Requests that must be refused, each with what makes it wrong. */
  async function badInputs(c: { reference: string; amount: number }): Promise<[string, RequestInit][]> {
    const good = await signed(result(c));
    // customData chosen so that the Base64 text holds '+' and '/', which Base64url spells otherwise.
    const tricky = { ...result(c), customData: '>>>???~~~' };
    const trickyB64 = encodeDataReturn(tricky);
    assert.match(trickyB64, /[+/]/);
    const trickyB64url = trickyB64.replace(/\+/g, '-').replace(/\//g, '_');
    const hexSig = Buffer.from(good.signatureDataReturn, 'base64').toString();
    const cases: [string, RequestInit][] = [
      ['dataReturn with one character changed', form({ ...good, dataReturn: flip(good.dataReturn, 10) })],
      ['dataReturn for a larger amount, old signature', form({ ...good, dataReturn: encodeDataReturn({ ...result(c), amount: c.amount + 1 }) })],
      ['dataReturn as raw JSON with a space added, old signature', form({ ...good, dataReturn: ` ${Buffer.from(good.dataReturn, 'base64').toString()}` })],
      ['signature with one character changed', form({ ...good, signatureDataReturn: flip(good.signatureDataReturn, 5) })],
      ['signature of upper-case hex', form({ ...good, signatureDataReturn: b64(hexSig.toUpperCase()) })],
      ['signature as bare hex', form({ ...good, signatureDataReturn: hexSig })],
      ['signature with the simulator’s default key', form(await signed(result(c), 'sandbox-api-key'))],
      ['signature of another notification', form({ dataReturn: good.dataReturn, signatureDataReturn: (await signed(result(c))).signatureDataReturn })],
      ['signature truncated', form({ ...good, signatureDataReturn: good.signatureDataReturn.slice(0, -4) })],
      ['Base64url dataReturn, signed as Base64', form({ dataReturn: trickyB64url, signatureDataReturn: (await signed(trickyB64)).signatureDataReturn })],
      ['empty body', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' }],
      ['no body, no type', { method: 'POST' }],
      ['empty fields', form({ dataReturn: '', signatureDataReturn: '' })],
      ['only dataReturn', form({ dataReturn: good.dataReturn })],
      ['only the signature', form({ signatureDataReturn: good.signatureDataReturn })],
      ['JSON null', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: 'null' }],
      ['JSON array', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '[]' }],
      ['JSON with numbers', asJson({ dataReturn: 1, signatureDataReturn: 2 })],
      ['JSON with objects', asJson({ dataReturn: { ...result(c) }, signatureDataReturn: { a: 1 } })],
      ['broken JSON', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"dataReturn":' }],
      ['the form sent as JSON', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: new URLSearchParams(good).toString() }],
      ['text/plain', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: new URLSearchParams(good).toString() }],
      [
        'multipart/form-data',
        (() => {
          const fd = new FormData();
          fd.set('dataReturn', good.dataReturn);
          fd.set('signatureDataReturn', good.signatureDataReturn);
          return { method: 'POST', body: fd };
        })(),
      ],
      [
        'invalid UTF-8 in the form',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: Buffer.concat([
            Buffer.from('dataReturn='),
            Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
            Buffer.from(`&signatureDataReturn=${encodeURIComponent(good.signatureDataReturn)}`),
          ]),
        },
      ],
      ['percent-encoded invalid UTF-8', form({ dataReturn: '%FF%FE', signatureDataReturn: good.signatureDataReturn })],
      ['a huge dataReturn, signed', form(await signed({ ...result(c), description: 'x'.repeat(20_000) }))],
      ['a huge signature', form({ ...good, signatureDataReturn: 'A'.repeat(10_000) })],
      ['a 50 KB form', form({ ...good, padding: 'p'.repeat(50_000) })],
      [
        'a 5 MB body without Content-Length',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new ReadableStream({
            start(ctl) {
              for (let i = 0; i < 80; i++) ctl.enqueue(new TextEncoder().encode('a'.repeat(64 * 1024)));
              ctl.close();
            },
          }),
          duplex: 'half',
        } as RequestInit,
      ],
    ];
    return cases;
  }

  /** Results the provider signed that cannot be understood: kept, never applied, retried. */
  async function unreadableInputs(c: { reference: string; amount: number }): Promise<[string, RequestInit][]> {
    const good = await signed(result(c));
    return [
      [
        'Latin-1 JSON in Base64, signed',
        form(await signed(Buffer.from(JSON.stringify({ ...result(c), description: 'Operación' }), 'latin1').toString('base64'))),
      ],
      ['Base64 of Base64, signed', form(await signed(b64(good.dataReturn)))],
      ['a JSON array, signed', form(await signed(b64('[1,2,3]')))],
      ['JSON with the wrong types, signed', form(await signed({ ...result(c), amount: String(c.amount) }))],
      ['JSON without transactionId, signed', form(await signed({ status: '200', amount: c.amount, reference: c.reference, dateInitPayment: 1 }))],
    ];
  }

  it('never loses a signed result: line-wrapped, URL-safe or unpadded Base64, and a numeric status, are applied', async () => {
    const spell: [string, (b64: string) => string][] = [
      ['line-wrapped at 76', (x) => x.replace(/(.{76})/g, '$1\r\n')],
      ['URL-safe', (x) => x.replace(/\+/g, '-').replace(/\//g, '_')],
      ['unpadded', (x) => x.replace(/=+$/, '')],
    ];
    for (const [what, respell] of spell) {
      const c = await linkCheckout();
      // customData chosen so that the Base64 text holds '+' and '/' and is long enough to wrap.
      let data = encodeDataReturn({ ...result(c), customData: '>>>???~~~'.repeat(12) });
      for (let extra = ''; !data.endsWith('='); extra += ' ')
        data = encodeDataReturn({ ...result(c), customData: '>>>???~~~'.repeat(12), description: `OK${extra}` });
      const sent = respell(data);
      assert.notEqual(sent, data, what);
      const res = await rig.call('/v1/notifications/provider', form(await signed(sent)));
      assert.equal(res.status, 200, `${what}: ${res.status}`);
      assert.equal((await sideEffects(c.id)).state, 'succeeded', what);
      const listed = (await json<{ notifications: Json[] }>(await rig.merchant('/v1/notifications?limit=5'))).notifications[0]!;
      assert.equal(listed.customData, '>>>???~~~'.repeat(12), what);
    }
    const c = await linkCheckout();
    const numeric = await rig.call('/v1/notifications/provider', asJson(await signed({ ...result(c), status: 200 })));
    assert.equal(numeric.status, 200);
    assert.equal((await sideEffects(c.id)).state, 'succeeded', 'status 200 as a number');
  });

  it('keeps a signed result it cannot read, flags it for the merchant, changes no checkout, and asks the provider to retry', async () => {
    const c = await linkCheckout();
    const flagged = async () =>
      (await json<{ notifications: Json[] }>(await rig.merchant('/v1/notifications?limit=100'))).notifications.filter(
        (n) => n.outcome === 'unreadable' && n.verified === true,
      ).length;
    for (const [what, init] of await unreadableInputs(c)) {
      const before = await sideEffects(c.id);
      const flaggedBefore = await flagged();
      const res = await rig.call(`/v1/notifications/provider?c=${c.id}`, init);
      assert.equal(res.status, 503, what);
      await assertBffError(res, what);
      const after = await sideEffects(c.id);
      assert.equal(after.rows, before.rows + 1, `${what}: kept`);
      assert.deepEqual([after.state, after.version, after.events], [before.state, before.version, before.events], `${what}: no checkout moved`);
      assert.equal(await flagged(), flaggedBefore + 1, `${what}: shown to the merchant as unreadable`);
      // The provider's retry is the same result: kept once, still asked to retry.
      const again = await rig.call(`/v1/notifications/provider?c=${c.id}`, init);
      assert.equal(again.status, 503, `${what} again`);
      assert.equal((await sideEffects(c.id)).rows, before.rows + 1, `${what}: kept once`);
    }
  });

  it('a return tells the shop the state of its own checkout only, whatever genuine result is posted to it', async () => {
    const x = await linkCheckout();
    const y = await linkCheckout();
    const paid = form(await signed(result(x)));
    assert.equal((await rig.call(`/v1/notifications/provider?c=${x.id}`, paid)).status, 200);
    assert.equal((await sideEffects(x.id)).state, 'succeeded');
    for (const kind of ['ok', 'error']) {
      const res = await rig.call(`/v1/return/${kind}?c=${y.id}`, paid);
      assert.equal(res.status, 303);
      const location = new URL(res.headers.get('Location')!);
      assert.deepEqual([location.searchParams.get('checkout'), location.searchParams.get('result')], [y.id, 'redirect'], kind);
    }
    assert.equal((await sideEffects(y.id)).state, 'redirect', 'Y is still unpaid');
  });

  it('verifies a result of the earlier variant with its own key', async () => {
    const c = await linkCheckout();
    const res = await rig.call('/v1/notifications/provider', form(await signed(result(c), SECRETS.legacyApiKey)));
    assert.equal(res.status, 200);
    assert.equal((await sideEffects(c.id)).state, 'succeeded');
  });

  it('refuses every altered, wrongly encoded, empty or huge notification with a 4xx, and nothing changes', async () => {
    const c = await linkCheckout();
    const start = await sideEffects(c.id);
    for (const [what, init] of await badInputs(c)) {
      const res = await rig.call(`/v1/notifications/provider?c=${c.id}`, init);
      assert.ok(res.status >= 400 && res.status < 500, `${what}: ${res.status}`);
      await assertBffError(res, what);
      assert.deepEqual(await sideEffects(c.id), start, `${what} changed something`);
    }
    // The same checkout still takes the genuine result.
    const ok = await rig.call(`/v1/notifications/provider?c=${c.id}`, form(await signed(result(c))));
    assert.equal(ok.status, 200);
    assert.equal((await sideEffects(c.id)).state, 'succeeded');
  });

  it('the return routes answer the same inputs with a 303 marked unverified, and nothing changes', async () => {
    const c = await linkCheckout();
    const start = await sideEffects(c.id);
    for (const kind of ['ok', 'error']) {
      for (const [what, init] of await badInputs(c)) {
        const res = await rig.call(`/v1/return/${kind}?c=${c.id}`, init);
        assert.equal(res.status, 303, `${what} to ${kind}`);
        const location = new URL(res.headers.get('Location') ?? '');
        assert.equal(location.origin, 'https://shop.example');
        assert.equal(location.searchParams.get('result'), 'unverified', what);
        assert.deepEqual(await sideEffects(c.id), start, `${what} to ${kind} changed something`);
      }
    }
    for (const hint of ['', 'nope', '../../etc', 'x'.repeat(65), c.id.toUpperCase()]) {
      const res = await rig.call(`/v1/return/ok?c=${encodeURIComponent(hint)}`, form(await signed(result(c))));
      assert.equal(res.status, 404, `unknown checkout ${hint}`);
      await assertBffError(res, hint);
    }
    assert.deepEqual(await sideEffects(c.id), start);
  });

  it('ten concurrent duplicates, in every accepted form, change the checkout once and tell the merchant once', async () => {
    const c = await linkCheckout();
    const n = await signed(result(c));
    const raw = Buffer.from(n.dataReturn, 'base64').toString();
    const inits = Array.from(
      { length: 10 },
      (_, i) =>
        [
          form(n),
          asJson(n),
          form({ ...n, dataReturn: raw }),
          asJson({ ...n, dataReturn: raw }),
          form({ ...n, signatureDataReturn: ` ${n.signatureDataReturn} ` }),
        ][i % 5]!,
    );
    const before = await sideEffects(c.id);
    const answers = await Promise.all(
      inits.map((init, i) => rig.call(`/v1/notifications/provider${i % 2 ? `?c=${c.id}` : ''}`, init).then((r) => json<Json>(r))),
    );
    assert.equal(answers.filter((a) => a.duplicate === false).length, 1, 'exactly one is new');
    assert.equal(new Set(answers.map((a) => a.id)).size, 1, 'all name the same stored notification');
    const afterAll = await sideEffects(c.id);
    assert.equal(afterAll.rows, before.rows + 1);
    assert.equal(afterAll.state, 'succeeded');
    assert.equal(rig.events.filter((e) => e.checkoutId === c.id).length, 1, 'one merchant event');

    // The webhook: wait for it, then for a later checkout's, and count.
    // Each checkout gets one `checkout.updated` and one `notification.received`.
    const hooksFor = (id: string, type: string) => rig.webhooks.filter((w) => w.body.includes(`"${id}"`) && w.body.includes(`"type":"${type}"`)).length;
    const both = (id: string) => hooksFor(id, 'checkout.updated') >= 1 && hooksFor(id, 'notification.received') >= 1;
    await until(() => both(c.id), 'the webhooks');
    const later = await linkCheckout();
    await rig.call('/v1/notifications/provider', form(await signed(result(later))));
    await until(() => both(later.id), 'the later webhooks');
    assert.equal(hooksFor(c.id, 'checkout.updated'), 1, 'one checkout webhook');
    assert.equal(hooksFor(c.id, 'notification.received'), 1, 'one notification webhook');
  });

  it('a genuine result first posted for another checkout, or for none, is still applied when it arrives for its own', async () => {
    // The payer's browser holds the signed result (the gateway's return form) and can post it
    // anywhere before the provider's own delivery comes.
    for (const wrongHint of ['chk_nobody', (await rig.createCheckout()).id, (await linkCheckout()).id]) {
      const c = await linkCheckout();
      const n = form(await signed(result(c)));
      const first = await json<Json>(await rig.call(`/v1/notifications/provider?c=${wrongHint}`, n));
      assert.equal(first.duplicate, false);
      assert.equal((await sideEffects(c.id)).state, 'redirect', 'a result is never applied to a checkout it does not name');
      const genuine = await json<Json>(await rig.call(`/v1/notifications/provider?c=${c.id}`, n));
      assert.equal(genuine.duplicate, true);
      assert.equal((await sideEffects(c.id)).state, 'succeeded', `applied after a first delivery for ${wrongHint}`);
      const back = await rig.call(`/v1/return/ok?c=${c.id}`, n);
      assert.equal(new URL(back.headers.get('Location')!).searchParams.get('result'), 'succeeded');
      const row = (await rig.bff.parts.store.listNotifications({ limit: 500 })).find((r) => r.id === genuine.id);
      assert.equal(row?.outcome, 'applied');
      assert.equal(row.checkoutId, c.id);
    }
  });

  it('a late PENDING or error after OK is stored and ignored: the checkout stays succeeded', async () => {
    const c = await linkCheckout();
    await json(await rig.call('/v1/notifications/provider', form(await signed(result(c, '200', 'TX-OK')))));
    const paid = await sideEffects(c.id);
    assert.equal(paid.state, 'succeeded');
    for (const status of ['PENDING', 'E300', 'B103']) {
      const res = await json<Json>(await rig.call(`/v1/notifications/provider?c=${c.id}`, form(await signed(result(c, status, `TX-${status}`)))));
      assert.equal(res.duplicate, false);
      const now = await sideEffects(c.id);
      assert.equal(now.state, 'succeeded', `after a late ${status}`);
      assert.equal(now.version, paid.version, 'the checkout was not rewritten');
      assert.equal(now.events, paid.events);
    }
    const returned = await rig.call(`/v1/return/error?c=${c.id}`, form(await signed(result(c, 'E300', 'TX-LATE'))));
    assert.equal(new URL(returned.headers.get('Location')!).searchParams.get('result'), 'succeeded');
    const rows = await rig.bff.parts.store.listNotifications({ limit: 500 });
    assert.deepEqual(
      rows
        .filter((r) => r.checkoutId === c.id)
        .map((r) => r.outcome)
        .sort(),
      ['applied', 'ignored', 'ignored', 'ignored', 'ignored'],
    );
  });
});

describe('a BFF killed with SIGKILL', () => {
  const root = new URL('../..', import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'security-kill-'));
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `file:${join(dir, 'bff.db')}`,
    PROVIDER_API_KEY: SECRETS.apiKey,
    PROVIDER_API_TOKEN: SECRETS.apiToken,
    BFF_MERCHANT_SECRET: SECRETS.merchantSecret,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000',
    MERCHANT_RATE_LIMIT_PER_MINUTE: '10000000',
    AUTH_FAILURES_PER_MINUTE: '1000000',
  };
  const children: ChildProcess[] = [];
  after(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts `npm run bff`'s entry point and resolves with its address once it listens. */
  function startBff(): Promise<{ url: string; child: ChildProcess }> {
    const child = spawn(process.execPath, cliArgs('packages/bff/src/cli.ts'), {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`bff exited with ${code}: ${stderr}`)));
      createInterface({ input: child.stdout }).on('line', (line) => {
        const m = /listening on (http:\/\/\S+)/.exec(line);
        if (m) resolve({ url: m[1]!, child });
      });
    });
  }

  it('keeps every notification it acknowledged, and what each one did', async () => {
    const first = await startBff();
    const merchant = { Authorization: `Bearer ${SECRETS.merchantSecret}`, 'Content-Type': 'application/json' };
    const checkouts: { id: string; reference: string; amount: number }[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${first.url}/v1/checkouts`, {
        method: 'POST',
        headers: merchant,
        body: JSON.stringify({ amount: 1000 + i, subject: 'Kill test', reference: `KILL-${i}`, modes: ['redirect'] }),
      });
      const body = (await res.json()) as { id: string };
      assert.equal(res.status, 201);
      checkouts.push({ id: body.id, reference: `KILL-${i}`, amount: 1000 + i });
    }
    const acknowledged = new Map<string, string>();
    let killed = false;
    const post = async (c: (typeof checkouts)[number], i: number) => {
      const n = await signed({
        status: '200',
        description: 'OK',
        transactionId: `TX-KILL-${i}`,
        amount: c.amount,
        reference: c.reference,
        dateInitPayment: Date.now(),
      });
      try {
        const res = await fetch(`${first.url}/v1/notifications/provider?c=${c.id}`, form(n));
        if (res.status !== 200) return;
        const body = (await res.json()) as { id: string };
        acknowledged.set(body.id, c.id);
        if (acknowledged.size === 8 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      } catch {
        // In flight when the process died: never acknowledged, so the provider would retry it.
      }
    };
    // Eight at a time, so that some are in flight whatever moment the kill lands.
    const queue = checkouts.map((c, i) => () => post(c, i));
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let job = queue.shift(); job; job = queue.shift()) await job();
      }),
    );
    assert.ok(killed, 'the BFF was killed mid-flow');
    if (first.child.exitCode === null && first.child.signalCode === null) await new Promise((r) => first.child.once('exit', r));
    assert.equal(first.child.signalCode, 'SIGKILL');
    assert.ok(acknowledged.size >= 8 && acknowledged.size < checkouts.length, `acknowledged ${acknowledged.size}`);

    const second = await startBff();
    const res = await fetch(`${second.url}/v1/notifications?limit=200`, { headers: merchant });
    const stored = ((await res.json()) as { notifications: { id: string; outcome: string; checkoutId: string | null }[] }).notifications;
    for (const [id, checkoutId] of acknowledged) {
      const row = stored.find((n) => n.id === id);
      assert.ok(row, `acknowledged notification ${id} survived`);
      assert.equal(row.outcome, 'applied');
      assert.equal(row.checkoutId, checkoutId);
      const chk = (await (await fetch(`${second.url}/v1/checkouts/${checkoutId}`, { headers: merchant })).json()) as { state: string };
      assert.equal(chk.state, 'succeeded', `checkout ${checkoutId} kept its result`);
    }
    const stopped = new Promise((r) => second.child.once('exit', r));
    second.child.kill('SIGTERM');
    await stopped;
  });
});

withPostgres('one result at two instances', (url) => {
  describe('one signed result posted to two instances on PostgreSQL at once', () => {
    const rigs = twoInstancesOnPostgres(url, 'notify_two');

    it('20 times: one change, one notification.received event, both answers naming the one stored notification', async () => {
      const [a, b] = rigs();
      for (let trial = 0; trial < 20; trial++) {
        const c = await a.createCheckout({ modes: ['redirect'], urlOk: 'https://shop.example/ok', urlError: 'https://shop.example/ko' });
        const v = await json<CheckoutView>(await a.checkout(c.clientSecret, '/v1/checkout/redirect', {}));
        assert.equal(v.state, 'redirect');
        const tx = `TX-TWO-${trial}`;
        const n = await signed({ status: '200', description: 'OK', transactionId: tx, amount: v.amount, reference: v.reference, dateInitPayment: a.clock.now });
        // The provider's retry overlapping its first delivery, each reaching another instance.
        const answers = await Promise.all(
          [a, b].map((r, i) => r.call(`/v1/notifications/provider${i ? `?c=${c.id}` : ''}`, form(n)).then((res) => json<Json>(res))),
        );
        assert.equal(answers.filter((x) => x.duplicate === false).length, 1, `trial ${trial}: exactly one is new`);
        assert.equal(new Set(answers.map((x) => x.id)).size, 1, `trial ${trial}: both name the same stored notification`);
        const events = (await a.bff.parts.store.listEvents({ limit: 500 })).filter(
          (e) => (e.data as Json).checkoutId === c.id || (e.data as Json).transactionId === tx,
        );
        assert.deepEqual(
          events.filter((e) => e.type === 'notification.received').map((e) => (e.data as Json).outcome),
          ['applied'],
          `trial ${trial}: one notification.received event`,
        );
        assert.deepEqual(
          events.filter((e) => e.type === 'checkout.updated').map((e) => (e.data as Json).state),
          ['succeeded'],
          `trial ${trial}: one change`,
        );
      }
    });
  });
});
