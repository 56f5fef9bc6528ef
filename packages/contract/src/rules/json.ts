/**
 * Keys a request's JSON may not use: the names of `Object.prototype`'s own properties
 * (`__proto__`, `constructor`, `toString`, `valueOf`…). No request of the BFF or the simulator
 * has such a field, and an own `toString` or `valueOf` that is not a function makes any
 * conversion of its object to text throw (a schema's length check does one on an object with a
 * `length`), so a body that names one is refused as a whole, before any schema sees it.
 */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));
/** A body that could spell one of them, plainly or with a `\u` escape: only these are read key by key. */
const MAY_SPELL = new RegExp(`${[...INHERITED].join('|')}|\\\\u`);

/**
 * The first key of JSON `text` that names a property of `Object.prototype`, or null (none, or
 * text that is not JSON: the caller's own parse says so).
 */
export function inheritedKey(text: string): string | null {
  if (!MAY_SPELL.test(text)) return null;
  let found: string | null = null;
  try {
    JSON.parse(text, (key, value: unknown) => {
      if (found === null && INHERITED.has(key)) found = key;
      return value;
    });
  } catch {
    return null;
  }
  return found;
}
