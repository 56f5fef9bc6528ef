/**
 * Canaries: whole journeys (native banks of every kind, wrong credentials and codes, an
 * upstream fault, redirect and periodic payment links, the merchant's API) run with canary
 * secrets in the configuration and canary credentials typed by the payer. Afterwards no
 * canary may appear, in any encoding, in any BFF response or header, log line, span, metric
 * label, webhook, provider notification, gateway page, URL, or database row (SQLite file bytes included;
 * PostgreSQL when TEST_DATABASE_URL is set).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresStore } from '@bank-checkout/bff';
import { describeLeaks, encodings, findLeaks, GATEWAY_PAYER, MIN_CANARY_LENGTH, SECRETS, type Sample } from './lib/canary.js';
import { createRig, type Rig } from './lib/rig.js';
import { payByLink, payNative } from './lib/journeys.js';
import { dumpPostgres, dumpSqlite } from './lib/db.js';
import { dropSchemas, freshSchema, withPostgres } from '../../packages/bff/test/store-fixtures.js';

const secretCanaries = Object.values(SECRETS);

/** Every journey and merchant call the canary checks look through. */
async function runJourneys(rig: Rig, opts: { full: boolean }) {
  const outcomes: Record<string, string> = {};
  const native = async (name: string, bankId: string, plan: Parameters<typeof payNative>[3] = {}) => {
    const c = await rig.createCheckout({ urlOk: 'https://shop.example/ok', urlError: 'https://shop.example/ko' });
    outcomes[name] = (await payNative(rig, c.clientSecret, bankId, plan)).state;
    return c;
  };

  await native('aurora, password login, SMS code', 'aurora', { loginId: 'user' });
  if (opts.full) {
    await native('levante, SMS second login, coordinates', 'levante');
    await native('cantabrico, app token second login, card and SMS rounds', 'cantabrico');
    await native('aurora-empresas, CIF, extra key, contracts, signature and token', 'aurora-empresas');

    // A wrong password, then the right one, then a wrong SMS code.
    const wrong = await rig.createCheckout();
    const first = await payNative(rig, wrong.clientSecret, 'aurora', { loginId: 'user', userSecret: 'WrongPass2024x', stopAt: 'login' });
    assert.equal(first.error?.code, 'B100');
    outcomes['aurora, wrong SMS code'] = (await payNative(rig, wrong.clientSecret, 'aurora', { loginId: 'user', answer: () => '918273' })).state;

    // A wrong second-login code sends the payer back to the login.
    const back = await rig.createCheckout();
    outcomes['levante, wrong second-login code'] = (await payNative(rig, back.clientSecret, 'levante', { secondLogin: '192837', stopAt: 'login' })).state;

    // The provider answers garbage while the payer's credentials are on their way.
    const fault = await rig.createCheckout();
    rig.sandbox.faults.add({ path: '/test/login', kind: 'html', times: 1 });
    const bank = await rig.checkout(fault.clientSecret, '/v1/banks');
    assert.equal(bank.status, 200);
    rig.typed.add('Meridiano1');
    const faulted = await rig.checkout(fault.clientSecret, '/v1/checkout/login', {
      bankId: 'meridiano',
      loginId: 'dni',
      fields: { userId: '87654321X', userSecret: 'Meridiano1' },
    });
    assert.equal(faulted.status, 502);
    outcomes['meridiano after an upstream fault'] = (await payNative(rig, fault.clientSecret, 'meridiano')).state;
  }

  // Payment links: redirect (paid, and failed with 0000), periodic.
  const link = await rig.createCheckout({ modes: ['redirect'], urlOk: 'https://shop.example/ok?order=1', urlError: 'https://shop.example/ko' });
  const paid = await payByLink(rig, link.clientSecret);
  outcomes['redirect, paid'] = new URL(paid.location).searchParams.get('result') ?? '';
  if (opts.full) {
    const failing = await rig.createCheckout({ modes: ['redirect'], urlOk: 'https://shop.example/ok', urlError: 'https://shop.example/ko' });
    const failed = await payByLink(rig, failing.clientSecret, { fail: true });
    outcomes['redirect, 0000'] = new URL(failed.location).searchParams.get('result') ?? '';

    const periodic = await rig.createCheckout({ modes: ['periodic'], urlOk: 'https://shop.example/ok', urlError: 'https://shop.example/ko' });
    const authorised = await payByLink(rig, periodic.clientSecret, {
      periodic: { bankId: 'es-cantabrico', frequency: 'Monthly', debtorAccount: 'ES7620770024003102575766', startDate: '2026-12-01' },
    });
    outcomes['periodic, authorised'] = new URL(authorised.location).searchParams.get('result') ?? '';

    // The merchant's server reads what happened.
    for (const path of ['/v1/notifications', `/v1/checkouts/${link.id}`, '/v1/orders', '/v1/link-banks', '/v1/openapi.json']) {
      assert.equal((await rig.merchant(path)).status, 200, path);
    }
    const made = await rig.merchant('/v1/links', { body: { amount: 990, subject: 'Link order', reference: 'LNK-1' } });
    assert.equal(made.status, 201);
  }
  return outcomes;
}

const payerCanaries = (rig: Rig) => [...rig.typed, ...Object.values(GATEWAY_PAYER)].filter((v) => v.length >= MIN_CANARY_LENGTH);

function assertNoLeaks(samples: Sample[], canaries: string[], what: string) {
  const leaks = findLeaks(samples, canaries);
  assert.equal(leaks.length, 0, `${what} leaked:\n${describeLeaks(leaks)}`);
}

describe('the canary search', () => {
  it('finds a value in every encoding, at every alignment, inside longer text', () => {
    const canary = SECRETS.apiKey;
    for (let pad = 0; pad < 4; pad++) {
      const wrapped = `${'x'.repeat(pad)}${canary}${'y'.repeat(pad)}`;
      const texts = [
        Buffer.from(wrapped).toString('base64'),
        Buffer.from(wrapped).toString('base64url'),
        Buffer.from(wrapped).toString('hex'),
        Buffer.from(wrapped).toString('hex').toUpperCase(),
        encodeURIComponent(wrapped),
        new URLSearchParams({ q: wrapped }).toString(),
        JSON.stringify({ wrapped }),
        encodeURIComponent(Buffer.from(wrapped).toString('base64')),
      ];
      for (const text of texts) assert.equal(findLeaks([{ where: 't', text }], [canary]).length > 0, true, `missed in ${text}`);
    }
    assert.equal(findLeaks([{ where: 't', text: 'CANARY-api-key/7Qx9+Lm2Pz' }], [canary]).length, 0, 'a prefix alone is not the canary');
    assert.ok(encodings('482913').every((e) => e.text.length >= 4));
  });

  it('finds a code of digits as a value of its own, and not by chance inside a hash or a timestamp', () => {
    const code = '482913';
    for (const text of [`{"code":"${code}"}`, `code=${code}&x=1`, `values[sms]: ${code}`, code])
      assert.equal(findLeaks([{ where: 't', text }], [code]).length, 1, `missed in ${text}`);
    for (const text of ['"keyHash":"496b1c27f315ae5b7952482913e1742a"', '"at":1795168482913', 'x482913y'])
      assert.equal(findLeaks([{ where: 't', text }], [code]).length, 0, `a chance match in ${text}`);
    // Its encodings are still found inside longer encoded text.
    for (const text of [Buffer.from(`sms ${code} sent`).toString('base64'), Buffer.from(`sms ${code} sent`).toString('hex')])
      assert.equal(findLeaks([{ where: 't', text }], [code]).length > 0, true, `missed in ${text}`);
  });
});

describe('canaries on the embedded SQLite store', () => {
  let rig: Rig;
  let dir: string;
  let file: string;
  let outcomes: Record<string, string>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'security-canaries-'));
    file = join(dir, 'bff.db');
    rig = await createRig({ databaseUrl: `file:${file}` });
    outcomes = await runJourneys(rig, { full: true });
    await rig.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('ran every journey to the outcome expected', () => {
    assert.deepEqual(outcomes, {
      'aurora, password login, SMS code': 'succeeded',
      'levante, SMS second login, coordinates': 'succeeded',
      'cantabrico, app token second login, card and SMS rounds': 'succeeded',
      'aurora-empresas, CIF, extra key, contracts, signature and token': 'succeeded',
      'aurora, wrong SMS code': 'failed',
      'levante, wrong second-login code': 'login',
      'meridiano after an upstream fault': 'succeeded',
      'redirect, paid': 'succeeded',
      'redirect, 0000': 'failed',
      'periodic, authorised': 'succeeded',
    });
  });

  it('the canaries were live: the provider got the key, the token and what the payer typed', () => {
    const sent = rig.upstream;
    assert.ok(sent.length > 20);
    assert.ok(sent.every((u) => u.headers['x-api-key'] === SECRETS.apiKey || u.headers['x-api-key'] === SECRETS.legacyApiKey));
    assert.ok(sent.every((u) => u.headers.authorization === SECRETS.apiToken || u.headers.authorization === SECRETS.legacyApiToken));
    const bodies = JSON.stringify(sent.map((u) => u.body));
    for (const v of ['Aurora2024', '482913', '731904', '905217', '550061', 'Empresa2024', '613579', 'WrongPass2024x', '918273', '192837', 'Meridiano1']) {
      assert.ok(rig.typed.has(v), `the payer typed ${v}`);
      assert.ok(bodies.includes(v), `${v} reached the provider`);
    }
    assert.ok(rig.webhooks.length >= 8, 'the merchant was told of each final state');
    assert.ok(rig.notificationsIn.length >= 3, 'the provider notified the BFF');
    assert.ok(rig.gatewayPages.length >= 10, 'the payer saw the gateway');
    // Telemetry recorded the journeys: the requests, the provider calls by operation, the metrics.
    const names = new Set(rig.telemetry().spans.map((span) => span.name));
    for (const name of [
      'POST /v1/checkouts',
      'POST /v1/checkout/login',
      'provider native login',
      'provider native transfer/validate',
      'provider links url/signer',
    ])
      assert.ok(names.has(name) || [...names].some((n) => n.startsWith(name)), `a span ${name}: ${[...names].join(', ')}`);
    const metrics = JSON.stringify(rig.telemetry().metrics);
    for (const name of ['bank_checkout.checkouts', 'bank_checkout.provider.duration', 'bank_checkout.outbox.deliveries'])
      assert.ok(metrics.includes(name), name);
  });

  it('no payer credential or code appears anywhere after the provider: responses, headers, logs, webhooks, notifications, gateway pages, URLs, database', () => {
    const { samples, rows } = dumpSqlite(file);
    assert.ok((rows.checkouts?.length ?? 0) >= 10 && (rows.notifications?.length ?? 0) >= 3, 'the database holds the journeys');
    assertNoLeaks([...rig.samples(), ...samples], payerCanaries(rig), 'a payer credential or code');
  });

  it('no provider key, token, merchant secret or webhook secret appears in anything browser-visible, in logs, in webhooks or in the database', () => {
    const { samples } = dumpSqlite(file);
    assertNoLeaks([...rig.samples(), ...samples], secretCanaries, 'a configured secret');
  });

  it('checkout client secrets, launch tokens and frame keys appear only in the answer that gives them: never in a log, a URL, a webhook or the database', () => {
    const created = rig.responses.filter((r) => r.where === 'BFF POST /v1/checkouts' && r.status === 201);
    const secrets = created.map((r) => JSON.parse(r.body) as { clientSecret?: string; launchToken?: string }).map((c) => c.clientSecret ?? c.launchToken!);
    assert.ok(secrets.length >= 10 && secrets.every((s) => /^cs_[\w-]{43}$|^lt_chk_[\w-]+\.[\w-]{43}$/.test(s)));
    const keys = rig.responses
      .filter((r) => r.where === 'BFF POST /v1/frame/launch' && r.status === 200)
      .map((r) => (JSON.parse(r.body) as { key: string }).key);
    assert.ok(keys.length >= 1 && keys.every((k) => /^fk_chk_[\w-]+\.[\w-]{43}$/.test(k)));
    secrets.push(...keys);
    const elsewhere = rig.samples().filter((s) => !s.where.startsWith('BFF POST /v1/checkouts (') && !s.where.startsWith('BFF POST /v1/frame/launch ('));
    const { samples } = dumpSqlite(file);
    assertNoLeaks([...elsewhere, ...samples], secrets, 'a client secret');
  });

  it("the provider's native session and transaction ids never reach the browser, the logs or the merchant", () => {
    const ids = new Set<string>();
    for (const u of rig.upstream) {
      if (!u.url.includes('/test/') || !u.answer) continue;
      const answer = JSON.parse(u.answer) as { sessionId?: string; transactionId?: string };
      if (answer.sessionId) ids.add(answer.sessionId);
      if (answer.transactionId) ids.add(answer.transactionId);
    }
    assert.ok(ids.size >= 10, `ids seen: ${ids.size}`);
    assertNoLeaks(rig.samples(), [...ids], 'a provider session or transaction id');
  });

  it('the webhook is signed with its secret without carrying it', () => {
    const hook = rig.webhooks[0]!;
    assert.match(hook.headers['x-bank-checkout-signature'] ?? '', /^t=\d+,v1=[0-9a-f]{64}$/);
  });
});

withPostgres('canaries', (url) => {
  describe('canaries on PostgreSQL', () => {
    const schema = freshSchema('security');
    let rig: Rig;
    before(async () => {
      rig = await createRig({ databaseUrl: url, store: createPostgresStore(url, { schema, max: 4 }) });
      await runJourneys(rig, { full: false });
      await rig.close();
    });
    after(() => dropSchemas(url, schema));

    it('no canary appears in any row', async () => {
      const { samples, rows } = await dumpPostgres(url, schema);
      assert.ok((rows.checkouts?.length ?? 0) >= 2 && (rows.notifications?.length ?? 0) >= 1, 'the database holds the journeys');
      assertNoLeaks(samples, [...payerCanaries(rig), ...secretCanaries], 'a canary');
      assertNoLeaks(rig.samples(), [...payerCanaries(rig), ...secretCanaries], 'a canary');
    });
  });
});
