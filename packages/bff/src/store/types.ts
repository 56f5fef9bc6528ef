/**
 * The BFF's storage contract. Two engines implement it (embedded SQLite through libSQL, and
 * PostgreSQL for several instances); one contract suite runs against both.
 *
 * Checkouts carry a `version` that every update must name: an update whose version is stale
 * changes nothing and returns null, which is how two concurrent requests for one checkout
 * start at most one upstream call.
 */
import type { WEBHOOK_EVENT_TYPES } from '@bank-checkout/contract/schemas';
import type { CheckoutIsolation, CheckoutMode, CheckoutState, ViewError } from '@bank-checkout/contract';
import type { Internal } from '../checkout/internal.js';

export interface CheckoutRecord {
  id: string;
  /** SHA-256 (hex) of the client secret; the secret itself is never stored. */
  secretHash: string;
  mode: CheckoutMode;
  state: CheckoutState;
  version: number;
  amount: number;
  subject: string;
  reference: string;
  holderDestiny: string;
  accountDestiny: string;
  customData: string | null;
  urlOk: string | null;
  urlError: string | null;
  /** Allowed modes the merchant enabled for this checkout. */
  modes: CheckoutMode[];
  attemptsLeft: number;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  /**
   * State-machine data that stays inside the BFF: provider session and transaction ids, the
   * bank, pending second-login, contracts, accounts, validations, deadline, idDebt, outcome.
   * Never payer credentials or codes.
   */
  internal: Internal;
  /** The last error shown with the view, if any. */
  error: ViewError | null;
  /** How the payer's page opens it; absent on checkouts made before isolation existed (inline). */
  isolation?: CheckoutIsolation;
  /** An isolated checkout's launch token and frame key (hashes only). */
  launch?: LaunchRecord;
}

/**
 * The launch of an isolated checkout: the one launch token outstanding, the key of the frame
 * that redeemed the last one, and the tokens already redeemed or replaced (to tell "used" from
 * "forged").
 * Only SHA-256 hashes are kept.
 */
export interface LaunchRecord {
  tokenHash: string | null;
  tokenExpiresAt: number;
  /** The frame key last given (kept for checkouts launched before keys were bound). */
  keyHash: string | null;
  /**
   * The thumbprint of the key pair the frame keys are bound to (the browser that redeemed the
   * launch: SECURITY.md), and the hashes of the frame keys given to it (its tabs, newest
   * last). Absent on checkouts launched before keys were bound.
   */
  keyJkt?: string | null;
  keyHashes?: string[];
  redeemedAt: number | null;
  /** Hashes of the last tokens redeemed, newest last. */
  usedHashes: string[];
  /** Hashes of the last tokens a newer one replaced before they were redeemed, newest last (absent before any). */
  replacedHashes?: string[];
  /** Hashes of the frame keys a later launch replaced, newest last (absent before any). */
  replacedKeyHashes?: string[];
  /** Times a browser other than the launch's presented a token already redeemed or replaced. */
  refusals: number;
  lastRefusedAt: number | null;
}

/** Where a row stands in a newest-first list: its time (of the list's ordering) and its id, which breaks ties. */
export interface ListPosition {
  at: number;
  id: string;
}

/**
 * Where a checkout's last change stands in the order of changes: the change's position
 * (`seq`, given by the database when the change is written) and the checkout's id, which breaks
 * ties (PostgreSQL gives the changes of one transaction the same position).
 */
export interface ChangePosition {
  seq: number;
  id: string;
}

export type CheckoutPatch = Partial<Omit<CheckoutRecord, 'id' | 'secretHash' | 'version' | 'createdAt'>>;

export interface NotificationRecord {
  id: string;
  /** SHA-256 of the Base64 dataReturn: equal notifications are stored once. */
  dedupeKey: string;
  receivedAt: number;
  /** Base64 JSON as received (or encoded from raw JSON). */
  dataReturn: string;
  signature: string;
  verified: boolean;
  status: string;
  transactionId: string;
  reference: string;
  amount: number;
  /** The checkout it was matched to, if any. */
  checkoutId: string | null;
  /**
   * `applied` moved a checkout; `ignored` did not (older or equal state); `pending` not yet
   * processed; `unmatched` fits no checkout; `unreadable` verified but could not be understood
   * (status, ids and amount then empty; the raw result is kept).
   */
  outcome: 'pending' | 'applied' | 'ignored' | 'unmatched' | 'unreadable';
}

/**
 * A stored notification marked with what it did, only if it is still in one of `from` (a
 * compare-and-set: of two deliveries of one result, one settles it), with the events that
 * report it, in the same transaction as the checkout change it made, if any.
 */
export interface NotificationSettle {
  id: string;
  from: readonly NotificationRecord['outcome'][];
  to: Pick<NotificationRecord, 'outcome' | 'checkoutId'>;
  events: OutboxEvent[];
}

export interface IdempotencyRecord {
  key: string;
  /** SHA-256 of the request body the key was first used with. */
  fingerprint: string;
  checkoutId: string;
  createdAt: number;
}

/** An event for the merchant's webhook, written with the change it reports. */
export interface OutboxEvent {
  /** `evt_…`: the merchant deduplicates by it. */
  id: string;
  type: (typeof WEBHOOK_EVENT_TYPES)[number];
  createdAt: number;
  data: unknown;
}

/** An event and how its delivery goes: pending, delivered, or failed after every retry. */
export interface OutboxRecord extends OutboxEvent {
  attempts: number;
  nextAttemptAt: number;
  deliveredAt: number | null;
  failedAt: number | null;
  lastError: string | null;
}

export type EventStatus = 'pending' | 'delivered' | 'failed';

/** The reply an Idempotency-Key gave; `status` null while its request is still running. */
export interface ReplyRecord {
  key: string;
  fingerprint: string;
  status: number | null;
  body: unknown;
  createdAt: number;
}

/** Rows older than these times (ms) may go (store/retention.ts says which rows of each kind). */
export interface PruneCutoffs {
  /** Webhook events delivered before it. */
  events: number;
  /** Idempotency-Key records (checkout creations and other creations' replies) made before it. */
  idempotency: number;
  /** Notifications applied or ignored, received before it. */
  notifications: number;
  /** Checkouts that ended (not `unknown`), last changed before it. */
  checkouts: number;
}

/** Rows deleted (or, in a dry run, that would be), by kind. */
export interface PruneCounts {
  events: number;
  idempotencyKeys: number;
  replies: number;
  notifications: number;
  checkouts: number;
}

export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  /** Creates tables if missing. Safe to call on every boot and from several instances. */
  init(): Promise<void>;
  close(): Promise<void>;
  /** Answers when the database does (a round trip); throws otherwise. */
  ping(): Promise<void>;

  /** Inserts a checkout; with an idempotency record, both or neither are written. */
  createCheckout(
    record: CheckoutRecord,
    idempotency?: Omit<IdempotencyRecord, 'checkoutId'>,
  ): Promise<{ created: true; record: CheckoutRecord } | { created: false; existing: IdempotencyRecord }>;
  getCheckout(id: string): Promise<CheckoutRecord | null>;
  getCheckoutBySecretHash(secretHash: string): Promise<CheckoutRecord | null>;
  /** Most recent first. */
  findCheckoutsByReference(reference: string): Promise<CheckoutRecord[]>;
  /**
   * Checkouts in `state` (any state when absent), most recently changed first (ties by id, the
   * greater first); `before` gives those after that position in this order (the last row of the
   * page before).
   */
  listCheckouts(opts: { state?: CheckoutState; limit: number; before?: ListPosition }): Promise<CheckoutRecord[]>;
  /**
   * The feed of changes: checkouts whose last change stands after `after` (from the first when
   * null), in the order of their last changes, each with that change's position, at most
   * `limit`. Every change written (a creation, a change of state or of what the merchant sees;
   * not a lock taken or released) gets a position greater than any position this call gave
   * before it: a change whose transaction may still commit is not given until it has (nor any
   * after it), so a reader that goes on from the last position it got never misses one.
   */
  listChanges(opts: { after: ChangePosition | null; limit: number }): Promise<{ record: CheckoutRecord; position: ChangePosition }[]>;
  /** Checkouts created in [from, to), oldest first, at most `limit` (the merchant's funnel). */
  listCheckoutsCreated(opts: { from: number; to: number; limit: number }): Promise<CheckoutRecord[]>;
  /** Up to `limit` checkouts not yet final whose expiry is past at `now`, oldest expiry first. */
  findDue(now: number, limit: number): Promise<CheckoutRecord[]>;
  /**
   * Compare-and-set: applies the patch and bumps `version` only if the stored version equals
   * `expectedVersion`. Returns the new record, or null when the version was stale or the id is
   * unknown. With `settle`, the notification is settled in the same transaction, and nothing is
   * written unless both compare-and-sets hold. Only the engine (checkout/core.ts) calls it.
   */
  updateCheckout(
    id: string,
    expectedVersion: number,
    patch: CheckoutPatch,
    events?: OutboxEvent[],
    settle?: NotificationSettle,
  ): Promise<CheckoutRecord | null>;
  getIdempotency(key: string): Promise<IdempotencyRecord | null>;

  /** Claims an Idempotency-Key for a creation that is not a checkout; or the reply it has (or had claimed). */
  claimReply(claim: { key: string; fingerprint: string; createdAt: number }): Promise<{ claimed: true } | { claimed: false; existing: ReplyRecord }>;
  /** Stores the reply of a claimed key. */
  completeReply(key: string, status: number, body: unknown): Promise<void>;
  /** Gives up a claim whose request failed, so that a retry may run it again. */
  releaseReply(key: string): Promise<void>;

  /** Inserts unless a notification with the same dedupeKey exists (then `events` are not written either); returns the stored one. */
  insertNotification(record: NotificationRecord, events?: OutboxEvent[]): Promise<{ inserted: boolean; record: NotificationRecord }>;
  getNotification(id: string): Promise<NotificationRecord | null>;
  /** Settles a notification that changed no checkout; false when it was no longer in `from` (nothing written). */
  settleNotification(settle: NotificationSettle): Promise<boolean>;
  /** Whether the notification's outcome is one of `outcomes`. */
  notificationOutcomeIs(id: string, outcomes: readonly NotificationRecord['outcome'][]): Promise<boolean>;

  /** Leases up to `limit` events due at `now` for `leaseMs`, oldest due first. */
  claimDueEvents(now: number, leaseMs: number, limit: number): Promise<OutboxRecord[]>;
  /** Records a delivery: done, to be tried again at `nextAttemptAt`, or given up. */
  settleEvent(
    id: string,
    outcome: { deliveredAt: number } | { nextAttemptAt: number; lastError: string } | { failedAt: number; lastError: string },
  ): Promise<void>;
  /** Newest first (ties by id, the greater first); `before` gives those after that position in this order. */
  listEvents(opts: { status?: EventStatus; limit: number; before?: ListPosition }): Promise<OutboxRecord[]>;
  getEvent(id: string): Promise<OutboxRecord | null>;
  /** Puts an event back in the queue, due at `now`; null for an unknown id. */
  redeliverEvent(id: string, now: number): Promise<OutboxRecord | null>;
  /** Up to `limit` checkouts not final whose lock's lease ended before `now` (an instance stopped mid-call). */
  findLapsedLocks(now: number, limit: number): Promise<CheckoutRecord[]>;
  /**
   * Up to `limit` checkouts waiting on a payment link's result that the provider could be asked
   * about: at the bank's page, or expired (its expiry since `expiredSince`), with a provider
   * order, no result and not given up on, last asked (or signed) before `askedBefore`.
   */
  findAwaitingLinkResult(askedBefore: number, expiredSince: number, limit: number): Promise<CheckoutRecord[]>;
  /** Up to `limit` notifications stored but not applied, received before `before`, oldest first. */
  listPendingNotifications(before: number, limit: number): Promise<NotificationRecord[]>;
  /** Most recent first (ties by id, the greater first); `before` gives those after that position in this order. */
  listNotifications(opts: { limit: number; before?: ListPosition }): Promise<NotificationRecord[]>;

  /**
   * Deletes what is older than the cutoffs, in batches; with `dryRun`, only counts it. Each
   * batch of checkouts is handed to `exportCheckouts` before it is deleted (a failure there
   * stops the prune with nothing of that batch deleted).
   */
  prune(cutoffs: PruneCutoffs, opts?: { dryRun?: boolean; exportCheckouts?: (batch: CheckoutRecord[]) => Promise<void> }): Promise<PruneCounts>;
  /** Takes (or renews) the lease `name` for `holder` until `now + ttlMs`, unless another holder's lease runs past `now`. */
  claimLease(name: string, holder: string, now: number, ttlMs: number): Promise<boolean>;
  /**
   * Marks the id of a proof of possession (DPoP) used, for every instance: true when it was not
   * in use (it is now, until `until`), false when it still is. One statement.
   */
  useProofId(id: string, until: number, now: number): Promise<boolean>;
  /** Forgets the proof ids whose time is over (before `now`); how many. */
  forgetProofIds(now: number): Promise<number>;
}

/*
 * The store as each part of the BFF is given it: only what that part does. One writer of a
 * checkout, by types: only the engine's door (checkout/door.ts, with the lock of act.ts and its
 * lease, lease.ts) is given the whole Store and so `updateCheckout`; a route gets the lists it
 * reads (and a narrow store for its own records: replies, redelivery), an action module a reader.
 */

/** Every query of the store, and no write: what routes and the engine's action modules read. */
export type StoreReader = Pick<
  Store,
  | 'engine'
  | 'ping'
  | 'getCheckout'
  | 'getCheckoutBySecretHash'
  | 'findCheckoutsByReference'
  | 'listCheckouts'
  | 'listChanges'
  | 'listCheckoutsCreated'
  | 'findDue'
  | 'getIdempotency'
  | 'getNotification'
  | 'notificationOutcomeIs'
  | 'listEvents'
  | 'getEvent'
  | 'findLapsedLocks'
  | 'findAwaitingLinkResult'
  | 'listPendingNotifications'
  | 'listNotifications'
>;

/**
 * What the routes read of the store themselves: the merchant's lists and feed (checkouts,
 * notifications, the webhook's events). A checkout itself they read through the service, which
 * answers with it as time has left it.
 */
export type RouteReader = Pick<StoreReader, 'listCheckouts' | 'listChanges' | 'listCheckoutsCreated' | 'listNotifications' | 'listEvents'>;

/** A checkout's creation (its first write, in the state its declaration starts it in), with its Idempotency-Key. */
export type CheckoutCreator = Pick<Store, 'createCheckout' | 'getIdempotency'>;

/** The replies of creations that are not checkouts (payment links), under an Idempotency-Key. */
export type ReplyStore = Pick<Store, 'claimReply' | 'completeReply' | 'releaseReply'>;

/** A webhook event sent again on the merchant's asking. */
export type RedeliveryStore = Pick<Store, 'redeliverEvent'>;
