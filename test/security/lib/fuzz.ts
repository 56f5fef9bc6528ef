/**
 * Generators of malformed requests for fast-check: bodies built as JSON text (so that keys
 * such as `__proto__` travel as the attacker writes them), with the endpoint's own fields
 * present, missing, of the wrong type or beside extra ones; huge strings, deep nesting,
 * invalid UTF-8, non-JSON text, and wrong or missing content types.
 */
import fc from 'fast-check';

/**
 * Cases per property: FUZZ_RUNS, else 50, so that `npm test` stays quick wherever it runs (150
 * cost the two fuzz files about 4 CPU-seconds more on a 2-core machine);
 * CI (`.ci/run`) sets 1,000 and searches wider on every run.
 */
export const FUZZ_RUNS = runs(process.env.FUZZ_RUNS ?? '50');

function runs(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`FUZZ_RUNS must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

export const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'then', 'toJSON'];

export interface FuzzBody {
  contentType: string | null;
  body: string | Uint8Array;
  /** What kind of malformation, for failure messages. */
  kind: string;
}

const huge = fc.constantFrom(1_000, 16_500, 40_000, 70_000).map((n) => 'x'.repeat(n));

/** Strings that break things: empty, control and bidi characters, lone surrogates, markup, huge. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 20 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '0000',
      '\u0000',
      '\u202e',
      '\ud800',
      '<script>alert(1)</script>',
      '../../etc/passwd',
      '%00',
      'null',
      'NaN',
      '-0',
      '1e309',
      'ES00',
      '🙂'.repeat(40),
    ),
    weight: 3,
  },
  { arbitrary: huge, weight: 1 },
);

const scalar: fc.Arbitrary<string> = fc.oneof(
  oddString.map((s) => JSON.stringify(s)),
  fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.constantFrom(0, -1, 2 ** 53, 1e308, -1e-308, 99_999_999_999)).map((n) => JSON.stringify(n)),
  fc.constantFrom('true', 'false', 'null', '1e999', '-0', '0.0000001'),
);

const key: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 12 }), weight: 3 },
  { arbitrary: fc.constantFrom(...POLLUTION_KEYS), weight: 2 },
);

const pairsToObject = (pairs: [string, string][]) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;

/** Any JSON value, as text. */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map(pairsToObject),
  ),
})).value;

/** Nesting deep enough to break a recursive parser or validator. */
const deep: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 50, max: 20_000 }), fc.constantFrom('array', 'object'), fc.option(fc.string({ maxLength: 8 }), { nil: undefined }))
  .map(([n, kind, field]) => {
    const open = kind === 'array' ? '[' : '{"a":';
    const close = kind === 'array' ? ']' : '}';
    const inner = `${open.repeat(n)}1${close.repeat(n)}`;
    return field === undefined ? inner : pairsToObject([[field, inner]]);
  });

/** The endpoint's fields (as JSON texts of plausible values), some missing, some wrong, with extras. */
export function templated(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const names = Object.keys(fields);
  if (names.length === 0) return fc.array(fc.tuple(key, jsonText), { maxLength: 2 }).map(pairsToObject);
  return fc
    .tuple(
      fc.subarray(names),
      fc.array(fc.tuple(fc.constantFrom(...names), jsonText), { maxLength: 2 }),
      fc.array(fc.tuple(key, jsonText), { maxLength: 2 }),
      fc.record(Object.fromEntries(names.map((n) => [n, fields[n]!])) as Record<string, fc.Arbitrary<string>>),
    )
    .map(([present, wrong, extra, values]) => {
      const pairs: [string, string][] = present.map((n) => [n, values[n]!]);
      for (const [n, v] of wrong) {
        const i = pairs.findIndex(([k]) => k === n);
        if (i >= 0) pairs[i] = [n, v];
        else pairs.push([n, v]);
      }
      return pairsToObject([...pairs, ...extra]);
    });
}

/** Plausible values of a field, as JSON texts. */
export const plausible = (...values: unknown[]) => fc.constantFrom(...values.map((v) => JSON.stringify(v)));

const JSON_TYPE = 'application/json';
const contentType: fc.Arbitrary<string | null> = fc.oneof(
  { arbitrary: fc.constant(JSON_TYPE), weight: 12 },
  {
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=utf-16',
      'application/json, text/plain',
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----x',
      'application/jsonx',
      'application/xml',
      '',
      '*/*',
    ),
    weight: 3,
  },
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: fc.string({ maxLength: 30 }).filter((s) => /^[\x20-\x7e]*$/.test(s)), weight: 1 },
);

/** Bytes that are not UTF-8, alone or inside otherwise good JSON. */
const invalidUtf8: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 64 }),
  fc
    .tuple(fc.constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82]), fc.string({ maxLength: 8 }))
    .map(([bad, name]) => new Uint8Array([...Buffer.from(`{${JSON.stringify(name || 'a')}:"`), ...bad, ...Buffer.from('"}')])),
);

/** A malformed body for an endpoint whose fields are `fields`. */
export function malformedBody(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<FuzzBody> {
  const text = (kind: string, body: fc.Arbitrary<string>) => fc.tuple(contentType, body).map(([contentType, b]): FuzzBody => ({ contentType, body: b, kind }));
  const names = Object.keys(fields);
  // Every field, each a plausible value: bodies that pass validation and go as deep as they can.
  const nearValid = names.length ? fc.record(fields).map((v) => pairsToObject(names.map((n) => [n, v[n]!]))) : fc.constant('{}');
  return fc.oneof(
    {
      arbitrary: fc.tuple(fc.constantFrom(JSON_TYPE, null), nearValid).map(([contentType, body]): FuzzBody => ({ contentType, body, kind: 'near valid' })),
      weight: 3,
    },
    { arbitrary: text('fields', templated(fields)), weight: 8 },
    { arbitrary: text('any JSON', jsonText), weight: 3 },
    { arbitrary: text('deep nesting', deep), weight: 1 },
    {
      arbitrary: text(
        'huge string',
        fc.tuple(fc.constantFrom(...Object.keys(fields), 'x'), huge).map(([k, v]) => pairsToObject([[k, JSON.stringify(v)]])),
      ),
      weight: 1,
    },
    {
      arbitrary: text(
        'not JSON',
        fc.oneof(
          fc.string({ maxLength: 40 }),
          templated(fields).map((t) => t.slice(0, Math.max(1, t.length - 2))),
        ),
      ),
      weight: 2,
    },
    { arbitrary: fc.tuple(contentType, invalidUtf8).map(([contentType, body]): FuzzBody => ({ contentType, body, kind: 'invalid UTF-8' })), weight: 1 },
  );
}

/** A query string: the route's own parameters and others, with odd values. */
export function malformedQuery(params: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const names = Object.keys(params);
  return fc
    .tuple(
      fc.subarray(names),
      fc.record(Object.fromEntries(names.map((n) => [n, fc.oneof(params[n]!, oddString)])) as Record<string, fc.Arbitrary<string>>),
      fc.array(fc.tuple(fc.oneof(fc.constantFrom(...names), key), oddString), { maxLength: 3 }),
      fc.boolean(),
    )
    .map(([present, values, extra, raw]) => {
      const pairs: [string, string][] = [...present.map((n): [string, string] => [n, values[n]!]), ...extra];
      // Sometimes unencoded, as a hand-written URL would be (stray %, &, =, #).
      return raw
        ? pairs
            .map(([k, v]) => `${k}=${v.slice(0, 200)}`)
            .join('&')
            .replace(/[#\s]/g, '')
        : new URLSearchParams(pairs).toString();
    });
}

/** The request init of a fuzz body. */
export function requestInit(b: FuzzBody, headers: Record<string, string>, method = 'POST'): RequestInit {
  return { method, headers: { ...headers, ...(b.contentType !== null ? { 'Content-Type': b.contentType } : {}) }, body: b.body as BodyInit };
}

/** A short description of a body for failure messages. */
export function show(b: FuzzBody): string {
  const text = typeof b.body === 'string' ? b.body : Buffer.from(b.body).toString('latin1');
  return `${b.kind}, ${JSON.stringify(b.contentType)}: ${text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text}`;
}
