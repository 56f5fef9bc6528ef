import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isValidIban as providerAcceptsIban } from '@bank-checkout/provider';
import { ibanChecksumOk, ibanLength, IBAN_MAX_LENGTH } from '@bank-checkout/contract';
import { compactIban, editIban, validateIban } from '../src/logic/iban.js';
import { formatIban } from '../src/logic/format.js';
import {
  addDays,
  describeSchedule,
  firstEndDate,
  firstInvalid,
  firstStartDate,
  frequencyKey,
  isoDateAt,
  keepSelection,
  periodicChoices,
  periodicErrors,
  periodicOrder,
  selectBank,
  selectEntry,
  validateEndDate,
  validateStartDate,
  type PeriodicForm,
} from '../src/logic/periodic.js';
import { isWebUrl, pollDelay, POLL_MAX_MS } from '../src/logic/redirect.js';
import { registerCatalogue, registerTexts, translate } from '../src/i18n/index.js';
import { ca } from '../src/i18n/ca.js';
import { DEBTOR_IBAN, FIXED_NOW, PERIODIC_BANKS } from './fixtures.js';
import { enPeriodic } from '../src/i18n/en-periodic.js';
import { esPeriodic } from '../src/i18n/es-periodic.js';

// The periodic form's texts, as its file adds them when it loads.
registerTexts({ en: enPeriodic, es: esPeriodic });

registerCatalogue('ca', ca);

/** Valid IBANs of several countries (the registry's examples). */
const VALID = [
  'ES9121000418450200051332',
  'DE89370400440532013000',
  'GB82WEST12345698765432',
  'FR1420041010050500013M02606',
  'NL91ABNA0417164300',
  'PT50000201231234567890154',
  'BE68539007547034',
  'NO9386011117947',
  'MT84MALT011000012345MTLCAST001S',
  'IT60X0542811101000000123456',
];

describe('IBAN', () => {
  it('accepts valid IBANs of several countries, as the provider does', () => {
    for (const iban of VALID) {
      assert.equal(validateIban(iban), null, iban);
      assert.equal(providerAcceptsIban(iban), true, `the provider agrees on ${iban}`);
    }
  });

  it('compacts what was typed or pasted: spaces, dashes, case, an IBAN label, 34 characters at most', () => {
    assert.equal(compactIban(' es79 2100-0813.6101 2345 6789 '), DEBTOR_IBAN);
    assert.equal(compactIban('IBAN ES79 2100 0813 6101 2345 6789'), DEBTOR_IBAN);
    assert.equal(compactIban('IBANCO'), 'IBANCO', 'only a label before a country code and check digits is dropped');
    assert.equal(compactIban('X'.repeat(50)).length, IBAN_MAX_LENGTH);
    assert.equal(compactIban('ñ€'), '');
  });

  it('reports the first rule broken: required, shape, country length, checksum', () => {
    assert.deepEqual(validateIban(''), { key: 'iban.required' });
    assert.deepEqual(validateIban('1234'), { key: 'iban.format' });
    assert.deepEqual(validateIban('ESXX2100'), { key: 'iban.format' });
    assert.deepEqual(validateIban('ES912100041845020005133'), { key: 'iban.length', params: { country: 'ES', length: 24 } });
    assert.deepEqual(validateIban('ES9121000418450200051333'), { key: 'iban.checksum' });
    assert.deepEqual(validateIban('ZZ12345'), { key: 'iban.format' }, 'an unknown country still needs 15 characters');
    assert.equal(ibanLength('es'), 24);
    assert.equal(ibanLength('ZZ'), null);
  });

  it('catches any single changed character (mod 97)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VALID),
        fc.nat(),
        fc.integer({ min: 0, max: 35 }).map((n) => n.toString(36).toUpperCase()),
        (iban, at, ch) => {
          const i = 2 + (at % (iban.length - 2));
          fc.pre(iban[i] !== ch && /\d/.test(iban[i]!) === /\d/.test(ch));
          const changed = iban.slice(0, i) + ch + iban.slice(i + 1);
          assert.equal(ibanChecksumOk(changed), false, changed);
          assert.notEqual(validateIban(changed), null);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('formats any input in groups of four, keeping the caret after the same characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.nat(), (raw, pos) => {
        const caret = pos % (raw.length + 1);
        const edit = editIban(raw, caret);
        assert.equal(edit.value, formatIban(compactIban(raw)));
        assert.ok(edit.caret >= 0 && edit.caret <= edit.value.length);
        const before = raw.slice(0, caret).replace(/[^0-9A-Za-z]/g, '').length;
        if (!/^\s*iban/i.test(raw)) assert.equal(edit.value.slice(0, edit.caret).replace(/ /g, '').length, Math.min(before, compactIban(raw).length));
      }),
      { numRuns: 500 },
    );
  });

  it('moves the caret over the space it inserts, and deletes past a space', () => {
    assert.deepEqual(editIban('es91', 4), { value: 'ES91', caret: 4 });
    assert.deepEqual(editIban('ES912', 5), { value: 'ES91 2', caret: 6 });
    assert.deepEqual(editIban('ES91 2X100', 7), { value: 'ES91 2X10 0', caret: 7 }, 'typing inside a group');
    assert.deepEqual(
      editIban('ES912100', 4, 'ES91 2100', 'deleteContentBackward'),
      { value: 'ES92 100', caret: 3 },
      'Backspace after a space removes the character before it',
    );
    assert.deepEqual(
      editIban('ES91 100', 4, 'ES91 2100', 'deleteContentForward'),
      { value: 'ES91 100', caret: 4 },
      'Delete removes a character, not the space',
    );
    assert.deepEqual(
      editIban('ES912100', 4, 'ES91 2100', 'deleteContentForward'),
      { value: 'ES91 100', caret: 4 },
      'Delete before a space removes the next character',
    );
    assert.deepEqual(editIban('IBAN ES91 2100', 14), { value: 'ES91 2100', caret: 9 });
  });
});

describe('periodic bank list', () => {
  it('shows grouped banks once by their group, sorted, with operational flags', () => {
    const choices = periodicChoices(PERIODIC_BANKS, 'es');
    assert.deepEqual(
      choices.map((c) => [c.key, c.name, c.group, c.enabled]),
      [
        ['bank:es-norte', 'Banco del Norte', false, false],
        ['bank:es-sur', 'Caja del Sur', false, true],
        ['bank:es-levante', 'Caja Levante', false, true],
        ['group:10', 'Grupo Aurora', true, true],
        ['group:20', 'Grupo Cantábrico', true, true],
      ],
    );
    assert.deepEqual(
      choices[3]!.banks.map((b) => b.bankId),
      ['es-aurora-privada', 'es-aurora-empresas', 'es-aurora'],
    );
  });

  it('names a group without a name after its first bank, and disables a group with no operational bank', () => {
    const choices = periodicChoices(
      [
        { bankId: 'a', name: 'Alfa', enabled: false, frequencies: ['Monthly'], groupId: 7, groupName: null },
        { bankId: 'b', name: 'Beta', enabled: false, frequencies: ['Monthly'], groupId: 7, groupName: null },
      ],
      'en',
    );
    assert.deepEqual(
      choices.map((c) => [c.name, c.enabled, c.banks.length]),
      [['Alfa', false, 2]],
    );
  });

  it('labels known frequencies in every locale and leaves unknown codes as they are', () => {
    assert.equal(frequencyKey('Monthly'), 'frequency.Monthly');
    assert.equal(frequencyKey('Fortnightly'), null);
    assert.equal(translate('es', frequencyKey('Quarterly')!), 'Cada tres meses');
    assert.equal(translate('ca', frequencyKey('Yearly')!), 'Cada any');
  });
});

describe('periodic dates', () => {
  it('starts the day after today, today being the later of the device and Madrid', () => {
    assert.equal(isoDateAt(FIXED_NOW, 'UTC'), '2030-03-10');
    // 23:30 UTC on 10 March is already 11 March in Madrid (UTC+1).
    const lateUtc = Date.UTC(2030, 2, 10, 23, 30);
    assert.equal(isoDateAt(lateUtc, 'Europe/Madrid'), '2030-03-11');
    assert.ok(firstStartDate(lateUtc) >= '2030-03-12', 'never a date the service counts as today');
    assert.ok(['2030-03-11', '2030-03-12'].includes(firstStartDate(FIXED_NOW)));
  });

  it('adds days across months and years', () => {
    assert.equal(addDays('2030-02-28', 1), '2030-03-01');
    assert.equal(addDays('2030-12-31', 1), '2031-01-01');
  });

  it('wants a start after today and an end after the start', () => {
    const first = '2030-03-11';
    assert.deepEqual(validateStartDate('', first), { key: 'periodic.startRequired' });
    assert.deepEqual(validateStartDate('2030-02-30', first), { key: 'periodic.dateInvalid' });
    assert.deepEqual(validateStartDate('2030-03-10', first), { key: 'periodic.startAfterToday' });
    assert.equal(validateStartDate('2030-03-11', first), null);
    assert.equal(validateEndDate('', '2030-03-15'), null, 'no end date: an order without end');
    assert.deepEqual(validateEndDate('2030-03-15', '2030-03-15'), { key: 'periodic.endAfterStart' });
    assert.deepEqual(validateEndDate('2030-03-14', '2030-03-15'), { key: 'periodic.endAfterStart' });
    assert.equal(validateEndDate('2030-03-16', '2030-03-15'), null);
    assert.deepEqual(validateEndDate('nope', '2030-03-15'), { key: 'periodic.dateInvalid' });
  });

  it('says in words when the payment runs', () => {
    const say = (frequency: string, date: string, locale: string) => {
      const s = describeSchedule(frequency, date, locale);
      return s && translate(locale, s.key, s.params);
    };
    assert.equal(say('Monthly', '2030-03-15', 'en'), 'It will be paid on day 15 of each month.');
    assert.equal(say('Monthly', '2030-03-15', 'es'), 'Se pagará el día 15 de cada mes.');
    assert.equal(say('Monthly', '2030-03-15', 'ca'), 'Es pagarà el dia 15 de cada mes.');
    assert.equal(say('Weekly', '2030-03-15', 'en'), 'It will be paid every Friday.');
    assert.equal(say('Weekly', '2030-03-15', 'es'), 'Se pagará cada viernes.');
    assert.equal(say('Quarterly', '2030-03-01', 'en'), 'It will be paid every three months, on day 1.');
    assert.equal(say('Yearly', '2030-03-15', 'es'), 'Se pagará cada año el 15 de marzo.');
    assert.equal(say('Fortnightly', '2030-03-15', 'en'), null);
    assert.equal(say('Monthly', '', 'en'), null);
  });
});

describe('periodic form', () => {
  const choices = periodicChoices(PERIODIC_BANKS, 'en');
  const none = { entryKey: '', bankId: '', frequency: '' };
  const empty: PeriodicForm = { ...none, iban: '', startDate: '', endDate: '' };

  it('chooses a bank on its own at once, with its only frequency; a group waits for its bank', () => {
    assert.deepEqual(selectEntry(choices, none, 'bank:es-levante'), { entryKey: 'bank:es-levante', bankId: 'es-levante', frequency: 'Monthly' });
    assert.deepEqual(
      selectEntry(choices, none, 'bank:es-sur'),
      { entryKey: 'bank:es-sur', bankId: 'es-sur', frequency: '' },
      'two frequencies: the payer picks',
    );
    assert.deepEqual(selectEntry(choices, none, 'group:10'), { entryKey: 'group:10', bankId: '', frequency: '' });
  });

  it('keeps a frequency the next bank offers too, and drops one it does not', () => {
    const monthly = { entryKey: 'group:10', bankId: 'es-aurora', frequency: 'Monthly' };
    assert.equal(selectBank(choices, monthly, 'es-aurora-empresas').frequency, 'Monthly');
    assert.equal(selectBank(choices, { ...monthly, frequency: 'Yearly' }, 'es-aurora-empresas').frequency, '');
  });

  it('forgets choices the bank list no longer holds or that stopped operating', () => {
    const chosen = { entryKey: 'group:10', bankId: 'es-aurora', frequency: 'Quarterly' };
    assert.deepEqual(keepSelection(choices, chosen), chosen);
    const closed = periodicChoices(
      PERIODIC_BANKS.map((b) => (b.bankId === 'es-aurora' ? { ...b, enabled: false } : b)),
      'en',
    );
    assert.deepEqual(keepSelection(closed, chosen), { entryKey: 'group:10', bankId: '', frequency: '' });
    assert.deepEqual(keepSelection([], chosen), none);
  });

  it('reports each field’s error and the first one in the order the payer meets them', () => {
    const first = '2030-03-11';
    const errors = periodicErrors(choices, empty, first, null);
    assert.equal(firstInvalid(errors), 'bank');
    assert.deepEqual(errors.groupBank, null, 'no group chosen: no second list to fill');
    const grouped = periodicErrors(choices, { ...empty, entryKey: 'group:10' }, first, null);
    assert.deepEqual(grouped.groupBank, { key: 'periodic.bankRequired' });
    const valid: PeriodicForm = { entryKey: 'bank:es-levante', bankId: 'es-levante', frequency: 'Monthly', iban: DEBTOR_IBAN, startDate: first, endDate: '' };
    assert.equal(firstInvalid(periodicErrors(choices, valid, first, 'ES9121000418450200051332')), undefined);
    assert.deepEqual(periodicErrors(choices, valid, first, DEBTOR_IBAN).iban, { key: 'iban.payee' }, 'not the payee’s own account');
    assert.equal(firstInvalid(periodicErrors(choices, { ...valid, startDate: '2030-03-10', endDate: '2030-03-01' }, first, null)), 'start');
  });

  it('offers end dates after the start, and sends the order with the IBAN compacted', () => {
    assert.equal(firstEndDate('2030-04-01', '2030-03-11'), '2030-04-02');
    assert.equal(firstEndDate('', '2030-03-11'), '2030-03-12');
    assert.equal(firstEndDate('2030-01-01', '2030-03-11'), '2030-03-12', 'a start in the past does not count');
    const form: PeriodicForm = {
      entryKey: 'bank:es-sur',
      bankId: 'es-sur',
      frequency: 'Yearly',
      iban: formatIban(DEBTOR_IBAN),
      startDate: '2030-04-01',
      endDate: '',
    };
    assert.deepEqual(periodicOrder(form), { bankId: 'es-sur', frequency: 'Yearly', debtorAccount: DEBTOR_IBAN, startDate: '2030-04-01' });
    assert.equal(periodicOrder({ ...form, endDate: '2031-04-01' }).endDate, '2031-04-01');
  });
});

describe('redirect', () => {
  it('follows only web addresses', () => {
    assert.equal(isWebUrl('https://gateway.example/pay'), true);
    assert.equal(isWebUrl('HTTP://gateway.example'), true);
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', '//gateway.example', '']) assert.equal(isWebUrl(bad), false, bad);
  });

  it('waits longer between checks, up to a minute', () => {
    assert.deepEqual(
      [0, 1, 2, 3].map((n) => pollDelay(n, 4000)),
      [4000, 6000, 9000, 13500],
    );
    assert.equal(pollDelay(50, 4000), POLL_MAX_MS);
    assert.equal(pollDelay(3, 90_000), 90_000, 'a base above a minute is kept');
  });
});
