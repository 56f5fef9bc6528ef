/**
 * How a checkout is made: the merchant's create (with its Idempotency-Key and the reference's
 * uniqueness among open checkouts) and the credential its page opens it with.
 */
import { randomBytes } from 'node:crypto';
import type { CheckoutMode, CreateCheckoutBody } from '@bank-checkout/contract';
import { errors } from '../errors.js';
import type { CheckoutCreator, CheckoutRecord } from '../store/types.js';
import { isUnavailable } from '../store/failure.js';
import type { Core } from './core.js';
import type { launchActions } from './launch.js';
import { newLaunch } from './launch.js';
import { clientSecretFor, hashSecret, newId, sha256Hex } from './secrets.js';
import { initialState, isFinal } from './transitions.js';

/**
 * A new checkout, or the one an Idempotency-Key already made (`created: false`), with what its
 * page opens it with: an inline checkout's client secret, or an isolated one's launch token
 * (a fresh one on each replay).
 */
export interface Created {
  created: boolean;
  record: CheckoutRecord;
  clientSecret?: string;
  launchToken?: string;
}

/**
 * The creation of checkouts: a checkout's first write (`creator`, the one store call besides the
 * engine's door that writes a checkout, in the state its declaration starts it in).
 */
export function creationActions(core: Core, launches: Pick<ReturnType<typeof launchActions>, 'relaunch'>, creator: CheckoutCreator) {
  const { config, reader, logger, now } = core;

  /** The page's credential for a checkout: its client secret (inline) or a fresh launch token (isolated). */
  async function credentialFor(record: CheckoutRecord): Promise<Pick<Created, 'record' | 'clientSecret' | 'launchToken'>> {
    if (record.isolation !== 'isolated') return { record, clientSecret: await clientSecretFor(config.merchantSecret, record.id) };
    const { record: relaunched, token } = await launches.relaunch(record);
    return { record: relaunched, launchToken: token };
  }

  /** 409 naming the open checkout that already has this merchant reference, if there is one. */
  async function referenceFree(reference: string, except?: string): Promise<void> {
    for (const found of await reader.findCheckoutsByReference(reference)) {
      if (found.id === except || isFinal(found.state)) continue;
      // What time alone has ended (past its expiry, not yet swept) no longer holds the reference.
      const open = await core.settle(found);
      if (!isFinal(open.state))
        throw errors.conflict('reference_in_use', `Checkout ${open.id} with this reference is still open; use it, or wait until it ends.`);
    }
  }

  /**
   * The record of a new checkout for the merchant's order, and what its page opens it with (not
   * written yet).
   */
  async function newRecord(body: CreateCheckoutBody, at: number): Promise<{ record: CheckoutRecord; clientSecret: string; launch: { token: string } | null }> {
    const id = newId('chk');
    const isolation = body.isolation ?? 'isolated';
    // Isolated: the stored secret hash is of a value no one ever gets, so no client secret opens it.
    const clientSecret = isolation === 'inline' ? await clientSecretFor(config.merchantSecret, id) : `unused_${randomBytes(32).toString('base64url')}`;
    const launch = isolation === 'isolated' ? await newLaunch(id, at) : null;
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
      isolation,
      ...(launch ? { launch: launch.launch } : {}),
    };
    return { record, clientSecret, launch };
  }

  /**
   * A checkout for the merchant's order, starting where its first mode starts. With an
   * Idempotency-Key, the same key and body find the checkout they made (the store writes the
   * key with the checkout, both or neither); the same key with another body is refused.
   */
  async function create(body: CreateCheckoutBody, key?: string): Promise<Created> {
    // With an Idempotency-Key only: the body's fingerprint tells a retry from another order under it.
    const fingerprint = key ? await sha256Hex(JSON.stringify(body)) : null;
    const replay = async (checkoutId: string, storedFingerprint: string): Promise<Created> => {
      if (storedFingerprint !== fingerprint) throw errors.conflict('idempotency_mismatch', 'This Idempotency-Key was used with a different request body.');
      const record = await reader.getCheckout(checkoutId);
      if (!record) throw errors.notFound('Checkout');
      return { created: false, ...(await credentialFor(record)) };
    };
    /** The checkout this key made, replayed, if it has made one (the store writes the key with it). */
    const made = async (): Promise<Created | null> => {
      const existing = key ? await creator.getIdempotency(key) : null;
      return existing ? replay(existing.checkoutId, existing.fingerprint) : null;
    };
    /**
     * Nothing when the reference is free; the replay when it is held by the checkout this same
     * key made meanwhile (the same order sent twice at once, to two instances, say); else 409.
     */
    const freeOrMade = async (): Promise<Created | null> => {
      try {
        await referenceFree(body.reference);
        return null;
      } catch (err) {
        const replayed = await made();
        if (replayed) return replayed;
        throw err;
      }
    };
    // The checkout is written first and the key and the reference are looked up only when the
    // write is refused: the common case (a new key, a free reference) costs one transaction and
    // no read.
    const at = now();
    const { record, clientSecret, launch } = await newRecord(body, at);
    const idempotency = key && fingerprint ? { key, fingerprint, createdAt: at } : undefined;
    let result: Awaited<ReturnType<CheckoutCreator['createCheckout']>>;
    try {
      result = await creator.createCheckout(record, idempotency);
    } catch (err) {
      // The store did not answer: nothing to look up (it would not answer either), a 503 now.
      if (isUnavailable(err)) throw err;
      // The reference is held (the store's unique index): by a checkout that time alone ended
      // (settled now, and the write tried once more), by the checkout this key made (replayed),
      // or by one still open (409).
      const replayed = await freeOrMade();
      if (replayed) return replayed;
      // Nothing was written (the transaction rolled back): the one retry is safe whatever failed.
      result = await creator.createCheckout(record, idempotency).catch(() => {
        throw err;
      });
    }
    if (!result.created) return replay(result.existing.checkoutId, result.existing.fingerprint);
    logger.log('info', 'checkout.created', { checkoutId: record.id, amount: record.amount, modes: record.modes, isolation: record.isolation });
    return { created: true, record: result.record, ...(launch ? { launchToken: launch.token } : { clientSecret }) };
  }

  return { create, credentialFor, referenceFree };
}
