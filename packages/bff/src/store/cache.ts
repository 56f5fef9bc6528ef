/**
 * Checkouts kept in memory by a store whose database no other process writes (the embedded
 * engine), written through on every change.
 */
import { deepFreeze } from '@bank-checkout/provider';
import type { CheckoutRecord } from './types.js';

/** Most checkouts a single-writer store keeps in memory; the oldest go first. */
export const CACHED_CHECKOUTS = 10_000;

/**
 * Checkouts by id and by secret hash, for a store whose database no other process writes.
 * Records are frozen: every reader shares them, and a change is a new record through the store.
 */
export function checkoutCache(enabled: boolean) {
  const byId = new Map<string, CheckoutRecord>();
  const idBySecret = new Map<string, string>();
  return {
    get: (id: string) => (enabled ? byId.get(id) : undefined),
    bySecret: (hash: string) => {
      const id = enabled ? idBySecret.get(hash) : undefined;
      return id === undefined ? undefined : byId.get(id);
    },
    put: (rec: CheckoutRecord | null): CheckoutRecord | null => {
      if (!enabled || !rec) return rec;
      byId.delete(rec.id);
      byId.set(rec.id, deepFreeze(rec));
      idBySecret.set(rec.secretHash, rec.id);
      if (byId.size > CACHED_CHECKOUTS) {
        const oldest = byId.keys().next().value!;
        idBySecret.delete(byId.get(oldest)!.secretHash);
        byId.delete(oldest);
      }
      return rec;
    },
    forget: (id: string) => {
      const rec = byId.get(id);
      if (rec) idBySecret.delete(rec.secretHash);
      byId.delete(id);
    },
  };
}
