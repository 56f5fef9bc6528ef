/**
 * The fields of the bank's steps in the payer's language, and the coordinates card at any width:
 * every validation and second-login field named by the kit in English, Catalan, Basque and
 * Galician (the position it asks for in its name), the bank's Spanish words beside it as a
 * description; a card wider than its place scrolls to the asked cell and never pushes the field
 * out of view.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../src/bank-challenge/bank-challenge.js';
import '../src/bank-second-login/bank-second-login.js';
import type { BankChallenge } from '../src/bank-challenge/bank-challenge.js';
import type { BankSecondLogin } from '../src/bank-second-login/bank-second-login.js';
import type { FieldView, ValidationView } from '@bank-checkout/contract';
import { field, manualClock, until, validation, view } from './fixtures.js';

const bank = { bankId: 'cantabrico', label: 'Banco Cantábrico' };
const clock = manualClock();
const deadline = () => new Date(clock.now() + 90_000).toISOString();

/** An SVG card of `cols` columns and 5 rows, 4-digit values, as the simulator draws one. */
function svgCard(cols: string[]): string {
  const parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200"><text x="200" y="14">Tarjeta de coordenadas</text>'];
  cols.forEach((c, i) => parts.push(`<text x="${50 + 50 * i}" y="36">${c}</text>`));
  for (const r of [1, 2, 3, 4, 5]) {
    parts.push(`<text x="12" y="${40 + 28 * r}">${r}</text>`);
    cols.forEach((_, i) => parts.push(`<text x="${50 + 50 * i}" y="${40 + 28 * r}">${1000 + 100 * i + r}</text>`));
  }
  return `data:image/svg+xml;base64,${btoa(`${parts.join('')}</svg>`)}`;
}

/** Every validation type a payer types into, with the words the simulated banks use. */
const VALIDATIONS: ValidationView[] = [
  validation(0, { fieldId: 'signature', label: 'Firma (clave de operaciones)', password: true }),
  validation(1, { fieldId: 'smsCode', label: 'Código recibido por SMS', value: '+34 6** *** 412' }),
  validation(2, { fieldId: 'coord2', label: 'Valor de la coordenada B3 de su tarjeta', value: 'B3' }),
  validation(3, { fieldId: 'coord3', label: 'Valor en su tarjeta de la coordenada recibida por SMS (D4)', value: 'D4' }),
  validation(4, { fieldId: 'token', label: 'Código del token' }),
  validation(5, { fieldId: 'coord5', label: 'Valor de la coordenada E2 de la tarjeta mostrada', value: svgCard(['A', 'B', 'C', 'D', 'E']) }),
];

const NAMES: Record<string, string[]> = {
  en: [
    'Signature code',
    'Code received by SMS',
    'Value at B3 on your coordinates card',
    'Value at D4 on your coordinates card',
    'Code from your token or app',
    'Value at E2 on the card shown',
  ],
  ca: [
    'Codi de signatura',
    'Codi rebut per SMS',
    'Valor de la posició B3 de la teva targeta de coordenades',
    'Valor de la posició D4 de la teva targeta de coordenades',
    'Codi del token o de l’app',
    'Valor de la posició E2 de la targeta mostrada',
  ],
  eu: [
    'Sinadura-kodea',
    'SMS bidez jasotako kodea',
    'Zure koordenatu-txartelaren B3 posizioko balioa',
    'Zure koordenatu-txartelaren D4 posizioko balioa',
    'Tokenaren edo aplikazioaren kodea',
    'Erakutsitako txartelaren E2 posizioko balioa',
  ],
  gl: [
    'Código de sinatura',
    'Código que recibiches por SMS',
    'Valor da posición B3 da túa tarxeta de coordenadas',
    'Valor da posición D4 da túa tarxeta de coordenadas',
    'Código do token ou da app',
    'Valor da posición E2 da tarxeta amosada',
  ],
};

/** Each input's accessible name (its label), and the bank's words it is described by (with their language). */
function fields(el: Element) {
  const root = el.shadowRoot!;
  return [...root.querySelectorAll('input')].map((i) => {
    const described = (i.getAttribute('aria-describedby') ?? '').split(' ').map((id) => root.getElementById(id));
    const bankText = described.find((d) => d?.getAttribute('part') === 'bank-text')?.querySelector('q');
    return { name: i.labels![0]!.textContent.trim(), bank: bankText?.textContent ?? null, lang: bankText?.lang ?? null };
  });
}

async function challenge(locale: string, validations = VALIDATIONS): Promise<BankChallenge> {
  const v = view({ state: 'validate', bank, round: 1, deadline: deadline(), validations });
  const el = await fixture<BankChallenge>(html`<bank-challenge locale=${locale} .clock=${clock} .view=${v}></bank-challenge>`);
  await until(() => el.shadowRoot!.querySelectorAll('input').length === validations.length, 'the fields');
  return el;
}

describe('the bank’s fields in the payer’s language', () => {
  for (const locale of ['en', 'ca', 'eu', 'gl']) {
    it(`${locale}: every validation type is named by the kit, with the position it asks for; the bank’s Spanish words describe it`, async () => {
      const el = await challenge(locale);
      await until(() => fields(el)[0]!.name === NAMES[locale]![0], `the ${locale} names`);
      const shown = fields(el);
      expect(shown.map((f) => f.name)).to.deep.equal(NAMES[locale]);
      expect(
        shown.map((f) => f.bank),
        'the bank’s own words, each as a description',
      ).to.deep.equal(VALIDATIONS.map((v) => v.label));
      expect(shown.every((f) => f.lang === 'es')).to.equal(true);
      for (const [i, f] of shown.entries()) expect(f.name, 'never the bank’s Spanish').not.to.equal(VALIDATIONS[i]!.label);
      // The reveal button of a masked code names the field in the same language, mid-sentence ("Show signature code").
      const name = NAMES[locale]![0]!;
      expect(el.shadowRoot!.querySelector('[part=reveal] .sr-only')!.textContent.trim()).to.equal(name[0]!.toLowerCase() + name.slice(1));
      await expect(el).to.be.accessible();
    });
  }

  it('es: the bank’s own words name the fields, with nothing beside them', async () => {
    const el = await challenge('es');
    expect(fields(el)).to.deep.equal(VALIDATIONS.map((v) => ({ name: v.label, bank: null, lang: null })));
  });

  it('an approval in the bank’s app keeps the bank’s words, marked as Spanish', async () => {
    const v = validation(6, { fieldId: 'app', label: 'Confirme la operación en la app', value: 'Abra la app y confirme el pago' });
    const el = await fixture<BankChallenge>(
      html`<bank-challenge locale="en" .clock=${clock} .view=${view({ state: 'validate', bank, round: 1, deadline: deadline(), validations: [v] })}></bank-challenge>`,
    );
    const label = await until(() => el.shadowRoot!.querySelector('[part=device-label]'), 'the bank’s words');
    expect([label.getAttribute('lang'), el.shadowRoot!.querySelector('[part=device-instructions]')!.getAttribute('lang')]).to.deep.equal(['es', 'es']);
  });

  const SECOND: [1 | 2 | 3, string | null, FieldView, Record<string, string>][] = [
    [
      1,
      '+34 6** *** 218',
      field({ fieldId: 'smsCode', label: 'Código de acceso recibido por SMS', min: 4, max: 8, valueType: 'numeric' }),
      { en: 'Access code received by SMS', gl: 'Código de acceso que recibiches por SMS' },
    ],
    [
      2,
      'C5',
      field({ fieldId: 'coordinate', label: 'Valor de la coordenada C5 de su tarjeta', min: 4, max: 4, valueType: 'numeric', password: true }),
      { en: 'Value at C5 on your coordinates card', gl: 'Valor da posición C5 da túa tarxeta de coordenadas' },
    ],
    [
      3,
      'Cantábrico Móvil',
      field({ fieldId: 'appToken', label: 'Código de la app Cantábrico Móvil', min: 4, max: 8, valueType: 'numeric' }),
      { en: 'Code from your bank’s app', gl: 'Código da app do teu banco' },
    ],
  ];
  for (const [type, value, f, names] of SECOND) {
    it(`the second login of type ${type} is named by the kit in English and Galician, the bank’s words beside it`, async () => {
      for (const locale of ['en', 'gl']) {
        const el = await fixture<BankSecondLogin>(
          html`<bank-second-login locale=${locale} .view=${view({ state: 'second-login', bank, type, value, field: f })}></bank-second-login>`,
        );
        await until(() => fields(el)[0]?.name === names[locale], `the ${locale} name`);
        expect(fields(el)).to.deep.equal([{ name: names[locale], bank: f.label, lang: 'es' }]);
        await expect(el).to.be.accessible();
      }
    });
  }
});

describe('the coordinates card at any width', () => {
  afterEach(() => setViewport({ width: 800, height: 600 }));

  const WIDE = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'];
  const askedAt = (position: string) => [
    validation(5, { fieldId: 'card', label: `Valor de la coordenada ${position} de la tarjeta mostrada`, value: svgCard(WIDE) }),
  ];

  /** What a payer at this width sees of the card and the field. */
  function look(el: BankChallenge) {
    const root = el.shadowRoot!;
    const scroller = root.querySelector<HTMLElement>('[part=card-scroll]')!;
    const cell = root.querySelector<HTMLElement>('[part=card-asked]')!;
    const input = root.querySelector('input')!;
    const host = el.getBoundingClientRect();
    const box = scroller.getBoundingClientRect();
    const c = cell.getBoundingClientRect();
    const i = input.getBoundingClientRect();
    return {
      scrolls: scroller.scrollWidth > scroller.clientWidth,
      tabStop: scroller.tabIndex === 0,
      labelled: root.getElementById(scroller.getAttribute('aria-labelledby')!)?.textContent,
      cellInView: c.left >= box.left - 0.5 && c.right <= box.right + 0.5,
      wholeInput: i.left >= host.left - 0.5 && i.right <= host.right + 0.5 && i.width > 100,
      pageScrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth,
      name: input.labels![0]!.textContent.trim(),
    };
  }

  for (const width of [280, 320]) {
    it(`at ${width} px: a card too wide scrolls by itself to the asked cell (a tab stop), the field whole and named with the position`, async () => {
      await setViewport({ width, height: 700 });
      for (const position of ['J4', 'A2']) {
        const el = await challenge('en', askedAt(position));
        await until(() => look(el).tabStop && look(el).cellInView, `${position} in view`);
        expect(look(el)).to.deep.equal({
          scrolls: true,
          tabStop: true,
          labelled: 'Your coordinates card, as your bank shows it',
          cellInView: true,
          wholeInput: true,
          pageScrolls: false,
          name: `Value at ${position} on the card shown`,
        });
        await expect(el).to.be.accessible();
      }
    });
  }

  it('five columns in a 280 px phone’s checkout (236 px): drawn smaller, the card fits, no sideways scroll and no tab stop; wider again, its own size', async () => {
    const el = await challenge('en', [
      validation(5, { fieldId: 'card', label: 'Valor de la coordenada E3 de la tarjeta mostrada', value: svgCard(['A', 'B', 'C', 'D', 'E']) }),
    ]);
    const scroller = () => el.shadowRoot!.querySelector<HTMLElement>('[part=card-scroll]')!;
    const size = () => parseFloat(getComputedStyle(scroller().querySelector('td')!).fontSize);
    const full = size();
    el.style.width = '236px';
    await until(() => scroller().classList.contains('compact'), 'drawn smaller');
    const seen = look(el);
    expect([seen.scrolls, seen.tabStop, seen.cellInView, seen.wholeInput]).to.deep.equal([false, false, true, true]);
    expect(size()).to.be.below(full);
    await expect(el).to.be.accessible();
    el.style.width = '';
    await until(() => !scroller().classList.contains('compact'), 'its own size again');
    expect(size()).to.equal(full);
  });

  it('wide enough: the card does not scroll and is no tab stop', async () => {
    const el = await challenge('en', [
      validation(5, { fieldId: 'card', label: 'Valor de la coordenada B2 de la tarjeta mostrada', value: svgCard(['A', 'B', 'C']) }),
    ]);
    const seen = look(el);
    expect([seen.scrolls, seen.tabStop, seen.cellInView, seen.wholeInput]).to.deep.equal([false, false, true, true]);
  });
});
