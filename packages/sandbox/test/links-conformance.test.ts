/**
 * Rules of the payment-link service (docs/provider.md) checked the way an outside client sees them: over
 * HTTP, knowing only the spec.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { decodeDataReturn, links } from '@bank-checkout/provider';
import { createSandbox } from '../src/index.js';
import { SANDBOX_DEFAULTS } from '../src/context.js';
import { walkGateway } from '../src/gateway/index.js';
import { bodyText } from '../../../test/support/fake-fetch.js';

type Body = Record<string, any>;
const AUTH = { 'X-Api-Key': SANDBOX_DEFAULTS.apiKey, Authorization: SANDBOX_DEFAULTS.apiToken };
const BUSINESS = { 'X-Api-Key': SANDBOX_DEFAULTS.businessApiKey, Authorization: SANDBOX_DEFAULTS.businessApiToken };
/** 10:00 in Madrid on Saturday 10 January 2026. */
const T0 = Date.UTC(2026, 0, 10, 9, 0, 0);
const NOTIF = 'https://shop.example/notify';

function setup() {
  const sent: URLSearchParams[] = [];
  const sandbox = createSandbox({
    now: () => T0,
    fetch: (async (_url: string, init: RequestInit) => {
      sent.push(new URLSearchParams(bodyText(init.body)));
      return new Response('ok');
    }) as typeof fetch,
  });
  const request = (url: string, init?: RequestInit) => sandbox.app.request(url, init);
  async function post(path: string, body: unknown, headers: Record<string, string> = AUTH) {
    const res = await request(`/san/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { http: res.status, body: (await res.json()) as Body };
  }
  return { sent, request, post };
}

/** The spec's signature: Base64 of the lowercase hex HMAC-SHA256 of dataReturn, keyed with the API key. */
const specSignature = (dataReturn: string, apiKey: string) => Buffer.from(createHmac('sha256', apiKey).update(dataReturn).digest('hex')).toString('base64');

describe('conformance: customRecipient is returned through urlNotif after payment', () => {
  test('endpoint 1: the notification of a paid order carries the customRecipient given at creation', async () => {
    const t = setup();
    const created = await t.post('url/signer', {
      subject: 'Order 7',
      amount: 4200,
      reference: 'REF-7',
      urlNotif: NOTIF,
      customRecipient: 'Demo Shop;Main Street 1',
    });
    assert.equal(created.body.status, '200', created.body.description);
    await walkGateway(t.request, created.body.url);
    assert.equal(t.sent.length, 1);
    const dataReturn = t.sent[0]!.get('dataReturn')!;
    assert.equal(t.sent[0]!.get('signatureDataReturn'), specSignature(dataReturn, SANDBOX_DEFAULTS.apiKey));
    const data = decodeDataReturn(dataReturn) as Body;
    assert.equal(data.status, '200');
    assert.equal(data.customRecipient, 'Demo Shop;Main Street 1');
    assert.equal(links.dataReturn.safeParse(data).success, true);
    assert.equal(links.dataReturn.parse(data).customRecipient, 'Demo Shop;Main Street 1', 'the provider schema keeps it');
  });

  test('without customRecipient at creation the field is absent; the earlier variant sends only its six fields', async () => {
    const t = setup();
    const plain = await t.post('url/signer', { subject: 'Order 8', amount: 100, reference: 'REF-8', urlNotif: NOTIF });
    await walkGateway(t.request, plain.body.url);
    const legacy = await t.post(
      'url/signer',
      {
        subject: 'Order 9',
        amount: 100,
        reference: 'REF-9',
        urlNotif: NOTIF,
        customRecipient: 'Shop',
        holderDestiny: 'Shop',
        accountDestiny: SANDBOX_DEFAULTS.merchantIban,
      },
      BUSINESS,
    );
    await walkGateway(t.request, legacy.body.url);
    const [first, second] = t.sent.map((s) => decodeDataReturn(s.get('dataReturn')!) as Body);
    assert.equal('customRecipient' in first!, false);
    assert.deepEqual(Object.keys(second!).sort(), ['amount', 'dateInitPayment', 'description', 'reference', 'status', 'transactionId']);
  });
});

describe('conformance: E301 answers describe what is wrong', () => {
  test('info/payment-orders and info/debts: a missing or mistyped field is named with the rule it breaks', async () => {
    const t = setup();
    for (const path of ['info/payment-orders', 'info/debts']) {
      const cases: [Body, RegExp][] = [
        [{ pageRequest: '1' }, /^dateFrom: dateFrom is required$/],
        [{ dateFrom: '0' }, /^pageRequest: pageRequest is required$/],
        [{ dateFrom: true, pageRequest: 1 }, /^dateFrom: dateFrom must be a whole number/],
        [{ dateFrom: 0, pageRequest: 1, dateTo: [1] }, /^dateTo: dateTo must be a whole number/],
        [{ dateFrom: 0, pageRequest: 1, pageSize: null }, /^pageSize: pageSize must be a whole number/],
      ];
      for (const [body, rule] of cases) {
        const reply = await t.post(path, body);
        assert.equal(reply.http, 400, `${path} ${JSON.stringify(body)}`);
        assert.equal(reply.body.status, 'E301');
        assert.match(reply.body.description, rule, `${path} ${JSON.stringify(body)}`);
        assert.doesNotMatch(reply.body.description, /Invalid input/);
      }
    }
  });

  test('signers: a missing required field says it is required; a mistyped one says the type', async () => {
    const t = setup();
    const missing = await t.post('url/signer', {});
    assert.equal(missing.body.status, 'E301');
    assert.match(missing.body.description, /subject: subject is required/);
    assert.match(missing.body.description, /reference: reference is required/);
    assert.match(missing.body.description, /amount: amount is required/);
    const periodic = await t.post('url/periodic-payment-signer', {});
    assert.equal(periodic.body.status, 'E301');
    for (const field of ['subject', 'amount', 'reference', 'frequency', 'debtorAccount', 'startDate']) {
      assert.match(periodic.body.description, new RegExp(`${field}: ${field} is required`));
    }
    assert.doesNotMatch(periodic.body.description, /Invalid input/);
    const dates = await t.post('url/periodic-payment-signer', {
      subject: 's',
      amount: 1,
      reference: 'r',
      frequency: 'Monthly',
      debtorAccount: 5,
      startDate: 20260115,
    });
    assert.match(dates.body.description, /debtorAccount: debtorAccount must be a string/);
    assert.match(dates.body.description, /startDate: startDate must be a string written YYYY-MM-DD/);
    const mistyped = await t.post('url/signer', { subject: 5, amount: 100, reference: 'r' });
    assert.match(mistyped.body.description, /subject: subject must be a string/);
    const cancel = await t.post('url/cancel-periodic-payment-signer', { reference: 'c' });
    assert.match(cancel.body.description, /transactionId: transactionId is required/);
    const toggle = await t.post('update/enable-disable-payment-order', { idDebt: 'x' });
    assert.match(toggle.body.description, /enable: enable is required/);
    const legacyData = await t.post(
      'url/signer',
      {
        subject: 's',
        amount: 100,
        reference: 'r',
        customRecipient: 'Shop',
        holderDestiny: 'Shop',
        accountDestiny: SANDBOX_DEFAULTS.merchantIban,
        customData: 'd'.repeat(4001),
      },
      BUSINESS,
    );
    assert.match(legacyData.body.description, /^customData: (customData: )?at most 4000 characters$/);
  });
});
