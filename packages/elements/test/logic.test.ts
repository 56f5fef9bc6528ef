import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validateField, type FieldRules } from '../src/logic/validators.js';
import { parseDigits, parseFieldInput, parseIdentityDocument } from '../src/logic/parsers.js';
import { formatCents, formatClock, formatIban, longDate, normalizeForSearch } from '../src/logic/format.js';
import { eu } from '../src/i18n/eu.js';
import { gl } from '../src/i18n/gl.js';
import { ANNOUNCE_AT_SECONDS, announcementDue, deadlineMs, secondsLeft } from '../src/logic/countdown.js';
import { LAST_BANK_KEY, banksFor, findBank, needsPersonType, recallBank, rememberBank } from '../src/logic/banks.js';
import { filterBanks } from './bank-search.js';
import { GROUPS, AURORA, AURORA_EMPRESAS } from './fixtures.js';

describe('validateField', () => {
  const pin: FieldRules = { min: 4, max: 8, valueType: 'numeric', specificType: null };
  const dni: FieldRules = { min: 9, max: 9, valueType: 'alfanumeric', specificType: 'DNI_NIE' };

  it('reports the first broken rule: required, digits, length, then format', () => {
    assert.deepEqual(validateField(pin, ''), { key: 'field.required' });
    assert.deepEqual(validateField(pin, '12a4'), { key: 'field.digits' });
    assert.deepEqual(validateField(pin, '123'), { key: 'field.min', params: { min: 4 } });
    assert.deepEqual(validateField(pin, '123456789'), { key: 'field.max', params: { max: 8 } });
    assert.equal(validateField(pin, '1234'), null);
    assert.deepEqual(validateField(dni, '1234'), { key: 'field.exact', params: { min: 9 } });
    assert.deepEqual(validateField(dni, '12345678A'), { key: 'field.DNI_NIE' });
    assert.equal(validateField(dni, '12345678Z'), null);
    assert.deepEqual(validateField({ ...dni, specificType: 'CIF' }, '12345678Z'), { key: 'field.CIF' });
  });

  it('lets unknown specific types and missing limits pass', () => {
    assert.equal(validateField({ min: null, max: null, valueType: 'alfanumeric', specificType: 'IBAN_FUTURE' }, 'anything'), null);
    assert.equal(validateField({ min: null, max: null, valueType: 'alfanumeric', specificType: null }, 'x'.repeat(500)), null);
  });

  it('numeric fields accept only ASCII digits', () => {
    const any: FieldRules = { min: null, max: null, valueType: 'numeric', specificType: null };
    assert.equal(validateField(any, '0123456789'), null);
    assert.deepEqual(validateField(any, '١٢'), { key: 'field.digits' });
    assert.deepEqual(validateField(any, '1 2'), { key: 'field.digits' });
  });
});

describe('parsers', () => {
  it('numeric input keeps only digits, whatever is typed or pasted', () => {
    fc.assert(fc.property(fc.string(), (s) => assert.match(parseDigits(s), /^\d*$/)));
    assert.equal(parseFieldInput({ valueType: 'numeric', specificType: null }, ' 12-34 a5'), '12345');
  });

  it('identity documents lose separators and become upper case; other text is kept as typed', () => {
    assert.equal(parseIdentityDocument(' 12.345.678-z '), '12345678Z');
    assert.equal(parseFieldInput({ valueType: 'alfanumeric', specificType: 'DNI_NIE' }, 'x1234567-l'), 'X1234567L');
    assert.equal(parseFieldInput({ valueType: 'alfanumeric', specificType: 'CIF' }, 'b 1234567 4'), 'B12345674');
    assert.equal(parseFieldInput({ valueType: 'alfanumeric', specificType: null }, ' Pass word '), ' Pass word ');
  });
});

describe('formatters', () => {
  it('formats cents as currency per locale', () => {
    assert.equal(formatCents(123456, 'EUR', 'en').replace(/\s/g, ' '), '€1,234.56');
    assert.match(formatCents(123456, 'EUR', 'es'), /^1\.?234,56\s€$/);
    assert.match(formatCents(5, 'EUR', 'ca'), /^0,05\s€$/);
  });

  it('writes euros in English and Spanish exactly as Intl does, without it', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -2_000_000, max: 2_000_000 }),
          fc.integer(),
          fc.constantFrom(0, -0, 5, 99, 100, 999_999, 1e12 - 1, 1e12, -(1e12 - 1), 2 ** 53 + 2),
          fc.double({ noNaN: true }),
        ),
        fc.constantFrom('en', 'es'),
        (cents, locale) => {
          assert.equal(formatCents(cents, 'EUR', locale), new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(cents / 100));
        },
      ),
    );
  });

  it('groups IBANs by four', () => {
    assert.equal(formatIban('es9121000418450200051332'), 'ES91 2100 0418 4502 0005 1332');
    assert.equal(formatIban('ES91 2100 0418'), 'ES91 2100 0418');
  });

  it('shows seconds as m:ss, never negative', () => {
    assert.equal(formatClock(87), '1:27');
    assert.equal(formatClock(9), '0:09');
    assert.equal(formatClock(-3), '0:00');
  });

  it('normalises text for search: accents, case and spaces', () => {
    assert.equal(normalizeForSearch('  Caixa   GALÍCIA '), 'caixa galicia');
    assert.equal(normalizeForSearch('Cañón'), 'canon');
  });
});

describe('long dates the kit writes itself (Basque and Galician)', () => {
  const months = (cat: { 'date.months': string }) => cat['date.months'].split(',');
  const at = (year: number, month: number, day: number, hour = 18, minute = 2) => ({ year, month, day, hour, minute });

  it('writes Basque with the year’s ending as it is spoken, the month in the genitive and the day’s article', () => {
    const m = months(eu);
    assert.equal(longDate(at(2026, 11, 25), 'eu', m), '2026ko azaroaren 25a, 18:02');
    assert.equal(longDate(at(2030, 3, 1, 9, 5), 'eu', m), '2030eko martxoaren 1a, 09:05', 'hogeita hamar: -eko');
    // The years whose last word ends in a consonant (bat, bost, hamar, hamabost, ehun) take -eko.
    const endings = [2020, 2021, 2022, 2025, 2030, 2035, 2040, 2041, 2000, 2100].map((y) => longDate(at(y, 1, 2), 'eu', m)!.split(' ')[0]);
    assert.deepEqual(endings, ['2020ko', '2021eko', '2022ko', '2025eko', '2030eko', '2035eko', '2040ko', '2041eko', '2000ko', '2100eko']);
    assert.equal(longDate(at(2026, 1, 5), 'eu-ES', m), '2026ko urtarrilaren 5a, 18:02', 'a regional tag too');
  });

  it('writes Galician as Galician writes a long date, and leaves every other language to Intl', () => {
    assert.equal(longDate(at(2026, 11, 25), 'gl', months(gl)), '25 de novembro de 2026, 18:02');
    assert.equal(longDate(at(2026, 6, 3, 0, 0), 'gl', months(gl)), '3 de xuño de 2026, 00:00');
    for (const locale of ['en', 'es', 'ca', 'fr']) assert.equal(longDate(at(2026, 11, 25), locale, months(gl)), null, locale);
    assert.equal(longDate(at(2026, 11, 25), 'gl', []), null, 'no month names: Intl writes it');
  });
});

describe('countdown', () => {
  it('counts whole seconds up to the deadline, never below zero', () => {
    assert.equal(secondsLeft(10_000, 0), 10);
    assert.equal(secondsLeft(10_000, 9_001), 1);
    assert.equal(secondsLeft(10_000, 10_000), 0);
    assert.equal(secondsLeft(10_000, 20_000), 0);
    assert.equal(deadlineMs('2030-01-01T00:00:00.000Z'), Date.UTC(2030, 0, 1));
    assert.equal(deadlineMs('not a date'), 0);
  });

  it('announces the first reading and each mark crossed, never every second', () => {
    assert.equal(announcementDue(null, 87), 87);
    assert.equal(announcementDue(87, 86), null);
    assert.equal(announcementDue(61, 60), 60);
    assert.equal(announcementDue(60, 59), null);
    assert.equal(announcementDue(45, 12), 12, 'a background tab may skip a mark');
    assert.equal(announcementDue(11, 10), 10);
    assert.equal(announcementDue(1, 0), null, 'expiry has its own message');
  });

  it('announces at most once per mark plus once at the start over a whole countdown', () => {
    let last: number | null = null;
    const said: number[] = [];
    for (let s = 90; s >= 0; s--) {
      const due = announcementDue(last, s);
      if (due !== null) {
        said.push(due);
        last = due;
      }
    }
    assert.deepEqual(said, [90, ...ANNOUNCE_AT_SECONDS]);
  });
});

describe('bank list', () => {
  it('asks for the person type only when a group has both', () => {
    assert.equal(needsPersonType(GROUPS), true);
    assert.equal(needsPersonType(GROUPS.slice(1)), false);
    assert.deepEqual(banksFor(GROUPS[0]!, 1), [AURORA_EMPRESAS]);
    assert.deepEqual(
      banksFor(GROUPS[1]!, 1).map((b) => b.bankId),
      [],
      'a group of natural-person banks only is not listed for a legal person',
    );
    assert.deepEqual(
      banksFor(GROUPS[1]!, 0).map((b) => b.bankId),
      ['galicia'],
    );
    assert.deepEqual(
      banksFor(GROUPS[0]!, null).map((b) => b.bankId),
      ['aurora', 'aurora-empresas'],
      'no person type asked: every bank',
    );
  });

  it('searches bank and group names ignoring accents and case', () => {
    const ids = (q: string, p: 0 | 1 = 0) => filterBanks(GROUPS, q, p).flatMap((m) => m.banks.map((b) => b.bankId));
    assert.deepEqual(ids(''), ['aurora', 'galicia', 'norte']);
    assert.deepEqual(ids('', 1), ['aurora-empresas'], 'browsing: the chosen person type only');
    assert.deepEqual(ids('GALICIA', 1), ['galicia'], 'searching finds a bank under the other person type');
    assert.deepEqual(ids('aurora'), ['aurora', 'aurora-empresas']);
    assert.deepEqual(ids('empresas'), ['aurora-empresas']);
    assert.deepEqual(ids('zzz'), []);
    assert.equal(findBank(GROUPS, 'aurora')?.label, AURORA.label);
    assert.equal(findBank(GROUPS, 'nope'), undefined);
  });

  it('remembers only a bank id, and survives a storage that throws', () => {
    const data = new Map<string, string>();
    const store = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
    rememberBank(store, 'aurora');
    assert.deepEqual([...data.entries()], [[LAST_BANK_KEY, 'aurora']]);
    assert.equal(recallBank(store), 'aurora');
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    assert.equal(recallBank(broken), null);
    assert.doesNotThrow(() => rememberBank(broken, 'aurora'));
    assert.equal(recallBank(null), null);
  });
});
