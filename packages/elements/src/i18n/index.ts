/**
 * Typed per-locale message catalogues. English and Spanish are built in: the texts of what a
 * page loads up front, and the texts of each form loaded on demand with that form's own file
 * (`registerTexts`, called by the form's file as it runs). Catalan, Basque and Galician are
 * loaded whole when first asked for (a dynamic import the merchant's bundler splits into its
 * own file); other locales are added with `registerCatalogue`. A locale is chosen from the
 * `locale` attribute, then the browser's languages, then English.
 */
import { en, type Catalogue, type MessageKey } from './en.js';
import { es } from './es.js';
import type { PayerErrorCode, ViewMessageKey } from '@bank-checkout/contract';

export type { Catalogue, MessageKey };
export type MessageParams = Record<string, string | number>;

/** The texts of each locale; English and Spanish gain the texts of each form as it loads. */
const catalogues = new Map<string, Partial<Catalogue>>([
  ['en', en],
  ['es', es],
]);

/**
 * Adds the texts of a part of the kit loaded on demand (a form's file), by locale. Texts a
 * locale already has win: a catalogue registered whole (`registerCatalogue`) keeps its own.
 */
export function registerTexts(parts: Record<string, Partial<Catalogue>>): void {
  for (const [locale, texts] of Object.entries(parts)) catalogues.set(locale, { ...texts, ...catalogues.get(locale) });
}

export const DEFAULT_LOCALE = 'en';

/** Catalogues loaded on demand, by locale. */
const loaders = new Map<string, () => Promise<Catalogue>>([
  ['ca', () => import('./ca.js').then((m) => m.ca)],
  ['eu', () => import('./eu.js').then((m) => m.eu)],
  ['gl', () => import('./gl.js').then((m) => m.gl)],
]);
const loading = new Map<string, Promise<void>>();

/** Whether the texts of `locale` can be shown now (built in, registered, or loaded). */
export function isLocaleReady(locale: string): boolean {
  return catalogues.has(locale) || !loaders.has(locale);
}

/**
 * Loads the catalogue of `locale` if it is one loaded on demand. A failed load (offline, a
 * missing file) forgets the locale, so the elements fall back to the next language, in the end
 * English, instead of waiting for ever.
 */
export function loadLocale(locale: string): Promise<void> {
  const load = loaders.get(locale);
  if (catalogues.has(locale) || !load) return Promise.resolve();
  let pending = loading.get(locale);
  if (!pending) {
    pending = load().then(
      (catalogue) => registerCatalogue(locale, catalogue),
      () => {
        loaders.delete(locale);
      },
    );
    loading.set(locale, pending);
  }
  return pending;
}

/** Adds (or replaces) the catalogue of a locale such as `ca`. */
export function registerCatalogue(locale: string, catalogue: Catalogue): void {
  catalogues.set(locale.toLowerCase(), catalogue);
}

/** Every locale with texts: built in, registered, or loaded on demand. */
export function availableLocales(): string[] {
  return [...new Set([...catalogues.keys(), ...loaders.keys()])];
}

/**
 * The first candidate with a catalogue, tried as given (`es-es`) and by its language (`es`);
 * English when none has one.
 */
export function resolveLocale(...candidates: readonly (string | null | undefined | readonly string[])[]): string {
  for (const c of candidates.flat()) {
    if (!c) continue;
    const tag = c.toLowerCase();
    if (catalogues.has(tag) || loaders.has(tag)) return tag;
    const lang = tag.split(/[-_]/)[0]!;
    if (catalogues.has(lang) || loaders.has(lang)) return lang;
  }
  return DEFAULT_LOCALE;
}

/** The browser's preferred languages (empty outside a browser). */
export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  const languages = navigator.languages as readonly string[] | undefined;
  return languages?.length ? languages : navigator.language ? [navigator.language] : [];
}

/** Replaces `{name}` with its parameter; unknown names are left as they are. */
export function interpolate(template: string, params?: MessageParams): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

export function translate(locale: string, key: MessageKey, params?: MessageParams): string {
  const text = catalogues.get(locale)?.[key] ?? catalogues.get(DEFAULT_LOCALE)![key] ?? key;
  return interpolate(text, params);
}

/** A key of the texts loaded so far (the views' error messages are all up front). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(catalogues.get(DEFAULT_LOCALE)!, key);
}

/**
 * The message key for an error: the view's own key (`error.B100`) when the catalogue has it,
 * else `error.<code>`, else the generic message.
 */
export function errorKey(code: string | null | undefined, message?: string | null): MessageKey {
  if (message && isMessageKey(message)) return message;
  const byCode = `error.${code ?? ''}`;
  return isMessageKey(byCode) ? byCode : 'error.generic';
}

/**
 * The codes a payer may meet whose message is the generic one: a fault of the page's own
 * request, or of the service, that the payer can do nothing particular about. (The isolated
 * host's `frame_` codes have words of their own in the host, frame/host.ts `HOST_TEXTS`, which it
 * must have when nothing else can be loaded.)
 */
type GenericMessage =
  | 'generic'
  | 'invalid_json'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'http_error'
  | 'invalid_response'
  | 'bank_unavailable'
  | 'login_unavailable'
  | 'provider_error'
  | 'provider_rejected'
  | 'frame_unavailable'
  | 'frame_unreachable'
  | 'frame_timeout'
  | 'frame_refused'
  | 'secret_refused'
  | 'unavailable'
  | 'store_unavailable'
  | 'not_sent'
  | 'origin_refused'
  | 'handoff_invalid'
  | 'handoff_expired'
  | 'internal';
/** A code of the contract that has neither a message of its own nor the generic one: none (checked when the kit compiles). */
type Unspoken = Exclude<PayerErrorCode, GenericMessage | CodeOf<MessageKey>>;
type CodeOf<K> = K extends `error.${infer C}` ? C : never;
export type EveryErrorCodeHasText = [Unspoken] extends [never] ? true : { missing: Unspoken };
true satisfies EveryErrorCodeHasText;
/** A message key a view's error may name that the catalogues lack: none (checked when the kit compiles). */
type UnwrittenViewKey = Exclude<ViewMessageKey, MessageKey>;
export type EveryViewKeyHasText = [UnwrittenViewKey] extends [never] ? true : { missing: UnwrittenViewKey };
true satisfies EveryViewKeyHasText;
