// Placeholder: the fault switch and controllable clock are being written.
import { Hono, type MiddlewareHandler } from 'hono';
export function createFaults(now: () => number) {
  const middleware: MiddlewareHandler = async (_c, next) => next();
  return { middleware, routes: new Hono(), now };
}
