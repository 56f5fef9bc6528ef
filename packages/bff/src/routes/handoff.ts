/**
 * The link the payer's phone opens (a QR code on the checkout). Opening it (GET, and HEAD, and
 * any link preview) only shows a page in the payer's language with one button; that button's
 * POST spends the link, once, for a redirect to this checkout's bank page. A link used, expired
 * or not a link gets a page that says what to do. No secret of the checkout's is needed or given:
 * the token is its own proof, single-use and short-lived (checkout/handoff.ts).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { router, withErrors } from '../openapi.js';
import { ApiError } from '../errors.js';
import { handoffLocale, handoffPage, type HandoffPage } from '../handoff-page.js';
import type { RouteDeps } from '../parts.js';

const page = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const token = z.object({ token: z.string().meta({ description: 'The single-use token of the link' }) });

/** A hand-off page as the answer, with its own policy; never cached, never indexed. */
function answer(c: Context, p: HandoffPage, status: 200 | 404 | 410) {
  const { body, csp } = handoffPage(p);
  c.header('Content-Security-Policy', csp);
  c.header('Cache-Control', 'no-store');
  c.header('X-Robots-Tag', 'noindex');
  return c.html(body, status);
}

export function handoffRoutes(p: RouteDeps) {
  const app = router();
  const show = createRoute(
    withErrors({
      method: 'get',
      path: '/handoff/{token}',
      summary: "The page a hand-off link opens on the payer's phone: one button goes on to the bank's page; opening it spends nothing",
      tags: ['handoff'],
      request: { params: token },
      responses: {
        200: page("The link's page, in the payer's language, with one button (a form that POSTs to this address)"),
        404: page('Not a link: what to do instead'),
        410: page('Already used or expired, or the checkout moved on: what to do instead (the checkout shows a new code)'),
      },
    }),
  );
  const spend = createRoute(
    withErrors({
      method: 'post',
      path: '/handoff/{token}',
      summary: "Spends a hand-off link (its page's button): once, before it expires, to the checkout's bank page",
      tags: ['handoff'],
      request: { params: token },
      responses: {
        303: { description: "To the bank's page of the checkout", headers: { Location: { schema: { type: 'string' } } } },
        404: page('Not a link: what to do instead'),
        410: page('Already used or expired, or the checkout moved on: what to do instead'),
      },
    }),
  );

  app.openapi(show, async (c) => {
    const look = await p.service.handoff.look(c.req.param('token') ?? '');
    const locale = handoffLocale(look?.locale, c.req.header('Accept-Language'));
    if (!look) return answer(c, { state: 'invalid', locale }, 404);
    if (look.state !== 'open') return answer(c, { state: look.state, locale }, 410);
    return answer(c, { ...look, locale }, 200);
  });

  app.openapi(spend, async (c) => {
    const raw = c.req.param('token') ?? '';
    try {
      const url = await p.service.handoff.redeem(raw);
      c.header('Cache-Control', 'no-store');
      return c.redirect(url, 303);
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 410)) throw err;
      const look = await p.service.handoff.look(raw);
      const locale = handoffLocale(look?.locale, c.req.header('Accept-Language'));
      return err.status === 404 ? answer(c, { state: 'invalid', locale }, 404) : answer(c, { state: look?.state === 'used' ? 'used' : 'expired', locale }, 410);
    }
  });
  return app;
}
