/**
 * How strong a secret is, and whether two secrets share their material: long enough, with
 * enough entropy in its characters, hard to guess by zxcvbn's estimate (loaded only when a
 * secret is judged), no short pattern repeated; a `whsec_` secret judged by its key.
 */
import { createRequire } from 'node:module';

/** Bits of entropy the characters of `secret` show (their distribution, times the length). */
export function secretBits(secret: string): number {
  const counts = new Map<string, number>();
  for (const ch of secret) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const n = Array.from(secret).length;
  let perChar = 0;
  for (const c of counts.values()) perChar -= (c / n) * Math.log2(c / n);
  return perChar * n;
}

/**
 * The shortest secret accepted beyond loopback, the entropy its characters must show, and the
 * guesses (log10) an estimate of how people build secrets must put it beyond: 10^24, about 2^80.
 */
export const STRONG_SECRET = { minLength: 32, minBits: 96, minGuessesLog10: 24 };

/** zxcvbn's estimate (words, names, common passwords, keyboard walks, dates, repeats), made once. */
let estimator: { check(secret: string): { guessesLog10: number } } | null = null;
/** Estimates made, by secret: each takes tens of milliseconds. */
const estimates = new Map<string, number>();
function guessesLog10(secret: string): number {
  const known = estimates.get(secret);
  if (known !== undefined) return known;
  if (!estimator) {
    // Loaded on first use (its dictionaries take a few hundred milliseconds): only a BFF going
    // live or listening beyond loopback judges its secrets.
    const load = createRequire(import.meta.url);
    const { ZxcvbnFactory } = load('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
    const common = load('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    const en = load('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
    // A few leet substitutions (`P@ssw0rd`) are looked for: each more multiplies the time taken.
    estimator = new ZxcvbnFactory({
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary },
      useLevenshteinDistance: false,
      l33tMaxSubstitutions: 4,
    });
  }
  const estimate = estimator.check(secret).guessesLog10;
  estimates.set(secret, estimate);
  return estimate;
}

/** A Standard Webhooks secret's prefix: the key follows in base64. */
const WHSEC = 'whsec_';

/**
 * Whether a secret is too weak to go live: shorter than STRONG_SECRET, one character repeated,
 * a short pattern repeated, a run of characters, too few bits in its characters, or fewer
 * guesses than STRONG_SECRET by zxcvbn's estimate (words and names strung together, a keyboard
 * walk, a year...). A `whsec_` secret is judged by its key.
 */
export function weakSecret(secret: string): boolean {
  const key = secret.startsWith(WHSEC) ? secret.slice(WHSEC.length) : secret;
  const chars = Array.from(key);
  if (chars.length < STRONG_SECRET.minLength || secretBits(key) < STRONG_SECRET.minBits) return true;
  // "abcabcabc…", "0123456701234567…": a pattern of up to a quarter of the length, repeated.
  for (let n = 1; n <= chars.length / 4; n++) {
    if (chars.every((c, i) => c === chars[i % n])) return true;
  }
  // Runs such as "abcdefgh…" or "12345678…": most characters one after (or the same as) the last.
  const steps = chars.slice(1).filter((c, i) => Math.abs(c.codePointAt(0)! - chars[i]!.codePointAt(0)!) <= 1).length;
  if (steps >= 0.75 * (chars.length - 1)) return true;
  return guessesLog10(key) < STRONG_SECRET.minGuessesLog10;
}

/** The forms a secret's material takes: as written, without `whsec_`, and that key decoded. */
function secretForms(secret: string): string[] {
  if (!secret.startsWith(WHSEC)) return [secret];
  const key = secret.slice(WHSEC.length);
  return [secret, key, Buffer.from(key, 'base64').toString('latin1')];
}

/** Whether two secrets share their material: the same in any form, or one inside the other. */
export function sameMaterial(a: string, b: string): boolean {
  const fa = secretForms(a);
  const fb = secretForms(b);
  return fa.some((x) => fb.some((y) => x === y || (Math.min(x.length, y.length) >= 16 && (x.includes(y) || y.includes(x)))));
}
