/**
 * The isolated checkout's credentials. The merchant's server hands the payer's page a launch
 * token (`lt_…`): single use, short lived. The checkout's frame, on the BFF's own origin,
 * redeems it once for a frame key (`fk_…`) that lives only in the frame's memory and opens the
 * checkout API from that origin only. Nothing the host page ever holds opens the checkout once
 * the frame has started.
 *
 * The launch belongs to the browser that redeemed it last (its key pair). That browser may
 * present a token of this checkout again, spent or replaced (the host's Try again, a second tab
 * of an older page): it resumes, as a reload does. Any other browser that presents a token
 * after another took the launch (the same token, or one a newer token replaced before it was
 * redeemed) is refused, counted on the checkout and told to the merchant
 * (`checkout.launch_refused`): someone else opened the checkout. A newer token redeemed by
 * another browser (the shop's page loaded there) takes the launch over, and an open bank session
 * is closed first: no holder of a new key ever inherits the accounts the payer opened in
 * another frame.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isFinal } from './transitions.js';
import { ApiError, errors } from '../errors.js';
import type { CheckoutRecord, LaunchRecord } from '../store/types.js';
import type { Core, ServiceDeps } from './core.js';
import type { LaunchRefusedEvent } from '../events.js';
import { merchantData } from './internal.js';
import { sha256Hex } from './secrets.js';

/** How long a launch token can be redeemed: the page that carries it loads its frame at once. */
export const LAUNCH_TTL_MS = 5 * 60_000;

/** Redeemed (and replaced) tokens remembered per checkout (to answer "already used" rather than "invalid"). */
const USED_KEPT = 8;

/** Times a redemption is answered again when another changed the launch between its read and its write. */
const REDEEM_ATTEMPTS = 3;

/** Frame keys of one browser kept good at once (its tabs and reloads, newest last). */
const TABS_KEPT = 4;

const CREDENTIAL = /^(lt|fk)_(chk_[A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{43})$/;

/** The checkout id a launch token or frame key names, or null when it is not one. */
export function credentialCheckout(kind: 'lt' | 'fk', value: string | undefined): string | null {
  const m = value ? CREDENTIAL.exec(value) : null;
  return m && m[1] === kind ? m[2]! : null;
}

const make = (kind: 'lt' | 'fk', checkoutId: string) => `${kind}_${checkoutId}.${randomBytes(32).toString('base64url')}`;

const sameHash = (a: string | null, b: string) => a !== null && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A new launch token for `checkoutId`, and the launch record that expects it (`previous` carried over). */
export async function newLaunch(checkoutId: string, now: number, previous?: LaunchRecord): Promise<{ token: string; launch: LaunchRecord }> {
  const token = make('lt', checkoutId);
  const tokenHash = await sha256Hex(token);
  return { token, launch: withToken(previous, tokenHash, now + LAUNCH_TTL_MS) };
}

/** The launch record expecting the token of this hash until `expiresAt`, the rest of `previous` kept. */
function withToken(previous: LaunchRecord | undefined, tokenHash: string, expiresAt: number): LaunchRecord {
  const base: LaunchRecord = previous ?? {
    tokenHash: null,
    tokenExpiresAt: 0,
    keyHash: null,
    redeemedAt: null,
    usedHashes: [],
    refusals: 0,
    lastRefusedAt: null,
  };
  return { ...base, tokenHash, tokenExpiresAt: expiresAt };
}

/**
 * What a presented token is to the launch: the outstanding one, one already redeemed, one a newer
 * token replaced before it was redeemed, or none of this checkout's (null).
 */
function presented(l: LaunchRecord, hash: string): 'outstanding' | 'used' | 'replaced' | null {
  if (sameHash(l.tokenHash, hash)) return 'outstanding';
  if (l.usedHashes.some((h) => sameHash(h, hash))) return 'used';
  return l.replacedHashes?.some((h) => sameHash(h, hash)) ? 'replaced' : null;
}

/** The launch about to get a new token: an outstanding one not redeemed is remembered as replaced. */
function replacing(l: LaunchRecord | undefined): LaunchRecord | undefined {
  return l?.tokenHash ? { ...l, replacedHashes: [...(l.replacedHashes ?? []), l.tokenHash].slice(-USED_KEPT) } : l;
}

/** The states holding a bank session the payer opened: a new frame never inherits them. */
const holdsSession = (rec: CheckoutRecord) => Boolean(rec.internal.sessionId) && !isFinal(rec.state) && rec.state !== 'unknown';

export function launchActions(core: Core, deps: Pick<ServiceDeps, 'webhook'>) {
  const { reader, now, logger } = core;

  /**
   * A fresh launch token for an isolated checkout (its page was loaded again). It touches only
   * the launch, so it is issued even while a call is with the bank; the frame that runs keeps
   * its key until the token is redeemed.
   */
  async function relaunch(rec: CheckoutRecord): Promise<{ record: CheckoutRecord; token: string }> {
    if (rec.isolation !== 'isolated')
      throw errors.conflict('not_isolated', 'This checkout is inline: its page opens it with the client secret, not a launch token.');
    const token = make('lt', rec.id);
    const tokenHash = await sha256Hex(token);
    const expiresAt = now() + LAUNCH_TTL_MS;
    const { record } = await core.change(rec, 'launch', (r) => ({ launch: withToken(replacing(r.launch), tokenHash, expiresAt) }), 'native', {
      whenBusy: 'allow',
    });
    return { record, token };
  }

  const invalid = () => errors.unauthorized('Missing or invalid launch token.');

  /**
   * Refuses a token presented by a browser other than the one the launch belongs to: counted on
   * the checkout, and told to the merchant (`checkout.launch_refused`) with the count, with the
   * change. The frame that presented it says the checkout is open elsewhere.
   */
  async function refuse(found: CheckoutRecord, reason: LaunchRefusedEvent['reason']): Promise<never> {
    const at = now();
    const { record } = await core.change(
      found,
      'launch',
      (r) => ({ launch: { ...r.launch!, refusals: r.launch!.refusals + 1, lastRefusedAt: at } }),
      'native',
      {
        whenBusy: 'allow',
        events: (r) => {
          const data: LaunchRefusedEvent = {
            checkoutId: r.id,
            reference: r.reference,
            reason,
            refusals: r.launch!.refusals + 1,
            at: new Date(at).toISOString(),
          };
          return deps.webhook?.enabled ? [deps.webhook.event({ type: 'checkout.launch_refused', data })] : [];
        },
      },
    );
    logger.log('warn', 'checkout.launch_refused', { checkoutId: record.id, reason, refusals: record.launch?.refusals ?? 0 });
    throw new ApiError(409, 'launch_used', 'This checkout was opened in another browser; it cannot continue here.');
  }

  /**
   * The frame redeems a launch token for its key, bound to the key pair its proof was signed with
   * (`jkt`, checked by the caller). An expired token is refused (401 `launch_expired`); anything
   * that is no token of this checkout is 401.
   *
   * The browser that has the checkout open already (the same key pair: a reload, Back, a second
   * tab, the host's Try again) resumes it where it is, a call with the bank in flight included;
   * its earlier frames' keys stay good. It may present the outstanding token, or one of this
   * checkout's it presented before or that a newer one replaced (a Try again, an older tab): it is
   * the browser, not the token, that the launch belongs to. Any other browser presenting a spent
   * or replaced token is refused (409 `launch_used`) and reported to the merchant (`refuse`).
   * Any other browser presenting the outstanding token gets a checkout whose bank session is
   * closed first (the `relaunch` change): it never inherits the accounts the payer opened
   * elsewhere, and the frames of that other browser are told the checkout went on elsewhere.
   * While a call is with the bank (which may open or use a session), such a redemption waits its
   * turn: 409 `checkout_busy`, and the frame tries again.
   */
  async function redeem(token: string, jkt: string, attempt = 1): Promise<{ record: CheckoutRecord; key: string; resumed: boolean }> {
    const id = credentialCheckout('lt', token);
    const found = id ? await reader.getCheckout(id) : null;
    if (!found || found.isolation !== 'isolated' || !found.launch) throw invalid();
    const hash = await sha256Hex(token);
    const seen = presented(found.launch, hash);
    if (!seen) throw invalid();
    const holds = (l: LaunchRecord) => Boolean(l.keyJkt) && l.keyJkt === jkt;
    if (seen !== 'outstanding') {
      // Another browser took the launch (or none has yet, for a token replaced unredeemed: no launch to resume).
      if (!holds(found.launch)) {
        if (seen === 'used' || found.launch.keyJkt) return refuse(found, seen === 'used' ? 'launch_used' : 'launch_replaced');
        throw invalid();
      }
    } else if (now() >= found.launch.tokenExpiresAt)
      throw new ApiError(401, 'launch_expired', 'The launch token has expired; load the page again for a new one.');
    const key = make('fk', found.id);
    const keyHash = await sha256Hex(key);
    const at = now();
    const resumed = holds(found.launch);
    /** The launch after this redemption: the key given, bound to `jkt`; the token spent when it was the outstanding one. */
    const redeemed = (before: LaunchRecord, sameBrowser: boolean): LaunchRecord => {
      const earlier = [...(before.keyHashes ?? []), ...(before.keyHash && !before.keyHashes ? [before.keyHash] : [])];
      const kept = sameBrowser ? [...earlier, keyHash].slice(-TABS_KEPT) : [keyHash];
      // The keys no longer good (another browser's frames, or this browser's oldest tab past the
      // ones kept) are remembered, so that their frames are told where the payment went.
      const dropped = earlier.filter((h) => !kept.includes(h));
      const spends = seen === 'outstanding';
      return {
        ...before,
        ...(spends ? { tokenHash: null, usedHashes: [...before.usedHashes, hash].slice(-USED_KEPT) } : {}),
        keyHash,
        keyJkt: jkt,
        keyHashes: kept,
        redeemedAt: at,
        ...(dropped.length ? { replacedKeyHashes: [...(before.replacedKeyHashes ?? []), ...dropped].slice(-USED_KEPT) } : {}),
      };
    };
    /** What was read no longer holds when written (another redemption won meanwhile): the redemption is answered again, as things are then. */
    const meanwhile = { changed: false };
    /** The launch as it is now, if what was read still holds: the token still as it was, this browser still its holder when resuming. */
    const still = (r: CheckoutRecord) => {
      const l = r.launch;
      if (!l || presented(l, hash) !== seen || (resumed && !holds(l))) {
        meanwhile.changed = true;
        throw invalid();
      }
      return l;
    };
    const redeeming = resumed
      ? core.change(found, 'launch', (r) => ({ launch: redeemed(still(r), true) }), 'native', { whenBusy: 'allow' })
      : core.change(
          found,
          'relaunch',
          (r) => {
            const launch = redeemed(still(r), false);
            // A bank session opened in another browser is closed, not handed over: the payer signs in again.
            return holdsSession(r) ? { launch, state: 'select-bank', error: null, internal: merchantData(r.internal) } : { launch };
          },
          'native',
        );
    let record: CheckoutRecord;
    try {
      ({ record } = await redeeming);
    } catch (err) {
      // Two browsers redeeming one token at once: the one that lost is answered as a token
      // presented after its redemption is (refused, counted and told; or resumed, if it is the
      // browser that won).
      if (!meanwhile.changed) throw err;
      if (attempt >= REDEEM_ATTEMPTS) throw errors.conflict('checkout_busy', 'The checkout is being opened; try again.');
      return redeem(token, jkt, attempt + 1);
    }
    logger.log('info', 'checkout.launched', { checkoutId: record.id, resumed });
    return { record, key, resumed };
  }

  /**
   * The checkout a frame key opens, or 401. The key of a frame that the page loaded again
   * replaced gets 409 `opened_elsewhere` and nothing of the checkout: that window can only say
   * the payment goes on elsewhere (a reload there takes it back, with a bank session of its own).
   */
  async function byFrameKey(key: string): Promise<CheckoutRecord> {
    const id = credentialCheckout('fk', key);
    const rec = id ? await reader.getCheckout(id) : null;
    if (!rec || rec.isolation !== 'isolated') throw errors.unauthorized('Missing or invalid X-Checkout-Secret.');
    const hash = await sha256Hex(key);
    const launch = rec.launch;
    const current = launch?.keyHashes ?? (launch?.keyHash ? [launch.keyHash] : []);
    if (current.some((h) => sameHash(h, hash))) return rec;
    if (launch?.replacedKeyHashes?.some((h) => sameHash(h, hash)))
      throw new ApiError(409, 'opened_elsewhere', 'This checkout was opened in another browser; it continues there.');
    throw errors.unauthorized('Missing or invalid X-Checkout-Secret.');
  }

  return { relaunch, redeem, byFrameKey };
}
