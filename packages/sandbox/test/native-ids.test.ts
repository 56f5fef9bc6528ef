import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CARD_DATA_URL, CARD_POSITIONS, cardPosition, cardValue } from '../src/native/card.js';
import { fieldIssue, sameValue } from '../src/native/fields.js';

test('the coordinates card: 25 four-digit values, never 0000, drawn in its SVG', () => {
  assert.equal(CARD_POSITIONS.length, 25);
  const svg = Buffer.from(CARD_DATA_URL.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8');
  assert.match(CARD_DATA_URL, /^data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+$/);
  assert.match(svg, /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  for (const p of CARD_POSITIONS) {
    const v = cardValue(p);
    assert.match(v ?? '', /^[1-9]\d{3}$/, p);
    assert.ok(svg.includes(`>${v}</text>`), `${p} drawn`);
  }
  assert.equal(cardValue('F9'), null);
  assert.ok(CARD_POSITIONS.includes(cardPosition(0)) && cardPosition(0) !== cardPosition(1));
});

test('field rules: length, digits, specificType, each named in the message', () => {
  const f = {
    fieldId: 'userId',
    label: 'DNI',
    min: 9,
    max: 9,
    valueType: 'alfanumeric' as const,
    specificType: 'DNI_NIE',
    password: false,
    testValue: '12345678Z',
  };
  assert.equal(fieldIssue(f, '12345678Z'), null);
  assert.match(fieldIssue(f, '12345678A') ?? '', /userId \(DNI\): DNI_NIE: .*check letter/);
  assert.match(fieldIssue(f, '123') ?? '', /exactly 9 characters/);
  assert.match(fieldIssue(f, undefined) ?? '', /userId \(DNI\): is required/);
  const pin = { ...f, fieldId: 'userSecret', label: 'PIN', min: 4, max: 8, valueType: 'numeric' as const, specificType: null };
  assert.match(fieldIssue(pin, '12a4') ?? '', /digits only/);
  assert.match(fieldIssue(pin, '123456789') ?? '', /4 to 8 characters/);
  assert.ok(sameValue(f, '12345678z', '12345678Z'), 'identity documents ignore case');
  assert.ok(!sameValue(pin, '1234', '1235'));
});
