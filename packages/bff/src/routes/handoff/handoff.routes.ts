/**
 * The link the payer's phone opens (a QR code on the checkout), declared. Opening it (GET, and
 * HEAD, and any link preview) only shows a page in the payer's language with one button; that
 * button's POST spends the link, once, for a redirect to this checkout's bank page. A link used,
 * expired or not a link gets a page that says what to do. No secret of the checkout's is needed
 * or given: the token is its own proof, single-use and short-lived (checkout/handoff.ts).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { withErrors } from '../../openapi.js';

const page = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const token = z.object({ token: z.string().meta({ description: 'The single-use token of the link' }) });

export const show = createRoute(
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

export const spend = createRoute(
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
