/**
 * The messages between the thin host in the merchant's page and the checkout in its frame on
 * the BFF's origin: typed, versioned (`v`), and checked on arrival. Anything that is not one of
 * them is ignored (and logged in development).
 *
 * The handshake goes through `window.postMessage`: the frame says `ready` (it carries nothing),
 * the host answers `init` to the BFF's exact origin with the page's launch token and a
 * `MessagePort`; every later message goes through that port, in both directions. A frame that
 * cannot show the checkout says `failed` and why, through the window too (the BFF's page for an
 * origin it refuses has no port). The frame
 * redeems the launch token once for a key that never leaves it; it takes nothing else to open a
 * checkout (never a client secret, which any script of the page could hold).
 */
import type { CheckoutCompleteDetail, CheckoutErrorDetail, CheckoutStepDetail } from '../events.js';

export const FRAME_PROTOCOL = 1;

/** Custom properties and colour scheme computed on the host, applied inside the frame. */
export interface FrameTheme {
  /** `--bank-*` custom properties with their computed values. */
  vars: Record<string, string>;
  /** The host's computed `color-scheme` (`normal`, `light`, `dark`, `light dark`). */
  colorScheme: string;
}

/** What the host can set at runtime (a missing key is left as it is; null clears it). */
export interface FrameSettings {
  locale?: string | null;
  mode?: string | null;
  pollInterval?: number | null;
  theme?: FrameTheme;
}

export type FrameEventName = 'bank-checkout-step' | 'bank-checkout-complete' | 'bank-checkout-error';
export const FRAME_EVENTS: readonly FrameEventName[] = ['bank-checkout-step', 'bank-checkout-complete', 'bank-checkout-error'];

/**
 * What the host sends the frame: `hello` asks a frame that loaded before the host listened (one
 * the shop's page wrote in its HTML) to say `ready` again; `init` gives it the launch token and
 * its port; then the settings as they change, and focus.
 */
export type HostMessage =
  { v: 1; type: 'hello' } | ({ v: 1; type: 'init'; token: string } & FrameSettings) | ({ v: 1; type: 'update' } & FrameSettings) | { v: 1; type: 'focus' };

export type FrameMessage =
  | { v: 1; type: 'ready' }
  | { v: 1; type: 'size'; height: number }
  | { v: 1; type: 'event'; name: 'bank-checkout-step'; detail: CheckoutStepDetail }
  | { v: 1; type: 'event'; name: 'bank-checkout-complete'; detail: CheckoutCompleteDetail }
  | { v: 1; type: 'event'; name: 'bank-checkout-error'; detail: CheckoutErrorDetail }
  | { v: 1; type: 'navigate'; url: string }
  | { v: 1; type: 'refused'; items: ThemeRefusal[] }
  | { v: 1; type: 'failed'; code: FrameFailure };

/**
 * Why a frame says it cannot show the checkout (`failed`): the BFF refuses the page's origin (its
 * page for such an origin says only that), or the frame's page could not load what it runs.
 */
export type FrameFailure = 'frame_refused' | 'frame_unreachable';

/** A theme value the frame refused to apply (it stays with the kit's own), and why. */
export interface ThemeRefusal {
  name: string;
  value: string;
  reason: string;
}

/** The theme's custom properties: the kit's documented `--bank-*` names, nothing else. */
export const THEME_VARS = [
  '--bank-color-background',
  '--bank-color-surface',
  '--bank-color-text',
  '--bank-color-muted',
  '--bank-color-border',
  '--bank-color-primary',
  '--bank-color-on-primary',
  '--bank-color-error',
  '--bank-color-success',
  '--bank-color-notice-background',
  '--bank-color-notice-text',
  '--bank-color-focus',
  '--bank-radius',
  '--bank-spacing',
  '--bank-font-family',
  '--bank-font-size',
  '--bank-max-width',
  '--bank-padding',
] as const;

const MAX_TEXT = 2048;
const MAX_VALUE = 256;

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isText = (x: unknown, max = MAX_TEXT): x is string => typeof x === 'string' && x.length <= max;
const optionalText = (x: unknown, max = 64) => x === undefined || x === null || isText(x, max);
/** A theme value may not load anything (`url(`, `image-set(`, `@import`) nor escape its declaration. */
const safeValue = (x: unknown): x is string => isText(x, MAX_VALUE) && !/url\(|image-set\(|@|[;{}<>\\]/i.test(x);

function isTheme(x: unknown): x is FrameTheme {
  if (!isRecord(x) || !isRecord(x.vars) || !isText(x.colorScheme, 32) || !/^[a-z ]*$/.test(x.colorScheme)) return false;
  return Object.entries(x.vars).every(([k, v]) => (THEME_VARS as readonly string[]).includes(k) && safeValue(v));
}

function hasSettings(m: Record<string, unknown>): boolean {
  return (
    optionalText(m.locale, 35) &&
    optionalText(m.mode, 16) &&
    (m.pollInterval === undefined ||
      m.pollInterval === null ||
      (typeof m.pollInterval === 'number' && Number.isFinite(m.pollInterval) && m.pollInterval >= 0)) &&
    (m.theme === undefined || isTheme(m.theme))
  );
}

/** A message from the host, or null when it is not one. */
export function readHostMessage(data: unknown): HostMessage | null {
  if (!isRecord(data) || data.v !== FRAME_PROTOCOL) return null;
  switch (data.type) {
    case 'init':
      // A launch token, and nothing else that could open a checkout.
      return isText(data.token, 512) && data.token.length > 0 && data.secret === undefined && hasSettings(data) ? (data as HostMessage) : null;
    case 'update':
      return hasSettings(data) ? (data as HostMessage) : null;
    case 'focus':
    case 'hello':
      return { v: 1, type: data.type };
    default:
      return null;
  }
}

const isId = (x: unknown) => x === null || isText(x, 128);

function isEventDetail(name: unknown, d: unknown): boolean {
  if (!isRecord(d)) return false;
  switch (name) {
    case 'bank-checkout-step':
      return (
        isText(d.checkoutId, 128) &&
        isText(d.state, 32) &&
        (d.previous === null || isText(d.previous, 32)) &&
        (d.funnel == null || isText(d.funnel, 16)) &&
        (d.bankId === undefined || isText(d.bankId, 128))
      );
    case 'bank-checkout-complete':
      return isText(d.checkoutId, 128) && isText(d.outcome, 32) && (d.code === null || isText(d.code, 64));
    case 'bank-checkout-error':
      return isId(d.checkoutId) && isText(d.code, 64) && (d.status === null || typeof d.status === 'number') && isId(d.requestId);
    default:
      return false;
  }
}

/** A message from the frame, or null when it is not one. */
export function readFrameMessage(data: unknown): FrameMessage | null {
  if (!isRecord(data) || data.v !== FRAME_PROTOCOL) return null;
  switch (data.type) {
    case 'ready':
      return { v: 1, type: 'ready' };
    case 'size':
      return typeof data.height === 'number' && Number.isFinite(data.height) && data.height >= 0 && data.height < 100_000
        ? { v: 1, type: 'size', height: data.height }
        : null;
    case 'event':
      return isEventDetail(data.name, data.detail) ? (data as FrameMessage) : null;
    case 'navigate':
      return isText(data.url) && /^https?:\/\//i.test(data.url) ? { v: 1, type: 'navigate', url: data.url } : null;
    case 'failed':
      return data.code === 'frame_refused' || data.code === 'frame_unreachable' ? { v: 1, type: 'failed', code: data.code } : null;
    case 'refused':
      return Array.isArray(data.items) &&
        data.items.length <= 64 &&
        data.items.every((i) => isRecord(i) && isText(i.name, 64) && isText(i.value, MAX_VALUE) && isText(i.reason, 256))
        ? { v: 1, type: 'refused', items: data.items as ThemeRefusal[] }
        : null;
    default:
      return null;
  }
}

/**
 * The entry of `table` for a locale, as given or its language, by the table's own keys only (a
 * locale such as `constructor` or `__proto__` finds nothing inherited); null when it has none.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, locale: string | null | undefined): T | null {
  if (!locale) return null;
  const tag = locale.toLowerCase();
  for (const key of [tag, tag.split(/[-_]/)[0]!]) if (Object.hasOwn(table, key)) return table[key]!;
  return null;
}

/** The entry of `table` for a locale: as given, then its language, then the browser's languages, then English. */
export function byLanguage<T>(table: Readonly<Record<string, T>>, locale: string | null | undefined): T {
  // As ownEntry, written out: the thin host's bundle carries this one only.
  for (let tag of [locale, ...navigator.languages])
    if ((tag = tag?.toLowerCase())) for (const key of [tag, tag.split(/[-_]/)[0]!]) if (Object.hasOwn(table, key)) return table[key]!;
  return table.en!;
}

/** Development: a loopback or `.localhost`/`.test` host, where ignored messages are logged. */
export function isDevelopmentHost(hostname: string): boolean {
  return /^(localhost|127(\.\d+){3}|\[::1\])$|\.(localhost|test)$/.test(hostname);
}
