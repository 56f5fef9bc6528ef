/**
 * The engine: the door through which every change of a checkout is written (door.ts), and the
 * payer's actions written through it (act.ts, their lock's lease in lease.ts). Nothing else
 * writes a checkout: the action modules (native.ts, links.ts, launch.ts, …) are given the engine
 * as `Core` below, which carries the door's changes and the actions, and a reader of the store,
 * never the door's raw `commit` nor the store's writes; a route is given the service and the
 * store's lists (parts.ts `RouteDeps`). test/structure/one-door-guard.test.ts keeps the text so as a
 * second belt.
 */
import { createActs } from './act.js';
import { createDoor, type ServiceDeps } from './door.js';
import type { StoreReader } from '../store/types.js';

export type { ChangeOptions, Changed, ServiceDeps, WhenBusy } from './door.js';
export type { CheckoutEvent } from '../events.js';
export { LEASE_MARGIN_MS, UndeclaredChange } from './door.js';
export { ANSWER_INLINE_MS, NotSent, type Outcome, type Send } from './act.js';

export function createCore(deps: ServiceDeps) {
  const door = createDoor(deps);
  const { act, drain } = createActs(door, deps.sleep);
  const reader: StoreReader = door.store;
  return {
    config: door.config,
    upstream: door.upstream,
    logger: door.logger,
    now: door.now,
    /** The store's queries: the engine's action modules read through it, and write through `change` and `act` only. */
    reader,
    leaseMs: door.leaseMs,
    holder: door.holder,
    change: door.change,
    settle: door.settle,
    inFlight: door.inFlight,
    reread: door.reread,
    busyConflict: door.busyConflict,
    act,
    drain,
  };
}

/** The engine as the action modules are given it: no raw commit, no store's write. */
export type Core = ReturnType<typeof createCore>;
