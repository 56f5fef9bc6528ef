/**
 * The isolated checkout's key pairs: ECDSA P-256, made with WebCrypto, the private half not
 * extractable (no script, this origin's own included, can read it out; it can only sign with it
 * here). One per checkout, kept in this origin's IndexedDB (which the browser partitions under
 * the shop's site), so that a reload, Back and Forward, or a second tab of the same browser
 * proves it is the same browser and resumes the checkout where it is. Pairs not used for
 * KEPT_MS are pruned, and at most MAX_KEPT are kept.
 *
 * Without IndexedDB (a browser that refuses it to this frame, or a broken one), the pair lives in
 * this document's memory only: the checkout works, but a reload starts it again.
 */

const DB = 'bank-checkout';
const STORE = 'frame-keys';
/** Pairs unused for this long are deleted (a checkout lives a day at most). */
export const KEPT_MS = 2 * 24 * 3600_000;
/** At most this many pairs are kept, the most recently used. */
export const MAX_KEPT = 32;
/** How long IndexedDB has to open before the pair is kept in memory instead. */
const OPEN_TIMEOUT_MS = 2_000;

interface KeptPair {
  checkoutId: string;
  pair: CryptoKeyPair;
  usedAt: number;
}

export interface FramePair {
  pair: CryptoKeyPair;
  /** Kept in IndexedDB (a reload or a second tab finds it); false: in this document's memory only. */
  kept: boolean;
}

/** A new key pair (not kept). */
export const newPair = () => crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);

const done = <T>(req: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    const timer = setTimeout(() => reject(new Error('IndexedDB did not open in time')), OPEN_TIMEOUT_MS);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'checkoutId' }).createIndex('usedAt', 'usedAt');
    req.onsuccess = () => {
      clearTimeout(timer);
      resolve(req.result);
    };
    req.onerror = () => {
      clearTimeout(timer);
      reject(req.error ?? new Error('IndexedDB did not open'));
    };
    req.onblocked = () => {
      clearTimeout(timer);
      reject(new Error('IndexedDB is blocked'));
    };
  });
}

let warmed: [Promise<CryptoKeyPair>, Promise<IDBDatabase | null>] | null = null;

/**
 * Starts what a pair needs before the checkout is known (a new pair, the database opened), so
 * that the frame's redemption, once the host's launch token comes, only looks its pair up.
 */
export function warmPair(): void {
  warmed ??= [newPair(), openDb().catch(() => null)];
}

/**
 * The key pair of `checkoutId` in this browser: the one kept, or a new one kept from now on.
 * Two tabs asking at once get the same pair: the pair is looked up and written in one
 * read-write transaction, which the browser runs one at a time. It is answered once looked up:
 * the write, the pruning and the commit go on behind (a second tab's transaction waits for them).
 */
export async function framePair(checkoutId: string, now = Date.now()): Promise<FramePair> {
  // What was readied serves one call (taken before anything is awaited), the others their own.
  const readied = warmed ?? [newPair(), openDb().catch(() => null)];
  warmed = null;
  const [fresh, db] = await Promise.all(readied);
  if (!db) return { pair: fresh, kept: false };
  try {
    const tx = db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    const found = (await done(store.get(checkoutId))) as KeptPair | undefined;
    const pair = found?.pair ?? fresh;
    store.put({ checkoutId, pair, usedAt: now } satisfies KeptPair);
    void prune(store, checkoutId, now)
      .catch(() => {})
      .finally(() => db.close());
    return { pair, kept: true };
  } catch {
    db.close();
    return { pair: fresh, kept: false };
  }
}

/** The oldest pairs go: those unused for KEPT_MS, and any beyond MAX_KEPT (never `keep`'s). */
async function prune(store: IDBObjectStore, keep: string, now: number): Promise<void> {
  const all = (await done(store.index('usedAt').getAllKeys())) as string[];
  const stale = (await done(store.index('usedAt').getAllKeys(IDBKeyRange.upperBound(now - KEPT_MS)))) as string[];
  for (const id of new Set([...stale, ...all.slice(0, Math.max(0, all.length - MAX_KEPT))])) if (id !== keep) store.delete(id);
}
