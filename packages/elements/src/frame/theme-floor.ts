/**
 * What the host page's theme may not do inside the isolated checkout: the frame, not the host,
 * decides what the payer can see. Each `--bank-*` value the host sends passes a floor before
 * the frame applies it, or is refused (ignored, and reported to the host as a console warning):
 *
 * - colours must be colours the frame can read; the frame's background (and the surfaces text
 *   sits on) must be opaque, so nothing drawn by the host behind the frame shows through;
 * - text (body, muted, amount and payee, errors, links, button labels, notices) keeps a contrast
 *   of at least 4.5:1 against what it is drawn on, so no text is made transparent or faint;
 * - the font size stays readable, and sizes that could squeeze or push the content out of view
 *   (width, padding, spacing, radius) stay within bounds;
 * - anything the frame cannot check (`var()`, `calc()`, CSS-wide keywords, `hidden`, `none`…)
 *   is refused rather than trusted;
 * - nothing that fades, filters or moves what it draws (opacity, filter and transform
 *   functions), and no font that draws symbols instead of letters and digits (Wingdings,
 *   Webdings, Symbol, Zapf Dingbats, icon and emoji fonts, redaction fonts): the amount and the
 *   payee read as they are. (The host page's own effects on the frame, out of any theme value's
 *   reach, are the visibility check's: frame/visibility.ts.)
 *
 * Pure functions: the frame passes a resolver that turns any colour syntax the browser knows
 * into `rgb()` first.
 */

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0 (transparent) to 1 (opaque). */
  a: number;
}

/** A value the floor refused, and why (for the host's console). */
export interface Refusal {
  name: string;
  value: string;
  reason: string;
}

export const THEME_FLOOR = {
  /** WCAG 2 AA for normal text. */
  minContrast: 4.5,
  /** The focus ring against the background (WCAG 2 non-text contrast). */
  minFocusContrast: 3,
  /** Readable font sizes, in CSS pixels (1rem = 16px). */
  fontPx: [12, 32] as const,
  /** The narrowest the checkout may be made (or `none`), in px or % of the frame. */
  minWidthPx: 240,
  minWidthPercent: 50,
  /** Padding, spacing and radius: at most this many px each. */
  maxBoxPx: 64,
} as const;

/** The kit's own colours (shared/styles.ts), light and dark: what a refused value falls back to. */
export const DEFAULT_COLORS: Record<'light' | 'dark', Record<string, string>> = {
  light: {
    '--bank-color-background': '#ffffff',
    '--bank-color-surface': '#f3f4f7',
    '--bank-color-text': '#1a1c20',
    '--bank-color-muted': '#4d5360',
    '--bank-color-border': '#7b8190',
    '--bank-color-primary': '#0b57d0',
    '--bank-color-on-primary': '#ffffff',
    '--bank-color-error': '#b3261e',
    '--bank-color-success': '#146c2e',
    '--bank-color-notice-background': '#fff4d6',
    '--bank-color-notice-text': '#4a3700',
    '--bank-color-focus': '#0b57d0',
  },
  dark: {
    '--bank-color-background': '#16181c',
    '--bank-color-surface': '#23262d',
    '--bank-color-text': '#eceef2',
    '--bank-color-muted': '#b9bfcb',
    '--bank-color-border': '#8b93a1',
    '--bank-color-primary': '#a8c7fa',
    '--bank-color-on-primary': '#062e6f',
    '--bank-color-error': '#f2b8b5',
    '--bank-color-success': '#6dd58c',
    '--bank-color-notice-background': '#3d3200',
    '--bank-color-notice-text': '#ffe08a',
    '--bank-color-focus': '#a8c7fa',
  },
};

/** Colours text or controls are drawn on: opaque, so nothing behind the frame shows through. */
const OPAQUE = ['--bank-color-background', '--bank-color-surface', '--bank-color-primary', '--bank-color-notice-background'];

/** [foreground, what it is drawn on, least contrast]: every text of the checkout, and the focus ring. */
const PAIRS: [string, string, number][] = [
  ['--bank-color-text', '--bank-color-background', THEME_FLOOR.minContrast],
  ['--bank-color-text', '--bank-color-surface', THEME_FLOOR.minContrast],
  ['--bank-color-muted', '--bank-color-background', THEME_FLOOR.minContrast],
  ['--bank-color-muted', '--bank-color-surface', THEME_FLOOR.minContrast],
  ['--bank-color-primary', '--bank-color-background', THEME_FLOOR.minContrast],
  ['--bank-color-on-primary', '--bank-color-primary', THEME_FLOOR.minContrast],
  ['--bank-color-error', '--bank-color-background', THEME_FLOOR.minContrast],
  ['--bank-color-success', '--bank-color-background', THEME_FLOOR.minContrast],
  ['--bank-color-notice-text', '--bank-color-notice-background', THEME_FLOOR.minContrast],
  ['--bank-color-focus', '--bank-color-background', THEME_FLOOR.minFocusContrast],
];

const NAMED: Record<string, string> = { black: '#000000', white: '#ffffff', transparent: '#0000' };

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** A channel of `rgb()`: a number 0–255 or a percentage. */
function channel(v: string): number | null {
  const m = /^(-?\d*\.?\d+)(%?)$/.exec(v);
  if (!m) return null;
  return clamp(m[2] ? (Number(m[1]) * 255) / 100 : Number(m[1]), 0, 255);
}

function alpha(v: string | undefined): number | null {
  if (v === undefined) return 1;
  const m = /^(-?\d*\.?\d+)(%?)$/.exec(v);
  return m ? clamp(m[2] ? Number(m[1]) / 100 : Number(m[1]), 0, 1) : null;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

/** `#rgb[a]`, `#rrggbb[aa]`, `rgb[a]()`, `hsl[a]()` (comma or space syntax), `black`, `white`, `transparent`; else null. */
export function parseColor(value: string): Rgba | null {
  const v = (NAMED[value.trim().toLowerCase()] ?? value).trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(v);
  if (hex) {
    let h = hex[1]!;
    if (h.length <= 4) h = Array.from(h, (c) => c + c).join('');
    const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
    return { r: n(0), g: n(2), b: n(4), a: h.length === 8 ? n(6) / 255 : 1 };
  }
  const fn = /^(rgba?|hsla?)\(\s*([^()]*)\)$/.exec(v);
  if (!fn) return null;
  const parts = fn[2]!.split(/\s*[,/]\s*|\s+/).filter(Boolean);
  if (parts.length < 3 || parts.length > 4) return null;
  const a = alpha(parts[3]);
  if (a === null) return null;
  if (fn[1]!.startsWith('rgb')) {
    const [r, g, b] = parts.slice(0, 3).map(channel);
    return r === null || g === null || b === null || r === undefined || g === undefined || b === undefined ? null : { r, g, b, a };
  }
  const h = /^(-?\d*\.?\d+)(deg)?$/.exec(parts[0]!);
  const s = /^(\d*\.?\d+)%$/.exec(parts[1]!);
  const l = /^(\d*\.?\d+)%$/.exec(parts[2]!);
  if (!h || !s || !l) return null;
  const [r, g, b] = hslToRgb(((Number(h[1]) % 360) + 360) % 360, clamp(Number(s[1]) / 100, 0, 1), clamp(Number(l[1]) / 100, 0, 1));
  return { r, g, b, a };
}

/** `fg` drawn over the opaque `bg`. */
function over(fg: Rgba, bg: Rgba): Rgba {
  return { r: fg.r * fg.a + bg.r * (1 - fg.a), g: fg.g * fg.a + bg.g * (1 - fg.a), b: fg.b * fg.a + bg.b * (1 - fg.a), a: 1 };
}

function luminance(c: Rgba): number {
  const lin = (x: number) => {
    const s = x / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** WCAG contrast ratio (1 to 21) of `fg` drawn over the opaque `bg`; a translucent `fg` is blended first. */
export function contrastRatio(fg: Rgba, bg: Rgba): number {
  const a = luminance(over(fg, bg));
  const b = luminance(bg);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** A length in CSS pixels (`px`, `rem`/`em` at 16px, `pt`, unitless 0), or `%` apart; null when it is anything else. */
export function parseLength(value: string): { px: number } | { percent: number } | null {
  const m = /^(\d*\.?\d+)(px|rem|em|pt|%)?$/.exec(value.trim().toLowerCase());
  if (!m) return null;
  const n = Number(m[1]);
  switch (m[2]) {
    case 'px':
      return { px: n };
    case 'rem':
    case 'em':
      return { px: n * 16 };
    case 'pt':
      return { px: (n * 4) / 3 };
    case '%':
      return { percent: n };
    default:
      return n === 0 ? { px: 0 } : null;
  }
}

/** Keywords and functions whose effect the frame cannot check, refused wherever they appear. */
const UNCHECKABLE =
  /\b(var|calc|min|max|clamp|env|attr|color-mix|light-dark)\(|\b(inherit|initial|unset|revert|revert-layer|hidden|collapse|currentcolor)\b|!important/i;

/** Opacity, filter and transform functions: a value with one could fade, blur or move what the payer reads. */
const EFFECTS =
  /\bopacity\b|\b(blur|brightness|contrast|drop-shadow|grayscale|hue-rotate|invert|saturate|sepia|matrix(3d)?|rotate(x|y|z|3d)?|scale(x|y|z|3d)?|skew(x|y)?|translate(x|y|z|3d)?|perspective)\s*\(/i;

/**
 * Fonts that draw symbols, icons or blocks instead of letters and digits: an amount or a payee
 * set in them no longer reads as it is.
 */
const SYMBOL_FONTS = /wingding|webding|dingbat|\bsymbols?\b|marlett|mt extra|reference specialty|\bicons?\b|mdl2|emoji|awesome|material|redact|blokk|\bflow\b/i;

const fontPx = (px: number) => px >= THEME_FLOOR.fontPx[0] && px <= THEME_FLOOR.fontPx[1];

/** Why a value that is not a colour fails the floor, or null when it passes. */
function lengthProblem(name: string, value: string): string | null {
  const v = value.trim().toLowerCase();
  switch (name) {
    case '--bank-font-size': {
      const l = parseLength(v);
      const px = l && ('px' in l ? l.px : (l.percent * 16) / 100);
      return px !== null && fontPx(px) ? null : `the font size must be between ${THEME_FLOOR.fontPx[0]}px and ${THEME_FLOOR.fontPx[1]}px`;
    }
    case '--bank-max-width': {
      if (v === 'none') return null;
      const l = parseLength(v);
      const ok = l && ('px' in l ? l.px >= THEME_FLOOR.minWidthPx : l.percent >= THEME_FLOOR.minWidthPercent);
      return ok ? null : `the width must be none, at least ${THEME_FLOOR.minWidthPx}px or at least ${THEME_FLOOR.minWidthPercent}%`;
    }
    case '--bank-padding':
    case '--bank-spacing':
    case '--bank-radius': {
      const parts = v.split(/\s+/);
      const ok =
        parts.length >= 1 &&
        parts.length <= 4 &&
        parts.every((p) => {
          const l = parseLength(p);
          return l !== null && 'px' in l && l.px <= THEME_FLOOR.maxBoxPx;
        });
      return ok ? null : `must be lengths of at most ${THEME_FLOOR.maxBoxPx}px`;
    }
    case '--bank-font-family':
      if (!/^[\w\s,'"-]{1,200}$/.test(value)) return 'must be a list of font names';
      return SYMBOL_FONTS.test(value) ? 'a symbol, icon or redaction font would change what the amount and the payee read' : null;
    default:
      return 'is not a property the frame knows';
  }
}

export interface FloorOptions {
  /** The frame shows its dark defaults (its `prefers-color-scheme`). */
  dark: boolean;
  /** Turns a colour value into one `parseColor` reads (the browser's computed `rgb()`), or null. */
  resolveColor?: (value: string) => string | null;
}

/**
 * The values of `vars` the frame may apply, and those it refuses (each with a reason). A colour
 * pair that fails its contrast refuses the host's foreground first (the kit's own then shows),
 * then, if the pair still fails, the host's background.
 */
export function themeFloor(vars: Readonly<Record<string, string>>, opts: FloorOptions): { accepted: Record<string, string>; refused: Refusal[] } {
  const accepted = new Map<string, string>();
  const refused: Refusal[] = [];
  const colors = new Map<string, Rgba>();
  const refuse = (name: string, reason: string) => {
    refused.push({ name, value: vars[name]!, reason });
    accepted.delete(name);
    colors.delete(name);
  };
  for (const [name, value] of Object.entries(vars)) {
    if (UNCHECKABLE.test(value)) {
      refused.push({ name, value, reason: 'the frame cannot check this value' });
      continue;
    }
    if (EFFECTS.test(value)) {
      refused.push({ name, value, reason: 'an opacity, filter or transform could hide or change what the payer reads' });
      continue;
    }
    if (name.startsWith('--bank-color-')) {
      const c = parseColor(value) ?? parseColor(opts.resolveColor?.(value) ?? '');
      if (!c) refused.push({ name, value, reason: 'not a colour the frame can check' });
      else if (OPAQUE.includes(name) && c.a < 1) refused.push({ name, value, reason: 'a background must be opaque' });
      else {
        accepted.set(name, value);
        colors.set(name, c);
      }
      continue;
    }
    const problem = lengthProblem(name, value);
    if (problem) refused.push({ name, value, reason: problem });
    else accepted.set(name, value);
  }
  const defaults = DEFAULT_COLORS[opts.dark ? 'dark' : 'light'];
  const color = (name: string) => colors.get(name) ?? parseColor(defaults[name]!)!;
  const ratio = (fg: string, bg: string) => contrastRatio(color(fg), color(bg));
  // Refusing a background changes the pairs drawn on it: check again until nothing changes
  // (each round refuses at least one value, or ends).
  for (let changed = true; changed;) {
    changed = false;
    for (const [fg, bg, min] of PAIRS) {
      if (ratio(fg, bg) >= min) continue;
      if (colors.has(fg)) {
        refuse(fg, `contrast ${ratio(fg, bg).toFixed(2)}:1 against ${bg}, at least ${min}:1`);
        changed = true;
      }
      if (ratio(fg, bg) < min && colors.has(bg)) {
        refuse(bg, `contrast ${ratio(fg, bg).toFixed(2)}:1 against ${fg}, at least ${min}:1`);
        changed = true;
      }
    }
  }
  return { accepted: Object.fromEntries(accepted), refused };
}
