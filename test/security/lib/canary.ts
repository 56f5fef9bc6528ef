/**
 * Canaries: recognisable values planted in the configuration or typed by the payer, and a
 * search that finds them in any text whether raw, URL-encoded, form-encoded, hex, Base64 or
 * Base64url (at each of the three byte alignments a value can have inside a longer encoded text).
 */

/** Secrets the configuration holds: the BFF's process is the only place they may live. */
export const SECRETS = {
  apiKey: 'CANARY-api-key/7Qx9+Lm2Pz4',
  apiToken: 'CANARY-api-token/Vb8Nk3Rt6Wq',
  legacyApiKey: 'CANARY-legacy-key/Ud2Ks8Fe1',
  legacyApiToken: 'CANARY-legacy-token/Hc5Xo0Ya7',
  merchantSecret: 'CANARY-merchant-secret/Hy5Jq1Ds0FwK8pZ3xR7mV2bN6tL4cQ9',
  webhookSecret: 'CANARY-webhook-secret/Ge4Tw9Zc2U',
} as const;

/** What the payer types on the provider's hosted gateway (any values authorise there). */
export const GATEWAY_PAYER = {
  user: 'canary.payer Gw/7Qx&9',
  password: 'Canary Pass/7Qx&9=Lm+2',
  code: 'CNRY7Qx9Lm2Pz4',
} as const;

/** Values shorter than this are too common (4-digit card coordinates) to be told apart from noise. */
export const MIN_CANARY_LENGTH = 6;

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** The Base64 text that any encoding of `value` at byte offset `k` (mod 3) must contain. */
function base64Cores(value: string): string[] {
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    const bytes = Buffer.concat([Buffer.alloc(k), utf8(value)]);
    let b64 = bytes.toString('base64').replace(/=+$/, '');
    if ((bytes.length * 8) % 6 !== 0) b64 = b64.slice(0, -1);
    out.push(b64.slice([0, 2, 3][k]));
  }
  return out.filter((s) => s.length >= 4);
}

/** Every form of `value` that must not appear where the value must not. */
export function encodings(value: string): { form: string; text: string }[] {
  const hex = utf8(value).toString('hex');
  const forms: { form: string; text: string }[] = [
    { form: 'raw', text: value },
    { form: 'url', text: encodeURIComponent(value) },
    { form: 'form', text: new URLSearchParams({ v: value }).toString().slice(2) },
    { form: 'json', text: JSON.stringify(value).slice(1, -1) },
    { form: 'hex', text: hex },
    { form: 'HEX', text: hex.toUpperCase() },
  ];
  for (const core of base64Cores(value)) {
    forms.push({ form: 'base64', text: core });
    forms.push({ form: 'base64url', text: core.replace(/\+/g, '-').replace(/\//g, '_') });
    forms.push({ form: 'base64 in a URL', text: encodeURIComponent(core) });
  }
  const seen = new Set<string>();
  return forms.filter((f) => (seen.has(f.text) ? false : (seen.add(f.text), true)));
}

export interface Leak {
  canary: string;
  form: string;
  where: string;
  excerpt: string;
}

/** A body of captured text and where it came from. */
export interface Sample {
  where: string;
  text: string;
}

/**
 * Where `text` occurs in `within`. A code of digits only (an SMS code, a token), as it is typed,
 * counts only as a value of its own, not inside a longer run of letters and digits: six digits
 * turn up by chance in a random hash or a millisecond timestamp (a hex key hash held "482913"
 * once). Its encodings (hex, Base64) are still looked for inside longer encoded text.
 */
function occurrence(within: string, text: string, asTyped: boolean): number {
  if (!asTyped || !/^\d+$/.test(text)) return within.indexOf(text);
  for (let at = within.indexOf(text); at !== -1; at = within.indexOf(text, at + 1)) {
    if (!/[0-9A-Za-z]/.test(within[at - 1] ?? '') && !/[0-9A-Za-z]/.test(within[at + text.length] ?? '')) return at;
  }
  return -1;
}

/** Every occurrence of any canary, in any of its forms, in any sample. */
export function findLeaks(samples: Iterable<Sample>, canaries: Iterable<string>): Leak[] {
  const patterns = [...new Set(canaries)].flatMap((canary) => encodings(canary).map((e) => ({ canary, ...e })));
  const leaks: Leak[] = [];
  for (const s of samples) {
    for (const p of patterns) {
      const at = occurrence(s.text, p.text, p.form === 'raw');
      if (at !== -1) leaks.push({ canary: p.canary, form: p.form, where: s.where, excerpt: s.text.slice(Math.max(0, at - 60), at + p.text.length + 60) });
    }
  }
  return leaks;
}

/** A readable failure message listing the first leaks. */
export function describeLeaks(leaks: Leak[]): string {
  return leaks
    .slice(0, 10)
    .map((l) => `${JSON.stringify(l.canary)} as ${l.form} in ${l.where}: …${l.excerpt}…`)
    .join('\n');
}
