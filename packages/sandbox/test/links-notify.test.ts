import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeDataReturn, links, verifyNotification } from '@bank-checkout/provider';
import { createSandbox } from '../src/app.js';
import { resolveConfig, SANDBOX_DEFAULTS, type SandboxConfig } from '../src/context.js';
import { formFor, submit, toPage, walkGateway } from '../src/gateway/index.js';
import { createLinksService, type NotificationAttempt } from '../src/links/index.js';
import { bodyText } from '../../../test/support/fake-fetch.js';

type Body = Record<string, any>;
type Client = 'current' | 'commerce' | 'business';
const KEYS: Record<Client, Record<string, string>> = {
  current: { 'X-Api-Key': SANDBOX_DEFAULTS.apiKey, Authorization: SANDBOX_DEFAULTS.apiToken },
  commerce: { 'X-Api-Key': SANDBOX_DEFAULTS.commerceApiKey, Authorization: SANDBOX_DEFAULTS.commerceApiToken },
  business: { 'X-Api-Key': SANDBOX_DEFAULTS.businessApiKey, Authorization: SANDBOX_DEFAULTS.businessApiToken },
};
const T0 = Date.UTC(2026, 0, 10, 9, 0, 0);
const NOTIF = 'https://shop.example/notify';
const SIX = ['amount', 'dateInitPayment', 'description', 'reference', 'status', 'transactionId'];

interface Sent {
  url: string;
  body: URLSearchParams;
  method: string | undefined;
  type: string | null;
}

/** A receiver that answers each call with the next of `answers` (then the last), capturing it. */
function receiver(answers: (number | 'throw' | 'hang')[] = [200]) {
  const sent: Sent[] = [];
  const capture = (async (url: string, init: RequestInit): Promise<Response> => {
    sent.push({ url, body: new URLSearchParams(bodyText(init.body)), method: init.method, type: new Headers(init.headers).get('Content-Type') });
    const answer = answers[Math.min(sent.length - 1, answers.length - 1)]!;
    if (answer === 'throw') throw new TypeError('fetch failed: connection refused');
    if (answer === 'hang') return new Promise<Response>(() => {});
    return new Response('ack', { status: answer });
  }) as typeof fetch;
  return { sent, fetch: capture };
}

function setup(partial: Partial<SandboxConfig> = {}, answers?: (number | 'throw' | 'hang')[]) {
  const r = receiver(answers);
  const sandbox = createSandbox({ now: () => T0, fetch: r.fetch, ...partial });
  const request = (url: string, init?: RequestInit) => sandbox.app.request(url, init);
  async function sign(body: Body, client: Client = 'current', headers: Record<string, string> = KEYS[client]) {
    const res = await request('/san/url/signer', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const reply = (await res.json()) as Body;
    assert.equal(reply.status, '200', reply.description);
    return reply as { url: string; idDebt?: string };
  }
  const log = async (query = '') =>
    ((await (await request(`/__sandbox/notifications${query}`)).json()) as { notifications: NotificationAttempt[] }).notifications;
  return { ...r, sandbox, request, sign, log };
}

const decode = (s: Sent) => decodeDataReturn(s.body.get('dataReturn')!) as Body;

describe('notifications: content and signature', () => {
  test('a form POST of Base64 dataReturn signed with the API key, customData only when given', async () => {
    const t = setup({ apiKey: 'custom-key' });
    const headers = { 'X-Api-Key': 'custom-key', Authorization: SANDBOX_DEFAULTS.apiToken };
    const withData = await t.sign({ subject: 'S', amount: 700, reference: 'R-1', urlNotif: NOTIF, customData: '{"a":1}' }, 'current', headers);
    const without = await t.sign({ subject: 'S', amount: 800, reference: 'R-2', urlNotif: NOTIF }, 'current', headers);
    await walkGateway(t.request, withData.url);
    await walkGateway(t.request, without.url);
    assert.equal(t.sent.length, 2);
    for (const s of t.sent) {
      assert.equal(s.method, 'POST');
      assert.equal(s.type, 'application/x-www-form-urlencoded');
      assert.deepEqual([...s.body.keys()].sort(), ['dataReturn', 'signatureDataReturn']);
      assert.match(s.body.get('dataReturn')!, /^[A-Za-z0-9+/]+=*$/, 'Base64');
      assert.equal(await verifyNotification(s.body.get('dataReturn')!, s.body.get('signatureDataReturn')!, 'custom-key'), true);
      assert.equal(await verifyNotification(s.body.get('dataReturn')!, s.body.get('signatureDataReturn')!, SANDBOX_DEFAULTS.apiKey), false);
      assert.equal(links.dataReturn.safeParse(decode(s)).success, true);
    }
    const [first, second] = t.sent.map(decode);
    assert.deepEqual(Object.keys(first!).sort(), [...SIX, 'accountDestiny', 'customData'].sort());
    assert.equal(first!.customData, '{"a":1}');
    assert.deepEqual(Object.keys(second!).sort(), [...SIX, 'accountDestiny'].sort());
    assert.equal(second!.amount, 800);
  });

  test('earlier-variant orders notify only status, description, transactionId, amount, reference, dateInitPayment', async () => {
    const t = setup();
    const commerce = await t.sign({ subject: 'C', amount: 100, reference: 'C-1', urlNotif: NOTIF }, 'commerce');
    const business = await t.sign(
      {
        subject: 'B',
        amount: 200,
        reference: 'B-1',
        urlNotif: NOTIF,
        customRecipient: 'Shop',
        holderDestiny: 'Shop',
        accountDestiny: SANDBOX_DEFAULTS.merchantIban,
        customData: 'free',
      },
      'business',
    );
    await walkGateway(t.request, commerce.url);
    const failed = await walkGateway(t.request, business.url, { code: '0000' });
    await submit(t.request, formFor(failed, 'leave'));
    const [c, b] = t.sent.map(decode);
    assert.deepEqual(Object.keys(c!).sort(), SIX);
    assert.deepEqual(Object.keys(b!).sort(), SIX);
    assert.deepEqual([c!.status, c!.reference, b!.status, b!.reference], ['200', 'C-1', 'B103', 'B-1']);
  });

  test('dateInitPayment is when the payer started, not when the payment ended', async () => {
    let clock = T0;
    const r = receiver();
    const sandbox = createSandbox({ now: () => clock, fetch: r.fetch });
    const res = await sandbox.app.request('/san/url/signer', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...KEYS.current },
      body: JSON.stringify({ subject: 'S', amount: 100, reference: 'R', urlNotif: NOTIF }),
    });
    const { url } = (await res.json()) as Body;
    const request = (u: string, init?: RequestInit) => sandbox.app.request(u, init);
    const banks = await submit(request, formFor(await toPage(await request(url)), 'start'));
    const started = clock;
    clock += 90_000;
    const login = await submit(request, formFor(banks, 'bank'), { bankId: 'es-sur' });
    const code = await submit(request, formFor(login, 'login'), { user: 'u', password: 'p' });
    await submit(request, formFor(code, 'code'), { code: '1' });
    assert.equal(decode(r.sent[0]!).dateInitPayment, started);
  });
});

describe('notifications: local addresses', () => {
  const local = ['http://127.0.0.1:8080/n', 'http://localhost/n', 'http://192.168.1.20/n', 'http://10.0.0.5/n', 'http://[::1]:3000/n'];

  test('a local urlNotif is accepted, but its notification fails and is logged', async () => {
    const t = setup();
    for (const urlNotif of local) {
      const link = await t.sign({ subject: 'S', amount: 100, reference: 'R', urlNotif });
      const done = await walkGateway(t.request, link.url);
      assert.equal(done.title, 'Payment completed successfully', 'the payment itself succeeds');
      const [entry] = await t.log(`?idDebt=${link.idDebt}`);
      assert.equal(entry!.url, urlNotif);
      assert.equal(entry!.ok, false);
      assert.equal(entry!.status, null);
      assert.equal(entry!.retrying, false);
      assert.match(entry!.error!, /local address/);
    }
    assert.equal(t.sent.length, 0, 'nothing was sent');
    assert.equal((await t.log()).length, local.length);
  });

  test('allowLocalNotif delivers to local addresses', async () => {
    const t = setup({ allowLocalNotif: true });
    const link = await t.sign({ subject: 'S', amount: 100, reference: 'R', urlNotif: local[0] });
    await walkGateway(t.request, link.url);
    assert.equal(t.sent.length, 1);
    assert.equal(t.sent[0]!.url, local[0]);
    const [entry] = await t.log();
    assert.deepEqual([entry!.ok, entry!.status, entry!.attempt], [true, 200, 1]);
  });

  test('the log is served at GET /__sandbox/notifications only; the fault switch keeps the rest', async () => {
    const t = setup();
    const a = await t.sign({ subject: 'S', amount: 100, reference: 'A', urlNotif: NOTIF });
    const b = await t.sign({ subject: 'S', amount: 100, reference: 'B', urlNotif: NOTIF });
    await walkGateway(t.request, a.url);
    await walkGateway(t.request, b.url);
    const all = await t.log();
    assert.equal(all.length, 2);
    assert.deepEqual(
      (await t.log(`?idDebt=${b.idDebt}`)).map((n) => n.idDebt),
      [b.idDebt],
    );
    assert.equal(await verifyNotification(all[0]!.dataReturn, all[0]!.signatureDataReturn, SANDBOX_DEFAULTS.apiKey), true);
    assert.equal((await t.request('/__sandbox/notifications', { method: 'DELETE' })).status, 404);
    assert.equal((await t.request('/__sandbox/clock')).status, 200);
  });
});

describe('notifications: retries', () => {
  function service(answers: (number | 'throw' | 'hang')[], timeoutMs = 1000) {
    const r = receiver(answers);
    const config = resolveConfig({ now: () => T0, fetch: r.fetch });
    const links = createLinksService(config, { notifyRetryDelaysMs: [1, 2, 3], notifyTimeoutMs: timeoutMs });
    const request = (url: string, init?: RequestInit) => links.app.request(url, init);
    async function pay() {
      const res = await request('/san/url/signer', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...KEYS.current },
        body: JSON.stringify({ subject: 'S', amount: 100, reference: 'R', urlNotif: NOTIF }),
      });
      const { url } = (await res.json()) as Body;
      return walkGateway(request, url);
    }
    return { ...r, links, pay };
  }
  const summary = (log: NotificationAttempt[]) => log.map((e) => [e.attempt, e.status, e.ok, e.retrying]);

  test('non-2xx answers are retried until one is 2xx', async () => {
    const s = service([500, 503, 202]);
    assert.equal((await s.pay()).title, 'Payment completed successfully');
    await s.links.notifications.idle();
    assert.deepEqual(summary(s.links.notifications.list()), [
      [1, 500, false, true],
      [2, 503, false, true],
      [3, 202, true, false],
    ]);
    assert.equal(new Set(s.sent.map((x) => x.body.get('dataReturn'))).size, 1, 'every attempt carries the same signed data');
  });

  test('gives up after the last delay (four attempts in all)', async () => {
    const s = service([502]);
    await s.pay();
    await s.links.notifications.idle();
    assert.deepEqual(summary(s.links.notifications.list()), [
      [1, 502, false, true],
      [2, 502, false, true],
      [3, 502, false, true],
      [4, 502, false, false],
    ]);
    assert.equal(s.sent.length, 4);
  });

  test('network errors and timeouts are retried; the payer is not kept waiting past the timeout', async () => {
    const s = service(['throw', 'hang', 200], 30);
    const done = await s.pay();
    assert.equal(done.title, 'Payment completed successfully');
    await s.links.notifications.idle();
    const log = s.links.notifications.list();
    assert.deepEqual(summary(log), [
      [1, null, false, true],
      [2, null, false, true],
      [3, 200, true, false],
    ]);
    assert.match(log[0]!.error!, /connection refused/);
    assert.match(log[1]!.error!, /no answer within 30 ms/);
  });
});
