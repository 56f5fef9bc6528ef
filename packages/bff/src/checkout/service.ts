/**
 * The checkout service: every transition of a checkout goes through here, the merchant's
 * creation and decision included. Each action loads the checkout, applies what time alone has
 * done, checks the transition table, makes at most one upstream call under the checkout's lock,
 * and writes the outcome with the webhook event it reports (core.ts). The native bank session
 * is in native.ts, the payment-link modes in links.ts, the creation in create.ts.
 */
import { CHECKOUT_ACTIONS, type CheckoutAction, type CheckoutView } from '@bank-checkout/contract';
import { errors } from '../errors.js';
import type { CheckoutRecord, Store } from '../store/types.js';
import { createCore, type ServiceDeps } from './core.js';
import { linkActions } from './links.js';
import { nativeActions } from './native.js';
import { handoffActions } from './handoff.js';
import { payingBankActions } from './paying-bank.js';
import { toView } from './view.js';
import { hashSecret } from './secrets.js';
import { launchActions } from './launch.js';
import { creationActions } from './create.js';
import { reconcileActions } from './reconcile.js';
import { createProofVerifier } from './proof.js';
import { scrubSession } from './internal.js';
import { RESOLVE, STATES, isFinal, viewError } from './transitions.js';

export type { CheckoutEvent, ServiceDeps } from './core.js';
export type { Created } from './create.js';

export function createCheckoutService(deps: ServiceDeps) {
  const core = createCore(deps);
  const { config, reader, logger, now } = core;
  // The store's one write the service itself makes, a proof's id; a checkout's creation is create.ts's.
  const proofIds: Pick<Store, 'useProofId'> = deps.store;
  const native = nativeActions(core);
  const links = linkActions(core);
  const launches = launchActions(core, deps);
  const reconcile = reconcileActions(core, links);

  // A proof's id is used once across every instance: kept in the store for the proof's window.
  const proofs = createProofVerifier(now, (id, until) => proofIds.useProofId(id, until, now()));

  /**
   * The checkout a client secret (inline) or a frame key (isolated) opens, or 401. A frame key
   * opens it only with a proof of the key pair it is bound to (proof.ts), made for this call.
   */
  async function bySecret(secret: string | undefined, call?: { proof: string | undefined; method: string; url: string }): Promise<CheckoutRecord> {
    if (!secret || secret.length > 200) throw errors.unauthorized('Missing or invalid X-Checkout-Secret.');
    if (secret.startsWith('fk_')) {
      const rec = await launches.byFrameKey(secret);
      const jkt = rec.launch?.keyJkt;
      // A key given before keys were bound carries no proof (none could be made for it).
      if (jkt) {
        if (!call) throw errors.unauthorized('Missing or invalid proof of possession (DPoP).');
        await proofs.verify(call.proof, { method: call.method, url: call.url, key: secret, jkt });
      }
      return core.settle(rec);
    }
    const rec = await reader.getCheckoutBySecretHash(await hashSecret(secret));
    // An isolated checkout's stored secret hash is of a value never handed out: never found here.
    if (!rec || rec.isolation === 'isolated') throw errors.unauthorized('Missing or invalid X-Checkout-Secret.');
    return core.settle(rec);
  }

  async function view(rec: CheckoutRecord): Promise<CheckoutView> {
    const periodic = rec.state === 'periodic' ? await links.periodicContext() : {};
    // The login form is the bank's description from the bank list last read, however old; the
    // list is read only when this process has none with the bank (after a restart, say).
    const bank = rec.state === 'login' ? rec.internal.bank : undefined;
    if (bank && !core.upstream.cachedNativeBank(bank.bankId)) await core.upstream.nativeBanks().catch(() => undefined);
    const v = toView(rec, { sandbox: config.sandbox, payeeName: config.merchant.name, now: now(), bankInfo: core.upstream.cachedNativeBank, ...periodic });
    const inFlight = core.inFlight(rec);
    if (!inFlight || !(CHECKOUT_ACTIONS as readonly string[]).includes(inFlight)) return v;
    // Its holder went quiet: the payer is told when the wait ends at the latest.
    const busy = rec.internal.busy;
    const quiet = busy?.overdueSince !== undefined && busy.until !== undefined;
    return { ...v, inFlight: inFlight as CheckoutAction, ...(quiet ? { inFlightUntil: new Date(busy.until!).toISOString() } : {}) };
  }

  const creation = creationActions(core, launches, deps.store);
  const { referenceFree } = creation;
  const create: typeof creation.create = async (...args) => {
    const made = await creation.create(...args);
    if (made.created) deps.telemetry?.created(made.record);
    return made;
  };

  /**
   * The merchant's decision on a checkout left `unknown`, after asking the bank (RESOLVE in the
   * table): the outcome, when, and the merchant's note are kept; the webhook event is written
   * with the change. The same decision again answers with the checkout as it is (a retry);
   * any other state is a conflict.
   */
  async function resolve(rec: CheckoutRecord, outcome: 'succeeded' | 'failed', note?: string): Promise<CheckoutRecord> {
    const already = (r: CheckoutRecord) => r.state === outcome && r.internal.resolution?.outcome === outcome;
    const notResolvable = (r: CheckoutRecord) => errors.conflict('invalid_state', `Only an unknown checkout can be resolved; this one is ${r.state}.`);
    if (already(rec)) return rec;
    if (!RESOLVE.from.includes(rec.state)) throw notResolvable(rec);
    const { record, changed } = await core.change(
      rec,
      'resolve',
      (r) =>
        RESOLVE.from.includes(r.state)
          ? {
              state: outcome,
              error: outcome === 'failed' ? viewError('unknown') : null,
              internal: { ...r.internal, resolution: { outcome, at: now(), ...(note ? { note } : {}) } },
            }
          : null,
      'merchant',
    );
    if (!changed && !already(record)) throw notResolvable(record);
    return record;
  }

  /**
   * The merchant's cancel (a changed cart, a withdrawn order): an open checkout becomes
   * `cancelled` for good, with the one terminal webhook event of its ending (`checkout.updated`,
   * source `merchant`) written with the change. Its expiry becomes now, so the payer cannot start
   * it over, and its reference is free for a new checkout. A cancelled checkout is answered as it
   * is (a retry); one that ended otherwise, or is `unknown` (the bank may have moved money), is a
   * conflict, and so is one whose call is with the bank.
   */
  async function cancelByMerchant(rec: CheckoutRecord): Promise<CheckoutRecord> {
    const refuse = (r: CheckoutRecord) => {
      if (r.state === 'unknown')
        return errors.conflict('invalid_state', 'The bank may have moved money for this checkout: ask the bank, then resolve it instead.');
      return errors.conflict('checkout_finished', `The checkout has already ended: it is ${r.state}.`);
    };
    // What time alone has done comes first: a checkout past its expiry is expired, not cancelled.
    // While a call is with the bank the change is refused (409 checkout_busy): it waits its turn.
    const current = await core.settle(rec);
    const { record, changed } = await core.change(
      current,
      'merchant-cancel',
      (r) => {
        // Cancelled already (by the payer, who could still start over: no longer), or anything else: nothing to write.
        if (r.state === 'cancelled') return r.expiresAt > now() ? { expiresAt: now() } : null;
        if (!STATES[r.state].by['merchant-cancel']?.includes('cancelled')) return null;
        return { state: 'cancelled', error: viewError('cancelled'), internal: scrubSession(r.internal), expiresAt: now() };
      },
      'merchant',
    );
    if (record.state !== 'cancelled') throw refuse(record);
    if (changed) logger.log('info', 'checkout.cancelled', { checkoutId: record.id, by: 'merchant', from: current.state });
    return record;
  }

  /**
   * Ends what time alone has ended, without waiting for anyone to look: checkouts past their
   * expiry (a redirect one past its link's lifetime and the grace period), and checkouts whose
   * lock's lease lapsed (an instance stopped mid-call: a step that moved no money is open again,
   * a transfer or validation becomes `unknown` and the merchant is told). Each is settled like
   * any read would, so several instances sweeping at once end each checkout once. Returns how
   * many changed.
   */
  async function sweep(limit = 200): Promise<number> {
    let changed = 0;
    const due = new Map<string, CheckoutRecord>();
    for (const rec of [...(await reader.findDue(now(), limit)), ...(await reader.findLapsedLocks(now(), limit))]) due.set(rec.id, rec);
    for (const rec of due.values()) {
      const after = await core.settle(rec).catch(() => rec);
      if (after.version !== rec.version) changed++;
    }
    return changed;
  }

  return {
    /** The checkout of `id` as stored, or null: how a route reads one (it never reads the store itself). */
    find: (id: string) => reader.getCheckout(id),
    bySecret,
    /** The verifier of the frame's proofs of possession (proof.ts). */
    proofs,
    view,
    create,
    relaunch: launches.relaunch,
    redeemLaunch: launches.redeem,
    resolve,
    cancelByMerchant,
    sweep,
    /** Looks up link results that never came in the provider's order query (reconcile.ts). */
    reconcile: reconcile.run,
    settle: core.settle,
    /** Waits for the bank's answers still being written after a store failure (at shutdown). */
    drain: core.drain,
    /** How long a checkout's lock lasts unless its holder renews it. */
    leaseMs: core.leaseMs,
    /** This instance, as the holder of leases. */
    holder: core.holder,
    /** The payer cancels (the declaration's `cancel`: nothing is sent to the bank). */
    cancel: (rec: CheckoutRecord) => core.act(rec, 'cancel'),

    /**
     * One step back before a transfer is initiated, where the declaration's `back` says: from the
     * account list to the contracts when there were several (the bank session goes on); otherwise
     * to the same bank's sign-in (the session is dropped, the bank stays), and from the sign-in to
     * the bank list.
     */
    back: (rec: CheckoutRecord) => core.act(rec, 'back'),

    /**
     * A fresh start after a failure or a cancellation, while the checkout has not expired, and
     * only while no other checkout holds its reference open (the declaration's `restart`).
     */
    restart: async (rec: CheckoutRecord) => {
      if (now() >= rec.expiresAt) throw errors.conflict('checkout_finished', 'The checkout has expired; the shop can start a new one.');
      if (isFinal(rec.state)) await referenceFree(rec.reference, rec.id);
      return core.act(rec, 'restart');
    },
    ...native,
    chooseMode: links.chooseMode,
    redirect: links.redirect,
    periodic: links.periodic,
    applyLinkResult: links.applyLinkResult,
    /** Links for the payer's phone to the bank's page (handoff.ts). */
    handoff: handoffActions(core),
    /** The bank a payment at the bank's page was made from, learnt after it (paying-bank.ts). */
    payingBank: payingBankActions(core),
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
