/**
 * Addresses a page may link or navigate to: absolute http(s) URLs only, never `javascript:`,
 * `data:`, protocol-relative or relative addresses, nor anything with whitespace or control
 * characters hidden in it. Pure functions, for the browser and the servers alike.
 */

const WEB_PREFIX = /^https?:\/\/[^/?#\\]/i;
// Whitespace (CR, LF, tab, space…) and control characters, which parsers strip or split on.
const UNSAFE_CHARS = /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Whether `url` is an absolute `http:` or `https:` address with a host. */
export function isWebUrl(url: unknown): url is string {
  if (typeof url !== 'string' || url.length > 4096 || !WEB_PREFIX.test(url) || UNSAFE_CHARS.test(url)) return false;
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

/** The value for an `href` or form `action`: `url` when it is a web address, else `fallback` (`#`). */
export function safeHref(url: unknown, fallback = '#'): string {
  return isWebUrl(url) ? url : fallback;
}
