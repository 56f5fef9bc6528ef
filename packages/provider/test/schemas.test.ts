import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import {
  LIMITS,
  PERIODIC_SUBJECT,
  amountCents,
  isIsoDate,
  isLocalUrl,
  isValidIban,
  links,
  native,
  normalizeIban,
  todayIn,
  wholeNumber,
} from '@bank-checkout/provider';

const IBAN = 'ES9121000418450200051332';
const IBAN_BAD_CHECKSUM = 'ES9121000418450200051333';

/** `value` for a failure's message: its JSON, or `undefined`, which JSON has no text for. */
const shown = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value).slice(0, 200));

/** Asserts the schema accepts `value`; returns the parsed output. */
function ok<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  assert.ok(r.success, `expected success for ${shown(value)}: ${r.success ? '' : JSON.stringify(r.error.issues)}`);
  return r.data;
}

/** Asserts the schema rejects `value` with an issue at `path` (and a message matching). */
function fails(schema: z.ZodType, value: unknown, path: string, message?: RegExp) {
  const r = schema.safeParse(value);
  assert.ok(!r.success, `expected failure at ${path} for ${shown(value)}`);
  const issue = r.error.issues.find((i) => i.path.join('.') === path);
  assert.ok(issue, `no issue at '${path}': ${JSON.stringify(r.error.issues)}`);
  if (message) assert.match(issue.message, message);
}

const x = (n: number) => 'x'.repeat(n);

describe('primitives', () => {
  test('IBAN: ISO 13616 mod-97 checksum, spaces and case normalised', () => {
    for (const good of [IBAN, 'GB82WEST12345698765432', 'DE89370400440532013000', 'es91 2100 0418 4502 0005 1332']) {
      assert.equal(isValidIban(good), true, good);
    }
    for (const bad of [IBAN_BAD_CHECKSUM, 'ES91', 'XX0012345678901', 'ES9121000418450200051332!', '', 'ES91 2100 0418 4502 0005 1332 9999 9999 9999 9']) {
      assert.equal(isValidIban(bad), false, bad);
    }
    assert.equal(normalizeIban(' es91 2100 0418 4502 0005 1332 '), IBAN);
  });

  test('amountCents: a positive integer of cents', () => {
    assert.equal(ok(amountCents, 1), 1);
    assert.equal(ok(amountCents, 125_000), 125_000);
    for (const bad of [0, -1, 12.5, '1250', null, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      assert.equal(amountCents.safeParse(bad).success, false, String(bad));
    }
  });

  test('isIsoDate: YYYY-MM-DD of a date that exists', () => {
    for (const good of ['2026-01-31', '2028-02-29', '2026-12-31']) assert.equal(isIsoDate(good), true, good);
    for (const bad of ['2026-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-1-05', '26-01-05', '2026-01-05T00:00', '2026/01/05', '']) {
      assert.equal(isIsoDate(bad), false, bad);
    }
  });

  test('todayIn: the calendar day in Europe/Madrid, across the day boundary and daylight saving', () => {
    assert.equal(todayIn('Europe/Madrid', Date.UTC(2026, 0, 1, 22, 59)), '2026-01-01');
    assert.equal(todayIn('Europe/Madrid', Date.UTC(2026, 0, 1, 23, 30)), '2026-01-02', 'CET: 23:30 UTC is 00:30 in Madrid');
    assert.equal(todayIn('Europe/Madrid', Date.UTC(2026, 6, 1, 21, 30)), '2026-07-01');
    assert.equal(todayIn('Europe/Madrid', Date.UTC(2026, 6, 1, 22, 30)), '2026-07-02', 'CEST: 22:30 UTC is 00:30 in Madrid');
    assert.equal(todayIn('UTC', Date.UTC(2026, 0, 1, 23, 30)), '2026-01-01');
  });

  test('isLocalUrl: loopback, private and link-local addresses', () => {
    for (const local of [
      'http://localhost/x',
      'http://127.0.0.1:4020/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://169.254.169.254/',
      'http://[::1]/',
      'http://app.localhost/',
      'http://printer.local/',
      'http://0.0.0.0/',
      // Other spellings of the same addresses: IPv4 inside IPv6, a trailing dot, numeric and hex hosts, long IPv6.
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:10.0.0.5]:8080/',
      'http://localhost./',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[0:0:0:0:0:0:0:1]/',
      'http://[fe90::1]/',
      'http://[fd12::1]/',
    ]) {
      assert.equal(isLocalUrl(local), true, local);
    }
    for (const remote of [
      'https://shop.example/notify',
      'http://172.32.0.1/',
      'http://8.8.8.8/',
      'http://[::ffff:8.8.8.8]/',
      'http://[2001:db8::1]/',
      'http://fdroid.example/',
      'not a url',
    ]) {
      assert.equal(isLocalUrl(remote), false, remote);
    }
  });

  test('wholeNumber: a number or a string of digits', () => {
    const n = wholeNumber('pageRequest');
    assert.equal(ok(n, '12'), 12);
    assert.equal(ok(n, 12), 12);
    for (const bad of ['1.5', '-1', 'abc', '', -1, 1.5, '12345678901234567']) {
      const r = n.safeParse(bad);
      assert.equal(r.success, false, String(bad));
    }
    fails(n, 'abc', '', /pageRequest must be a whole number/);
  });
});

describe('payment links: url/signer', () => {
  const valid = { subject: 'Pedido 1001', amount: 1250, reference: 'ORDER-1001' };

  test('the limits of the spec', () => {
    assert.deepEqual(LIMITS, {
      subject: 160,
      reference: 100,
      customRecipient: 200,
      customData: 4000,
      expireMinutesDefault: 30,
      expireMinutesMax: 259200,
      legacyCommerceValidityMinutes: 10,
      legacyBusinessExpireMinutesDefault: 259200,
      pageSizeDefault: 50,
      pageSizeMax: 300,
      firstPage: 1,
    });
  });

  test('minimal body; every optional field at its limit', () => {
    ok(links.signerRequest, valid);
    const full = ok(links.signerRequest, {
      ...valid,
      subject: x(160),
      reference: x(100),
      customRecipient: x(200),
      customData: x(4000),
      expireMinutes: 259200,
      urlOk: 'https://shop.example/ok',
      urlError: 'https://shop.example/error',
      urlNotif: 'https://shop.example/notify',
      partnerId: 'partner-1',
      holderDestiny: 'Tienda Demo SL',
      accountDestiny: 'es91 2100 0418 4502 0005 1332',
    });
    assert.equal(full.accountDestiny, IBAN, 'IBAN normalised');
  });

  test('one past every limit fails at that field', () => {
    fails(links.signerRequest, { ...valid, subject: x(161) }, 'subject', /160/);
    fails(links.signerRequest, { ...valid, reference: x(101) }, 'reference', /100/);
    fails(links.signerRequest, { ...valid, customRecipient: x(201) }, 'customRecipient', /200/);
    fails(links.signerRequest, { ...valid, customData: x(4001) }, 'customData', /4000/);
    fails(links.signerRequest, { ...valid, expireMinutes: 259201 }, 'expireMinutes', /259200/);
  });

  test('expireMinutes from 1 to 259200, whole numbers only', () => {
    assert.equal(ok(links.signerRequest, { ...valid, expireMinutes: 1 }).expireMinutes, 1);
    assert.equal(ok(links.signerRequest, { ...valid, expireMinutes: 259200 }).expireMinutes, 259200);
    for (const bad of [0, -5, 1.5, '30', null]) fails(links.signerRequest, { ...valid, expireMinutes: bad }, 'expireMinutes');
  });

  test('required fields, amount in positive whole cents, IBAN checksum, http(s) URLs', () => {
    for (const field of ['subject', 'amount', 'reference'] as const) {
      const { [field]: _omit, ...rest } = valid;
      fails(links.signerRequest, rest, field);
    }
    fails(links.signerRequest, { ...valid, subject: '' }, 'subject', /required/);
    fails(links.signerRequest, { ...valid, reference: '' }, 'reference', /required/);
    for (const amount of [0, -100, 12.5, '1250']) fails(links.signerRequest, { ...valid, amount }, 'amount');
    fails(links.signerRequest, { ...valid, accountDestiny: IBAN_BAD_CHECKSUM }, 'accountDestiny', /IBAN/);
    fails(links.signerRequest, { ...valid, urlNotif: 'ftp://shop.example/notify' }, 'urlNotif', /http/);
    fails(links.signerRequest, { ...valid, urlOk: '/relative' }, 'urlOk');
  });
});

describe('payment links: earlier signer variants', () => {
  const commerce = { subject: 'Pedido', amount: 500, reference: 'R-1' };
  const business = { ...commerce, customRecipient: 'Tienda;Calle Mayor 1', holderDestiny: 'Tienda Demo SL', accountDestiny: IBAN };

  test('variant 1 (commerce): subject, amount, reference; no destination or expiry fields kept', () => {
    const parsed = ok(links.legacyCommerceSignerRequest, { ...commerce, urlNotif: 'https://shop.example/n', expireMinutes: 60, accountDestiny: IBAN });
    assert.equal(parsed.urlNotif, 'https://shop.example/n');
    assert.equal('expireMinutes' in parsed, false);
    assert.equal('accountDestiny' in parsed, false);
    fails(links.legacyCommerceSignerRequest, { ...commerce, subject: x(161) }, 'subject');
    fails(links.legacyCommerceSignerRequest, { amount: 500, reference: 'R-1' }, 'subject');
  });

  test('variant 2 (business) requires customRecipient, holderDestiny and accountDestiny', () => {
    ok(links.legacyBusinessSignerRequest, business);
    for (const field of ['customRecipient', 'holderDestiny', 'accountDestiny'] as const) {
      const { [field]: _omit, ...rest } = business;
      fails(links.legacyBusinessSignerRequest, rest, field);
      fails(links.legacyBusinessSignerRequest, { ...business, [field]: '' }, field);
    }
    fails(links.legacyBusinessSignerRequest, { ...business, accountDestiny: IBAN_BAD_CHECKSUM }, 'accountDestiny', /IBAN/);
    fails(links.legacyBusinessSignerRequest, { ...business, customRecipient: x(201) }, 'customRecipient', /200/);
    assert.equal(ok(links.legacyBusinessSignerRequest, { ...business, expireMinutes: 259200 }).expireMinutes, 259200);
    fails(links.legacyBusinessSignerRequest, { ...business, expireMinutes: 259201 }, 'expireMinutes');
    ok(links.legacyBusinessSignerRequest, { ...business, customData: x(4000) });
    fails(links.legacyBusinessSignerRequest, { ...business, customData: x(4001) }, 'customData');
  });
});

describe('payment links: periodic signer', () => {
  // 2026-01-01 12:00 in Madrid.
  const noon = Date.UTC(2026, 0, 1, 11, 0);
  const valid = {
    subject: 'Cuota mensual-2026',
    amount: 2500,
    reference: 'SUB-1',
    frequency: 'Monthly',
    debtorAccount: 'GB82WEST12345698765432',
    startDate: '2026-01-02',
  };
  const at = (now: number, timeZone?: string) => links.createPeriodicSignerRequest({ now: () => now, ...(timeZone ? { timeZone } : {}) });

  test('a valid body; endDate optional and may equal startDate', () => {
    const schema = at(noon);
    ok(schema, valid);
    ok(schema, { ...valid, endDate: '2026-01-02' });
    ok(schema, {
      ...valid,
      endDate: '2027-01-02',
      bankIdSelected: 'bank-1',
      holderDestiny: 'Tienda',
      accountDestiny: IBAN,
      expireMinutes: 259200,
      customData: x(4000),
    });
  });

  test('subject: only letters, digits, spaces and hyphens; 160 characters', () => {
    const schema = at(noon);
    for (const good of ['Cuota 1', 'Suscripción Año-2026 ñandú', x(160)]) ok(schema, { ...valid, subject: good });
    for (const bad of ['Cuota: enero', 'Cuota_1', 'Cuota.1', 'Cuota/1', '€10']) {
      fails(schema, { ...valid, subject: bad }, 'subject', /letters, digits, spaces and hyphens/);
    }
    fails(schema, { ...valid, subject: 'a\nb' }, 'subject', /control characters/);
    fails(schema, { ...valid, subject: x(161) }, 'subject', /160/);
    assert.equal(PERIODIC_SUBJECT.test('Plan-B 2'), true);
  });

  test('dates are YYYY-MM-DD that exist', () => {
    const schema = at(noon);
    for (const bad of ['2026-02-30', '2026-2-03', '03/02/2026', '2026-02-03T00:00:00Z']) {
      fails(schema, { ...valid, startDate: bad }, 'startDate', /YYYY-MM-DD/);
      fails(schema, { ...valid, endDate: bad }, 'endDate', /YYYY-MM-DD/);
    }
    ok(schema, { ...valid, startDate: '2028-02-29' });
  });

  test('startDate after today in Europe/Madrid: 23:30 UTC is already the next day there', () => {
    fails(at(noon), { ...valid, startDate: '2026-01-01' }, 'startDate', /after the current date/);
    fails(at(noon), { ...valid, startDate: '2025-12-31' }, 'startDate', /after the current date/);
    ok(at(Date.UTC(2026, 0, 1, 22, 30)), { ...valid, startDate: '2026-01-02' });
    fails(at(Date.UTC(2026, 0, 1, 23, 30)), { ...valid, startDate: '2026-01-02' }, 'startDate', /after the current date/);
    ok(at(Date.UTC(2026, 0, 1, 23, 30)), { ...valid, startDate: '2026-01-03' });
    // The same instant judged in UTC is still January 1st.
    ok(at(Date.UTC(2026, 0, 1, 23, 30), 'UTC'), { ...valid, startDate: '2026-01-02' });
  });

  test('endDate not before startDate', () => {
    fails(at(noon), { ...valid, startDate: '2026-03-10', endDate: '2026-03-09' }, 'endDate', /not be before startDate/);
  });

  test('frequency, debtorAccount and the usual limits', () => {
    const schema = at(noon);
    fails(schema, { ...valid, frequency: '' }, 'frequency');
    fails(schema, { ...valid, debtorAccount: IBAN_BAD_CHECKSUM }, 'debtorAccount', /IBAN/);
    fails(schema, { ...valid, reference: x(101) }, 'reference');
    fails(schema, { ...valid, amount: 0 }, 'amount');
    fails(schema, { ...valid, expireMinutes: 0 }, 'expireMinutes');
    fails(schema, { ...valid, customData: x(4001) }, 'customData');
  });
});

describe('payment links: cancel, orders, banks, enable/disable, notifications', () => {
  test('cancel-periodic: transactionId and reference required, same limits', () => {
    const valid = { transactionId: 'TX-1', reference: 'CANCEL-1' };
    ok(links.cancelPeriodicRequest, { ...valid, expireMinutes: 259200, customData: x(4000), urlNotif: 'https://shop.example/n' });
    fails(links.cancelPeriodicRequest, { reference: 'CANCEL-1' }, 'transactionId');
    fails(links.cancelPeriodicRequest, { ...valid, reference: x(101) }, 'reference');
    fails(links.cancelPeriodicRequest, { ...valid, expireMinutes: 259201 }, 'expireMinutes');
    fails(links.cancelPeriodicRequest, { ...valid, customData: x(4001) }, 'customData');
  });

  test('payment-orders query: pageRequest from 1, pageSize 1 to 300 (default left to the provider), strings or numbers', () => {
    const q = links.paymentOrdersQuery;
    const parsed = ok(q, { dateFrom: '1767225600000', pageRequest: '1' });
    assert.deepEqual(parsed, { dateFrom: 1767225600000, pageRequest: 1 });
    assert.equal('pageSize' in parsed, false);
    assert.equal(LIMITS.pageSizeDefault, 50);
    assert.equal(ok(q, { dateFrom: 0, pageRequest: 2, pageSize: 300 }).pageSize, 300);
    assert.equal(ok(q, { dateFrom: 0, pageRequest: 2, pageSize: '1' }).pageSize, 1);
    fails(q, { dateFrom: 0, pageRequest: 1, pageSize: 301 }, 'pageSize', /300/);
    fails(q, { dateFrom: 0, pageRequest: 1, pageSize: '0' }, 'pageSize', /at least 1/);
    fails(q, { dateFrom: 0, pageRequest: 0 }, 'pageRequest', /first page is 1/);
    fails(q, { dateFrom: 0, pageRequest: '-1' }, 'pageRequest');
    fails(q, { pageRequest: 1 }, 'dateFrom');
    fails(q, { dateFrom: 'yesterday', pageRequest: 1 }, 'dateFrom');
    assert.equal(ok(q, { dateFrom: 0, dateTo: 1767225600000, pageRequest: 1, orderAsc: false }).orderAsc, false);
    fails(q, { dateFrom: 0, pageRequest: 1, orderAsc: 'true' }, 'orderAsc');
  });

  test('debts query (earlier variant): no maximum page size', () => {
    assert.equal(ok(links.debtsQuery, { dateFrom: 0, pageRequest: 1, pageSize: 1000 }).pageSize, 1000);
    fails(links.debtsQuery, { dateFrom: 0, pageRequest: 1, pageSize: 0 }, 'pageSize');
    fails(links.debtsQuery, { dateFrom: 0, pageRequest: 0 }, 'pageRequest');
  });

  test('banks filters', () => {
    assert.deepEqual(ok(links.banksQuery, { enabled: '1', country: 'ES' }), { enabled: '1', country: 'ES' });
    ok(links.banksQuery, { enabledPeriodicPayment: '1', country: 'es' });
    fails(links.banksQuery, { enabled: '2' }, 'enabled');
    fails(links.banksQuery, { enabled: 1 }, 'enabled');
    fails(links.banksQuery, { country: 'ESP' }, 'country');
  });

  test('enable/disable, current and earlier', () => {
    ok(links.enableDisableRequest, { idDebt: 'D1', enable: false });
    fails(links.enableDisableRequest, { idDebt: 'D1', enable: 'false' }, 'enable');
    fails(links.enableDisableRequest, { enable: true }, 'idDebt');
    ok(links.legacyEnableDisableRequest, { idProvider: 'U1', enable: true });
    fails(links.legacyEnableDisableRequest, { idDebt: 'U1', enable: true }, 'idProvider');
  });

  test('response resources: bank, payment order, debt, dataReturn', () => {
    ok(links.banksResponse, {
      status: '200',
      description: 'OK',
      total: 1,
      data: [
        {
          bankId: 'b1',
          name: 'Banco',
          bankCodes: ['0049'],
          country: 'ES',
          enabled: 1,
          enabledPeriodicPayment: 0,
          frequencyPeriodicPayment: ['Monthly'],
          bankGroupId: 3,
          bankGroupName: 'Grupo',
        },
      ],
    });
    fails(links.linkBank, { bankId: 'b1', name: 'Banco', enabled: 2 }, 'enabled');
    const order = { idDebt: 'D1', enabled: true, amount: 100, subject: 's', codStatus: 'PENDING', createAt: 1 };
    ok(links.paymentOrder, order);
    fails(links.paymentOrder, { ...order, codStatus: 'DONE' }, 'codStatus');
    ok(links.debt, {
      debtLongId: 'D1',
      createAt: 1,
      enabled: true,
      amount: 100,
      subject: 's',
      listUrlShort: [{ urlShortName: 'abc', clicks: 2, createAt: 1 }],
      listTransactions: [{ transactionLongId: 'T1', typeTransaction: 1, amount: 100, codStatus: '200', createAt: 1 }],
    });
    const data = { status: '200', description: 'OK', transactionId: 'T1', amount: 1250, reference: 'R', dateInitPayment: 1767225600000 };
    ok(links.dataReturn, data);
    ok(links.dataReturn, { ...data, accountDestiny: IBAN, customData: '{"order":1}' });
    fails(links.dataReturn, { ...data, amount: 12.5 }, 'amount');
    fails(links.dataReturn, { ...data, transactionId: '' }, 'transactionId');
  });
});

describe('native: requests', () => {
  test('login: bankId, userId and userSecret required; userExtraField optional', () => {
    const valid = { bankId: 'aurora', userId: '12345678Z', userSecret: '1234' };
    ok(native.loginRequest, valid);
    ok(native.loginRequest, { ...valid, userExtraField: 'B12345678' });
    for (const field of ['bankId', 'userId', 'userSecret'] as const) {
      const { [field]: _omit, ...rest } = valid;
      fails(native.loginRequest, rest, field, /required/);
      fails(native.loginRequest, { ...valid, [field]: '' }, field, /required/);
    }
    fails(native.loginRequest, { ...valid, userSecret: 1234 }, 'userSecret');
  });

  test('secondlogin: secondLoginType 1..3 as string or number, sent as a string', () => {
    const valid = { sessionId: 'S1', secondLoginType: '2', valueFromUser: '123' };
    assert.equal(ok(native.secondLoginRequest, valid).secondLoginType, '2');
    assert.equal(ok(native.secondLoginRequest, { ...valid, secondLoginType: 3 }).secondLoginType, '3');
    for (const bad of ['4', 0, '12', 'SMS']) fails(native.secondLoginRequest, { ...valid, secondLoginType: bad }, 'secondLoginType', /1, 2 or 3/);
    fails(native.secondLoginRequest, { ...valid, valueFromUser: '' }, 'valueFromUser');
    fails(native.secondLoginRequest, { secondLoginType: '1', valueFromUser: '1' }, 'sessionId');
  });

  test('accounts/list: contractId optional', () => {
    ok(native.accountsRequest, { sessionId: 'S1' });
    ok(native.accountsRequest, { sessionId: 'S1', contractId: 'C1' });
    fails(native.accountsRequest, {}, 'sessionId');
  });

  test('transfer/init: amount in positive whole cents; destination required', () => {
    const valid = { sessionId: 'S1', accountIdOrigin: 'A1', amount: 1999, subject: 'Pedido', holderDestiny: 'Tienda', accountDestiny: IBAN };
    ok(native.transferInitRequest, valid);
    ok(native.transferInitRequest, { ...valid, holderOrigin: 'Ana' });
    for (const amount of [0, 19.99, '1999']) fails(native.transferInitRequest, { ...valid, amount }, 'amount');
    for (const field of ['sessionId', 'accountIdOrigin', 'subject', 'holderDestiny', 'accountDestiny'] as const) {
      const { [field]: _omit, ...rest } = valid;
      fails(native.transferInitRequest, rest, field);
    }
  });

  test('transfer/validate: at least one answer, each with fieldId, type and valueFromUser', () => {
    const answer = { fieldId: 'sms', type: '1', valueFromUser: '123456' };
    const parsed = ok(native.transferValidateRequest, { sessionId: 'S1', validations: [answer] });
    assert.equal(parsed.validations[0]!.type, 1);
    fails(native.transferValidateRequest, { sessionId: 'S1', validations: [] }, 'validations', /at least one/);
    fails(native.transferValidateRequest, { sessionId: 'S1', validations: [{ ...answer, valueFromUser: '' }] }, 'validations.0.valueFromUser');
    fails(native.transferValidateRequest, { sessionId: 'S1', validations: [{ ...answer, type: '7' }] }, 'validations.0.type');
  });
});

describe('native: responses and resources', () => {
  test('login and second-login: `descripción` is exposed as description', () => {
    const login = ok(native.loginResponse, { status: '200', descripción: 'Login correcto', sessionId: 'S1' });
    assert.equal(login.description, 'Login correcto');
    assert.equal('descripción' in login, false);
    const second = ok(native.secondLoginResponse, {
      status: '200',
      descripción: 'Segundo login correcto',
      sessionId: 'S1',
      listContracts: [{ contractId: 'C1', contractInfo: 'Cuenta' }],
    });
    assert.equal(second.description, 'Segundo login correcto');
    assert.equal(second.listContracts?.[0]?.contractId, 'C1');
    assert.equal(ok(native.loginResponse, { status: '200', description: 'plain' }).description, 'plain');
    assert.equal(ok(native.loginResponse, { status: '200' }).description, null);
  });

  test('login 229: second-login type as string or number, with its field', () => {
    const r = ok(native.loginResponse, {
      status: '229',
      descripción: 'Segundo login',
      sessionId: 'S1',
      secondLoginType: '2',
      secondLoginValue: 'B3',
      secondLoginField: { fieldId: 'coord', min: 2, max: 2, valueType: 'numeric', password: true, label: 'Coordenada B3', testValue: '42' },
    });
    assert.equal(r.secondLoginType, 2);
    assert.equal(r.secondLoginField?.valueType, 'numeric');
    assert.equal(ok(native.loginResponse, { status: '229', secondLoginType: 3 }).secondLoginType, 3);
    fails(native.loginResponse, { status: '229', secondLoginType: 4 }, 'secondLoginType');
  });

  test('ValidationBank: type given as string or number, 0..6', () => {
    const base = { fieldId: 'v', label: 'Código', valueType: 'numeric' };
    assert.equal(ok(native.validationBank, { ...base, type: '5', value: 'data:image/png;base64,AA' }).type, 5);
    assert.equal(ok(native.validationBank, { ...base, type: 0 }).type, 0);
    for (const bad of ['7', 7, 'SMS', -1, '']) fails(native.validationBank, { ...base, type: bad }, 'type');
  });

  test('FieldBank: an unknown valueType falls back to alfanumeric; null optionals accepted', () => {
    const f = ok(native.fieldBank, { fieldId: 'f', label: 'L', valueType: 'hex', min: null, max: null, specificType: null, password: null, testValue: null });
    assert.equal(f.valueType, 'alfanumeric');
    fails(native.fieldBank, { fieldId: 'f', valueType: 'numeric' }, 'label');
  });

  test('banks/list, accounts and transfer responses', () => {
    const bank = {
      group: 'G1',
      name: 'Grupo',
      defaultType: 'b1',
      types: [
        {
          bankId: 'b1',
          type: 0,
          label: 'Banco',
          active: true,
          defaultLogin: 'l1',
          logins: [{ loginId: 'l1', label: 'DNI', active: true, fields: [{ fieldId: 'userId', label: 'DNI', valueType: 'alfanumeric', min: 9, max: 9 }] }],
        },
      ],
    };
    ok(native.banksListResponse, { status: '200', description: 'OK', listBanks: [bank] });
    fails(native.banksListResponse, { status: '200', listBanks: [{ ...bank, types: [{ ...bank.types[0], type: 2 }] }] }, 'listBanks.0.types.0.type');
    const accounts = ok(native.accountsResponse, {
      status: '200',
      sessionId: 'S1',
      listAccounts: [
        { accountId: 'A1', accountInfo: 'ES.. 1234', amount: null },
        { accountId: 'A2', accountInfo: 'x', amount: 10.5 },
      ],
    });
    assert.equal(accounts.listAccounts?.length, 2);
    const transfer = ok(native.transferResponse, {
      status: '228',
      transactionId: 'T1',
      validations: [{ fieldId: 'sms', label: 'SMS', valueType: 'numeric', type: '1' }],
    });
    assert.equal(transfer.validations?.[0]?.type, 1);
  });
});
