/**
 * The names of the bank's fields in the checkout's language. The provider names every field in
 * Spanish (the bank's own words): the sign-in fields, the second login's and each validation's.
 * In Spanish those words name the field; in any other language the kit names it (a sign-in
 * field the catalogues know by its words, else by what it stands for; a second login or a
 * validation by its type, with the card position it asks for), and the bank's own words, when
 * they are not the name, go with the field as a description marked as Spanish. A field's
 * accessible name is never the bank's Spanish in another language.
 */
import type { FieldView } from '@bank-checkout/contract';
import type { MessageKey, MessageParams } from '../i18n/index.js';
import { normalizeForSearch } from '../logic/format.js';

type Translate = (key: MessageKey, params?: MessageParams) => string;

/** The bank's names (lower case, without accents) of the fields the catalogues name. */
const KNOWN: Record<string, MessageKey> = {
  usuario: 'bankField.user',
  'codigo de usuario': 'bankField.userCode',
  'codigo de empresa': 'bankField.companyCode',
  contrasena: 'bankField.password',
  clave: 'bankField.password',
  'clave de acceso': 'bankField.password',
  'dni / nie': 'bankField.dniNie',
  'nif / nie': 'bankField.nifNie',
  cif: 'bankField.cif',
  'cif de la empresa': 'bankField.cif',
  'numero de tarjeta': 'bankField.cardNumber',
  'pin de la tarjeta': 'bankField.cardPin',
};

/** The language the provider names fields in. */
export const PROVIDER_LANG = 'es';

const speaksProviders = (locale: string) => locale.split('-')[0] === PROVIDER_LANG;

/**
 * A field's name. `lang`: the text stays the bank's, in a language other than the checkout's (a
 * way to sign in the catalogues cannot name). `bank`: the bank's own words for the field, when
 * they are not its name (shown with it as a description, in Spanish).
 */
export interface FieldName {
  text: string;
  lang?: string;
  bank?: string;
}

type Named = Pick<FieldView, 'label' | 'specificType'>;

function known(field: Named): MessageKey | undefined {
  return (
    KNOWN[normalizeForSearch(field.label)] ??
    (field.specificType === 'DNI_NIE' ? 'bankField.dniNie' : field.specificType === 'CIF' ? 'bankField.cif' : undefined)
  );
}

/** The kit's name (`key`), or in Spanish the bank's own words; the bank's words kept aside when they are not the name. */
function named(bankLabel: string, locale: string, t: Translate, key: MessageKey, params?: MessageParams): FieldName {
  if (speaksProviders(locale) && bankLabel.trim()) return { text: bankLabel };
  const text = t(key, params);
  return bankLabel.trim() && normalizeForSearch(bankLabel) !== normalizeForSearch(text) ? { text, bank: bankLabel } : { text };
}

/** What a sign-in field stands for in the login call, as the BFF reads it: its id when it names one, else its place. */
const SLOT_NAMES: Record<string, MessageKey> = { userId: 'bankField.user', userSecret: 'bankField.password', userExtraField: 'bankField.extra' };
const SLOTS = ['userId', 'userSecret', 'userExtraField'];

/**
 * The name of a sign-in field in `locale`: the bank's own in Spanish; elsewhere the catalogues'
 * name for its words, else for what it stands for (`index`: its place in the login type).
 */
export function fieldName(field: Named & Partial<Pick<FieldView, 'fieldId' | 'password'>>, locale: string, t: Translate, index = 0): FieldName {
  const slot = field.fieldId && SLOTS.includes(field.fieldId) ? field.fieldId : field.password ? 'userSecret' : SLOTS[index];
  return named(field.label, locale, t, known(field) ?? SLOT_NAMES[slot ?? ''] ?? 'bankField.extra');
}

/**
 * The name of a way to sign in ("DNI y clave"): in Spanish the bank's; elsewhere its fields'
 * names as a list ("DNI / NIE and password") when the catalogues name them all, else the bank's
 * own words (marked as Spanish).
 */
export function loginTypeName(login: { label: string; fields: readonly Named[] }, locale: string, t: Translate): FieldName {
  const keys = login.fields.map(known);
  if (speaksProviders(locale)) return { text: login.label };
  if (!keys.length || keys.some((k) => !k)) return { text: login.label, lang: PROVIDER_LANG };
  // Each name after the first in lower case unless it is an acronym ("DNI / NIE" stays).
  const names = keys.map((k, i) => {
    const name = t(k!);
    return i && !/^\p{Lu}{2}/u.test(name) ? name.charAt(0).toLocaleLowerCase(locale) + name.slice(1) : name;
  });
  return { text: new Intl.ListFormat(locale, { type: 'conjunction' }).format(names) };
}

/** A card position ("B3", "AA12") in a bank's words, if they name one. */
export function positionIn(text: string | null | undefined): string | null {
  const m = /(?:^|[^\p{L}\p{N}])(\p{Lu}{1,2})\s?-?\s?(\d{1,2})(?=$|[^\p{L}\p{N}])/u.exec(text ?? '');
  return m ? `${m[1]}${m[2]}` : null;
}

/** The name of the second login's field: by its type (1 SMS, 2 coordinates card, 3 the bank's app), with the position asked. */
export function secondLoginName(type: number, position: string | null, field: Named, locale: string, t: Translate): FieldName {
  if (type === 2) return position ? named(field.label, locale, t, 'second.nameAt', { position }) : named(field.label, locale, t, 'second.name2');
  return named(field.label, locale, t, type === 1 ? 'second.name1' : 'second.name3');
}

/**
 * The name of a validation's field: by its type (0 signature, 1 SMS, 2 and 3 a position of the
 * payer's card, 4 token, 5 a position of the card shown), with the position asked.
 */
export function validationName(type: number, position: string | null, field: Named, locale: string, t: Translate): FieldName {
  const key = ((): [MessageKey, MessageParams?] => {
    switch (type) {
      case 0:
        return ['challenge.name0'];
      case 1:
        return ['challenge.name1'];
      case 2:
      case 3:
        return position ? ['challenge.nameAt', { position }] : ['challenge.name3'];
      case 5:
        return position ? ['challenge.nameAtShown', { position }] : ['challenge.name5'];
      default:
        return ['challenge.name4'];
    }
  })();
  return named(field.label, locale, t, ...key);
}
