/**
 * The checkout service: every transition of a checkout goes through here, the merchant's
 * creation and decision included. Each action loads the checkout, applies what time alone has
 * done, checks the transition table, makes at most one upstream call under the checkout's lock,
 * and writes the outcome with the webhook event it reports (core.ts). The native bank session
 * is in native.ts, the payment-link modes in links.ts.
 */
import type { CheckoutMode, CheckoutView, CreateCheckoutBody } from '@bank-checkout/contract';
import { errors } from '../errors.js';
import type { CheckoutRecord } from '../store/types.js';
import { createCore, type ServiceDeps } from './core.js';
import { linkActions } from './links.js';
import { nativeActions } from './native.js';
import { merchantData, scrubSession } from './internal.js';
import { toView, viewError } from './machine.js';
import { clientSecretFor, hashSecret, newId, sha256Hex } from './secrets.js';
import { RESOLVE, backTarget, initialState } from './transitions.js';

export type { CheckoutEvent, ServiceDeps } from './core.js';

/** A new checkout, or the one an Idempotency-Key already made (`created: false`). */
export interface Created {
  created: boolean;
  record: CheckoutRecord;
  clientSecret: string;
}

export function createCheckoutService(deps: ServiceDeps) {
  const core = createCore(deps);
  const { config, store, logger, now } = core;
  const native = nativeActions(core);
  const links = linkActions(core);

  async function bySecret(secret: string | undefined): Promise<CheckoutRecord> {
    if (!secret || secret.length > 200) throw errors.unauthorized('Missing or invalid X-Checkout-Secret.');
    const rec = await store.getCheckoutBySecretHash(await hashSecret(secret));
    if (!rec) throw errors.unauthorized('Missing or invalid X-Checkout-Secret.');
    return core.settle(rec);
  }

  async function view(rec: CheckoutRecord): Promise<CheckoutView> {
    const periodic = rec.state === 'periodic' ? await links.periodicContext() : {};
    return toView(rec, { sandbox: config.sandbox, payeeName: config.merchant.name, now: now(), ...periodic });
  }

  /**
   * A checkout for the merchant's order, starting where its first mode starts. With an
   * Idempotency-Key, the same key and body find the checkout they made (the store writes the
   * key with the checkout, both or neither); the same key with another body is refused.
   */
  async function create(body: CreateCheckoutBody, key?: string): Promise<Created> {
    const fingerprint = await sha256Hex(JSON.stringify(body));
    const replay = async (checkoutId: string, storedFingerprint: string): Promise<Created> => {
      if (storedFingerprint !== fingerprint) throw errors.conflict('idempotency_mismatch', 'This Idempotency-Key was used with a different request body.');
      const record = await store.getCheckout(checkoutId);
      if (!record) throw errors.notFound('Checkout');
      return { created: false, record, clientSecret: await clientSecretFor(config.merchantSecret, record.id) };
    };
    if (key) {
      const existing = await store.getIdempotency(key);
      if (existing) return replay(existing.checkoutId, existing.fingerprint);
    }
    const at = now();
    const id = newId('chk');
    const clientSecret = await clientSecretFor(config.merchantSecret, id);
    // A periodic payment is a mandate, not a payment now: only when the merchant asks for it.
    const modes: CheckoutMode[] = body.modes ?? ['native', 'redirect'];
    const record: CheckoutRecord = {
      id,
      secretHash: await hashSecret(clientSecret),
      mode: modes[0]!,
      state: initialState(modes),
      version: 1,
      amount: body.amount,
      subject: body.subject,
      reference: body.reference,
      holderDestiny: body.holderDestiny ?? config.merchant.name,
      accountDestiny: body.accountDestiny ?? config.merchant.iban,
      customData: body.customData ?? null,
      urlOk: body.urlOk ?? null,
      urlError: body.urlError ?? null,
      modes,
      attemptsLeft: config.maxAttempts,
      createdAt: at,
      updatedAt: at,
      expiresAt: at + (body.expiresInMinutes ?? config.checkoutTtlMinutes) * 60_000,
      internal: { explicitDestiny: body.accountDestiny !== undefined },
      error: null,
    };
    const result = await store.createCheckout(record, key ? { key, fingerprint, createdAt: at } : undefined);
    if (!result.created) return replay(result.existing.checkoutId, result.existing.fingerprint);
    logger.log('info', 'checkout.created', { checkoutId: id, amount: record.amount, modes });
    return { created: true, record: result.record, clientSecret };
  }

  /** The merchant's decision on a checkout left `unknown`, after asking the bank (RESOLVE in the table). */
  async function resolve(rec: CheckoutRecord, outcome: 'succeeded' | 'failed'): Promise<CheckoutRecord> {
    const notResolvable = (r: CheckoutRecord) => errors.conflict('invalid_state', `Only an unknown checkout can be resolved; this one is ${r.state}.`);
    if (!RESOLVE.from.includes(rec.state)) throw notResolvable(rec);
    const { record, changed } = await core.advance(
      rec,
      (r) => (RESOLVE.from.includes(r.state) ? { state: outcome, error: outcome === 'failed' ? viewError('unknown') : null } : null),
      'merchant',
    );
    if (!changed) throw notResolvable(record);
    return record;
  }

  /**
   * Ends what time alone has ended, without waiting for anyone to look: checkouts past their
   * expiry (a redirect one past its link's lifetime and the grace period). Each is settled like
   * any read would, so several instances sweeping at once end each checkout once. Returns how
   * many changed.
   */
  async function sweep(limit = 200): Promise<number> {
    let changed = 0;
    for (const rec of await store.findDue(now(), limit)) {
      const after = await core.settle(rec).catch(() => rec);
      if (after.state !== rec.state) changed++;
    }
    return changed;
  }

  return {
    bySecret,
    view,
    create,
    resolve,
    sweep,
    settle: core.settle,
    commit: core.commit,
    cancel: (rec: CheckoutRecord) => core.act(rec, 'cancel', async (_locked, i) => ({ patch: { state: 'cancelled', error: viewError('cancelled'), internal: scrubSession(i) } })),

    /**
     * One step back before a transfer is initiated (backTarget): from the account list to the
     * contracts when there were several (the bank session goes on); otherwise to the same bank's
     * sign-in (the session is dropped, the bank stays), and from the sign-in to the bank list.
     */
    back: (rec: CheckoutRecord) =>
      core.act(rec, 'back', async (_locked, i) => {
        const to = backTarget(rec.state, i.contracts?.length ?? 0);
        if (to === 'select-contract') {
          const { accounts, accountId, contractId, refused, ...rest } = i;
          return { patch: { state: to, error: null, internal: rest } };
        }
        if (to === 'login' && i.bank) return { patch: { state: to, error: null, internal: { ...merchantData(i), bank: i.bank } } };
        return { patch: { state: 'select-bank', error: null, internal: merchantData(i) } };
      }),

    /**
     * A fresh start after a failure or a cancellation, while the checkout has not expired. The
     * attempts left are kept, so starting over never gives a guesser more tries; after they ran
     * out, the payer gets one (the form says it is the last), not a start that fails at once.
     */
    restart: (rec: CheckoutRecord) => {
      if (now() >= rec.expiresAt) throw errors.conflict('checkout_finished', 'The checkout has expired; the shop can start a new one.');
      return core.act(rec, 'restart', async (_locked, i) => ({
        patch: { mode: rec.modes[0]!, state: initialState(rec.modes), error: null, attemptsLeft: Math.max(rec.attemptsLeft, 1), internal: merchantData(i) },
      }));
    },
    ...native,
    chooseMode: links.chooseMode,
    redirect: links.redirect,
    periodic: links.periodic,
    applyLinkResult: links.applyLinkResult,
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
