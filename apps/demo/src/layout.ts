/**
 * Server-rendered HTML: the page layout and the parts every page may show. Pages are written
 * with Hono's `html` template, which escapes every interpolated value unless it is itself the
 * result of `html` (or `raw`); arrays are joined, null, undefined and booleans render nothing.
 */
import { html, raw } from 'hono/html';
import { isWebUrl } from '@bank-checkout/contract';
import type { Flash } from './session.js';

export { html, raw };

/** A piece of escaped HTML, as `html` returns it. */
export type Html = ReturnType<typeof html>;
/** What a page part may be: escaped HTML, or text to escape. */
export type Child = Html | string | number | boolean | null | undefined | readonly Child[];

/** The text of a page. Pages are built from synchronous parts only. */
export function toText(page: Html): string {
  if (page instanceof Promise) throw new TypeError('a page must not wait for anything');
  return String(page);
}

/** An attribute present or absent (`required`, `disabled`, …). */
export const flag = (on: boolean | undefined, name: 'required' | 'checked' | 'selected' | 'open' | 'disabled' | 'data-mandate' | 'data-again'): Html | '' =>
  on ? raw(` ${name}`) : '';

export type Section = 'shop' | 'cart' | 'console' | 'examples';

export interface LayoutOptions {
  title: string;
  section: Section;
  /** Module scripts under /assets/ (entry names without `.js`). */
  scripts?: string[];
  /** Modules under /assets/ that the scripts import, preloaded with them (`<link rel="modulepreload">`). */
  preload?: string[];
  /**
   * An origin the page will reach early, connected to ahead (`<link rel="preconnect">`): the
   * BFF of a checkout page. `cors`: for the page's own calls (inline), not the frame's page.
   */
  preconnect?: { origin: string; cors: boolean };
  cartCount?: number;
  /** The page's own path: its link in the navigation is the current page, the others of its section are where it is. */
  path?: string;
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

export function layout(opts: LayoutOptions, body: Child): string {
  const nav = NAV.map(
    (n) =>
      html`<li class="nav-${n.section}"><a href="${n.href}"${n.section === opts.section ? raw(` aria-current="${n.href === opts.path ? 'page' : 'true'}"`) : ''}>${n.label}${
        n.section === 'cart' && opts.cartCount
          ? html` <span class="badge" aria-label="${`${opts.cartCount} ${opts.cartCount === 1 ? 'item' : 'items'}`}">${opts.cartCount}</span>`
          : ''
      }</a></li>`,
  );
  return toText(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · ${opts.shopName}</title>
<link rel="stylesheet" href="/assets/demo.css">
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
${
  opts.preconnect
    ? html`<link rel="preconnect" href="${opts.preconnect.origin}"${opts.preconnect.cors ? raw(' crossorigin') : ''}>
`
    : ''
}${(opts.preload ?? []).map(
    (p) => html`<link rel="modulepreload" href="/assets/${p}">
`,
  )}${(opts.scripts ?? []).map((s) => html`<script type="module" src="/assets/${s}.js"></script>`)}
</head>
<body class="${opts.section}">
<a class="skip" href="#main">Skip to content</a>
${
  opts.bare
    ? ''
    : html`<header class="site">
  <a class="brand" href="/"><span class="logo" aria-hidden="true"></span>${opts.shopName}</a>
  <nav aria-label="Main"><ul>${nav}</ul></nav>
</header>`
}
<main id="main" tabindex="-1">
${body}
</main>
<footer class="site"><p>A demonstration shop in the simulator's test environment: no real money moves. <a href="/examples">Embed the checkout</a> in your own pages, or see the payments in the <a href="/console">merchant console</a>.</p></footer>
</body>
</html>`);
}

/** The message left by the last action; a detail's address is a link only when it is a web address. */
export function flashBox(flash: Flash | null): Html | '' {
  if (!flash) return '';
  return html`<div class="flash ${flash.kind}" role="${flash.kind === 'error' ? 'alert' : 'status'}" tabindex="-1" id="flash" autofocus>
    <p>${flash.text}</p>
    ${
      flash.details?.length
        ? html`<dl>${flash.details.map((d) => html`<dt>${d.label}</dt><dd>${isWebUrl(d.href) ? html`<a href="${d.href}">${d.value}</a>` : d.value}</dd>`)}</dl>`
        : ''
    }
  </div>`;
}
