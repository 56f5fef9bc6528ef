import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NATIVE_ERROR_CODES, isValidIban, native } from '@bank-checkout/provider';
import {
  CARD_DATA_URL,
  NATIVE_BANKS,
  NATIVE_ERROR_INPUTS,
  NATIVE_MAGIC,
  NATIVE_SESSION_IDLE_MS,
  NATIVE_TEST_INPUTS,
  NATIVE_VALIDATION_DEADLINE_MS,
  cardValue,
  testCredentials,
} from '../src/testing.js';
import { fieldIssue } from '../src/native/fields.js';

import { SANDBOX_DEFAULTS } from '../src/context.js';
import { AUTH, nativeSandbox, type Body, type PostOptions, type Reply } from './native-client.js';

const TRANSFER = { amount: 1999, subject: 'Pedido 1001', holderDestiny: 'Tienda Demo', accountDestiny: 'ES7620770024003102575766' };
const allBanks = NATIVE_BANKS.flatMap((g) => g.types);
const activeBanks = allBanks.filter((b) => b.active);

/** One simulator with its own clock, and a POST helper for the native service. */
function setup(nativeEnv = 'test') {
  const { sandbox, post: send, advance } = nativeSandbox(nativeEnv);
  /** Sends `{}` when no body is given. */
  const post = (path: string, body: unknown = {}, opts: PostOptions = {}): Promise<Reply> => send(path, body, opts);
  /** Login with test values, second login if asked: the open session and its contracts. */
  async function open(bankId: string, overrides: Body = {}) {
    const login = await post('login', { ...testCredentials(bankId), ...overrides });
    assert.ok(['200', '229'].includes(login.body.status), `${bankId} login: ${JSON.stringify(login.body)}`);
    let reply = login;
    if (login.body.status === '229') {
      reply = await post('secondlogin', {
        sessionId: login.body.sessionId,
        secondLoginType: String(login.body.secondLoginType),
        valueFromUser: login.body.secondLoginField.testValue,
      });
      assert.equal(reply.body.status, '200', `${bankId} secondlogin: ${JSON.stringify(reply.body)}`);
    }
    return { sessionId: reply.body.sessionId as string, contracts: (reply.body.listContracts ?? null) as Body[] | null, login };
  }
  async function init(sessionId: string, accountIdOrigin: string, extra: Body = {}) {
    return post('transfer/init', { sessionId, accountIdOrigin, ...TRANSFER, ...extra });
  }
  /** Answers validations with their test values (or `value` for all of them). */
  const answers = (validations: Body[], value?: string) => validations.map((v) => ({ ...v, valueFromUser: value ?? v.testValue }));
  return { sandbox, post, open, init, answers, advance };
}

function assertError(r: Reply, code: string, pattern?: RegExp, field = 'description') {
  assert.equal(r.body.status, code, JSON.stringify(r.body));
  assert.ok(r.http >= 400 && r.http < 600, `HTTP ${r.http}`);
  assert.equal(typeof r.body[field], 'string');
  if (pattern) assert.match(r.body[field], pattern);
}

const sim = (bankId: string) => allBanks.find((b) => b.bankId === bankId)!;

describe('native: banks/list and the catalogue', () => {
  test('banks/list answers the catalogue in listBanks, matching the spec schema', async () => {
    const { post } = setup();
    const r = await post('banks/list', {});
    assert.equal(r.http, 200);
    assert.equal(r.body.status, '200');
    assert.equal(typeof r.body.description, 'string');
    assert.deepEqual(r.body.listBanks, JSON.parse(JSON.stringify(NATIVE_BANKS)));
    assert.ok(native.banksListResponse.safeParse(r.body).success);
    // Body "none": an empty body works too.
    const empty = await post('banks/list', undefined, { raw: '' });
    assert.equal(empty.body.status, '200');
  });

  test('at least 8 banks in 4 groups; defaults point at real banks and logins', () => {
    assert.ok(NATIVE_BANKS.length >= 4);
    assert.ok(allBanks.length >= 8);
    assert.equal(new Set(allBanks.map((b) => b.bankId)).size, allBanks.length, 'bankIds unique');
    for (const g of NATIVE_BANKS) {
      assert.ok(
        g.types.some((b) => b.bankId === g.defaultType),
        g.group,
      );
      for (const b of g.types)
        assert.ok(
          b.logins.some((l) => l.loginId === b.defaultLogin),
          b.bankId,
        );
    }
  });

  test('the catalogue exercises every descriptor feature', () => {
    const fields = allBanks.flatMap((b) => b.logins.flatMap((l) => l.fields));
    assert.ok(
      NATIVE_BANKS.some((g) => g.types.some((b) => b.type === 0) && g.types.some((b) => b.type === 1)),
      'a group with both person types',
    );
    assert.ok(
      allBanks.some((b) => b.logins.length > 1),
      'several login types',
    );
    assert.ok(
      allBanks.some((b) => !b.active),
      'a bank in maintenance',
    );
    assert.ok(
      allBanks.some((b) => b.active && b.logins.some((l) => !l.active)),
      'a login type in maintenance',
    );
    for (const v of ['numeric', 'alfanumeric'])
      assert.ok(
        fields.some((f) => f.valueType === v),
        v,
      );
    assert.ok(fields.some((f) => f.password) && fields.some((f) => !f.password), 'masked and plain');
    assert.ok(
      fields.some((f) => f.min !== f.max),
      'min/max ranges',
    );
    for (const t of ['DNI_NIE', 'CIF'])
      assert.ok(
        fields.some((f) => f.specificType === t),
        t,
      );
    assert.ok(
      allBanks.some((b) => b.logins.some((l) => l.fields[2]?.fieldId === 'userExtraField')),
      'userExtraField',
    );
  });

  test('login fields are named userId, userSecret, userExtraField in order, each with a testValue that fits its rules', () => {
    for (const b of allBanks) {
      for (const l of b.logins) {
        assert.ok(l.fields.length >= 2 && l.fields.length <= 3, `${b.bankId}/${l.loginId}`);
        l.fields.forEach((f, i) => {
          assert.equal(f.fieldId, ['userId', 'userSecret', 'userExtraField'][i]);
          assert.equal(typeof f.testValue, 'string');
          assert.equal(fieldIssue(f, f.testValue ?? undefined), null, `${b.bankId}/${l.loginId}/${f.fieldId}`);
        });
      }
    }
  });

  test('every error code has a documented input; magic values are distinct', () => {
    for (const code of NATIVE_ERROR_CODES) assert.equal(typeof NATIVE_ERROR_INPUTS[code], 'string', code);
    const values = [NATIVE_MAGIC.failValidation, NATIVE_MAGIC.indirectPending, NATIVE_MAGIC.indirectSigned];
    assert.equal(new Set(values).size, values.length);
    assert.notEqual(NATIVE_MAGIC.actionRequiredUserId, NATIVE_MAGIC.noTransferUserId);
  });

  test('the API key and token are required; the earlier clients are accepted; the segment is configurable', async () => {
    const { sandbox, post } = setup();
    const none = await sandbox.app.request('/test/banks/list', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    assert.equal(none.status, 401);
    assert.equal(((await none.json()) as Body).status, 'E300');
    // Login and second login describe with `descripción`, their refusals too.
    for (const path of ['login', 'secondlogin']) {
      const refused = (await (
        await sandbox.app.request(`/test/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
      ).json()) as Record<string, unknown>;
      assert.equal(refused.status, 'E300');
      assert.equal(typeof refused['descripción'], 'string');
      assert.equal(refused.description, undefined);
    }
    const wrong = await post('banks/list', {}, { headers: { Authorization: 'nope' } });
    assert.equal(wrong.http, 401);
    const commerce = await post(
      'banks/list',
      {},
      { headers: { 'X-Api-Key': SANDBOX_DEFAULTS.commerceApiKey, Authorization: SANDBOX_DEFAULTS.commerceApiToken } },
    );
    assert.equal(commerce.body.status, '200');

    const custom = setup('sandbox-env');
    assert.equal((await custom.post('banks/list')).body.status, '200');
    const old = await custom.sandbox.app.request('/test/banks/list', { method: 'POST', headers: { 'Content-Type': 'application/json', ...AUTH }, body: '{}' });
    assert.equal(old.status, 404);
  });
});

describe('native: every active bank walks to a successful transfer with its test values', () => {
  test('login, second login, contract, accounts, init, every validation round', async () => {
    const h = setup();
    const seen = { validationTypes: new Set<string>(), secondLogin: new Set<number>(), maxPerRound: 0, maxRounds: 0, noBalance: false, balance: false };
    for (const bank of activeBanks) {
      const login = await h.post('login', testCredentials(bank.bankId));
      assert.ok(login.body.sessionId, bank.bankId);
      assert.equal(typeof login.body['descripción'], 'string');
      assert.equal(login.body.description, undefined);
      if (login.body.status === '229') {
        seen.secondLogin.add(login.body.secondLoginType);
        assert.equal(typeof login.body.secondLoginType, 'number');
        assert.equal(typeof login.body.secondLoginField.testValue, 'string');
        if (login.body.secondLoginType === 2) {
          assert.match(login.body.secondLoginValue, /^[A-E][1-5]$/);
          assert.equal(login.body.secondLoginField.testValue, cardValue(login.body.secondLoginValue));
          assert.ok(login.body.secondLoginField.label.includes(login.body.secondLoginValue));
        }
      } else {
        assert.equal(login.body.status, '200');
        assert.equal(login.body.secondLoginType, undefined);
      }
      const { sessionId, contracts } = await (async () => {
        if (login.body.status !== '229') return { sessionId: login.body.sessionId, contracts: login.body.listContracts ?? null };
        const second = await h.post('secondlogin', {
          sessionId: login.body.sessionId,
          secondLoginType: String(login.body.secondLoginType),
          valueFromUser: login.body.secondLoginField.testValue,
        });
        assert.equal(second.body.status, '200', JSON.stringify(second.body));
        assert.equal(second.body.sessionId, login.body.sessionId);
        assert.equal(typeof second.body['descripción'], 'string');
        return { sessionId: second.body.sessionId, contracts: second.body.listContracts ?? null };
      })();

      const accounts = await h.post('accounts/list', { sessionId, ...(contracts ? { contractId: contracts[0].contractId } : {}) });
      assert.equal(accounts.body.status, '200', `${bank.bankId}: ${JSON.stringify(accounts.body)}`);
      assert.equal(accounts.body.sessionId, sessionId);
      assert.ok(native.accountsResponse.safeParse(accounts.body).success);
      for (const a of accounts.body.listAccounts) {
        const iban = /ES\d{22}/.exec(a.accountInfo)?.[0];
        assert.ok(iban && isValidIban(iban), `${a.accountId} shows its IBAN`);
        if (a.amount === null) seen.noBalance = true;
        else seen.balance = true;
      }

      let reply = await h.init(sessionId, accounts.body.listAccounts[0].accountId);
      assert.equal(reply.body.status, '228', `${bank.bankId}: ${JSON.stringify(reply.body)}`);
      assert.ok(reply.body.transactionId);
      const transactionId = reply.body.transactionId;
      let rounds = 0;
      while (reply.body.status === '228') {
        rounds += 1;
        assert.ok(native.transferResponse.safeParse(reply.body).success);
        const validations: Body[] = reply.body.validations;
        seen.maxPerRound = Math.max(seen.maxPerRound, validations.length);
        for (const v of validations) {
          seen.validationTypes.add(v.type);
          assert.equal(typeof v.type, 'string');
          assert.equal(typeof v.testValue, 'string');
          assert.equal(fieldIssue(v as any, v.testValue), null, `${bank.bankId}/${v.fieldId} testValue fits`);
          assert.equal(fieldIssue(v as any, NATIVE_MAGIC.failValidation), null, `${bank.bankId}/${v.fieldId} 0000 fits`);
          assert.equal(v.valueFromUser, null);
          if (v.type === '2' || v.type === '3') {
            assert.match(v.value, /^[A-E][1-5]$/);
            assert.equal(v.testValue, cardValue(v.value));
          }
          if (v.type === '5') {
            assert.equal(v.value, CARD_DATA_URL);
            const position = /\b([A-E][1-5])\b/.exec(v.label)?.[1];
            assert.ok(position, `label names the position: ${v.label}`);
            assert.equal(v.testValue, cardValue(position));
          }
          if (v.type === '6') assert.equal(v.testValue, NATIVE_MAGIC.indirectSigned);
        }
        reply = await h.post('transfer/validate', { sessionId, validations: h.answers(validations) });
        assert.equal(reply.body.transactionId, transactionId);
        assert.equal(reply.body.sessionId, sessionId);
      }
      assert.equal(reply.body.status, '200', `${bank.bankId}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.http, 200);
      assert.deepEqual(reply.body.validations, []);
      seen.maxRounds = Math.max(seen.maxRounds, rounds);
    }
    assert.deepEqual([...seen.validationTypes].sort(), ['0', '1', '2', '3', '4', '5', '6']);
    assert.deepEqual([...seen.secondLogin].sort(), [1, 2, 3]);
    assert.ok(seen.maxPerRound >= 2, 'two validations in one round');
    assert.ok(seen.maxRounds >= 2, 'a second round');
    assert.ok(seen.noBalance && seen.balance, 'accounts with and without balance');
  });

  test('every login type: its test values log in when active, answer B105 in maintenance', async () => {
    const h = setup();
    for (const b of allBanks) {
      for (const l of b.logins) {
        const r = await h.post('login', testCredentials(b.bankId, l.loginId));
        if (b.active && l.active) assert.ok(['200', '229'].includes(r.body.status), `${b.bankId}/${l.loginId}: ${JSON.stringify(r.body)}`);
        else assertError(r, 'B105', /maintenance/, 'descripción');
      }
    }
  });
});

describe('native: login', () => {
  test('B100: values that fit the login but are not the test credentials', async () => {
    const { post } = setup();
    const r = await post('login', { ...testCredentials('aurora'), userSecret: '999999' });
    assertError(r, 'B100', /credentials/, 'descripción');
    assert.equal(r.body.sessionId, undefined);
    const extra = await post('login', { ...testCredentials('aurora-empresas'), userExtraField: '1111' });
    assertError(extra, 'B100', undefined, 'descripción');
  });

  test('wrong credentials of any shape are B100, naming the rule broken; a value the bank needs left out is E301', async () => {
    const { post } = setup();
    const dni = await post('login', { ...testCredentials('meridiano'), userId: '87654321A' });
    assertError(dni, 'B100', /rejected the credentials.*userId \(DNI \/ NIE\): DNI_NIE: .*check letter/, 'descripción');
    assert.equal(dni.http, 422);
    const cif = await post('login', { ...testCredentials('levante-empresas'), userId: 'A76543210' });
    assertError(cif, 'B100', /userId \(CIF de la empresa\): CIF: .*control character/, 'descripción');
    const digits = await post('login', { ...testCredentials('levante'), userSecret: '12ab56' });
    assertError(digits, 'B100', /userSecret \(Clave de acceso\): must contain digits only/, 'descripción');
    assertError(await post('login', { ...testCredentials('aurora'), userSecret: 'wrong-password' }), 'B100', undefined, 'descripción');
    const { userExtraField: _omit, ...noExtra } = testCredentials('aurora-empresas');
    const missing = await post('login', noExtra);
    assertError(missing, 'E301', /needs is missing.*userExtraField \(Código de usuario\): is required/, 'descripción');
    assert.equal(missing.http, 400);
  });

  test('E301 on the body itself: missing fields, unknown bank, bad JSON, wrong content type, too long', async () => {
    const { post, sandbox } = setup();
    assertError(await post('login', { bankId: 'aurora', userId: '12345678Z' }), 'E301', /userSecret: userSecret is required/, 'descripción');
    assertError(await post('login', { ...testCredentials('aurora'), bankId: 'nobank' }), 'E301', /bankId: unknown bank 'nobank'/, 'descripción');
    assertError(await post('login', null, { raw: '{"bankId":' }), 'E301', /not valid JSON/, 'descripción');
    assertError(await post('login', null, { raw: '[1,2]' }), 'E301', /JSON object/, 'descripción');
    assertError(await post('login', { ...testCredentials('aurora'), userId: 'x'.repeat(500) }), 'E301', /userId: at most 128/, 'descripción');
    assertError(await post('login', { ...testCredentials('aurora'), userSecret: 135790 }), 'E301', /userSecret/, 'descripción');
    const text = await sandbox.app.request('/test/login', { method: 'POST', headers: { 'Content-Type': 'text/plain', ...AUTH }, body: 'hi' });
    assert.equal(text.status, 400);
    assert.match(((await text.json()) as Body)['descripción'], /Content-Type/);
  });

  test('B105: bank in maintenance, and any credentials of a login type in maintenance', async () => {
    const { post } = setup();
    assertError(await post('login', testCredentials(NATIVE_TEST_INPUTS.maintenanceBankId)), 'B105', /maintenance/, 'descripción');
    const { bankId, loginId } = NATIVE_TEST_INPUTS.maintenanceLogin;
    assert.equal(sim(bankId).logins.find((l) => l.loginId === loginId)?.active, false);
    assertError(await post('login', testCredentials(bankId, loginId)), 'B105', new RegExp(`'${loginId}'`), 'descripción');
    assertError(await post('login', { bankId, userId: '4111111111111111', userSecret: '9876' }), 'B105', undefined, 'descripción');
  });

  test('B104: the documented action-required user, at any active bank', async () => {
    const { post } = setup();
    for (const bankId of ['aurora', 'cantabrico-empresas']) {
      const r = await post('login', { bankId, userId: NATIVE_MAGIC.actionRequiredUserId, userSecret: 'whatever' });
      assertError(r, 'B104', /online bank/, 'descripción');
    }
  });

  test('several login types: the alternative login with its own test values opens a session', async () => {
    const { post } = setup();
    const r = await post('login', testCredentials(NATIVE_TEST_INPUTS.multiLoginBankId, 'user'));
    assert.equal(r.body.status, '200');
    assert.ok(r.body.sessionId);
  });
});

describe('native: second login', () => {
  for (const [type, bankId] of Object.entries(NATIVE_TEST_INPUTS.secondLoginBankIds)) {
    test(`type ${type} (${bankId}): 229 then 200 with the field's test value`, async () => {
      const { post } = setup();
      const login = await post('login', testCredentials(bankId));
      assert.equal(login.body.status, '229');
      assert.equal(login.http, 200);
      assert.equal(login.body.secondLoginType, Number(type));
      assert.equal(typeof login.body.secondLoginValue, 'string');
      assert.ok(native.loginResponse.safeParse(login.body).success);
      const r = await post('secondlogin', { sessionId: login.body.sessionId, secondLoginType: type, valueFromUser: login.body.secondLoginField.testValue });
      assert.equal(r.body.status, '200');
      assert.equal(r.body.sessionId, login.body.sessionId);
      const multi = (NATIVE_TEST_INPUTS.multiContractBankIds as readonly string[]).includes(bankId);
      assert.equal(Array.isArray(r.body.listContracts), multi, 'listContracts only for multi-contract banks');
    });
  }

  test('a wrong code answers B100 and closes the session', async () => {
    const { post } = setup();
    const login = await post('login', testCredentials('levante'));
    const r = await post('secondlogin', { sessionId: login.body.sessionId, secondLoginType: '1', valueFromUser: '0000' });
    assertError(r, 'B100', /second-login code/, 'descripción');
    assertError(await post('accounts/list', { sessionId: login.body.sessionId }), 'E301', /unknown session/);
  });

  test('out of order and malformed calls: E301, the pending login stays usable', async () => {
    const { post } = setup();
    const login = await post('login', testCredentials('cantabrico'));
    const sessionId = login.body.sessionId;
    assertError(await post('accounts/list', { sessionId }), 'E301', /waiting for secondlogin/);
    assertError(await post('transfer/init', { sessionId, accountIdOrigin: 'CAN-0001', ...TRANSFER }), 'E301', /waiting for secondlogin/);
    assertError(await post('secondlogin', { sessionId, secondLoginType: '1', valueFromUser: '905217' }), 'E301', /type 3, not 1/, 'descripción');
    assertError(await post('secondlogin', { sessionId, secondLoginType: '7', valueFromUser: '905217' }), 'E301', /secondLoginType: /, 'descripción');
    const ok = await post('secondlogin', { sessionId, secondLoginType: 3, valueFromUser: login.body.secondLoginField.testValue });
    assert.equal(ok.body.status, '200');
    const again = await post('secondlogin', { sessionId, secondLoginType: '3', valueFromUser: login.body.secondLoginField.testValue });
    assertError(again, 'E301', /not waiting for a second login/, 'descripción');
  });

  test('a second-login code of the wrong shape is the bank refusing it: B100 naming the rule, and the session closes', async () => {
    const { post } = setup();
    const login = await post('login', testCredentials('cantabrico'));
    const sessionId = login.body.sessionId;
    assertError(
      await post('secondlogin', { sessionId, secondLoginType: 3, valueFromUser: '12' }),
      'B100',
      /valueFromUser .*4 to 8 characters.*log in again/,
      'descripción',
    );
    const after = await post('secondlogin', { sessionId, secondLoginType: 3, valueFromUser: login.body.secondLoginField.testValue });
    assertError(after, 'E301', /session/, 'descripción');
  });

  test('secondlogin at a bank that never asked one: E301', async () => {
    const { post } = setup();
    const login = await post('login', testCredentials('aurora'));
    assertError(
      await post('secondlogin', { sessionId: login.body.sessionId, secondLoginType: '1', valueFromUser: '1234' }),
      'E301',
      /not waiting/,
      'descripción',
    );
  });
});

describe('native: contracts and accounts', () => {
  test('multi-contract: login lists contracts; accounts/list needs one of them', async () => {
    const h = setup();
    const { sessionId, contracts } = await h.open('aurora-empresas');
    assert.ok(contracts && contracts.length >= 2);
    assertError(await h.post('accounts/list', { sessionId }), 'E301', /contractId: required, bank 'aurora-empresas' is multi-contract/);
    const other = await h.open('levante-empresas');
    assertError(await h.post('accounts/list', { sessionId, contractId: other.contracts![0]!.contractId }), 'E301', /not a contract of this session/);
    const first = await h.post('accounts/list', { sessionId, contractId: contracts[0]!.contractId });
    const second = await h.post('accounts/list', { sessionId, contractId: contracts[1]!.contractId });
    assert.equal(first.body.status, '200');
    assert.ok(first.body.listAccounts.length > 0 && second.body.listAccounts.length > 0);
    const ids = (r: Reply) => r.body.listAccounts.map((a: Body) => a.accountId);
    assert.ok(!ids(first).some((id: string) => ids(second).includes(id)), 'each contract has its own accounts');
  });

  test('a single-contract bank lists no contracts and rejects a contractId', async () => {
    const h = setup();
    const { sessionId, contracts } = await h.open('aurora');
    assert.equal(contracts, null);
    assertError(await h.post('accounts/list', { sessionId, contractId: 'AUE-C01' }), 'E301', /not multi-contract/);
    assert.equal((await h.post('accounts/list', { sessionId, contractId: '' })).body.status, '200');
  });

  test('balances: numbers at aurora, null at levante', async () => {
    const h = setup();
    for (const [bankId, hasBalance] of [
      ['aurora', true],
      [NATIVE_TEST_INPUTS.noBalanceBankId, false],
    ] as const) {
      const { sessionId } = await h.open(bankId);
      const r = await h.post('accounts/list', { sessionId });
      for (const a of r.body.listAccounts) {
        assert.ok(Object.hasOwn(a, 'amount'));
        assert.equal(typeof a.amount === 'number', hasBalance, `${a.accountId}: ${a.amount}`);
      }
    }
  });

  test('accounts/list without a session, or with an unknown one: E301', async () => {
    const { post } = setup();
    assertError(await post('accounts/list', {}), 'E301', /sessionId/);
    assertError(await post('accounts/list', { sessionId: 'not-a-session' }), 'E301', /unknown session/);
  });
});

describe('native: transfer/init', () => {
  async function openAurora() {
    const h = setup();
    const { sessionId } = await h.open('aurora');
    return { ...h, sessionId };
  }

  test('228 with a transactionId and the first round of validations', async () => {
    const { init, sessionId } = await openAurora();
    const r = await init(sessionId, 'AUR-0001');
    assert.equal(r.http, 200);
    assert.equal(r.body.status, '228');
    assert.equal(r.body.sessionId, sessionId);
    assert.equal(typeof r.body.transactionId, 'string');
    assert.deepEqual(
      r.body.validations.map((v: Body) => v.type),
      ['1'],
    );
  });

  test('B101: a blocked account, an unknown account, an account of another bank', async () => {
    const { init, sessionId } = await openAurora();
    assertError(await init(sessionId, NATIVE_TEST_INPUTS.accounts.invalidOrigin.accountId), 'B101', /blocked/);
    assertError(await init(sessionId, NATIVE_TEST_INPUTS.unknownAccountId), 'B101', /not an account of this session/);
    assertError(await init(sessionId, 'LEV-0001'), 'B101');
  });

  test('B106 joint account, B107 transfers disabled', async () => {
    const { init, sessionId } = await openAurora();
    assertError(await init(sessionId, NATIVE_TEST_INPUTS.accounts.multiSignature.accountId), 'B106', /joint signature/);
    assertError(await init(sessionId, NATIVE_TEST_INPUTS.accounts.transfersDisabled.accountId), 'B107', /does not allow transfers/);
  });

  test("E302: destination equals the origin account's IBAN (the demo merchant's), however it is written", async () => {
    const { init, post, sessionId } = await openAurora();
    const { accountId, iban } = NATIVE_TEST_INPUTS.accounts.sameAsMerchant;
    assert.equal(iban, SANDBOX_DEFAULTS.merchantIban);
    const listed = (await post('accounts/list', { sessionId })).body.listAccounts.find((a: Body) => a.accountId === accountId);
    assert.ok(listed.accountInfo.includes(iban), 'accountInfo shows the IBAN');
    assertError(await init(sessionId, accountId, { accountDestiny: iban }), 'E302', /origin account/);
    const spaced = iban
      .toLowerCase()
      .replace(/(.{4})/g, '$1 ')
      .trim();
    assertError(await init(sessionId, accountId, { accountDestiny: spaced }), 'E302');
    assert.equal((await init(sessionId, 'AUR-0001', { accountDestiny: iban })).body.status, '228', 'another origin may pay the merchant');
  });

  test('B102: an amount above the documented limit; the limit itself passes', async () => {
    const { init, sessionId } = await openAurora();
    assertError(await init(sessionId, 'AUR-0001', { amount: NATIVE_MAGIC.maxAmountCents + 1 }), 'B102', /does not authorise/);
    assert.equal((await init(sessionId, 'AUR-0001', { amount: NATIVE_MAGIC.maxAmountCents })).body.status, '228');
  });

  test('B108: the documented user that may not transfer logs in (even with a second login) but cannot start a transfer', async () => {
    const h = setup();
    const { sessionId } = await h.open('levante', { userId: NATIVE_MAGIC.noTransferUserId, userSecret: '000000' });
    const accounts = await h.post('accounts/list', { sessionId });
    assert.equal(accounts.body.status, '200');
    assertError(await h.init(sessionId, accounts.body.listAccounts[0].accountId), 'B108', /may not make transfers/);
  });

  test('E301: bad amount, bad IBAN, missing fields, no session', async () => {
    const { init, post, sessionId } = await openAurora();
    assertError(await init(sessionId, 'AUR-0001', { amount: 19.99 }), 'E301', /amount: must be an integer number of cents/);
    assertError(await init(sessionId, 'AUR-0001', { amount: -5 }), 'E301', /amount: must be greater than zero/);
    assertError(await init(sessionId, 'AUR-0001', { accountDestiny: 'ES7620770024003102575767' }), 'E301', /accountDestiny: must be a valid IBAN/);
    assertError(await post('transfer/init', { sessionId, accountIdOrigin: 'AUR-0001' }), 'E301', /subject.*required/);
    assertError(await init('nope', 'AUR-0001'), 'E301', /unknown session/);
  });
});

describe('native: transfer/validate', () => {
  async function started(bankId: string) {
    const h = setup();
    const { sessionId, contracts } = await h.open(bankId);
    const accounts = await h.post('accounts/list', { sessionId, ...(contracts ? { contractId: contracts[0]!.contractId } : {}) });
    const init = await h.init(sessionId, accounts.body.listAccounts[0].accountId);
    assert.equal(init.body.status, '228');
    return { ...h, sessionId, init: init.body, validations: init.body.validations as Body[] };
  }

  test('0000 fails with B103 by default; the transaction cannot be validated again', async () => {
    const { post, sessionId, validations } = await started('aurora');
    const r = await post('transfer/validate', { sessionId, validations: validations.map((v) => ({ ...v, valueFromUser: NATIVE_MAGIC.failValidation })) });
    assertError(r, 'B103', /validation failed/);
    assertError(
      await post('transfer/validate', { sessionId, validations: validations.map((v) => ({ ...v, valueFromUser: v.testValue })) }),
      'E301',
      /already failed \(B103\)/,
    );
  });

  test('0000 fails with B103 at every active bank, whatever the validation type and its field rules', async () => {
    for (const bank of NATIVE_BANKS.flatMap((g) => g.types).filter((b) => b.active)) {
      const { post, sessionId, validations } = await started(bank.bankId);
      const r = await post('transfer/validate', { sessionId, validations: validations.map((v) => ({ ...v, valueFromUser: NATIVE_MAGIC.failValidation })) });
      assertError(r, 'B103', /validation failed/);
    }
  });

  test('a wrong value fails with B103 naming the field, or the rule it breaks', async () => {
    const first = await started('aurora');
    assertError(
      await first.post('transfer/validate', { sessionId: first.sessionId, validations: first.validations.map((v) => ({ ...v, valueFromUser: '1111' })) }),
      'B103',
      /smsCode is not correct/,
    );
    const second = await started('aurora');
    assertError(
      await second.post('transfer/validate', { sessionId: second.sessionId, validations: second.validations.map((v) => ({ ...v, valueFromUser: 'abc' })) }),
      'B103',
      /smsCode .*digits only/,
    );
  });

  test('two validations in one round: both are needed, each checked', async () => {
    const { post, sessionId, validations, answers } = await started(NATIVE_TEST_INPUTS.twoValidationsBankId);
    assert.equal(validations.length, 2);
    assertError(
      await post('transfer/validate', { sessionId, validations: answers(validations.slice(0, 1)) }),
      'E301',
      new RegExp(`'${validations[1]!.fieldId}' \\(type ${validations[1]!.type}\\) is missing`),
    );
    const dup = answers([validations[0]!, validations[0]!, validations[1]!]);
    assertError(await post('transfer/validate', { sessionId, validations: dup }), 'E301', /answered twice/);
    const unknown = [...answers(validations), { fieldId: 'other', type: 1, valueFromUser: '1234' }];
    assertError(await post('transfer/validate', { sessionId, validations: unknown }), 'E301', /'other' is not asked/);
    const wrongType = answers(validations).map((v, i) => (i === 0 ? { ...v, type: 3 } : v));
    assertError(await post('transfer/validate', { sessionId, validations: wrongType }), 'E301', /is of type/);
    // None of the E301 answers consumed the transaction.
    const ok = await post('transfer/validate', { sessionId, validations: answers(validations) });
    assert.equal(ok.body.status, '200');

    // One value of the wrong shape among right ones: the bank refuses the round (B103).
    const other = await started(NATIVE_TEST_INPUTS.twoValidationsBankId);
    const short = other.answers(other.validations).map((v, i) => (i === 1 ? { ...v, valueFromUser: '12' } : v));
    assertError(await other.post('transfer/validate', { sessionId: other.sessionId, validations: short }), 'B103', /4 to 8 characters/);
  });

  test('a second round: 228 with new validations, then 200', async () => {
    const { post, sessionId, validations, answers, init } = await started('cantabrico');
    assert.deepEqual(
      validations.map((v) => v.type),
      ['5'],
    );
    const round2 = await post('transfer/validate', { sessionId, validations: answers(validations) });
    assert.equal(round2.body.status, '228');
    assert.equal(round2.body.transactionId, init.transactionId);
    assert.deepEqual(
      round2.body.validations.map((v: Body) => v.type),
      ['1'],
    );
    assertError(await post('transfer/validate', { sessionId, validations: answers(validations) }), 'E301', /not asked in this round/);
    const done = await post('transfer/validate', { sessionId, validations: answers(round2.body.validations) });
    assert.equal(done.body.status, '200');
  });

  test('type 5 shows the card; its label names the position; type 2 and 3 give the position in value', async () => {
    for (const bankId of ['cantabrico', 'levante', 'levante-empresas']) {
      const { validations } = await started(bankId);
      const v = validations[0]!;
      const position = v.type === '5' ? /([A-E][1-5])/.exec(v.label)![1]! : v.value;
      if (v.type === '5') {
        assert.match(v.value, /^data:image\/svg\+xml;base64,/);
        assert.ok(Buffer.from(v.value.split(',')[1], 'base64').toString().includes(`>${v.testValue}<`));
      } else assert.match(v.value, /^[A-E][1-5]$/);
      assert.equal(v.testValue, cardValue(position), bankId);
    }
  });

  test(`type 6: ${NATIVE_MAGIC.indirectPending} answers 228 with the same validation until ${NATIVE_MAGIC.indirectSigned}`, async () => {
    const { post, sessionId, validations } = await started(NATIVE_TEST_INPUTS.indirectBankId);
    assert.equal(validations[0]!.type, '6');
    const as = (value: string) => validations.map((v) => ({ ...v, valueFromUser: value }));
    for (let i = 0; i < 2; i++) {
      const pending = await post('transfer/validate', { sessionId, validations: as(NATIVE_MAGIC.indirectPending) });
      assert.equal(pending.body.status, '228');
      assert.deepEqual(pending.body.validations, validations);
    }
    const signed = await post('transfer/validate', { sessionId, validations: as(NATIVE_MAGIC.indirectSigned) });
    assert.equal(signed.body.status, '200');
  });

  test('type 6: anything but SIGNED or PENDING is rejected', async () => {
    const { post, sessionId, validations } = await started('meridiano');
    assertError(await post('transfer/validate', { sessionId, validations: validations.map((v) => ({ ...v, valueFromUser: 'DONE' })) }), 'B103');
  });

  test('out of order: validate without init, reuse after completion, malformed body', async () => {
    const h = setup();
    const { sessionId } = await h.open('aurora');
    const any = [{ fieldId: 'smsCode', type: 1, valueFromUser: '482913' }];
    assertError(await h.post('transfer/validate', { sessionId, validations: any }), 'E301', /no transfer in progress/);
    assertError(await h.post('transfer/validate', { sessionId, validations: [] }), 'E301', /at least one entry/);
    assertError(await h.post('transfer/validate', { sessionId }), 'E301', /validations/);
    const init = await h.init(sessionId, 'AUR-0001');
    assert.equal((await h.post('transfer/validate', { sessionId, validations: h.answers(init.body.validations) })).body.status, '200');
    assertError(await h.post('transfer/validate', { sessionId, validations: h.answers(init.body.validations) }), 'E301', /already completed/);
  });

  test('a new transfer/init replaces a pending transfer', async () => {
    const { post, sessionId, init, answers } = await started('aurora');
    const again = await post('transfer/init', { sessionId, accountIdOrigin: 'AUR-0001', ...TRANSFER });
    assert.notEqual(again.body.transactionId, init.transactionId);
    const done = await post('transfer/validate', { sessionId, validations: answers(again.body.validations) });
    assert.equal(done.body.status, '200');
    assert.equal(done.body.transactionId, again.body.transactionId);
  });
});

describe('native: the 90-second deadline', () => {
  async function started(bankId: string) {
    const h = setup();
    const { sessionId } = await h.open(bankId);
    const accounts = await h.post('accounts/list', { sessionId });
    const init = await h.init(sessionId, accounts.body.listAccounts[0].accountId);
    return { ...h, sessionId, accountId: accounts.body.listAccounts[0].accountId as string, validations: init.body.validations as Body[] };
  }

  test('exactly 90 s after init still validates', async () => {
    const { post, advance, sessionId, validations, answers } = await started('aurora');
    advance(NATIVE_VALIDATION_DEADLINE_MS);
    assert.equal((await post('transfer/validate', { sessionId, validations: answers(validations) })).body.status, '200');
  });

  test('after 90 s: E300, the transaction stays cancelled, a new init works', async () => {
    const { post, advance, init, sessionId, accountId, validations, answers } = await started('aurora');
    advance(NATIVE_VALIDATION_DEADLINE_MS + 1);
    const late = await post('transfer/validate', { sessionId, validations: answers(validations) });
    assertError(late, 'E300', /cancelled: .*within 90 seconds of transfer\/init/);
    assert.equal(late.http, 422, 'an answer about the request, not a fault of the service');
    assertError(await post('transfer/validate', { sessionId, validations: answers(validations) }), 'E300', /cancelled/);
    const fresh = await init(sessionId, accountId);
    assert.equal(fresh.body.status, '228');
    assert.equal((await post('transfer/validate', { sessionId, validations: answers(fresh.body.validations) })).body.status, '200');
  });

  test('the deadline counts from init across rounds', async () => {
    const { post, advance, sessionId, validations, answers } = await started('cantabrico');
    advance(60_000);
    const round2 = await post('transfer/validate', { sessionId, validations: answers(validations) });
    assert.equal(round2.body.status, '228');
    advance(31_000);
    assertError(await post('transfer/validate', { sessionId, validations: answers(round2.body.validations) }), 'E300');
  });

  test('type 6 left PENDING past the deadline is cancelled', async () => {
    const { post, advance, sessionId, validations } = await started('meridiano');
    const as = (value: string) => validations.map((v) => ({ ...v, valueFromUser: value }));
    advance(45_000);
    assert.equal((await post('transfer/validate', { sessionId, validations: as(NATIVE_MAGIC.indirectPending) })).body.status, '228');
    advance(46_000);
    assertError(await post('transfer/validate', { sessionId, validations: as(NATIVE_MAGIC.indirectSigned) }), 'E300');
  });
});

describe('native: sessions', () => {
  test(`a session ends after ${NATIVE_SESSION_IDLE_MS / 60_000} minutes without a call; calls keep it alive`, async () => {
    const h = setup();
    const { sessionId } = await h.open('aurora');
    for (let i = 0; i < 3; i++) {
      h.advance(NATIVE_SESSION_IDLE_MS - 1000);
      assert.equal((await h.post('accounts/list', { sessionId })).body.status, '200', `call ${i}`);
    }
    h.advance(NATIVE_SESSION_IDLE_MS + 1);
    assertError(await h.post('accounts/list', { sessionId }), 'E301', /expired after 15 minutes of inactivity/);
    assertError(await h.post('accounts/list', { sessionId }), 'E301', /unknown session/);
  });

  test('a login waiting for its second login expires too', async () => {
    const h = setup();
    const login = await h.post('login', testCredentials('levante'));
    h.advance(NATIVE_SESSION_IDLE_MS + 1);
    const r = await h.post('secondlogin', { sessionId: login.body.sessionId, secondLoginType: '1', valueFromUser: login.body.secondLoginField.testValue });
    assertError(r, 'E301', /expired/, 'descripción');
  });

  test('each login opens its own session; each simulator instance has its own sessions', async () => {
    const a = setup();
    const b = setup();
    const s1 = await a.open('aurora');
    const s2 = await a.open('aurora');
    assert.notEqual(s1.sessionId, s2.sessionId);
    assert.equal((await a.post('accounts/list', { sessionId: s1.sessionId })).body.status, '200');
    assertError(await b.post('accounts/list', { sessionId: s1.sessionId }), 'E301', /unknown session/);
    // A transfer in one session is invisible to the other.
    const init = await a.init(s1.sessionId, 'AUR-0001');
    assertError(
      await a.post('transfer/validate', { sessionId: s2.sessionId, validations: a.answers(init.body.validations) }),
      'E301',
      /no transfer in progress/,
    );
  });
});
