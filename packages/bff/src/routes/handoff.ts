/**
 * The link the payer's phone opens (a QR code on the checkout): redeemed once, it answers with
 * a redirect to this checkout's bank page; nothing else. No secret of the checkout's is needed
 * or given: the token is its own proof, single-use and short-lived (checkout/handoff.ts).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { json, router, withErrors } from '../openapi.js';
import { errorBody } from '@bank-checkout/contract/schemas';
import type { AppParts } from '../parts.js';

export function handoffRoutes(p: AppParts) {
  const app = router();
  const redeem = createRoute(
    withErrors({
      method: 'get',
      path: '/handoff/{token}',
      summary: "Opens a checkout's bank page on the payer's phone: once, before the link expires",
      tags: ['handoff'],
      request: { params: z.object({ token: z.string().meta({ description: 'The single-use token of the link' }) }) },
      responses: {
        303: { description: "To the bank's page of the checkout", headers: { Location: { schema: { type: 'string' } } } },
        410: json(errorBody, 'Already used or expired, or the checkout moved on: the checkout shows a new code'),
      },
    }),
  );
  app.openapi(redeem, async (c) => {
    const url = await p.service.handoff.redeem(c.req.param('token') ?? '');
    c.header('Cache-Control', 'no-store');
    return c.redirect(url, 303);
  });
  return app;
}
