import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeDataReturn, verifyNotification } from '@bank-checkout/provider';
import { createSandbox } from '../src/app.js';
import { SANDBOX_DEFAULTS } from '../src/context.js';
import { formFor, radioValues, submit, toPage, walkGateway, type GatewayPage } from '../src/gateway/index.js';
import { DEFAULT_HOLDER, LINK_BANKS, testPayer } from '../src/links/index.js';
import { NATIVE_BANKS } from '../src/native/catalogue.js';
import { bodyText } from '../../../test/support/fake-fetch.js';

type Body = Record<string, any>;
const AUTH = { 'X-Api-Key': SANDBOX_DEFAULTS.apiKey, Authorization: SANDBOX_DEFAULTS.apiToken };
const T0 = Date.UTC(2026, 0, 10, 9, 0, 0);
const DEBTOR = 'ES6000491500051234567892';
const SHOP = { urlOk: 'https://shop.example/ok?o=1&x=2', urlError: 'https://shop.example/ko', urlNotif: 'https://shop.example/notify' };
const PAYMENT = { subject: 'Order 1001', amount: 123456, reference: 'REF-1001', customRecipient: 'Demo Shop;Main Street 1;Madrid', ...SHOP };

function setup() {
  let clock = T0;
  const notified: { url: string; body: URLSearchParams; type: string | null }[] = [];
  const sandbox = createSandbox({
    now: () => clock,
    fetch: (async (url: string, init: RequestInit) => {
      notified.push({ url, body: new URLSearchParams(bodyText(init.body)), type: new Headers(init.headers).get('Content-Type') });
      return new Response('ok');
    }) as typeof fetch,
  });
  const request = (url: string, init?: RequestInit) => sandbox.app.request(url, init);
  async function post(path: string, body: unknown) {
    const res = await request(`/san/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...AUTH }, body: JSON.stringify(body) });
    return (await res.json()) as Body;
  }
  async function order(idDebt: string): Promise<Body> {
    const all = (await post('info/payment-orders', { dateFrom: 0, pageRequest: 1, pageSize: 300 })).paymentOrders as Body[];
    return all.find((o) => o.idDebt === idDebt)!;
  }
  async function debt(idDebt: string): Promise<Body> {
    const all = (await post('info/debts', { dateFrom: 0, pageRequest: 1, pageSize: 300 })).listDebts as Body[];
    return all.find((d) => d.debtLongId === idDebt)!;
  }
  async function link(body: Body = PAYMENT) {
    const reply = await post('url/signer', body);
    assert.equal(reply.status, '200', reply.description);
    return reply as { url: string; idDebt: string };
  }
  const open = async (url: string) => toPage(await request(url));
  /** Notified data, decoded, after checking the signature. */
  async function lastNotification() {
    const n = notified.at(-1)!;
    const dataReturn = n.body.get('dataReturn')!;
    assert.equal(await verifyNotification(dataReturn, n.body.get('signatureDataReturn')!, SANDBOX_DEFAULTS.apiKey), true);
    return { ...n, data: decodeDataReturn(dataReturn) as Body };
  }
  return {
    sandbox,
    request,
    post,
    order,
    debt,
    link,
    open,
    notified,
    lastNotification,
    advance(ms: number) {
      clock += ms;
    },
    now: () => clock,
  };
}

/** The return form to the merchant: its target and signed fields. */
function returnForm(page: GatewayPage) {
  const form = page.forms.find((f) => f.fields.dataReturn !== undefined);
  assert.ok(form, `page "${page.title}" has a return form`);
  return form;
}

describe('gateway: a simple payment', () => {
  test('summary, bank, login, code, success, notification and return form', async () => {
    const t = setup();
    const { url, idDebt } = await t.link();

    const summary = await t.open(url);
    assert.equal(summary.status, 200);
    assert.match(summary.html, /1234,56\u00a0€/);
    assert.match(summary.html, /Order 1001/);
    assert.match(summary.html, /Demo Shop<br>Main Street 1<br>Madrid/);
    assert.match(summary.html, new RegExp(`${DEFAULT_HOLDER}<br>${SANDBOX_DEFAULTS.merchantIban}`));
    assert.deepEqual(
      summary.forms.map((f) => f.fields.step),
      ['start', 'leave'],
    );

    t.advance(1000);
    const initAt = t.now();
    const banks = await submit(t.request, formFor(summary, 'start'));
    assert.equal(banks.title, 'Choose your bank');
    const offered = radioValues(banks.html, 'bankId');
    const enabled = LINK_BANKS.filter((b) => b.enabled === 1);
    assert.deepEqual(
      offered.filter((v) => !v.startsWith('group:')).sort(),
      enabled
        .filter((b) => b.bankGroupId == null)
        .map((b) => b.bankId)
        .sort(),
    );
    assert.deepEqual(offered.filter((v) => v.startsWith('group:')).sort(), ['group:10', 'group:20'], 'grouped banks are shown by their group');

    const group = await submit(t.request, formFor(banks, 'bank'), { bankId: 'group:20' });
    assert.match(group.html, /Choose your bank in Grupo Cantábrico/);
    assert.deepEqual(radioValues(group.html, 'bankId'), ['es-cantabrico', 'es-cantabrico-rural'], 'only the operational banks of the group');

    const login = await submit(t.request, formFor(group, 'bank'), { bankId: 'es-cantabrico-rural' });
    assert.equal(login.title, 'Log in to Rural Cantábrico');
    assert.deepEqual(formFor(login, 'login').inputs, ['user', 'password'], 'this bank asks for no additional key');

    const code = await submit(t.request, formFor(login, 'login'), { user: 'anyone', password: 'anything' });
    assert.equal(code.title, 'Authorise the payment');
    t.advance(2000);
    const done = await submit(t.request, formFor(code, 'code'), { code: 'A1B2C3' });
    assert.equal(done.status, 200);
    assert.equal(done.title, 'Payment completed successfully');
    assert.doesNotMatch(done.html, /anyone|anything|A1B2C3/, 'no credential or code is echoed');

    assert.equal(t.notified.length, 1);
    const n = await t.lastNotification();
    assert.equal(n.url, SHOP.urlNotif);
    assert.equal(n.type, 'application/x-www-form-urlencoded');
    const tx = (await t.debt(idDebt)).listTransactions as Body[];
    assert.equal(tx.length, 1);
    assert.deepEqual(n.data, {
      status: '200',
      description: 'Payment completed',
      transactionId: tx[0]!.transactionLongId,
      amount: 123456,
      reference: 'REF-1001',
      dateInitPayment: initAt,
      accountDestiny: SANDBOX_DEFAULTS.merchantIban,
      customRecipient: PAYMENT.customRecipient,
    });
    const back = returnForm(done);
    assert.equal(back.action, SHOP.urlOk);
    assert.equal(back.fields.dataReturn, n.body.get('dataReturn'));
    assert.equal(back.fields.signatureDataReturn, n.body.get('signatureDataReturn'));

    const paid = await t.order(idDebt);
    assert.equal(paid.codStatus, 'OK');
    assert.equal(paid.updateAt, t.now());
    assert.deepEqual(
      { ...tx[0], transactionLongId: undefined },
      {
        transactionLongId: undefined,
        typeTransaction: 1,
        amount: 123456,
        holderOrigin: testPayer('es-cantabrico-rural').holder,
        accountOrigin: testPayer('es-cantabrico-rural').account,
        reference: 'REF-1001',
        subject: 'Order 1001',
        codStatus: '200',
        descStatus: 'Payment completed',
        createAt: t.now(),
        updateAt: t.now(),
      },
    );

    const again = await t.open(url);
    assert.equal(again.status, 409);
    assert.match(again.title, /already been paid/);
    assert.equal((await submit(t.request, formFor(summary, 'start'))).status, 409, 'a paid order refuses a second payment');
    assert.equal(t.notified.length, 1);
  });

  test('pages are plain accessible HTML: no script, labelled inputs, a strict CSP', async () => {
    const t = setup();
    const { url } = await t.link();
    const res = await t.request(url);
    const csp = res.headers.get('Content-Security-Policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src|unsafe-inline/);
    assert.equal(res.headers.get('Referrer-Policy'), 'no-referrer');
    const summary = await toPage(res);
    const pages = [summary];
    pages.push(await submit(t.request, formFor(summary, 'start')));
    pages.push(await submit(t.request, formFor(pages[1]!, 'bank'), { bankId: 'es-islas' }));
    pages.push(await submit(t.request, formFor(pages[2]!, 'login'), { user: 'u', password: 'p', loginKey: 'user1' }));
    for (const page of pages) {
      assert.match(page.html, /^<!DOCTYPE html>\n<html lang="en">/);
      assert.doesNotMatch(page.html, /<script|\son\w+=|javascript:|style="/i);
      for (const m of page.html.matchAll(/<input\b[^>]*type="(text|password)"[^>]*>/g)) {
        const id = /\sid="([^"]+)"/.exec(m[0])?.[1];
        assert.ok(id && page.html.includes(`<label for="${id}">`), `input ${m[0]} has a label`);
      }
      for (const m of page.html.matchAll(/<input\b[^>]*type="radio"[^>]*>/g)) {
        assert.ok(page.html.includes(`<label>${m[0]}`), 'radios are inside their label');
      }
    }
    assert.match(pages[1]!.html, /<fieldset><legend>Choose your bank<\/legend>/);
  });

  test('the additional login key must be user1; user and password are required', async () => {
    const t = setup();
    const { url } = await t.link();
    const banks = await submit(t.request, formFor(await t.open(url), 'start'));
    const login = await submit(t.request, formFor(banks, 'bank'), { bankId: 'es-islas' });
    const form = formFor(login, 'login');
    assert.deepEqual(form.inputs, ['user', 'password', 'loginKey']);
    for (const values of [
      { user: 'u', password: 'p' } as Record<string, string>,
      { user: 'u', password: 'p', loginKey: 'user2' },
      { user: '', password: 'p', loginKey: 'user1' },
      { user: 'u', password: '', loginKey: 'user1' },
    ]) {
      const again = await submit(t.request, form, values);
      assert.equal(again.status, 400, JSON.stringify(values));
      assert.match(again.html, /role="alert"/);
      assert.equal(again.title, 'Log in to Banca Islas');
    }
    const code = await submit(t.request, form, { user: 'u', password: 'p', loginKey: 'user1' });
    assert.equal(code.title, 'Authorise the payment');
    const bad = await submit(t.request, formFor(code, 'code'), { code: '12 34' });
    assert.equal(bad.status, 400);
    assert.equal((await submit(t.request, formFor(code, 'code'), { code: '' })).status, 400);
    assert.equal((await submit(t.request, formFor(code, 'code'), { code: '987654' })).title, 'Payment completed successfully');
  });

  test('a bank that is not offered cannot be chosen', async () => {
    const t = setup();
    const { url } = await t.link();
    const banks = await submit(t.request, formFor(await t.open(url), 'start'));
    for (const bankId of ['es-norte', 'es-cantabrico-privada', 'group:99', 'nope']) {
      const again = await submit(t.request, formFor(banks, 'bank'), { bankId });
      assert.equal(again.status, 400, bankId);
      assert.equal(again.title, 'Choose your bank');
    }
  });
});

describe('gateway: bank names', () => {
  test('a bank has one name: the gateway’s is the in-page bank list’s (its personal-banking half named as the bank)', () => {
    const listed = new Map(NATIVE_BANKS.flatMap((g) => g.types).map((b) => [`es-${b.bankId}`, b.label.replace(/ · Particulares$/, '')]));
    const both = LINK_BANKS.filter((b) => listed.has(b.bankId));
    assert.ok(both.length >= 5, 'the two services share most banks');
    assert.deepEqual(
      both.map((b) => [b.bankId, b.name]),
      both.map((b) => [b.bankId, listed.get(b.bankId)]),
    );
    assert.ok(both.some((b) => b.name === 'Banco Meridiano'));
  });
});

describe('gateway: failures and leaving', () => {
  test('0000 fails the validation (B103); the payer can only leave, which notifies and posts to urlError', async () => {
    const t = setup();
    const { url, idDebt } = await t.link();
    const failed = await walkGateway(t.request, url, { bankId: 'es-levante', code: '0000' });
    assert.equal(failed.status, 422);
    assert.equal(failed.title, 'Validation failed');
    // A sentence for the payer; the code only as small print, never the provider's wording.
    assert.match(failed.html, /<p class="error" role="alert">Your bank could not confirm the payment with the code you entered, so nothing was charged\.<\/p>/);
    assert.match(failed.html, /<p class="hint">If you contact the shop about it, give them this code: B103\.<\/p>/);
    assert.doesNotMatch(failed.html, /B103:|Transfer validation failed/);
    assert.deepEqual(
      failed.forms.map((f) => f.fields.step),
      ['leave'],
    );
    assert.equal(t.notified.length, 0, 'nothing is sent before the payer leaves');
    const retry = await submit(t.request, { ...formFor(failed, 'leave'), fields: { ...formFor(failed, 'leave').fields, step: 'code' } }, { code: '1234' });
    assert.equal(retry.status, 409, 'no second code after a failed validation');

    const left = await submit(t.request, formFor(failed, 'leave'));
    assert.equal(left.title, 'You left the payment gateway');
    assert.match(left.html, /Your bank could not confirm the payment[\s\S]*give them this code: B103\./);
    assert.doesNotMatch(left.html, /B103:|Transfer validation failed/);
    const n = await t.lastNotification();
    assert.equal(n.data.status, 'B103');
    assert.equal(n.data.description, 'Transfer validation failed');
    const back = returnForm(left);
    assert.equal(back.action, SHOP.urlError);
    assert.equal(back.fields.dataReturn, n.body.get('dataReturn'));
    const order = await t.order(idDebt);
    assert.equal(order.codStatus, 'ERROR');
    const [tx] = (await t.debt(idDebt)).listTransactions;
    assert.equal(tx.codStatus, 'B103');
    assert.equal(tx.transactionLongId, n.data.transactionId);
    assert.equal(tx.accountOrigin, testPayer('es-levante').account);
    assert.equal((await submit(t.request, formFor(failed, 'leave'))).status, 409, 'the visit is over');
  });

  test('leaving from the summary ends in ERROR (E300); the order can still be paid afterwards', async () => {
    const t = setup();
    const { url, idDebt } = await t.link();
    const left = await submit(t.request, formFor(await t.open(url), 'leave'));
    assert.equal(left.status, 200);
    assert.match(left.html, /<p>You left before the payment was complete, so nothing was charged\.<\/p>/);
    assert.doesNotMatch(left.html, /E300:|without completing the operation/);
    const n = await t.lastNotification();
    assert.equal(n.data.status, 'E300');
    assert.equal(n.data.dateInitPayment, t.now());
    assert.equal(returnForm(left).action, SHOP.urlError);
    assert.equal((await t.order(idDebt)).codStatus, 'ERROR');
    const [tx] = (await t.debt(idDebt)).listTransactions;
    assert.equal(tx.accountOrigin, undefined, 'no bank was reached');

    const paid = await walkGateway(t.request, url, { bankId: 'es-meridiano' });
    assert.equal(paid.title, 'Payment completed successfully');
    assert.equal((await t.order(idDebt)).codStatus, 'OK');
    assert.deepEqual(
      ((await t.debt(idDebt)).listTransactions as Body[]).map((x) => x.codStatus),
      ['E300', '200'],
    );
  });

  test('leaving mid-way (after login) notifies E300 with the bank reached', async () => {
    const t = setup();
    const { url } = await t.link();
    const banks = await submit(t.request, formFor(await t.open(url), 'start'));
    const login = await submit(t.request, formFor(banks, 'bank'), { bankId: 'es-sur' });
    const left = await submit(t.request, formFor(login, 'leave'));
    assert.equal(left.title, 'You left the payment gateway');
    assert.equal((await t.lastNotification()).data.status, 'E300');
  });

  test('without urlOk/urlError/urlNotif: no return form and no notification', async () => {
    const t = setup();
    const { url } = await t.link({ subject: 'Plain', amount: 500, reference: 'P-1' });
    const done = await walkGateway(t.request, url);
    assert.equal(done.title, 'Payment completed successfully');
    assert.equal(done.forms.length, 0);
    assert.match(done.html, /You can close this window/);
    assert.equal(t.notified.length, 0);
  });

  test('a disabled or expired order refuses payment, also in the middle of a visit', async () => {
    const t = setup();
    const { url, idDebt } = await t.link();
    const banks = await submit(t.request, formFor(await t.open(url), 'start'));
    const login = await submit(t.request, formFor(banks, 'bank'), { bankId: 'es-sur' });
    await t.post('update/enable-disable-payment-order', { idDebt, enable: false });
    const refused = await submit(t.request, formFor(login, 'login'), { user: 'u', password: 'p' });
    assert.equal(refused.status, 403);
    assert.equal(refused.title, 'This payment link is disabled');
    assert.equal((await submit(t.request, formFor(login, 'leave'))).status, 403);
    assert.equal((await t.order(idDebt)).codStatus, 'PENDING');

    await t.post('update/enable-disable-payment-order', { idDebt, enable: true });
    const code = await submit(t.request, formFor(login, 'login'), { user: 'u', password: 'p' });
    assert.equal(code.title, 'Authorise the payment', 'the visit goes on once enabled again');
    t.advance(30 * 60_000);
    const expired = await submit(t.request, formFor(code, 'code'), { code: '1234' });
    assert.equal(expired.status, 410);
    assert.equal((await t.order(idDebt)).codStatus, 'PENDING');
    assert.equal(t.notified.length, 0);
  });

  test('a tampered or incomplete signed URL is refused', async () => {
    const t = setup();
    const { url, idDebt } = await t.link();
    const other = await t.link({ ...PAYMENT, reference: 'REF-2' });
    const u = new URL(url);
    const sig = u.searchParams.get('sig')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const tampered = [
      url.replace(`sig=${sig}`, `sig=${flipped}`),
      url.replace(`?sig=${sig}`, ''),
      url.replace(idDebt, other.idDebt),
      url.replace('/pay/', '/periodic/'),
      url.replace('/san/', '/pro/'),
      url.replace(`sig=${sig}`, `sig=${sig}x`),
    ];
    for (const bad of tampered) {
      const res = await t.request(bad);
      assert.equal(res.status, 403, bad);
      assert.match(await res.text(), /not valid/);
      const post = await t.request(bad, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'step=leave' });
      assert.equal(post.status, 403);
    }
    assert.equal((await t.order(idDebt)).codStatus, 'PENDING');
    assert.equal((await t.request(url)).status, 200);
  });

  test('malformed form posts get a clear 4xx page and change nothing', async () => {
    const t = setup();
    const { url, idDebt } = await t.link();
    const other = await t.link({ ...PAYMENT, reference: 'REF-2' });
    const send = (target: string, body: string, type = 'application/x-www-form-urlencoded') =>
      t.request(target, { method: 'POST', headers: { 'Content-Type': type }, body });
    assert.equal((await send(url, 'step=leave', 'application/json')).status, 415);
    assert.equal((await send(url, `step=leave&x=${'a'.repeat(20_000)}`)).status, 413);
    assert.equal((await send(url, 'step=dance')).status, 400);
    assert.equal((await send(url, 'step=login&session=forged')).status, 409);
    assert.equal((await send(url, 'step=code')).status, 409);
    const banks = await submit(t.request, formFor(await t.open(other.url), 'start'));
    const foreign = formFor(banks, 'bank').fields.session!;
    assert.equal((await send(url, `step=bank&session=${foreign}&bankId=es-sur`)).status, 409, "another order's session is not valid here");
    const session = formFor(await submit(t.request, formFor(await t.open(url), 'start')), 'bank').fields.session!;
    assert.equal((await send(url, `step=code&session=${session}&code=1234`)).status, 409, 'steps cannot be skipped');
    assert.equal((await t.order(idDebt)).codStatus, 'PENDING');
    assert.equal(t.notified.length, 0);
  });

  test('a gateway visit lapses after 30 minutes without a step', async () => {
    const t = setup();
    const { url } = await t.link({ ...PAYMENT, expireMinutes: 120 });
    const banks = await submit(t.request, formFor(await t.open(url), 'start'));
    t.advance(30 * 60_000 + 1);
    const lapsed = await submit(t.request, formFor(banks, 'bank'), { bankId: 'es-sur' });
    assert.equal(lapsed.status, 409);
    assert.match(lapsed.title, /expired/);
  });
});

describe('gateway: periodic orders', () => {
  const PERIODIC = {
    subject: 'Monthly box',
    amount: 999,
    reference: 'SUB-1',
    frequency: 'Monthly',
    debtorAccount: DEBTOR,
    startDate: '2026-02-15',
    endDate: '2026-12-15',
    customData: 'plan=gold',
    ...SHOP,
  };

  test('authorisation with bankIdSelected, then cancellation through its own signed URL', async () => {
    const t = setup();
    const created = await t.post('url/periodic-payment-signer', { ...PERIODIC, bankIdSelected: 'es-cantabrico' });
    assert.equal(created.status, '200', created.description);
    const summary = await t.open(created.url);
    assert.equal(summary.title, 'Periodic payment order');
    for (const shown of [DEBTOR, 'Monthly', '2026-02-15', '2026-12-15', 'Banco Cantábrico', '9,99\u00a0€']) assert.ok(summary.html.includes(shown), shown);
    const login = await submit(t.request, formFor(summary, 'start'));
    assert.equal(login.title, 'Log in to Banco Cantábrico', 'the bank chosen beforehand: no bank step');
    const code = await submit(t.request, formFor(login, 'login'), { user: 'u', password: 'p', loginKey: 'user1' });
    assert.equal(code.title, 'Authorise the periodic payment order');
    const done = await submit(t.request, formFor(code, 'code'), { code: 'OK' });
    assert.equal(done.title, 'Periodic payment order authorised successfully');

    const order = await t.order(created.idDebt);
    assert.equal(order.codStatus, 'OK');
    assert.equal(order.periodicOriginAccount, DEBTOR);
    assert.equal(order.periodicFrequency, 'Monthly');
    assert.equal(order.periodicStartDate, '2026-02-15');
    assert.equal(order.periodicEndDate, '2026-12-15');
    assert.equal(order.periodicExecutionRule, 'DAY_OF_MONTH');
    assert.equal(order.periodicDayOfExecution, '15');
    assert.equal(order.periodicStatus, 'ACTIVE');
    const n = await t.lastNotification();
    const [tx] = (await t.debt(created.idDebt)).listTransactions;
    assert.equal(n.data.transactionId, tx.transactionLongId);
    assert.equal(tx.accountOrigin, DEBTOR);
    assert.equal(n.data.status, '200');
    assert.equal(n.data.amount, 999);
    assert.equal(n.data.customData, 'plan=gold');
    assert.equal(returnForm(done).action, SHOP.urlOk);

    t.advance(60_000);
    const cancel = await t.post('url/cancel-periodic-payment-signer', {
      transactionId: n.data.transactionId,
      reference: 'CAN-1',
      urlNotif: 'https://shop.example/cancelled',
      urlOk: 'https://shop.example/cancel-ok',
    });
    assert.equal(cancel.status, '200', cancel.description);
    assert.match(cancel.url, new RegExp(`/gateway/san/cancel/${cancel.idDebt}\\?sig=`));
    assert.equal((await t.order(created.idDebt)).periodicStatus, 'ACTIVE', 'active until the payer authorises the cancellation');
    const cancelSummary = await t.open(cancel.url);
    assert.equal(cancelSummary.title, 'Cancel a periodic payment order');
    assert.ok(cancelSummary.html.includes(DEBTOR) && cancelSummary.html.includes('Monthly box'));
    const cancelled = await walkGateway(t.request, cancel.url, { loginKey: 'user1' });
    assert.equal(cancelled.title, 'Periodic payment order cancelled successfully');
    assert.equal(returnForm(cancelled).action, 'https://shop.example/cancel-ok');

    const cn = await t.lastNotification();
    assert.equal(cn.url, 'https://shop.example/cancelled');
    assert.equal(cn.data.status, '200');
    assert.equal(cn.data.reference, 'CAN-1');
    assert.notEqual(cn.data.transactionId, n.data.transactionId);
    const periodic = await t.order(created.idDebt);
    assert.equal(periodic.periodicStatus, 'CANCELLED');
    assert.equal(periodic.periodicCancelAt, t.now());
    assert.equal(periodic.updateAt, t.now());
    assert.equal((await t.order(cancel.idDebt)).codStatus, 'OK');

    const twice = await t.post('url/cancel-periodic-payment-signer', { transactionId: n.data.transactionId, reference: 'CAN-2' });
    assert.equal(twice.status, 'E301');
    assert.match(twice.description, /transactionId: .*already cancelled/);
    assert.equal((await t.open(cancel.url)).status, 409);
    assert.equal((await t.open(created.url)).status, 409);
  });

  test('two cancellation orders: once one is authorised, the other is refused', async () => {
    const t = setup();
    const created = await t.post('url/periodic-payment-signer', { ...PERIODIC, bankIdSelected: 'es-levante' });
    await walkGateway(t.request, created.url);
    const transactionId = (await t.lastNotification()).data.transactionId;
    const first = await t.post('url/cancel-periodic-payment-signer', { transactionId, reference: 'CAN-1' });
    const second = await t.post('url/cancel-periodic-payment-signer', { transactionId, reference: 'CAN-2' });
    assert.equal((await walkGateway(t.request, first.url)).title, 'Periodic payment order cancelled successfully');
    const refused = await t.open(second.url);
    assert.equal(refused.status, 409);
    assert.match(refused.title, /already cancelled/);
  });

  test('without bankIdSelected the payer chooses among the banks that accept the frequency', async () => {
    const t = setup();
    const created = await t.post('url/periodic-payment-signer', { ...PERIODIC, frequency: 'Weekly', startDate: '2026-01-14' });
    const banks = await submit(t.request, formFor(await t.open(created.url), 'start'));
    assert.deepEqual(radioValues(banks.html, 'bankId'), ['group:20']);
    const group = await submit(t.request, formFor(banks, 'bank'), { bankId: 'group:20' });
    assert.deepEqual(radioValues(group.html, 'bankId'), ['es-cantabrico']);
    assert.equal((await submit(t.request, formFor(group, 'bank'), { bankId: 'es-cantabrico-rural' })).status, 400);
    const done = await walkGateway(t.request, created.url, { bankId: 'es-cantabrico' });
    assert.equal(done.title, 'Periodic payment order authorised successfully');
    const order = await t.order(created.idDebt);
    assert.equal(order.periodicExecutionRule, 'DAY_OF_WEEK');
    assert.equal(order.periodicDayOfExecution, '3', '14 January 2026 is a Wednesday');
    assert.equal(order.periodicEndDate, '2026-12-15');

    const quarterly = await t.post('url/periodic-payment-signer', { ...PERIODIC, frequency: 'Quarterly', reference: 'SUB-2' });
    const qBanks = await submit(t.request, formFor(await t.open(quarterly.url), 'start'));
    assert.deepEqual(radioValues(qBanks.html, 'bankId'), ['group:10', 'group:20']);
  });

  test('a failed authorisation (0000) leaves the order without periodic data', async () => {
    const t = setup();
    const created = await t.post('url/periodic-payment-signer', { ...PERIODIC, bankIdSelected: 'pt-atlantico' });
    const failed = await walkGateway(t.request, created.url, { code: '0000' });
    await submit(t.request, formFor(failed, 'leave'));
    const n = await t.lastNotification();
    assert.equal(n.data.status, 'B103');
    const order = await t.order(created.idDebt);
    assert.equal(order.codStatus, 'ERROR');
    assert.equal(order.periodicOriginAccount, undefined);
    const cancel = await t.post('url/cancel-periodic-payment-signer', { transactionId: n.data.transactionId, reference: 'CAN-1' });
    assert.equal(cancel.status, 'E301', 'a failed authorisation cannot be cancelled');
  });
});
