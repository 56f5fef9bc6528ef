/**
 * The security headers every page carries: a strict Content-Security-Policy with Trusted Types
 * (no inline script or style anywhere, scripts only from the shop's own origin) and the rest.
 */

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
    // The isolated checkout's frame, on the BFF's origin.
    `frame-src ${opts.bffOrigin}`,
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
