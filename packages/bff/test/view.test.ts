import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkField, checkFields, loginCredentials, receiptReference } from '../src/checkout/view.js';
import { finished, maskedAccount, type Internal } from '../src/checkout/internal.js';
import { costsAttempt, linkOutcome, stateAfterError, timePatch } from '../src/checkout/transitions.js';
import type { CheckoutRecord } from '../src/store/types.js';

const field = (fieldId: string, extra: Record<string, unknown> = {}) => ({ fieldId, label: fieldId, min: 4, max: 8, valueType: 'numeric' as const, ...extra });

describe('checkout state machine (pure)', () => {
  it('checks a value against its field', () => {
    assert.equal(checkField(field('a'), '1234'), null);
    assert.match(checkField(field('a'), '12a4')!, /digits/);
    assert.match(checkField(field('a'), '123')!, /at least 4/);
    assert.match(checkField(field('a'), '123456789')!, /at most 8/);
    assert.match(checkField(field('a'), '')!, /required/);
    assert.equal(checkField(field('a', { valueType: 'alfanumeric' }), 'ab12'), null);
  });

  it('reports unknown and missing fields', () => {
    const issues = checkFields([field('a'), field('b')], { a: '1234', c: 'x' }, 'fields');
    assert.deepEqual(issues.map((i) => i.path).sort(), ['fields.b', 'fields.c']);
  });

  it('maps login fields to userId, userSecret, userExtraField by name, else by order', () => {
    assert.deepEqual(loginCredentials([field('userId'), field('userSecret')], { userId: 'u', userSecret: 's' }), { userId: 'u', userSecret: 's' });
    assert.deepEqual(loginCredentials([field('nif'), field('pin'), field('company')], { nif: 'u', pin: 's', company: 'c' }), {
      userId: 'u',
      userSecret: 's',
      userExtraField: 'c',
    });
  });

  it('routes provider errors to the step where the payer can act', () => {
    assert.equal(stateAfterError('login', 'B100'), 'login');
    assert.equal(stateAfterError('login', 'B105'), 'select-bank');
    assert.equal(stateAfterError('transfer', 'B107'), 'select-account');
    assert.equal(stateAfterError('transfer', 'E302'), 'select-account');
    assert.equal(stateAfterError('transfer', 'B102'), 'failed');
    assert.equal(stateAfterError('validate', 'B103'), 'validate', 'a wrong code: the same challenge again');
    assert.equal(stateAfterError('validate', 'B102'), 'failed');
    assert.ok(costsAttempt('B100') && costsAttempt('B103') && !costsAttempt('B105'));
  });

  it('moves link payments only forward', () => {
    assert.equal(linkOutcome('redirect', '200'), 'succeeded');
    assert.equal(linkOutcome('redirect', 'B103'), 'failed');
    assert.equal(linkOutcome('failed', '200'), 'succeeded');
    assert.equal(linkOutcome('succeeded', 'B103'), null);
    assert.equal(linkOutcome('succeeded', '200'), null);
    assert.equal(linkOutcome('failed', 'E300'), null);
  });

  it('lets time expire a checkout, end a validation window, and settle a crashed call (after one more lease for its holder)', () => {
    const base = { state: 'select-bank', expiresAt: 1000, internal: {} } as unknown as CheckoutRecord;
    assert.equal(timePatch(base, 999, 100), null);
    assert.equal(timePatch(base, 1001, 100)?.state, 'expired');
    const validating = {
      ...base,
      state: 'validate',
      expiresAt: 10_000,
      internal: { deadline: 500, accountId: 'A1', transactionId: 'T1' },
    } as unknown as CheckoutRecord;
    const lapsed = timePatch(validating, 501, 100);
    assert.equal(lapsed?.state, 'select-account', 'past the deadline: a new transfer from the account list');
    assert.deepEqual(lapsed.internal, { accountId: 'A1' }, 'the account chosen stays; the transfer waited for goes');
    const crashed = { ...base, expiresAt: 10_000, internal: { busy: { op: 'validate', since: 0 } } } as unknown as CheckoutRecord;
    assert.equal(timePatch(crashed, 50, 100), null, 'still in flight');
    const overdue = timePatch(crashed, 101, 100);
    assert.equal(overdue?.state, undefined, 'lapsed once: its holder gets one more lease');
    assert.deepEqual((overdue?.internal as Record<string, unknown>).busy, { op: 'validate', since: 0, until: 201, overdueSince: 101 });
    const again = { ...crashed, internal: overdue?.internal } as unknown as CheckoutRecord;
    assert.equal(timePatch(again, 201, 100), null, "still its holder's until the second lease ends");
    assert.equal(timePatch(again, 202, 100)?.state, 'unknown');
    // A call that moves no money: its lock is released, the step stays (a transfer's start after
    // the one more lease its holder is given: its answer is the challenge the bank sent).
    const login = timePatch({ ...crashed, internal: { busy: { op: 'login', since: 0 } } }, 101, 100);
    assert.deepEqual({ state: login?.state, busy: (login?.internal as Record<string, unknown>).busy }, { state: undefined, busy: undefined });
    const transfer = timePatch({ ...crashed, internal: { busy: { op: 'transfer', since: 0 } } }, 101, 100);
    assert.equal((transfer?.internal as { busy?: { overdueSince?: number } }).busy?.overdueSince, 101);
    const released = timePatch({ ...crashed, internal: transfer?.internal } as unknown as CheckoutRecord, 202, 100);
    assert.deepEqual({ state: released?.state, busy: (released?.internal as Record<string, unknown>).busy }, { state: undefined, busy: undefined });
  });

  it('masks the account a receipt shows: the IBAN’s country and last four digits, nothing more', () => {
    assert.equal(maskedAccount('Cuenta Nómina · ES9121000418450200051332'), 'ES •••• 1332');
    assert.equal(maskedAccount('Cuenta · ES91 2100 0418 4502 0005 1332'), 'ES •••• 1332');
    assert.equal(maskedAccount('Libreta 0049-1500-05-1234567890'), '•••• 7890', 'no IBAN: the last four digits the bank gave');
    assert.equal(maskedAccount('Cuenta Joven'), undefined);
    assert.equal(maskedAccount(undefined), undefined);
  });

  it('keeps of a finished checkout its 14 lasting fields only: nothing of the session, the payer’s accounts or the signed URL', () => {
    const lasting = {
      explicitDestiny: true,
      bank: { bankId: 'b1', label: 'Bank One' },
      transactionId: 'TX-1',
      idDebt: 'D-1',
      linkTransactionId: 'LT-1',
      outcomeAt: 5,
      schedule: { frequency: 'monthly', startDate: '2030-01-01' },
      resolution: { outcome: 'succeeded' as const, at: 6 },
      funnel: { step: 'paid' as const, bankId: 'b1' },
      linkBank: { bankId: 'b2', label: 'Bank Two' },
      handoff: { hash: 'h', expiresAt: 7, used: true },
      linkSignedAt: 3,
      reconciliation: { checkedAt: 8, done: 'found' as const },
    };
    const all: Internal = {
      ...lasting,
      bank: { ...lasting.bank, extra: 'dropped' } as Internal['bank'],
      sessionId: 'S-1',
      sessionAt: 1,
      secondLogin: { type: 1, value: null, field: field('otp') },
      contracts: [{ contractId: 'c1', contractInfo: 'Contract' }],
      contractId: 'c1',
      accounts: [{ accountId: 'a1', accountInfo: 'Cuenta · ES9121000418450200051332', amount: null }],
      accountId: 'a1',
      refused: ['a2'],
      validations: [],
      round: 2,
      deadline: 9,
      busy: { op: 'validate', since: 1 },
      lapsed: { op: 'validate', since: 1, at: 2 },
      doubt: { op: 'validate', at: 2, why: 'timeout' },
      url: 'https://bank.test/pay',
    };
    assert.deepEqual(finished(all), { ...lasting, paidFrom: 'ES •••• 1332' });
    assert.equal(Object.keys(finished(all)).length, 14);
    assert.equal(finished({ ...all, paidFrom: 'ES •••• 0000' }).paidFrom, 'ES •••• 0000', 'a masked account already kept stays');
    assert.deepEqual(finished({ sessionId: 'S-1', funnel: { step: 'bank' } }), { funnel: { step: 'bank' } }, 'a field not there is not added');
  });

  it('makes the receipt’s reference from the provider’s id, one way: short, stable, and not the id', () => {
    const a = receiptReference('TX-20300310-0001');
    assert.match(a, /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    assert.equal(receiptReference('TX-20300310-0001'), a);
    assert.notEqual(receiptReference('TX-20300310-0002'), a);
    assert.ok(!a.replace(/-/g, '').includes('2030'));
  });
});
