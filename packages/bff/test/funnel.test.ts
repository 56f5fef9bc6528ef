/**
 * The merchant's funnel: each checkout's furthest step and its bank, kept in the store as the
 * checkout moves, counted per bank by `GET /v1/funnel`; the payer's view never carries it.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NATIVE_MAGIC, walkGateway } from '@bank-checkout/sandbox/testing';
import type { FunnelAnswer } from '@bank-checkout/contract';
import type { LinkBank } from '@bank-checkout/provider';
import { createHarness, view, type Harness } from './harness.js';
import { until } from './until.js';
import { bankOf, testFields, walk } from './flow.js';
import { bankNameKey, funnelAfter, oneRowPerBank } from '../src/checkout/funnel.js';
import { bankOfAccount, ibanBankCode } from '../src/checkout/paying-bank.js';
import type { CheckoutRecord } from '../src/store/types.js';

describe('funnel', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());

  const funnel = async (query = '') => {
    const res = await h.merchant(`/v1/funnel${query}`);
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as FunnelAnswer;
  };

  it('counts, per bank, how far each checkout got and where the unpaid ones left', async () => {
    const from = h.clock.now;
    // Paid at aurora.
    const paid = await h.createCheckout();
    const receipt = (await walk(h, paid.clientSecret, 'aurora')).step;
    // The paid view carries what the payer's receipt shows: when, the bank, the account (masked), the bank's reference; no checkout id.
    assert.ok(receipt.state === 'succeeded' && receipt.paidAt === new Date(h.clock.now).toISOString(), JSON.stringify(receipt));
    assert.equal(receipt.payingBank, 'Banco Aurora · Particulares');
    assert.match(receipt.account ?? '', /^ES •••• \d{4}$/);
    assert.match(receipt.bankReference ?? '', /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    assert.ok(!JSON.stringify(receipt).includes(paid.id), 'nothing on the receipt opens the checkout');
    // Chose aurora, the bank refused the login (B104), then the payer cancelled.
    const refused = await h.createCheckout();
    const bank = await bankOf(h, refused.clientSecret, 'aurora');
    const v = await view(
      await h.checkout(refused.clientSecret, '/v1/checkout/login', {
        bankId: 'aurora',
        loginId: bank.defaultLogin,
        fields: { ...testFields(bank), userId: NATIVE_MAGIC.actionRequiredUserId },
      }),
    );
    assert.equal(v.error?.code, 'B104');
    await view(await h.checkout(refused.clientSecret, '/v1/checkout/cancel', {}));
    // Left at the bank list.
    const idle = await h.createCheckout();
    await view(await h.checkout(idle.clientSecret, '/v1/checkout/cancel', {}));
    // Signed in, still choosing the account.
    const open = await h.createCheckout();
    const shown = await walk(h, open.clientSecret, 'aurora', { stopAt: 'select-account' });
    assert.equal(shown.state, 'select-account');
    // Nothing of the funnel reaches the payer's view.
    assert.doesNotMatch(JSON.stringify(shown), /funnel/);

    h.clock.advance(1000);
    const f = await funnel(`?from=${from}&to=${h.clock.now}`);
    assert.deepEqual(
      {
        started: f.total.started,
        bankChosen: f.total.bankChosen,
        signedIn: f.total.signedIn,
        confirmed: f.total.confirmed,
        paid: f.total.paid,
        open: f.total.open,
      },
      { started: 4, bankChosen: 3, signedIn: 2, confirmed: 1, paid: 1, open: 1 },
    );
    assert.deepEqual(f.total.left, { started: 1, bankChosen: 1, signedIn: 0, confirmed: 0 });
    const aurora = f.banks.find((b) => b.bankId === 'aurora')!;
    assert.equal(aurora.bank, bank.label);
    assert.equal(aurora.started, 3);
    assert.equal(aurora.paid, 1);
    assert.equal(aurora.left.bankChosen, 1);
    const none = f.banks.find((b) => b.bankId === null)!;
    assert.deepEqual([none.started, none.left.started], [1, 1]);
    assert.equal(f.banks.at(-1)!.bankId, null, 'checkouts without a bank come last');
    assert.equal(f.truncated, false);

    // A period before these checkouts counts none.
    const empty = await funnel(`?from=${from - 10_000}&to=${from}`);
    assert.equal(empty.total.started, 0);
    assert.deepEqual(empty.banks, []);
  });

  it('counts a bank chosen in the list as chosen, one in maintenance too, though nothing is sent to the bank; refuses a bank not in the list, and changes nothing past the list', async () => {
    const from = h.clock.now;
    const choose = (secret: string, body: unknown) => h.checkout(secret, '/v1/checkout/bank', body);
    // Chose Banco del Norte (in maintenance) and left.
    const maintenance = await h.createCheckout();
    const v = await view(await choose(maintenance.clientSecret, { bankId: 'norte' }));
    assert.equal(v.state, 'select-bank', 'the step stays');
    assert.doesNotMatch(JSON.stringify(v), /funnel|norte/, 'nothing of it in the payer’s view');
    // Chose Norte, then Levante, and left at its sign-in form: counted at the last one chosen.
    const second = await h.createCheckout();
    await view(await choose(second.clientSecret, { bankId: 'norte' }));
    await view(await choose(second.clientSecret, { bankId: 'levante' }));
    // Bad input: a clear 4xx, nothing changed.
    for (const [body, status, code] of [
      [{ bankId: 'no-such-bank' }, 422, 'validation_failed'],
      [{ bankId: 'norte', extra: 1 }, 422, 'validation_failed'],
      [{}, 422, 'validation_failed'],
    ] as const) {
      const res = await choose(second.clientSecret, body);
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, code);
    }
    // Signed in at Aurora: a choice sent afterwards (a late request) changes nothing.
    const signedIn = await h.createCheckout();
    await walk(h, signedIn.clientSecret, 'aurora', { stopAt: 'select-account' });
    assert.equal((await view(await choose(signedIn.clientSecret, { bankId: 'norte' }))).state, 'select-account');
    for (const c of [maintenance, second]) await view(await h.checkout(c.clientSecret, '/v1/checkout/cancel', {}));

    h.clock.advance(1000);
    const f = await funnel(`?from=${from}&to=${h.clock.now}`);
    const row = (bankId: string) => f.banks.find((b) => b.bankId === bankId);
    assert.deepEqual(
      [row('norte')?.bank, row('norte')?.started, row('norte')?.bankChosen, row('norte')?.left.bankChosen],
      ['Banco del Norte', 1, 1, 1],
      'the bank in maintenance, chosen: under its name, not under "no bank chosen"',
    );
    assert.deepEqual([row('levante')?.bankChosen, row('levante')?.signedIn, row('levante')?.left.bankChosen], [1, 0, 1]);
    assert.deepEqual([row('aurora')?.signedIn, row('aurora')?.open], [1, 1]);
    assert.equal(f.total.bankChosen, 3);
    assert.equal(
      f.banks.find((b) => b.bankId === null),
      undefined,
    );
  });

  it('keeps the furthest step when the payer goes back, and records the bank of a periodic order', () => {
    const rec = { state: 'select-account', internal: { funnel: { step: 'signed-in', bankId: 'aurora', bank: 'Aurora' } } } as unknown as CheckoutRecord;
    assert.equal(funnelAfter(rec, { state: 'select-bank' }).step, 'signed-in');
    assert.equal(funnelAfter(rec, { state: 'cancelled' }).step, 'signed-in');
    assert.deepEqual(funnelAfter(rec, { state: 'succeeded' }), { step: 'paid', bankId: 'aurora', bank: 'Aurora' });
    const periodic = { state: 'periodic', internal: {} } as unknown as CheckoutRecord;
    assert.deepEqual(funnelAfter(periodic, { state: 'redirect', internal: { linkBank: { bankId: 'b1', label: 'One' } } }), {
      step: 'bank',
      bankId: 'b1',
      bank: 'One',
    });
  });

  it('counts a payment at the bank’s page under the bank it was paid from (learnt from the provider afterwards), and a periodic order under the native bank of its name: one row per bank', async () => {
    const from = h.clock.now;
    // Paid at Caja Levante's page, the bank chosen on the provider's gateway.
    const atPage = await h.createCheckout({ modes: ['redirect'] });
    const link = await view(await h.checkout(atPage.clientSecret, '/v1/checkout/redirect', {}));
    assert.ok(link.step.state === 'redirect');
    await walkGateway((url, init) => h.sandbox.app.request(url, init), link.step.url, { bankId: 'es-levante' });
    const paid = await until(async () => {
      const v = await view(await h.checkout(atPage.clientSecret, '/v1/checkout'));
      return v.step.state === 'succeeded' && v.step.payingBank ? v : null;
    }, 'the paying bank learnt from the provider');
    assert.equal(paid.state, 'succeeded');
    assert.ok(paid.step.state === 'succeeded');
    assert.equal(paid.step.payingBank, 'Caja Levante', 'the receipt names the bank it was paid from');
    // A periodic order set up at the payment-link service's "Banco Aurora".
    const periodic = await h.createCheckout({ modes: ['periodic'] });
    const order = await h.checkout(periodic.clientSecret, '/v1/checkout/periodic', {
      bankId: 'es-aurora',
      frequency: 'Monthly',
      debtorAccount: 'ES7921000813610123456789',
      startDate: new Date(h.clock.now + 86_400_000).toISOString().slice(0, 10),
    });
    assert.equal(order.status, 200, await order.clone().text());
    // And a native payment at the same bank.
    await walk(h, (await h.createCheckout()).clientSecret, 'aurora');

    h.clock.advance(1000);
    const f = await funnel(`?from=${from}&to=${h.clock.now}`);
    const row = (bankId: string) => f.banks.find((b) => b.bankId === bankId);
    assert.equal(row('levante')?.paid, 1, 'paid at the bank’s page, under its bank');
    assert.equal(row('levante')?.bank, 'Caja Levante');
    assert.equal(row('aurora')?.started, 2, 'the periodic order and the native payment: one row');
    assert.equal(row('es-aurora'), undefined);
    assert.equal(
      f.banks.find((b) => b.bankId === null),
      undefined,
      'no payment left without its bank',
    );
  });

  it('names banks across the two services by their names, and an account’s bank by its IBAN', () => {
    assert.equal(bankNameKey('Banco Aurora · Particulares'), bankNameKey('Banco Aurora'));
    assert.notEqual(bankNameKey('Banco Aurora · Empresas'), bankNameKey('Banco Aurora'));
    assert.equal(bankNameKey('Banco Cantábrico'), 'banco cantabrico');
    const same = oneRowPerBank([
      { bankId: 'aurora', label: 'Banco Aurora · Particulares' },
      { bankId: 'aurora-empresas', label: 'Banco Aurora · Empresas' },
    ]);
    assert.deepEqual(same({ step: 'paid', bankId: 'es-aurora', bank: 'Banco Aurora' }), {
      step: 'paid',
      bankId: 'aurora',
      bank: 'Banco Aurora · Particulares',
    });
    assert.deepEqual(same({ step: 'paid', bankId: 'es-aurora-empresas', bank: 'Banco Aurora · Empresas' })?.bankId, 'aurora-empresas');
    assert.deepEqual(same({ step: 'paid', bankId: 'pt-douro', bank: 'Caixa Douro' })?.bankId, 'pt-douro', 'no native bank of its name: its own row');
    assert.equal(ibanBankCode('ES21 0101 1500 0512 3456 7892'), '0101');
    assert.equal(ibanBankCode('PT45003501231234567890154'), '0035');
    assert.equal(ibanBankCode('DE89370400440532013000'), null);
    const banks: LinkBank[] = [
      { bankId: 'es-aurora', name: 'Banco Aurora', bankCodes: ['0101'], country: 'ES', enabled: 1 },
      { bankId: 'pt-x', name: 'X', bankCodes: ['0101'], country: 'PT', enabled: 1 },
    ];
    assert.equal(bankOfAccount('ES2101011500051234567892', banks)?.bankId, 'es-aurora');
    assert.equal(bankOfAccount('ES6000491500051234567892', banks), null);
    assert.equal(bankOfAccount(null, banks), null);
  });

  it('refuses a bad period with a clear 422 and is in the OpenAPI document', async () => {
    for (const q of ['?from=yesterday', '?to=2026-13-45x', '?from=2000&to=1000', '?limit=3']) {
      const res = await h.merchant(`/v1/funnel${q}`);
      assert.equal(res.status, 422, q);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'validation_failed');
    }
    assert.equal((await h.bff.request('http://bff.test/v1/funnel')).status, 401);
    const doc = (await (await h.bff.request('http://bff.test/v1/openapi.json')).json()) as { paths: Record<string, { get?: { security?: unknown[] } }> };
    assert.deepEqual(doc.paths['/v1/funnel']?.get?.security, [{ merchantBearer: [] }]);
  });
});
