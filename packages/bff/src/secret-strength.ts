/**
 * How strong a secret is, and whether two secrets share their material. A secret is judged as
 * written and as what it decodes to (hex, base64, base64url; a `whsec_` secret by its key): long
 * enough, with enough entropy in its characters, hard to guess by zxcvbn's estimate (loaded only
 * when a secret is judged) as a whole and part by part, no pattern repeated, and not a common
 * hash (MD5, SHA-1, SHA-256) of a common password.
 */
import { createHash } from 'node:crypto';
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
 * The shortest secret accepted beyond loopback, the entropy its characters must show, the
 * guesses (log10) an estimate of how people build secrets must put it beyond (10^24, about
 * 2^80), and the fewest bytes a secret that decodes to bytes must hold (128 bits).
 */
export const STRONG_SECRET = { minLength: 32, minBits: 96, minGuessesLog10: 24, minBytes: 16 };

const load = createRequire(import.meta.url);

/** zxcvbn's estimate (words, names, common passwords, keyboard walks, dates, repeats), made once. */
let estimator: { check(secret: string, userInputs?: string[]): { guessesLog10: number } } | null = null;
/** The common passwords of zxcvbn's dictionary, most common first. */
let passwords: readonly string[] = [];
function zxcvbn() {
  if (!estimator) {
    // Loaded on first use (its dictionaries take a few hundred milliseconds): only a BFF going
    // live or listening beyond loopback judges its secrets.
    const { ZxcvbnFactory } = load('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
    const common = load('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    const en = load('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
    passwords = (common.dictionary as Record<string, readonly string[]>)['passwords-common'] ?? [];
    // A few leet substitutions (`P@ssw0rd`) are looked for: each more multiplies the time taken.
    estimator = new ZxcvbnFactory({
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary },
      useLevenshteinDistance: false,
      l33tMaxSubstitutions: 4,
    });
  }
  return estimator;
}

/** Estimates made, by secret and context: each takes up to tens of milliseconds. */
const estimates = new Map<string, number>();
function guessesLog10(secret: string, context: readonly string[]): number {
  const key = `${context.join('\u0000')}\u0001${secret}`;
  const known = estimates.get(key);
  if (known !== undefined) return known;
  const estimate = zxcvbn().check(secret, [...context]).guessesLog10;
  estimates.set(key, estimate);
  return estimate;
}

/**
 * The words a secret of this deployment is most likely built from, whatever else it holds: the
 * roles' and environments' own words. going-live.ts adds the shop's name and hosts.
 */
export const DEPLOYMENT_WORDS = [
  'bff',
  'bank',
  'checkout',
  'merchant',
  'secret',
  'webhook',
  'hook',
  'provider',
  'api',
  'key',
  'token',
  'pay',
  'payment',
  'shop',
  'store',
  'prod',
  'production',
  'live',
  'pro',
  'san',
  'sandbox',
  'test',
  'staging',
  'dev',
  'ltd',
  'inc',
  'llc',
  'gmbh',
] as const;

/**
 * The guesses (log10) of a secret as its parts, each estimated alone and added up: parts split
 * at every run of characters that are neither letters nor digits (`ShopLtd-merchant-secret-2026`),
 * which zxcvbn, judging the whole, counts as costing more than they do.
 */
function partsGuessesLog10(secret: string, context: readonly string[]): number {
  const parts = secret.match(/[\p{L}\p{N}]+|[^\p{L}\p{N}]+/gu) ?? [];
  if (parts.length < 2) return Infinity;
  return parts.reduce((sum, part) => sum + guessesLog10(part, context), 0);
}

/** Whether `chars` is a shorter unit repeated (the last time perhaps in part): `abcabcab`, a phrase doubled. */
function repeated(chars: readonly unknown[]): boolean {
  for (let n = 1; n <= Math.ceil(chars.length / 2) && n < chars.length; n++) {
    if (chars.every((c, i) => c === chars[i % n])) return true;
  }
  return false;
}

/** Whether text as a secret is too weak (see weakSecret). */
function weakText(text: string, context: readonly string[]): boolean {
  const chars = Array.from(text);
  if (chars.length < STRONG_SECRET.minLength || secretBits(text) < STRONG_SECRET.minBits) return true;
  if (repeated(chars)) return true;
  // Runs such as "abcdefgh…" or "12345678…": most characters one after (or the same as) the last.
  const steps = chars.slice(1).filter((c, i) => Math.abs(c.codePointAt(0)! - chars[i]!.codePointAt(0)!) <= 1).length;
  if (steps >= 0.75 * (chars.length - 1)) return true;
  return Math.min(guessesLog10(text, context), partsGuessesLog10(text, context)) < STRONG_SECRET.minGuessesLog10;
}

/** The hash functions whose digest a secret that looks random may be, by digest length. */
const DIGESTS = new Map([
  [16, 'md5'],
  [20, 'sha1'],
  [32, 'sha256'],
]);
/** Digests of the common passwords (each as typed, and with the newline `echo … | sha256sum` adds), by function; made on first need. */
const commonDigests = new Map<string, Set<string>>();
function isCommonDigest(bytes: Buffer): boolean {
  const algorithm = DIGESTS.get(bytes.length);
  if (!algorithm) return false;
  let digests = commonDigests.get(algorithm);
  if (!digests) {
    zxcvbn();
    digests = new Set();
    for (const p of passwords) for (const typed of [p, `${p}\n`]) digests.add(createHash(algorithm).update(typed).digest('hex'));
    commonDigests.set(algorithm, digests);
  }
  return digests.has(bytes.toString('hex'));
}

/** A Standard Webhooks secret's prefix: the key follows in base64. */
const WHSEC = 'whsec_';

/**
 * What `secret` may decode to: as hex (an even number of hex digits), as base64 or base64url (its
 * alphabet, padded or not). A secret that is neither decodes to nothing. Hex digits are also
 * base64: both are tried.
 */
export function decodings(secret: string): Buffer[] {
  const found: Buffer[] = [];
  if (secret.length >= 2 && /^(?:[0-9a-f]{2})+$/i.test(secret)) found.push(Buffer.from(secret, 'hex'));
  if (/^(?:[A-Za-z0-9+/]+|[A-Za-z0-9_-]+)={0,2}$/.test(secret) && secret.replace(/=+$/, '').length % 4 !== 1) {
    found.push(Buffer.from(secret.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
  }
  return found.filter((b) => b.length > 0);
}

/** Whether bytes are printable ASCII text (a password encoded, rather than random bytes). */
const isText = (bytes: Buffer) => bytes.every((b) => b >= 0x20 && b <= 0x7e);

/**
 * Whether a secret is too weak to go live. As written (a `whsec_` secret, its key): shorter than
 * STRONG_SECRET, one character or a shorter unit repeated (a phrase doubled), a run of
 * characters, too few bits in its characters, or fewer guesses than STRONG_SECRET by zxcvbn's
 * estimate of the whole or of its parts (words and names strung together with separators, a
 * keyboard walk, a year...), `context` naming the words of this deployment it is likely built
 * from. As what it decodes to (hex, base64, base64url): text judged the same way; bytes fewer than
 * 16, repeated, or the MD5, SHA-1 or SHA-256 of a common password.
 */
export function weakSecret(secret: string, context: readonly string[] = DEPLOYMENT_WORDS): boolean {
  const key = secret.startsWith(WHSEC) ? secret.slice(WHSEC.length) : secret;
  if (weakText(key, context)) return true;
  return decodings(key).some((bytes) =>
    isText(bytes) ? weakText(bytes.toString('latin1'), context) : bytes.length < STRONG_SECRET.minBytes || repeated([...bytes]) || isCommonDigest(bytes),
  );
}

/** The forms a secret's material takes: as written and in lower case, without `whsec_`, and what it decodes to. */
function secretForms(secret: string): string[] {
  const key = secret.startsWith(WHSEC) ? secret.slice(WHSEC.length) : secret;
  const forms = [secret, key, ...decodings(key).map((b) => b.toString('latin1'))];
  return [...new Set(forms.flatMap((f) => [f, f.toLowerCase()]))];
}

/**
 * Whether two secrets share their material: the same in any form (letter case aside, hex,
 * base64 or base64url decoded, a `whsec_` key), or one inside the other.
 */
export function sameMaterial(a: string, b: string): boolean {
  const fa = secretForms(a);
  const fb = secretForms(b);
  return fa.some((x) => fb.some((y) => x === y || (Math.min(x.length, y.length) >= 16 && (x.includes(y) || y.includes(x)))));
}
