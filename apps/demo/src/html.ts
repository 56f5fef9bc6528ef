/**
 * Server-rendered HTML: an escaping template tag, the page layout, and the security headers
 * every page carries (a strict Content-Security-Policy with Trusted Types: no inline script or
 * style anywhere, scripts only from the shop's own origin).
 */

/** HTML that is already escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Child = SafeHtml | string | number | boolean | null | undefined | readonly Child[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

function render(child: Child): string {
  if (child instanceof SafeHtml) return child.value;
  if (Array.isArray(child)) return child.map(render).join('');
  if (child === null || child === undefined || child === false || child === true) return '';
  return escapeHtml(String(child));
}

/** Template tag: interpolated values are escaped unless they are SafeHtml (or arrays of it). */
export function html(strings: TemplateStringsArray, ...values: Child[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/** An attribute present or absent (`required`, `disabled`, …). */
export const flag = (on: boolean | undefined, name: string): SafeHtml => new SafeHtml(on ? ` ${name}` : '');

export interface CspOptions {
  /** Origin of the BFF the elements call from the browser. */
  bffOrigin: string;
}

/** The policy of every page: nothing inline, no eval, Trusted Types limited to Lit's policy. */
export function contentSecurityPolicy(opts: CspOptions): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src 'self' ${opts.bffOrigin}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    "require-trusted-types-for 'script'",
    'trusted-types lit-html',
  ].join('; ');
}

export function securityHeaders(opts: CspOptions): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(opts),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  };
}

export type Section = 'shop' | 'cart' | 'console' | 'examples';

export interface LayoutOptions {
  title: string;
  section: Section;
  /** Module scripts under /assets/ (entry names without `.js`). */
  scripts?: string[];
  cartCount?: number;
  shopName: string;
  /** A page without the shop's navigation (the embedding examples). */
  bare?: boolean;
}

const NAV: { section: Section; href: string; label: string }[] = [
  { section: 'shop', href: '/', label: 'Shop' },
  { section: 'cart', href: '/cart', label: 'Cart' },
  { section: 'console', href: '/console', label: 'Merchant console' },
  { section: 'examples', href: '/examples', label: 'Embedding examples' },
];

export function layout(opts: LayoutOptions, body: Child): SafeHtml {
  const nav = NAV.map(
    (n) =>
      html`<li><a href="${n.href}"${new SafeHtml(n.section === opts.section ? ' aria-current="page"' : '')}>${n.label}${
        n.section === 'cart' && opts.cartCount ? html` <span class="badge" aria-label="${`${opts.cartCount} items`}">${opts.cartCount}</span>` : ''
      }</a></li>`,
  );
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · ${opts.shopName}</title>
<link rel="stylesheet" href="/assets/demo.css">
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
${(opts.scripts ?? []).map((s) => html`<script type="module" src="/assets/${s}.js"></script>`)}
</head>
<body class="${opts.section}">
<a class="skip" href="#main">Skip to content</a>
${opts.bare
  ? ''
  : html`<header class="site">
  <a class="brand" href="/"><span class="logo" aria-hidden="true"></span>${opts.shopName}</a>
  <nav aria-label="Main"><ul>${nav}</ul></nav>
</header>`}
<main id="main" tabindex="-1">
${body}
</main>
<footer class="site"><p>A demonstration shop in the simulator's test environment: no real money moves. <a href="/examples">Embed the checkout</a> in your own pages.</p></footer>
</body>
</html>`;
}

/** Formats cents as euros for people (`12,50 €` style is the element's; the shop uses en-IE). */
export function euros(cents: number): string {
  return new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' }).format(cents / 100);
}

/** `2024-05-17 09:41:07` (UTC; seconds only when asked). */
export function dateTime(ms: number | string, seconds = false): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().replace('T', ' ').slice(0, seconds ? 19 : 16);
}
