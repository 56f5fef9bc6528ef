/**
 * A store whose every call takes a round trip, as a database across a network does: each call
 * waits `pause()` before it reaches the store and again before its answer comes back. Races that
 * an in-process store never shows (a read and the write it decides, two requests' writes in
 * between) happen with it as they do on PostgreSQL. `breakStore` makes calls fail as a dropped
 * connection does.
 */
import type { Store } from '../src/store/index.js';

export function slowStore(inner: Store, pause: () => Promise<void>): Store {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || prop === 'close') return value;
      return async (...args: unknown[]) => {
        await pause();
        const out = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        await pause();
        return out;
      };
    },
  });
}

/** A pause of `ms` milliseconds of real time. */
export const roundTrip = (ms: number) => () => new Promise<void>((r) => setTimeout(r, ms));

/** A pause of between `min` and `max` milliseconds of real time, drawn from `random` (a network's jitter). */
export const jitteredTrip = (min: number, max: number, random: () => number) => () => new Promise<void>((r) => setTimeout(r, min + random() * (max - min)));

/** An error as the drivers raise them when the database is gone. */
export const dropped = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

/** Makes `names` of the store fail as a dropped connection would, until the returned function is called. */
export function breakStore(store: Store, names: (keyof Store)[]): () => void {
  const saved = names.map((name) => [name, store[name]] as const);
  for (const name of names) (store as unknown as Record<string, unknown>)[name] = async () => Promise.reject(dropped());
  return () => {
    for (const [name, fn] of saved) (store as unknown as Record<string, unknown>)[name] = fn;
  };
}
