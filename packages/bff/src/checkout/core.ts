/**
 * The engine: the door through which every change of a checkout is written (door.ts), and the
 * payer's actions written through it (act.ts). Nothing else writes a checkout
 * (test/structure/one-door.test.ts keeps it so).
 */
import { createActs } from './act.js';
import { createDoor, type ServiceDeps } from './door.js';

export type { ChangeOptions, Changed, ServiceDeps, WhenBusy } from './door.js';
export type { CheckoutEvent } from '../events.js';
export { LEASE_MARGIN_MS, UndeclaredChange } from './door.js';
export { ANSWER_INLINE_MS, NotSent, type Outcome, type Send } from './act.js';

export function createCore(deps: ServiceDeps) {
  const door = createDoor(deps);
  return { ...door, ...createActs(door, deps.sleep) };
}

export type Core = ReturnType<typeof createCore>;
