/** The hand-off link's handlers (handoff.routes.ts): its page, and its one spending. */
import type { Context } from 'hono';
import { ApiError } from '../../errors.js';
import { handoffLocale, handoffPage, type HandoffPage } from '../../handoff-page.js';
import type { RouteDeps } from '../../parts.js';
import type { Handler } from '../declare.js';
import type * as r from './handoff.routes.js';

/** A hand-off page as the answer, with its own policy; never cached, never indexed. */
function answer(c: Context, p: HandoffPage, status: 200 | 404 | 410) {
  const { body, csp } = handoffPage(p);
  c.header('Content-Security-Policy', csp);
  c.header('Cache-Control', 'no-store');
  c.header('X-Robots-Tag', 'noindex');
  return c.html(body, status);
}

export const show =
  (d: Pick<RouteDeps, 'service'>): Handler<typeof r.show> =>
  async (c) => {
    const look = await d.service.handoff.look(c.req.param('token') ?? '');
    const locale = handoffLocale(look?.locale, c.req.header('Accept-Language'));
    if (!look) return answer(c, { state: 'invalid', locale }, 404);
    if (look.state !== 'open') return answer(c, { state: look.state, locale }, 410);
    return answer(c, { ...look, locale }, 200);
  };

export const spend =
  (d: Pick<RouteDeps, 'service'>): Handler<typeof r.spend> =>
  async (c) => {
    const raw = c.req.param('token') ?? '';
    try {
      const url = await d.service.handoff.redeem(raw);
      c.header('Cache-Control', 'no-store');
      return c.redirect(url, 303);
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 410)) throw err;
      const look = await d.service.handoff.look(raw);
      const locale = handoffLocale(look?.locale, c.req.header('Accept-Language'));
      return err.status === 404 ? answer(c, { state: 'invalid', locale }, 404) : answer(c, { state: look?.state === 'used' ? 'used' : 'expired', locale }, 410);
    }
  };
