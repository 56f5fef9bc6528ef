/**
 * Rules for text that crosses the API: no control characters (a NUL, a line break in a URL or a
 * subject), and no broken Unicode (a lone surrogate, or U+FFFD, the character a decoder puts
 * where the bytes were not valid UTF-8). Credentials and codes are checked with the same rules,
 * so a stray byte is refused before it reaches the bank and costs the payer an attempt.
 */

/** C0 controls, DEL and the C1 controls. */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** A high surrogate not followed by a low one, a low one not preceded by a high one, or U+FFFD. */
const BROKEN_UNICODE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\uFFFD/;

export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text);
}

export function hasBrokenUnicode(text: string): boolean {
  return BROKEN_UNICODE.test(text);
}

/** Why `text` cannot be sent as it is, or null when it can. */
export function textProblem(text: string): string | null {
  if (hasControlCharacters(text)) return 'must not contain control characters';
  if (hasBrokenUnicode(text)) return 'must be valid Unicode text (the bytes sent were not valid UTF-8)';
  return null;
}
