/**
 * The Content-Security-Policy of the shop's pages: the isolated page's policy of bank-checkout's
 * embedding guide (docs/embedding.md, "An isolated page"), as it is. What the checkout needs:
 * `script-src 'self'` (the checkout's host script, from this shop) and `frame-src` for the BFF
 * (the checkout's frame); the host makes no call of its own, so no `connect-src`. The rest is
 * the pages' own: this shop's style sheet and images, forms that post here only, no `<base>`, no
 * other site framing the shop, and Trusted Types with no policy (no script here writes HTML).
 *
 * @param {string} bffOrigin The BFF's origin as the browser reaches it (BFF_PUBLIC_URL's).
 */
export const contentSecurityPolicy = (bffOrigin) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    `frame-src ${bffOrigin}`,
    "style-src 'self'",
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
