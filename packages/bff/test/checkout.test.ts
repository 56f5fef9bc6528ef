import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NATIVE_BANKS, NATIVE_MAGIC, NATIVE_TEST_INPUTS, SANDBOX_DEFAULTS, SIM_BANKS } from '@bank-checkout/sandbox/testing';
import { proved } from './frame-proof.js';
import { createHarness, view, type Harness } from './harness.js';
import { bankOf, testFields, walk } from './flow.js';

const activeBanks = NATIVE_BANKS.flatMap((g) => g.types).filter((b) => b.active);

describe('checkout API: the native flow against the simulator', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());

  it('starts in select-bank with the summary the payer must see', async () => {
    const c = await h.createCheckout({ amount: 1999, subject: 'Order 7' });
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout'));
    assert.equal(v.state, 'select-bank');
    assert.equal(v.amount, 1999);
    assert.equal(v.currency, 'EUR');
    assert.equal(v.subject, 'Order 7');
    assert.equal(v.payee.iban, SANDBOX_DEFAULTS.merchantIban);
    assert.ok(v.payee.name.length > 0);
    assert.equal(v.sandbox, true);
    assert.equal(v.attemptsLeft, 3);
    assert.ok(Date.parse(v.expiresAt) > h.clock.now);
  });

  for (const bank of activeBanks) {
    it(`pays through ${bank.bankId} with its test values, every step server-driven`, async () => {
      const c = await h.createCheckout();
      const seen: string[] = [];
      const v = await walk(h, c.clientSecret, bank.bankId, {
        answer: (x, round) => {
          seen.push(`round${round}:type${x.type}`);
          return x.type === 6 ? 'SIGNED' : x.testValue!;
        },
      });
      assert.equal(v.state, 'succeeded', JSON.stringify(v.error));
      assert.ok(seen.length > 0, 'at least one validation');
      const sim = SIM_BANKS.get(bank.bankId)!;
      assert.equal(new Set(seen.map((s) => s.split(':')[0])).size, sim.rounds.length, 'one round per bank round');
      const event = h.events.find((e) => e.checkoutId === c.id);
      assert.equal(event?.state, 'succeeded');
    });
  }

  it('never shows the provider session or transaction ids to the browser', async () => {
    const c = await h.createCheckout();
    const bank = await bankOf(h, c.clientSecret, 'aurora');
    const res = await h.checkout(c.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId: bank.defaultLogin, fields: testFields(bank) });
    const text = await res.text();
    assert.equal(res.status, 200);
    assert.doesNotMatch(text, /sessionId|transactionId/);
    const sent = h.upstreamBodies.filter((b) => b.path.endsWith('/accounts/list')).at(-1)!.body as { sessionId: string };
    assert.ok(sent.sessionId);
    assert.ok(!text.includes(sent.sessionId));
  });

  it('shows the second login of each type with its field, then continues', async () => {
    for (const [type, bankId] of Object.entries(NATIVE_TEST_INPUTS.secondLoginBankIds)) {
      const c = await h.createCheckout();
      const v = await walk(h, c.clientSecret, bankId, { stopAt: 'second-login' });
      assert.equal(v.state, 'second-login');
      assert.ok(v.step.state === 'second-login');
      assert.equal(v.step.type, Number(type));
      assert.ok(v.step.field.testValue, 'test value shown in sandbox');
      if (Number(type) === 2) assert.match(v.step.value ?? '', /^[A-E][1-5]$/);
    }
  });

  it('offers the contracts of a multi-contract bank', async () => {
    const c = await h.createCheckout();
    const v = await walk(h, c.clientSecret, NATIVE_TEST_INPUTS.multiContractBankIds[0], { stopAt: 'select-contract' });
    assert.equal(v.state, 'select-contract');
    assert.ok(v.step.state === 'select-contract' && v.step.contracts.length > 1);
    const wrong = await h.checkout(c.clientSecret, '/v1/checkout/contract', { contractId: 'not-offered' });
    assert.equal(wrong.status, 422);
  });

  it('shows accounts with and without balance', async () => {
    const c = await h.createCheckout();
    const v = await walk(h, c.clientSecret, NATIVE_TEST_INPUTS.noBalanceBankId, { stopAt: 'select-account' });
    assert.ok(v.step.state === 'select-account');
    assert.ok(v.step.accounts.every((a) => a.balance === null));
    const c2 = await h.createCheckout();
    const v2 = await walk(h, c2.clientSecret, 'aurora', { stopAt: 'select-account' });
    assert.ok(v2.step.state === 'select-account' && v2.step.accounts.some((a) => typeof a.balance === 'number'));
  });

  it('asks a second round of validations and counts it', async () => {
    const c = await h.createCheckout();
    const rounds: number[] = [];
    const v = await walk(h, c.clientSecret, NATIVE_TEST_INPUTS.twoRoundBankIds[0], {
      answer: (x, round) => {
        rounds.push(round);
        return x.testValue!;
      },
    });
    assert.equal(v.state, 'succeeded');
    assert.deepEqual([...new Set(rounds)], [1, 2]);
  });

  it('keeps a type-6 validation waiting while the payer has not signed', async () => {
    const c = await h.createCheckout();
    const v = await walk(h, c.clientSecret, NATIVE_TEST_INPUTS.indirectBankId, { stopAt: 'validate' });
    assert.ok(v.step.state === 'validate');
    const six = v.step.validations.find((x) => x.type === 6);
    assert.ok(six, 'the bank asks for a signature in its app');
    const values = Object.fromEntries(v.step.validations.map((x) => [x.fieldId, x.type === 6 ? NATIVE_MAGIC.indirectPending : x.testValue!]));
    const again = await view(await h.checkout(c.clientSecret, '/v1/checkout/validate', { values }));
    assert.equal(again.state, 'validate');
  });

  it('keeps the challenge open after a wrong code (0000) with attempts left, then fails when none are left', async () => {
    const c = await h.createCheckout();
    const first = await walk(h, c.clientSecret, 'aurora', { stopAt: 'validate' });
    assert.ok(first.step.state === 'validate');
    const answer = Object.fromEntries(first.step.validations.map((x) => [x.fieldId, '0000']));
    const again = await view(await h.checkout(c.clientSecret, '/v1/checkout/validate', { values: answer }));
    assert.deepEqual([again.state, again.error, again.attemptsLeft], ['validate', { code: 'B103', message: 'error.B103' }, 2]);
    const v = await walk(h, c.clientSecret, 'aurora', { resumeOnly: true, answer: () => '0000' });
    assert.equal(v.state, 'failed');
    assert.deepEqual(v.error, { code: 'attempts', message: 'error.attempts' });
    assert.ok(v.actions.includes('restart'), 'the payer may start again');
    // The same at a bank that asks to sign in its app on another device (type 6).
    const c2 = await h.createCheckout();
    const v2 = await walk(h, c2.clientSecret, NATIVE_TEST_INPUTS.indirectBankId, { answer: () => '0000' });
    assert.equal(v2.state, 'failed');
    const after = await h.checkout(c.clientSecret, '/v1/checkout/cancel', {});
    assert.equal(after.status, 409);
  });

  it('goes back to the account list after the 90-second deadline, enforced by the BFF', async () => {
    const c = await h.createCheckout();
    const v = await walk(h, c.clientSecret, 'aurora', { stopAt: 'validate' });
    assert.ok(v.step.state === 'validate');
    assert.equal(Date.parse(v.step.deadline) - h.clock.now, 90_000);
    h.clock.advance(90_001);
    const calls = h.upstreamCalls.length;
    const res = await h.checkout(c.clientSecret, '/v1/checkout/validate', { values: { [v.step.validations[0]!.fieldId]: '123456' } });
    assert.equal(res.status, 409);
    assert.equal(h.upstreamCalls.length, calls, 'nothing sent after the deadline');
    const after = await view(await h.checkout(c.clientSecret, '/v1/checkout'));
    assert.equal(after.state, 'select-account');
    assert.equal(after.error?.code, 'deadline');
    // A new transfer from the same bank session, the account chosen still chosen.
    assert.ok(after.step.state === 'select-account');
    assert.equal(after.step.chosen, after.step.accounts[0]!.accountId, 'the account the payer chose stays chosen');
    const retry = await view(await h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: after.step.accounts[0]!.accountId }));
    assert.ok(['validate', 'succeeded'].includes(retry.state), retry.state);
  });

  it('spends an attempt per wrong password and fails when none are left', async () => {
    const c = await h.createCheckout();
    const bank = await bankOf(h, c.clientSecret, 'aurora');
    const fields = testFields(bank);
    const secret = fields.userSecret!;
    const wrong = { ...fields, userSecret: (secret[0] === '9' ? '8' : '9') + secret.slice(1) };
    let v = await view(await h.checkout(c.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId: bank.defaultLogin, fields: wrong }));
    assert.equal(v.state, 'login');
    assert.equal(v.error?.code, 'B100');
    assert.equal(v.attemptsLeft, 2);
    assert.ok(v.step.state === 'login' && v.step.bank.bankId === 'aurora');
    v = await view(await h.checkout(c.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId: bank.defaultLogin, fields: wrong }));
    v = await view(await h.checkout(c.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId: bank.defaultLogin, fields: wrong }));
    assert.equal(v.state, 'failed');
    assert.equal(v.error?.code, 'attempts');
    assert.equal(v.attemptsLeft, 0);
  });

  it('sends the payer back to the bank choice on B104 and B108', async () => {
    const c = await h.createCheckout();
    const bank = await bankOf(h, c.clientSecret, 'aurora');
    const fields = { ...testFields(bank), userId: NATIVE_MAGIC.actionRequiredUserId };
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId: bank.defaultLogin, fields }));
    assert.equal(v.state, 'select-bank');
    assert.equal(v.error?.code, 'B104');

    const c2 = await h.createCheckout();
    const fields2 = { ...testFields(bank), userId: NATIVE_MAGIC.noTransferUserId };
    let v2 = await view(await h.checkout(c2.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId: bank.defaultLogin, fields: fields2 }));
    assert.ok(v2.step.state === 'select-account');
    v2 = await view(await h.checkout(c2.clientSecret, '/v1/checkout/transfer', { accountId: v2.step.accounts[0]!.accountId }));
    assert.equal(v2.state, 'failed');
    assert.equal(v2.error?.code, 'B108');
  });

  it('lets the payer pick another account after B101, B106, B107 or E302', async () => {
    const c = await h.createCheckout();
    let v = await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
    const { accounts } = NATIVE_TEST_INPUTS;
    for (const [account, code] of [
      [accounts.transfersDisabled.accountId, 'B107'],
      [accounts.multiSignature.accountId, 'B106'],
      [accounts.invalidOrigin.accountId, 'B101'],
      [accounts.sameAsMerchant.accountId, 'E302'],
    ] as const) {
      v = await view(await h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: account }));
      assert.equal(v.state, 'select-account', code);
      assert.equal(v.error?.code, code);
    }
    const offered = await h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: 'NOT-OFFERED' });
    assert.equal(offered.status, 422);
  });

  it('fails a transfer the bank does not authorise (B102 over the amount limit)', async () => {
    const c = await h.createCheckout({ amount: NATIVE_MAGIC.maxAmountCents + 1 });
    const v = await walk(h, c.clientSecret, 'aurora');
    assert.equal(v.state, 'failed');
    assert.equal(v.error?.code, 'B102');
  });

  it('refuses banks and login types in maintenance before calling the bank', async () => {
    const c = await h.createCheckout();
    const calls = h.upstreamCalls.filter((x) => x.endsWith('/login')).length;
    const norte = await h.checkout(c.clientSecret, '/v1/checkout/login', { bankId: NATIVE_TEST_INPUTS.maintenanceBankId, loginId: 'x', fields: {} });
    assert.equal(norte.status, 422);
    assert.equal(((await norte.json()) as { error: { code: string } }).error.code, 'bank_unavailable');
    const { bankId, loginId } = NATIVE_TEST_INPUTS.maintenanceLogin;
    const bank = await bankOf(h, c.clientSecret, bankId);
    const card = await h.checkout(c.clientSecret, '/v1/checkout/login', { bankId, loginId, fields: testFields(bank, loginId) });
    assert.equal(card.status, 422);
    assert.equal(h.upstreamCalls.filter((x) => x.endsWith('/login')).length, calls);
  });

  it('checks the fields against the bank descriptors and sends nothing when they break a rule', async () => {
    const c = await h.createCheckout();
    const bank = await bankOf(h, c.clientSecret, 'aurora');
    const fields = testFields(bank);
    const calls = h.upstreamCalls.length;
    for (const bad of [
      { ...fields, userSecret: 'abc' }, // numeric secret with letters
      { userId: fields.userId! }, // missing secret
      { ...fields, extra: 'x' }, // not a field of the login type
      { ...fields, userSecret: '1' }, // shorter than min
    ]) {
      const res = await h.checkout(c.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId: bank.defaultLogin, fields: bad });
      assert.equal(res.status, 422, JSON.stringify(bad));
      const body = (await res.json()) as { error: { issues: { path: string }[] } };
      assert.ok(body.error.issues.length > 0);
    }
    assert.equal(h.upstreamCalls.length, calls);
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout'));
    assert.equal(v.state, 'select-bank');
  });

  it('answers out-of-order calls with 409 and changes nothing', async () => {
    const c = await h.createCheckout();
    for (const [path, body] of [
      ['/v1/checkout/validate', { values: { a: '1' } }],
      ['/v1/checkout/transfer', { accountId: 'x' }],
      ['/v1/checkout/second-login', { value: '1234' }],
      ['/v1/checkout/contract', { contractId: 'x' }],
    ] as const) {
      const res = await h.checkout(c.clientSecret, path, body);
      assert.equal(res.status, 409, path);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'stale_step');
    }
    assert.equal((await view(await h.checkout(c.clientSecret, '/v1/checkout'))).state, 'select-bank');
  });

  it('starts at most one transfer when two requests race', async () => {
    const c = await h.createCheckout();
    const v = await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
    assert.ok(v.step.state === 'select-account');
    const before = h.upstreamCalls.filter((x) => x.endsWith('/transfer/init')).length;
    const account = { accountId: v.step.accounts.find((a) => a.accountId === 'AUR-0001')?.accountId ?? v.step.accounts[0]!.accountId };
    const results = await Promise.all([1, 2, 3].map(() => h.checkout(c.clientSecret, '/v1/checkout/transfer', account)));
    const statuses = results.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses ${statuses.join(', ')}`);
    assert.ok(statuses.filter((s) => s === 409).length === 2);
    assert.equal(h.upstreamCalls.filter((x) => x.endsWith('/transfer/init')).length - before, 1);
  });

  it('cancels, tells the merchant once, and refuses anything after', async () => {
    const c = await h.createCheckout();
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout/cancel', {}));
    assert.equal(v.state, 'cancelled');
    assert.equal(h.events.filter((e) => e.checkoutId === c.id).length, 1);
    const again = await h.checkout(c.clientSecret, '/v1/checkout/cancel', {});
    assert.equal(again.status, 409);
    assert.equal(h.events.filter((e) => e.checkoutId === c.id).length, 1);
  });

  it('expires a checkout that outlives its time', async () => {
    const c = await h.createCheckout({ expiresInMinutes: 5 });
    h.clock.advance(5 * 60_000 + 1);
    const v = await view(await h.checkout(c.clientSecret, '/v1/checkout'));
    assert.equal(v.state, 'expired');
    assert.equal(v.error?.code, 'expired');
    const res = await h.checkout(c.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId: 'x', fields: {} });
    assert.equal(res.status, 409);
  });

  it('isolates checkouts: a secret acts only on its own checkout', async () => {
    const a = await h.createCheckout({ amount: 100 });
    const b = await h.createCheckout({ amount: 200 });
    const va = await view(await h.checkout(a.clientSecret, '/v1/checkout'));
    assert.equal(va.id, a.id);
    assert.notEqual(va.id, b.id);
    for (const secret of ['', 'cs_forged', b.clientSecret.slice(0, -1) + (b.clientSecret.endsWith('A') ? 'B' : 'A'), 'x'.repeat(500)]) {
      const res = await h.checkout(secret, '/v1/checkout');
      assert.equal(res.status, 401);
    }
    assert.ok(a.clientSecret.length >= 40, 'at least 128 bits of secret');
  });

  it('refuses anything the browser sends to change amount, subject or destination', async () => {
    const c = await h.createCheckout({ amount: 777, subject: 'Fixed subject' });
    const bank = await bankOf(h, c.clientSecret, 'aurora');
    const res = await h.checkout(c.clientSecret, '/v1/checkout/login', { bankId: 'aurora', loginId: bank.defaultLogin, fields: testFields(bank), amount: 1 });
    assert.equal(res.status, 422);
    const v = await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
    assert.ok(v.step.state === 'select-account');
    const t = await h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: 'AUR-0001', accountDestiny: 'ES0000' });
    assert.equal(t.status, 422);
    await h.checkout(c.clientSecret, '/v1/checkout/transfer', { accountId: 'AUR-0001' });
    const sent = h.upstreamBodies.filter((x) => x.path.endsWith('/transfer/init')).at(-1)!.body as Record<string, unknown>;
    assert.equal(sent.amount, 777);
    assert.equal(sent.subject, 'Fixed subject');
    assert.equal(sent.accountDestiny, SANDBOX_DEFAULTS.merchantIban);
  });

  it('rejects malformed bodies with clear 4xx errors', async () => {
    const c = await h.createCheckout();
    const cases: [string | undefined, Record<string, string>, number, string][] = [
      ['{not json', { 'Content-Type': 'application/json' }, 400, 'invalid_json'],
      ['bankId=x', { 'Content-Type': 'application/x-www-form-urlencoded' }, 415, 'unsupported_media_type'],
      ['[1,2]', { 'Content-Type': 'application/json' }, 422, 'validation_failed'],
      [JSON.stringify({ bankId: 1, loginId: [], fields: 'x' }), { 'Content-Type': 'application/json' }, 422, 'validation_failed'],
      [JSON.stringify({ bankId: 'a'.repeat(70_000), loginId: 'x', fields: {} }), { 'Content-Type': 'application/json' }, 413, 'payload_too_large'],
      // `__proto__` anywhere, however it is written, is refused rather than silently dropped.
      [
        '{"bankId":"aurora","loginId":"user","fields":{"userId":"u","userSecret":"s"},"__proto__":{"amount":1}}',
        { 'Content-Type': 'application/json' },
        422,
        'validation_failed',
      ],
      [
        '{"bankId":"aurora","loginId":"user","fields":{"userId":"u","userSecret":"s","\\u005f_proto__":"x"}}',
        { 'Content-Type': 'application/json' },
        422,
        'validation_failed',
      ],
      // An own toString or valueOf that is not a function: a schema's length check would throw converting it.
      ['{"bankId":{"length":{"toString":""}},"loginId":"user","fields":{}}', { 'Content-Type': 'application/json' }, 422, 'validation_failed'],
      ['{"bankId":"aurora","loginId":{"length":{"valueOf":{}}},"fields":{}}', { 'Content-Type': 'application/json' }, 422, 'validation_failed'],
    ];
    for (const [body, headers, status, code] of cases) {
      const url = 'http://bff.test/v1/checkout/login';
      const res = await h.bff.request(
        url,
        await proved(url, { method: 'POST', body, headers: { 'X-Checkout-Secret': c.clientSecret, ...headers } }, h.clock.now),
      );
      assert.equal(res.status, status, code);
      const json = (await res.json()) as { error: { code: string; requestId: string; message: string } };
      assert.equal(json.error.code, code);
      assert.match(json.error.requestId, /^req_/);
      assert.doesNotMatch(JSON.stringify(json), /at .*\.ts|node_modules|stack/i);
    }
  });

  it('keeps credentials, codes and secrets out of every log line', async () => {
    const c = await h.createCheckout();
    h.logs.length = 0;
    const bankId = NATIVE_TEST_INPUTS.secondLoginBankIds[1];
    const v = await walk(h, c.clientSecret, bankId);
    assert.equal(v.state, 'succeeded');
    const sim = SIM_BANKS.get(bankId)!;
    const login = sim.bank.logins.find((l) => l.loginId === sim.bank.defaultLogin)!;
    const canaries = [
      ...login.fields.map((f) => f.testValue!),
      sim.secondLogin!.field.testValue!,
      c.clientSecret,
      'sandbox-api-key',
      'sandbox-api-token',
      'test-merchant-secret-0123456789',
    ];
    const all = h.logs.join('\n');
    assert.ok(h.logs.length > 5, 'logs were written');
    for (const canary of canaries) assert.ok(!all.includes(canary), `log leaks ${canary.slice(0, 3)}…`);
  });
});

describe('checkout API: a BFF restart mid-flow', () => {
  it('keeps the checkout where it was on a SQLite file and completes it after the restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bff-restart-'));
    const h = await createHarness({}, { databaseUrl: `file:${join(dir, 'bff.db')}` });
    try {
      const c = await h.createCheckout({ amount: 1234 });
      const before = await walk(h, c.clientSecret, 'aurora', { stopAt: 'select-account' });
      assert.equal(before.state, 'select-account');
      await h.restart();
      const after = await view(await h.checkout(c.clientSecret, '/v1/checkout'));
      assert.equal(after.state, 'select-account');
      assert.equal(after.amount, 1234);
      assert.deepEqual(after.step, before.step);
      const transfers = h.upstreamCalls.filter((x) => x.endsWith('/transfer/init')).length;
      const done = await walk(h, c.clientSecret, 'aurora', { resumeOnly: true });
      assert.equal(done.state, 'succeeded');
      assert.equal(h.upstreamCalls.filter((x) => x.endsWith('/transfer/init')).length - transfers, 1);
      const merchant = await (await h.merchant(`/v1/checkouts/${c.id}`)).json();
      assert.equal(merchant.state, 'succeeded');
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
