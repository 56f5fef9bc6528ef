/**
 * The native service as a client that knows only what docs/provider.md says of the native service sees it: every
 * request built from `banks/list` and earlier answers, every answer checked field by field
 * against the names, types and codes the spec writes.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nativeSandbox, type Body, type Reply } from './native-client.js';

const TRANSFER = { amount: 1999, subject: 'Pedido 1001', holderDestiny: 'Tienda Demo', accountDestiny: 'DE89370400440532013000' };
const DESC = 'descripción';

const setup = () => nativeSandbox();

const keys = (o: Body) => Object.keys(o).sort();
const sorted = (...k: string[]) => [...k].sort();

const FIELD_BANK_KEYS = ['fieldId', 'min', 'max', 'valueType', 'specificType', 'password', 'label', 'testValue'];

function assertFieldBank(f: Body, where: string) {
  assert.deepEqual(keys(f), sorted(...FIELD_BANK_KEYS), where);
  assert.equal(typeof f.fieldId, 'string', where);
  assert.equal(typeof f.min, 'number', where);
  assert.equal(typeof f.max, 'number', where);
  assert.ok(['alfanumeric', 'numeric'].includes(f.valueType), where);
  assert.ok(f.specificType === null || typeof f.specificType === 'string', where);
  assert.equal(typeof f.password, 'boolean', where);
  assert.equal(typeof f.label, 'string', where);
  assert.equal(typeof f.testValue, 'string', where);
}

function assertValidationBank(v: Body, where: string) {
  assert.deepEqual(keys(v), sorted(...FIELD_BANK_KEYS, 'type', 'value', 'valueFromUser'), where);
  const { type, value, valueFromUser, ...field } = v;
  assertFieldBank(field, where);
  assert.ok(['0', '1', '2', '3', '4', '5', '6'].includes(type), `${where}: type ${JSON.stringify(type)} is a String 0..6`);
  assert.ok(value === null || typeof value === 'string', where);
  assert.equal(valueFromUser, null, where);
}

function assertError(r: Reply, code: string, descriptionField = 'description') {
  assert.equal(r.body.status, code, JSON.stringify(r.body));
  assert.deepEqual(keys(r.body), sorted('status', descriptionField), JSON.stringify(r.body));
  assert.equal(typeof r.body[descriptionField], 'string');
}

/** The login call a client builds from a login type's fields: each fieldId names a request field. */
function loginFrom(bankId: string, login: Body, value: (f: Body) => string = (f) => f.testValue): Body {
  return { bankId, ...Object.fromEntries(login.fields.map((f: Body) => [f.fieldId, value(f)])) };
}

describe('native conformance: a walk driven only by banks/list', () => {
  test('every active bank: default login with test values, second login, contracts, accounts, init, every round; exact shapes', async () => {
    const h = setup();
    const list = await h.post('banks/list');
    assert.equal(list.http, 200);
    assert.deepEqual(keys(list.body), sorted('listBanks', 'status', 'description'));
    assert.equal(list.body.status, '200');
    const banks: Body[] = list.body.listBanks.flatMap((g: Body) => {
      assert.deepEqual(keys(g), sorted('group', 'name', 'defaultType', 'types'));
      return g.types;
    });
    assert.ok(list.body.listBanks.length >= 4 && banks.length >= 8, 'at least 8 banks in 4 groups');

    const seen = { codes: new Set<string>(), types: new Set<string>(), second: new Set<number>() };
    for (const bank of banks) {
      assert.deepEqual(keys(bank), sorted('bankId', 'type', 'label', 'active', 'defaultLogin', 'logins'));
      assert.ok(bank.type === 0 || bank.type === 1);
      for (const l of bank.logins) {
        assert.deepEqual(keys(l), sorted('loginId', 'label', 'active', 'fields'));
        for (const f of l.fields) assertFieldBank(f, `${bank.bankId}/${l.loginId}/${f.fieldId}`);
      }
      if (!bank.active) continue;
      const defaultLogin = bank.logins.find((l: Body) => l.loginId === bank.defaultLogin);
      const login = await h.post('login', loginFrom(bank.bankId, defaultLogin));
      seen.codes.add(login.body.status);
      let opened = login;
      if (login.body.status === '229') {
        assert.deepEqual(keys(login.body), sorted('sessionId', 'secondLoginType', 'secondLoginValue', 'secondLoginField', 'status', DESC));
        assert.ok(Number.isInteger(login.body.secondLoginType));
        assert.equal(typeof login.body.secondLoginValue, 'string');
        assertFieldBank(login.body.secondLoginField, `${bank.bankId} secondLoginField`);
        seen.second.add(login.body.secondLoginType);
        opened = await h.post('secondlogin', {
          sessionId: login.body.sessionId,
          secondLoginType: String(login.body.secondLoginType),
          valueFromUser: login.body.secondLoginField.testValue,
        });
      }
      assert.equal(opened.body.status, '200', `${bank.bankId}: ${JSON.stringify(opened.body)}`);
      const multi = Array.isArray(opened.body.listContracts);
      assert.deepEqual(keys(opened.body), sorted('sessionId', 'status', DESC, ...(multi ? ['listContracts'] : [])));
      const sessionId: string = opened.body.sessionId;
      const contracts: Body[] = multi ? opened.body.listContracts : [{}];
      for (const k of contracts) if (multi) assert.deepEqual(keys(k), sorted('contractId', 'contractInfo'));

      const accounts = await h.post('accounts/list', { sessionId, ...(multi ? { contractId: contracts[0]!.contractId } : {}) });
      assert.equal(accounts.body.status, '200');
      assert.deepEqual(keys(accounts.body), sorted('sessionId', 'listAccounts', 'status', 'description'));
      for (const a of accounts.body.listAccounts) {
        assert.deepEqual(keys(a), sorted('accountId', 'accountInfo', 'amount'));
        assert.ok(a.amount === null || typeof a.amount === 'number');
      }

      let reply = await h.post('transfer/init', { sessionId, accountIdOrigin: accounts.body.listAccounts[0].accountId, ...TRANSFER });
      assert.equal(reply.body.status, '228', `${bank.bankId}: ${JSON.stringify(reply.body)}`);
      while (reply.body.status === '228') {
        seen.codes.add('228');
        assert.deepEqual(keys(reply.body), sorted('sessionId', 'transactionId', 'validations', 'status', 'description'));
        assert.ok(reply.body.validations.length >= 1);
        for (const v of reply.body.validations) {
          assertValidationBank(v, `${bank.bankId}/${v.fieldId}`);
          seen.types.add(v.type);
        }
        reply = await h.post('transfer/validate', {
          sessionId,
          validations: reply.body.validations.map((v: Body) => ({ ...v, valueFromUser: v.testValue })),
        });
      }
      assert.equal(reply.body.status, '200', `${bank.bankId}: ${JSON.stringify(reply.body)}`);
      assert.deepEqual(keys(reply.body), sorted('sessionId', 'transactionId', 'validations', 'status', 'description'));
    }
    assert.deepEqual([...seen.types].sort(), ['0', '1', '2', '3', '4', '5', '6']);
    assert.deepEqual([...seen.second].sort(), [1, 2, 3]);
    assert.ok(seen.codes.has('200') && seen.codes.has('229') && seen.codes.has('228'));
  });

  test('0000 as every validation value fails the transfer with an error code at every active bank', async () => {
    const h = setup();
    const banks: Body[] = (await h.post('banks/list')).body.listBanks.flatMap((g: Body) => g.types).filter((b: Body) => b.active);
    for (const bank of banks) {
      const lt = bank.logins.find((l: Body) => l.loginId === bank.defaultLogin);
      let open = await h.post('login', loginFrom(bank.bankId, lt));
      if (open.body.status === '229') {
        open = await h.post('secondlogin', {
          sessionId: open.body.sessionId,
          secondLoginType: open.body.secondLoginType,
          valueFromUser: open.body.secondLoginField.testValue,
        });
      }
      const { sessionId, listContracts } = open.body;
      const accounts = await h.post('accounts/list', { sessionId, ...(listContracts ? { contractId: listContracts[0].contractId } : {}) });
      const init = await h.post('transfer/init', { sessionId, accountIdOrigin: accounts.body.listAccounts[0].accountId, ...TRANSFER });
      const r = await h.post('transfer/validate', { sessionId, validations: init.body.validations.map((v: Body) => ({ ...v, valueFromUser: '0000' })) });
      assert.match(r.body.status, /^B10[23]$/, `${bank.bankId}: ${JSON.stringify(r.body)}`);
      assertError(r, r.body.status);
    }
  });

  test('errors of login and secondlogin carry status and descripción only; the others status and description', async () => {
    const h = setup();
    assertError(await h.post('login', {}), 'E301', DESC);
    assertError(await h.post('login', { bankId: 'norte', userId: 'u', userSecret: 's' }), 'B105', DESC);
    assertError(await h.post('secondlogin', { sessionId: 'none', secondLoginType: '1', valueFromUser: '1234' }), 'E301', DESC);
    assertError(await h.post('login', { bankId: 'aurora', userId: 'u', userSecret: 's' }, { auth: false }), 'E300', DESC);
    assertError(await h.post('accounts/list', { sessionId: 'none' }), 'E301');
    assertError(await h.post('transfer/init', {}), 'E301');
    assertError(await h.post('transfer/validate', {}), 'E301');
    assertError(await h.post('banks/list', undefined, { auth: false }), 'E300');
  });
});

describe('native conformance: request fields', () => {
  test('optional fields given as null count as not given', async () => {
    const h = setup();
    const login = await h.post('login', { bankId: 'aurora', userId: '12345678Z', userSecret: '135790', userExtraField: null });
    assert.equal(login.body.status, '200', JSON.stringify(login.body));
    const { sessionId } = login.body;
    const accounts = await h.post('accounts/list', { sessionId, contractId: null });
    assert.equal(accounts.body.status, '200', JSON.stringify(accounts.body));
    const init = await h.post('transfer/init', { sessionId, accountIdOrigin: 'AUR-0001', holderOrigin: null, ...TRANSFER });
    assert.equal(init.body.status, '228', JSON.stringify(init.body));
    // A null optional field that a login type needs is still missing.
    const empresas = await h.post('login', { bankId: 'aurora-empresas', userId: 'B12345674', userSecret: 'Empresa2024', userExtraField: null });
    assertError(empresas, 'E301', DESC);
    assert.match(empresas.body[DESC], /userExtraField .*is required/);
  });

  test('validation entries sent back with descriptor fields set to null are accepted', async () => {
    const h = setup();
    const { sessionId } = (await h.post('login', { bankId: 'aurora', userId: '12345678Z', userSecret: '135790' })).body;
    const init = await h.post('transfer/init', { sessionId, accountIdOrigin: 'AUR-0001', ...TRANSFER });
    const entries = init.body.validations.map((v: Body) => ({
      ...Object.fromEntries(Object.keys(v).map((k) => [k, null])),
      fieldId: v.fieldId,
      type: v.type,
      valueFromUser: v.testValue,
    }));
    const r = await h.post('transfer/validate', { sessionId, validations: entries });
    assert.equal(r.body.status, '200', JSON.stringify(r.body));
  });

  test('a required field of the wrong type is named as such, not as missing', async () => {
    const h = setup();
    const r = await h.post('accounts/list', { sessionId: 5 });
    assertError(r, 'E301');
    assert.match(r.body.description, /sessionId must be a string/);
    const login = await h.post('login', { bankId: 'aurora', userId: 12345678, userSecret: '135790' });
    assertError(login, 'E301', DESC);
    assert.match(login.body[DESC], /userId must be a string/);
    assert.match((await h.post('accounts/list', {})).body.description, /sessionId is required/);
    assert.match((await h.post('accounts/list', { sessionId: null })).body.description, /sessionId is required/);
  });
});
