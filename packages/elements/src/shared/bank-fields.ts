/**
 * The names of the bank's sign-in fields in the checkout's language. The provider names the
 * fields in Spanish (the bank's own words); the fields every bank asks for (user, password, DNI,
 * card number, …) are named from the catalogues in any other language, and a name the kit does
 * not know stays the bank's, marked as Spanish for assistive technology.
 */
import type { FieldView } from '@bank-checkout/contract';
import type { MessageKey } from '../i18n/index.js';
import { normalizeForSearch } from '../logic/format.js';

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
const PROVIDER_LANG = 'es';

/** A field's name: `lang` is set when the text stays the bank's, in a language other than the checkout's. */
export interface FieldName {
  text: string;
  lang?: string;
}

type Named = Pick<FieldView, 'label' | 'specificType'>;

function key(field: Named): MessageKey | undefined {
  return (
    KNOWN[normalizeForSearch(field.label)] ??
    (field.specificType === 'DNI_NIE' ? 'bankField.dniNie' : field.specificType === 'CIF' ? 'bankField.cif' : undefined)
  );
}

/** The name of a sign-in field in `locale` (the bank's own in Spanish). */
export function fieldName(field: Named, locale: string, t: (key: MessageKey) => string): FieldName {
  if (locale.split('-')[0] === PROVIDER_LANG) return { text: field.label };
  const k = key(field);
  return k ? { text: t(k) } : { text: field.label, lang: PROVIDER_LANG };
}

/**
 * The name of a way to sign in ("DNI y clave"): in Spanish the bank's; elsewhere its fields'
 * names as a list ("DNI / NIE and password") when the catalogues name them all.
 */
export function loginTypeName(login: { label: string; fields: readonly Named[] }, locale: string, t: (key: MessageKey) => string): FieldName {
  const keys = login.fields.map(key);
  if (locale.split('-')[0] === PROVIDER_LANG || !keys.length || keys.some((k) => !k)) return fieldName({ label: login.label, specificType: null }, locale, t);
  // Each name after the first in lower case unless it is an acronym ("DNI / NIE" stays).
  const names = keys.map((k, i) => {
    const name = t(k!);
    return i && !/^\p{Lu}{2}/u.test(name) ? name.charAt(0).toLocaleLowerCase(locale) + name.slice(1) : name;
  });
  return { text: new Intl.ListFormat(locale, { type: 'conjunction' }).format(names) };
}
