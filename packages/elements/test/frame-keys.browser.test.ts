/**
 * The isolated frame's key pairs (frame/keys.ts), in the browser: one per checkout, kept in this
 * origin's IndexedDB with its private half not extractable, the same for every tab asking at
 * once, and the old ones pruned.
 */
import { expect } from '@open-wc/testing';
import { KEPT_MS, MAX_KEPT, framePair } from '../src/frame/keys.js';

const run = Math.random().toString(36).slice(2, 8);
const publicOf = async (pair: CryptoKeyPair) => JSON.stringify(await crypto.subtle.exportKey('jwk', pair.publicKey));

/** The checkout ids kept now. */
function keptIds(): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('bank-checkout');
    open.onerror = () => reject(open.error ?? new Error('the database did not open'));
    open.onsuccess = () => {
      const req = open.result.transaction('frame-keys').objectStore('frame-keys').getAllKeys();
      req.onsuccess = () => {
        open.result.close();
        resolve(req.result as string[]);
      };
      req.onerror = () => reject(req.error ?? new Error('the keys were not read'));
    };
  });
}

describe('the isolated frame’s key pairs', () => {
  it('one per checkout, kept, the same for two tabs asking at once; the private half never extractable', async () => {
    const id = `chk_keys_${run}`;
    const [a, b] = await Promise.all([framePair(id), framePair(id)]);
    expect(a.kept && b.kept).to.equal(true);
    expect(await publicOf(a.pair), 'the same pair for both').to.equal(await publicOf(b.pair));
    const again = await framePair(id);
    expect(await publicOf(again.pair), 'found again, as after a reload').to.equal(await publicOf(a.pair));
    expect(await publicOf((await framePair(`${id}_other`)).pair), 'another checkout, another pair').not.to.equal(await publicOf(a.pair));
    expect(again.pair.privateKey.extractable).to.equal(false);
    let read: unknown = null;
    try {
      read = await crypto.subtle.exportKey('jwk', again.pair.privateKey);
    } catch (err) {
      read = err;
    }
    expect(read, 'no script reads the private half out').to.be.instanceOf(DOMException);
    // It signs, which is all it is for.
    const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, again.pair.privateKey, new Uint8Array([1]));
    expect(signature.byteLength).to.equal(64);
  });

  it('without IndexedDB (refused to the frame), a pair of this document only: the checkout works, a reload starts again', async () => {
    const real = Object.getOwnPropertyDescriptor(window, 'indexedDB') ?? Object.getOwnPropertyDescriptor(Object.getPrototypeOf(window), 'indexedDB')!;
    Object.defineProperty(window, 'indexedDB', {
      configurable: true,
      get: () => ({
        open: () => {
          throw new DOMException('The user denied permission to access the database.', 'SecurityError');
        },
      }),
    });
    try {
      const id = `chk_refused_${run}`;
      const [a, b] = [await framePair(id), await framePair(id)];
      expect([a.kept, b.kept]).to.deep.equal([false, false]);
      expect(a.pair.privateKey.extractable).to.equal(false);
      expect(await publicOf(a.pair), 'nothing kept to find again').not.to.equal(await publicOf(b.pair));
    } finally {
      Object.defineProperty(window, 'indexedDB', real);
    }
    expect((await framePair(`chk_back_${run}`)).kept, 'IndexedDB back').to.equal(true);
  });

  it('prunes the pairs unused for two days, and the oldest beyond the most kept', async () => {
    const now = Date.now();
    const old = `chk_old_${run}`;
    await framePair(old, now - KEPT_MS - 1);
    const many = Array.from({ length: MAX_KEPT + 3 }, (_, i) => `chk_many_${run}_${String(i).padStart(2, '0')}`);
    // One after another, the first used longest ago.
    for (const [i, id] of many.entries()) await framePair(id, now + 1000 + i);
    const kept = await keptIds();
    expect(kept).not.to.include(old);
    expect(kept.length).to.equal(MAX_KEPT);
    expect(
      many.slice(0, 3).some((id) => kept.includes(id)),
      'the three used longest ago',
    ).to.equal(false);
    expect(many.slice(3).every((id) => kept.includes(id))).to.equal(true);
  });
});
