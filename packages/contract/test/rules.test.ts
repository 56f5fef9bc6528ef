import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  cifControlDigit,
  dniLetter,
  fieldProblem,
  ibanCheckDigits,
  ibanProblem,
  isIsoDate,
  isValidCif,
  isValidDniNie,
  isValidIban,
  todayIn,
  type FieldRules,
} from '@bank-checkout/contract';

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

describe('identity documents', () => {
  it('accepts DNIs with the right check letter and rejects every other letter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), (n) => {
        const digits = String(n).padStart(8, '0');
        const right = DNI_LETTERS[n % 23]!;
        assert.equal(dniLetter(digits), right);
        assert.equal(isValidDniNie(digits + right), true);
        assert.equal(isValidDniNie(digits + right.toLowerCase()), true, 'case is ignored');
        for (const wrong of DNI_LETTERS.replace(right, '')) assert.equal(isValidDniNie(digits + wrong), false);
      }),
      { numRuns: 200 },
    );
  });

  it('accepts NIEs (X/Y/Z count as 0/1/2) and rejects malformed ids', () => {
    assert.equal(isValidDniNie('X1234567L'), true);
    assert.equal(isValidDniNie('Y1234567X'), true);
    assert.equal(isValidDniNie('Z1234567R'), true);
    assert.equal(isValidDniNie('X1234567T'), false);
    for (const bad of ['', '1234567Z', '123456789Z', '12345678', 'A1234567L', '12345678-Z']) assert.equal(isValidDniNie(bad), false, bad);
  });

  it('checks CIF control characters: digit, letter, or either by organisation letter', () => {
    assert.equal(cifControlDigit('1234567'), 4);
    assert.equal(isValidCif('B12345674'), true);
    assert.equal(isValidCif('A76543214'), true);
    assert.equal(isValidCif('b12345674'), true, 'case is ignored');
    assert.equal(isValidCif('B12345675'), false);
    assert.equal(isValidCif('B1234567D'), false, 'B needs a digit control');
    assert.equal(isValidCif('P1234567D'), true, 'P needs a letter control (4 → D)');
    assert.equal(isValidCif('P12345674'), false);
    assert.equal(isValidCif('G1234567D'), true, 'G takes either');
    assert.equal(isValidCif('G12345674'), true);
    for (const bad of ['', 'I12345674', 'B1234567', 'B123456745', '12345678Z']) assert.equal(isValidCif(bad), false, bad);
  });
});

describe('IBAN', () => {
  it('computes check digits that the mod-97 check accepts, for any BBAN', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{20}$/), (bban) => {
        const iban = `ES${ibanCheckDigits('ES', bban)}${bban}`;
        assert.equal(isValidIban(iban), true, iban);
      }),
      { numRuns: 200 },
    );
    assert.equal(ibanCheckDigits('ES', '21000418450200051332'), '91');
  });

  it('reports the first rule broken: required, shape, country length, checksum', () => {
    assert.deepEqual(ibanProblem(''), { rule: 'required' });
    assert.deepEqual(ibanProblem('ESXX2100'), { rule: 'format' });
    assert.deepEqual(ibanProblem('ES912100041845020005133'), { rule: 'length', country: 'ES', length: 24 });
    assert.deepEqual(ibanProblem('ES9121000418450200051333'), { rule: 'checksum' });
    assert.equal(ibanProblem('ES9121000418450200051332'), null);
  });

  it('isValidIban ignores spaces and case, as the services take IBANs', () => {
    assert.equal(isValidIban('es91 2100 0418 4502 0005 1332'), true);
    assert.equal(isValidIban('ES91-2100-0418-4502-0005-1332'), false);
  });
});

describe('field rules', () => {
  const pin: FieldRules = { min: 4, max: 8, valueType: 'numeric', specificType: null };
  const dni: FieldRules = { min: 9, max: 9, valueType: 'alfanumeric', specificType: 'DNI_NIE' };

  it('answers the first broken rule: required, digits, length, then the specific type', () => {
    assert.deepEqual(fieldProblem(pin, undefined), { rule: 'required' });
    assert.deepEqual(fieldProblem(pin, '12a4'), { rule: 'digits' });
    assert.deepEqual(fieldProblem(pin, '123'), { rule: 'min', min: 4 });
    assert.deepEqual(fieldProblem(pin, '123456789'), { rule: 'max', max: 8 });
    assert.deepEqual(fieldProblem(dni, '1234'), { rule: 'exact', length: 9 });
    assert.deepEqual(fieldProblem(dni, '12345678A'), { rule: 'specificType', type: 'DNI_NIE' });
    assert.equal(fieldProblem(dni, '12345678A', { specificType: false }), null, 'the specific type can be left to the bank');
    assert.equal(fieldProblem(dni, '12345678Z'), null);
  });
});

describe('dates', () => {
  it('accepts only calendar dates that exist', () => {
    assert.equal(isIsoDate('2028-02-29'), true);
    assert.equal(isIsoDate('2027-02-29'), false);
    assert.equal(isIsoDate('2027-1-01'), false);
  });

  it('tells today in the provider time zone', () => {
    // 23:30 UTC on 31 December is already 1 January in Madrid.
    assert.equal(todayIn('Europe/Madrid', Date.UTC(2029, 11, 31, 23, 30)), '2030-01-01');
  });
});
