/**
 * The isolated checkout's first screen as HTML, from public facts only: the BFF's bank list, the
 * language, whether the BFF is a sandbox. The BFF writes it into the frame's page
 * (`GET /v1/frame?state=select-bank&lang=…`, `&mode=native` for a checkout that offers other ways
 * to pay), so the bank list shows as soon as the page is read,
 * before the kit has loaded and before the launch token is redeemed. It holds nothing of a
 * checkout: the summary keeps its place (one line for the amount, one for the payee) with no
 * value in it, so the same page serves every checkout of the BFF in that language, and the
 * BFF can keep it (it changes with the bank list only).
 *
 * It is what `<bank-checkout>` draws at a native checkout's start, written as plain HTML: the
 * same elements, classes and styles (declarative shadow roots on two plain hosts that the kit
 * never upgrades), so that nothing moves when the kit's own `<bank-checkout>` takes its place
 * with the checkout's facts (frame/page-checkout.ts). A browser test keeps the two the same.
 * Runs on the BFF's server: no DOM.
 */
import type { BankGroupView, BankView } from '@bank-checkout/contract';
import { KIT_LOCALES } from '@bank-checkout/contract';
import { elementStyles } from '../shared/styles.js';
import { checkoutStyles } from '../bank-checkout/bank-checkout.styles.js';
import { selectorStyles } from '../bank-selector/bank-selector.styles.js';
import { firstBanks, listBanks } from '../bank-selector/bank-list.js';
import { registerCatalogue, registerTexts, translate, type MessageKey } from '../i18n/index.js';
import { enFrame } from '../i18n/en-frame.js';
import { esFrame } from '../i18n/es-frame.js';
import { ca } from '../i18n/ca.js';
import { eu } from '../i18n/eu.js';
import { gl } from '../i18n/gl.js';
import { FRAME_PAGE_CSS } from './page-style.js';

registerTexts({ en: enFrame, es: esFrame });
for (const [locale, catalogue] of [
  ['ca', ca],
  ['eu', eu],
  ['gl', gl],
] as const)
  registerCatalogue(locale, catalogue);

/** Options the bank list draws at first (`<bank-selector>`'s window). */
const WINDOW = 12;

export interface FirstScreenInput {
  /** The bank groups as the elements get them (`GET /v1/banks`). */
  groups: readonly BankGroupView[];
  /** One of the kit's languages. */
  locale: string;
  /** The BFF runs against the provider's test environment (the test banner shows). */
  sandbox: boolean;
  /**
   * The checkout offers other ways to pay, and the shop's page asked for this one (the element's
   * `mode="native"`): the way to pay shows as one line, with Change, above the bank list.
   */
  modeLine?: boolean;
}

export interface FirstScreen {
  /** The page's language. */
  lang: string;
  /** The page's title (text, not HTML). */
  title: string;
  /** What the page's `<main>` holds: the landmark's name, the first screen, and the kit's `<bank-checkout>`, hidden until it takes over. */
  main: string;
  /** The page's own style (its head). */
  pageStyle: string;
  /** The text of every `<style>` element of `main` (for the page's policy to allow by hash). */
  styles: string[];
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const optionId = (bankId: string) => `bank-${bankId.replace(/[^\w-]/g, '_')}`;
const styleText = (sheets: readonly { cssText: string }[]) => sheets.map((s) => s.cssText).join('\n');

/** The first screen in `locale` (null for a language the kit does not speak, or no bank to list). */
export function firstScreen({ groups, locale, sandbox, modeLine = false }: FirstScreenInput): FirstScreen | null {
  if (!(KIT_LOCALES as readonly string[]).includes(locale)) return null;
  const t = (key: MessageKey) => escape(translate(locale, key));
  const list = listBanks(groups, '', 0, null);
  if (!list.total) return null;
  const total = list.total;
  const option = (bank: BankView, position: number) =>
    `<div role="option" id="${optionId(bank.bankId)}" part="option"${bank.active ? '' : ' class="maintenance"'} aria-selected="false" aria-posinset="${position}" aria-setsize="${total}" data-bank="${escape(bank.bankId)}"><span>${escape(bank.label)}</span>${bank.active ? '' : `<span class="badge">${t('selector.maintenance')}</span>`}</div>`;
  const shown = firstBanks(list, WINDOW);
  const last = shown.at(-1);
  const options = shown
    .map((s, i) =>
      s.banks.length === 1 && s.banks[0]!.label.trim().toLowerCase() === groups[s.group]!.name.trim().toLowerCase()
        ? option(s.banks[0]!, s.start + 1)
        : `<div role="group" aria-labelledby="group-${i}"><div id="group-${i}" class="group-name" part="group" role="presentation">${escape(groups[s.group]!.name)}</div>${s.banks.map((b, j) => option(b, s.start + j + 1)).join('')}</div>`,
    )
    .join('');
  const more = last && last.start + last.banks.length < total ? '<div class="more" role="presentation"></div>' : '';
  const personType = list.personType
    ? `<fieldset part="person-type"><legend>${t('selector.personType')}</legend><div class="person"><label class="choice"><input type="radio" name="person-type" checked>${t('selector.natural')}</label><label class="choice"><input type="radio" name="person-type">${t('selector.legal')}</label></div></fieldset>`
    : '';
  const selectorStyle = styleText([...elementStyles, selectorStyles]);
  const selector =
    `<div class="first-selector"><template shadowrootmode="open"><style>${selectorStyle}</style><section class="stack" part="selector">` +
    `<h2 id="title" part="title" tabindex="-1">${t('selector.title')}</h2>${personType}` +
    `<div class="field"><label for="search">${t('selector.search')}</label><input id="search" part="search" type="text" role="combobox" aria-controls="banks" aria-expanded="true" aria-autocomplete="list" autocomplete="off" spellcheck="false"></div>` +
    `<p class="sr-only" role="status"></p>` +
    `<div id="banks" role="listbox" part="listbox" aria-label="${t('selector.banks')}">${options}${more}</div>` +
    `</section></template></div>`;
  const checkoutStyle = styleText([...elementStyles, checkoutStyles]);
  // The summary keeps the place of its facts (one line each) with nothing in it: it is no
  // checkout's yet, so assistive technology is not shown it, nor are Change and Cancel, which
  // have nothing to act on yet.
  const screen =
    `<div class="first-screen"><template shadowrootmode="open"><style>${checkoutStyle}</style>` +
    `<div class="checkout" part="base" lang="${locale}" aria-busy="false">` +
    (sandbox ? `<p class="notice" part="sandbox-banner">${t('sandbox.banner')}</p>` : '') +
    `<section class="summary" part="summary" aria-label="${t('summary.label')}" inert><dl><dt>${t('summary.amount')}</dt><dd class="amount" part="amount">&nbsp;</dd><dt>${t('summary.payee')}</dt><dd>&nbsp;</dd></dl>` +
    `<details part="summary-details"><summary>${t('summary.details')}</summary><dl></dl></details></section>` +
    `<p class="status sr-only" role="status" part="status"></p>` +
    (modeLine
      ? `<div class="modes chosen" part="modes" inert><span>${t('mode.native')}</span><button type="button" class="link" part="modes-change" aria-label="${t('mode.changeLabel')}">${t('mode.change')}</button></div>`
      : '') +
    `<div class="step" part="step">${selector}</div>` +
    `<div class="cancel actions" part="cancel" inert><button type="button" class="link">${t('action.cancel')}</button></div>` +
    `</div></template></div>`;
  return {
    lang: locale,
    title: translate(locale, 'frame.title'),
    main: `<p class="title" id="frame-title" aria-hidden="true">${t('frame.title')}</p>${screen}<bank-checkout hidden></bank-checkout>`,
    pageStyle: FRAME_PAGE_CSS,
    styles: [checkoutStyle, selectorStyle],
  };
}
