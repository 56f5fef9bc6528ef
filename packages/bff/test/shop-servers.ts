/**
 * The shop's own servers with the BFF mounted in them under `/pay`, as docs/running.md shows it:
 * here Fastify, whose mount takes a scope of its own (mount.test.ts, and the faults' tests of a
 * body cut short, use it as the guide writes it).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { getRequestListener } from '@hono/node-server';

/** A Fastify app with `fetch` (the BFF's) mounted under `/pay`, in its own scope without body parsers. */
export async function fastifyWithBff(fetch: (req: Request, env: unknown) => Response | Promise<Response>): Promise<FastifyInstance> {
  const shop = Fastify();
  const listener = getRequestListener(fetch);
  await shop.register(
    async (scope) => {
      // The BFF reads request bodies itself: this scope leaves them unread.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
      scope.all('/*', (req, reply) => {
        reply.hijack();
        req.raw.url = req.raw.url!.slice('/pay'.length) || '/';
        void listener(req.raw, reply.raw);
      });
    },
    { prefix: '/pay' },
  );
  return shop;
}
