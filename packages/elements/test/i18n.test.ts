import { midSentence } from '../src/shared/fields.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { en as enUpFront } from '../src/i18n/en.js';
import { enChallenge } from '../src/i18n/en-challenge.js';
import { enPeriodic } from '../src/i18n/en-periodic.js';
import { enSteps } from '../src/i18n/en-steps.js';
import { enExtras } from '../src/i18n/en-extras.js';
import { enFrame } from '../src/i18n/en-frame.js';
// The steps' texts, registered as the steps' file does when it runs (the tests below use them).
import '../src/i18n/steps.js';
import { es as esUpFront } from '../src/i18n/es.js';
import { esChallenge } from '../src/i18n/es-challenge.js';
import { esPeriodic } from '../src/i18n/es-periodic.js';
import { esSteps } from '../src/i18n/es-steps.js';
import { esExtras } from '../src/i18n/es-extras.js';
import { esFrame } from '../src/i18n/es-frame.js';
import { ca } from '../src/i18n/ca.js';
import { eu } from '../src/i18n/eu.js';
import { gl } from '../src/i18n/gl.js';
import { errorKey, interpolate, registerCatalogue, registerTexts, resolveLocale, translate, type Catalogue } from '../src/i18n/index.js';
import { NATIVE_ERROR_CODES } from '@bank-checkout/provider';
import { API_ERROR_CODES, BFF_ERROR_CODES, CLIENT_ERROR_CODES, MERCHANT_ERROR_CODES, PROVIDER_ERROR_CODES } from '@bank-checkout/contract';

/** English and Spanish whole: what a page loads up front, and the parts the forms and the extras bring. */
const en: Catalogue = { ...enUpFront, ...enSteps, ...enChallenge, ...enPeriodic, ...enExtras, ...enFrame };
const es: Catalogue = { ...esUpFront, ...esSteps, ...esChallenge, ...esPeriodic, ...esExtras, ...esFrame };
const catalogues = { en, es, ca, eu, gl } as const;
const params = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('catalogues', () => {
  for (const [name, cat] of Object.entries(catalogues)) {
    it(`${name} has every key of English, no other, each non-empty with the same parameters`, () => {
      assert.deepEqual(Object.keys(cat).sort(), Object.keys(en).sort());
      for (const [key, text] of Object.entries(en)) {
        const translated = (cat as Record<string, string>)[key]!;
        assert.ok(translated.trim().length > 0, `${name}:${key} is empty`);
        assert.deepEqual(params(translated), params(text), `${name}:${key} parameters differ`);
      }
    });
  }

  it('uses every key: each is named in the sources, or built there from a prefix (`error.${code}`)', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const p = join(dir, name);
        return statSync(p).isDirectory() ? (name === 'i18n' ? [] : sources(p)) : p.endsWith('.ts') ? [readFileSync(p, 'utf8')] : [];
      });
    const code = sources(new URL('../src/', import.meta.url).pathname).join('\n');
    const prefixes = [...code.matchAll(/`([a-z]+\.)\$\{/gi)].map((m) => m[1]!);
    const unused = Object.keys(en).filter((key) => !code.includes(`'${key}'`) && !prefixes.some((p) => key.startsWith(p)));
    assert.deepEqual(unused, [], 'keys no element shows (each costs bytes in every page)');
  });

  it('Spanish, Catalan, Basque and Galician are translated, not copies of English', () => {
    const same = (cat: Record<string, string>) => Object.keys(en).filter((k) => cat[k] === (en as Record<string, string>)[k]);
    assert.ok(same(es).length <= 2, `untranslated in es: ${same(es).join(', ')}`);
    assert.ok(same(ca).length <= 2, `untranslated in ca: ${same(ca).join(', ')}`);
    assert.ok(same(eu).length <= 2, `untranslated in eu: ${same(eu).join(', ')}`);
    assert.ok(same(gl).length <= 2, `untranslated in gl: ${same(gl).join(', ')}`);
  });

  it('has a message for every provider and BFF error code in every locale', () => {
    const codes = [...NATIVE_ERROR_CODES, ...BFF_ERROR_CODES];
    assert.ok(codes.includes('B100') && codes.includes('E302') && codes.includes('invalid_state'));
    for (const code of codes) {
      assert.equal(errorKey(code), `error.${code}`, `no message for ${code}`);
      for (const cat of Object.values(catalogues)) assert.ok((cat as Record<string, string>)[`error.${code}`]);
    }
  });
});

describe('the contract’s error codes', () => {
  it('each one a payer may meet has a text in English and Spanish: its own (up front, or with the isolated frame’s page for what only it meets), or the generic one for the listed faults', () => {
    const merchantOnly: readonly string[] = MERCHANT_ERROR_CODES;
    const payer = [...new Set([...API_ERROR_CODES, ...BFF_ERROR_CODES, ...PROVIDER_ERROR_CODES, ...CLIENT_ERROR_CODES])].filter(
      (c) => !merchantOnly.includes(c),
    );
    const generic = [
      'generic',
      'invalid_json',
      'payload_too_large',
      'unsupported_media_type',
      'http_error',
      'invalid_response',
      'bank_unavailable',
      'login_unavailable',
      'provider_error',
      'provider_rejected',
      'frame_unavailable',
      'frame_unreachable',
      'frame_timeout',
      'frame_refused',
      'secret_refused',
      'unavailable',
      'store_unavailable',
      'not_sent',
      'origin_refused',
      'handoff_invalid',
      'handoff_expired',
      'internal',
    ];
    // Only the isolated frame meets these: its page brings their texts (en-frame.ts).
    registerTexts({ en: enFrame, es: esFrame });
    for (const code of payer) {
      const key = errorKey(code);
      assert.equal(key, generic.includes(code) ? 'error.generic' : `error.${code}`, code);
      const frame = Object.hasOwn(enFrame, key);
      for (const [name, cat] of [
        ['en', frame ? enFrame : enUpFront],
        ['es', frame ? esFrame : esUpFront],
      ] as const)
        assert.ok((cat as Record<string, string>)[key], `${code} in ${name}`);
    }
    assert.ok(
      payer.every((c) => !/-/.test(c) || /^[BE]\d{3}$/.test(c)),
      'one spelling: snake_case',
    );
    assert.ok(
      API_ERROR_CODES.every((c) => /^[a-z]+(_[a-z]+)*$/.test(c)),
      'the API codes are snake_case',
    );
  });
});

describe('locale resolution and messages', () => {
  it('takes the attribute, then the browser languages, then English', () => {
    assert.equal(resolveLocale('es', ['en-GB']), 'es');
    assert.equal(resolveLocale('es-ES'), 'es');
    assert.equal(resolveLocale(undefined, ['fr-FR', 'es-MX']), 'es');
    assert.equal(resolveLocale('de', ['fr']), 'en');
    assert.equal(resolveLocale(null, []), 'en');
  });

  it('resolves Basque and Galician once registered as the package entry does', () => {
    registerCatalogue('eu', eu);
    registerCatalogue('gl', gl);
    assert.equal(resolveLocale('eu-ES'), 'eu');
    assert.equal(resolveLocale(undefined, ['gl-ES']), 'gl');
  });

  it('has the texts of the forms on demand split by the prefixes their files use, and each form adds its own', () => {
    for (const key of Object.keys(enUpFront))
      assert.ok(
        !/^(challenge|periodic|iban|frequency|login|maintenance|second|contract|account|field|bankField|session)\./.test(key),
        `${key} belongs with its form`,
      );
    // The steps' own, the lines shown beside them, and the errors only they meet (a sign-in or a transfer's start the bank did not answer).
    for (const key of Object.keys(enSteps)) assert.match(key, /^(login|maintenance|second|contract|account|field|bankField|session)\.|^error\.\w+NoAnswer$/);
    for (const key of Object.keys(enChallenge)) assert.match(key, /^challenge\./);
    for (const key of Object.keys(enPeriodic)) assert.match(key, /^(periodic|iban|frequency)\./);
    registerTexts({ en: enChallenge, es: esChallenge });
    assert.equal(translate('es', 'challenge.title'), esChallenge['challenge.title']);
    // A catalogue registered whole keeps its own texts when a form brings the kit's.
    registerCatalogue('qq', { ...en, 'periodic.title': 'Own title' });
    registerTexts({ qq: enPeriodic });
    assert.equal(translate('qq', 'periodic.title'), 'Own title');
  });

  it('uses a registered locale and falls back to English for a key it lacks', () => {
    registerCatalogue('xx', { ...en, 'login.submit': 'Xign in' });
    assert.equal(resolveLocale('xx-YY'), 'xx');
    assert.equal(translate('xx', 'login.submit'), 'Xign in');
    assert.equal(translate('zz', 'login.submit'), en['login.submit']);
  });

  it('interpolates named parameters and leaves unknown ones visible', () => {
    assert.equal(interpolate('Pay {amount} to {payee}', { amount: '5 €' }), 'Pay 5 € to {payee}');
    assert.equal(translate('es', 'account.submit', { amount: '42,50 €' }), 'Pagar 42,50 €');
  });

  it('maps error codes to keys: the view key first, then the code, then generic', () => {
    assert.equal(errorKey('B100', 'error.B100'), 'error.B100');
    assert.equal(errorKey('whatever', 'error.B105'), 'error.B105');
    assert.equal(errorKey('rate_limited', 'not.a.key'), 'error.rate_limited');
    assert.equal(errorKey('Z999'), 'error.generic');
    assert.equal(errorKey(null), 'error.generic');
  });
});

describe('source rules', () => {
  const src = new URL('../src/', import.meta.url).pathname;
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : n.endsWith('.ts') ? [join(dir, n)] : []));
  const sources = files(src).map((f) => ({ f, text: readFileSync(f, 'utf8') }));

  it('uses no styleMap, inline style, eval, Function, unsafeHTML or storage other than the bank ids and the frame’s key pairs', () => {
    assert.ok(sources.length >= 15);
    for (const { f, text } of sources) {
      for (const banned of [/styleMap/, /\bstyle=/, /\beval\(/, /new Function\(/, /unsafeHTML/, /unsafeCSS/, /document\.cookie/]) {
        assert.ok(!banned.test(text), `${f} uses ${banned}`);
      }
      // The isolated frame keeps its non-extractable key pairs there, and nothing else does.
      if (!f.endsWith('frame/keys.ts')) assert.ok(!/indexedDB/.test(text), `${f} uses indexedDB`);
      // The bank last used on this device.
      if (!f.endsWith('logic/banks.ts')) assert.ok(!/localStorage/.test(text), `${f} touches localStorage`);
      // The bank chosen in the list of one checkout, for a reload of it in the same tab (the isolated frame).
      if (!f.endsWith('frame/resume.ts')) assert.ok(!/sessionStorage/.test(text), `${f} touches sessionStorage`);
    }
  });

  it('imports only types from the BFF', () => {
    for (const { f, text } of sources) {
      for (const m of text.matchAll(/import\s+(type\s+)?[^;]*?from\s+'@bank-checkout\/bff[^']*'/g)) assert.ok(m[1], `${f}: runtime import from the BFF`);
    }
  });
});

describe('a label in the middle of a sentence', () => {
  it('lowers a capital that only starts a word, and keeps acronyms, codes and the rest', () => {
    assert.equal(midSentence('Password'), 'password');
    assert.equal(midSentence('Código SMS'), 'código SMS');
    assert.equal(midSentence('Zure koordenatu-txartelaren E3 posizioko balioa'), 'zure koordenatu-txartelaren E3 posizioko balioa');
    for (const kept of ['PIN', 'DNI', 'B3', 'E3 value', 'already lower', '']) assert.equal(midSentence(kept), kept);
  });
});
