/**
 * The gateway's page frame: the layout every page shares, its one style element (allowed by
 * hash), and the security headers (no script at all, forms only to http(s) targets). Pages are
 * written with Hono's `html` template, which escapes every interpolated value unless it is
 * itself the result of `html` (or `raw`); arrays are joined, null, undefined and booleans
 * render nothing.
 */
import { createHash } from 'node:crypto';
import { html, raw } from 'hono/html';

export { html, raw };

/** A piece of escaped HTML, as `html` returns it. */
export type Html = ReturnType<typeof html>;

/** The text of a page. Pages are built from synchronous parts only. */
export function toText(page: Html): string {
  if (page instanceof Promise) throw new TypeError('a gateway page must not wait for anything');
  return String(page);
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1f24}
main{max-width:34rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002}
header p{margin:0;color:#5b6470;font-size:.875rem}
h1{font-size:1.5rem;margin:.25rem 0 1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}
fieldset{border:1px solid #c9ced6;border-radius:6px;margin:0 0 1rem;padding:.5rem 1rem}
label{display:block;margin:.5rem 0 .25rem;font-weight:600}fieldset label{font-weight:400}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #8a939f;border-radius:4px}
button{font:inherit;padding:.5rem 1.25rem;border-radius:4px;border:1px solid #0b5cad;background:#0b5cad;color:#fff;cursor:pointer;margin:.5rem .5rem 0 0}
button.secondary{background:#fff;color:#0b5cad}
.hint{color:#5b6470;font-size:.875rem}
.error{color:#a4001d;font-weight:600}
.ok{color:#0a6b2d}
form.inline{display:inline}
`;

/** `'sha256-…'` of the page's style element, for the Content-Security-Policy. */
export const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** Security headers of every gateway page: no script at all, forms only to http(s) targets. */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': `default-src 'none'; style-src ${STYLE_HASH}; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'`,
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

/** A whole page: `<title>` and `<h1>` from `title`, an optional line above it (`context`). */
export function layout(title: string, body: Html, context?: string): string {
  return toText(html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Payment gateway (sandbox)</title>
<style>${raw(STYLE)}</style>
</head>
<body>
<main>
<header>${context ? html`<p>${context}</p>` : ''}<h1>${title}</h1></header>
${body}
</main>
</body>
</html>
`);
}
