/**
 * Checkout transitions. Each action loads the checkout by its client secret, applies what time
 * alone has done (expiry, deadline), takes the checkout's lock with a compare-and-set on its
 * version (so two concurrent requests start at most one upstream call), makes at most one
 * upstream call, and writes the outcome.
 */
import { ProviderError, UpstreamError, links as linkSchemas, type BankType, type FieldBank } from '@bank-checkout/provider';
import type { BffConfig } from '../config.js';
import type { CheckoutMode, CheckoutView, LoginBody, PeriodicBody, PeriodicBankView } from '@bank-checkout/contract';
import { ApiError, errors, zodIssues } from '../errors.js';
import type { Logger } from '../log.js';
import type { CheckoutPatch, CheckoutRecord, OutboxEvent, Store } from '../store/types.js';
import type { WebhookEvent } from '../webhook.js';
import { toApiError, type Upstream } from '../upstream.js';
import {
  VALIDATION_WINDOW_MS,
  checkField,
  checkFields,
  costsAttempt,
  internalOf,
  isFinal,
  merchantData,
  linkOutcome,
  loginCredentials,
  scrubSession,
  stateAfterError,
  timePatch,
  toView,
  viewError,
  type Internal,
  type ViewContext,
} from './machine.js';
import { hashSecret } from './secrets.js';

export interface CheckoutEvent {
  checkoutId: string;
  reference: string;
  amount: number;
  state: CheckoutRecord['state'];
  previousState: CheckoutRecord['state'];
  source: 'native' | 'notification' | 'return' | 'merchant' | 'time';
  /** How it was paid: `periodic` is a mandate for future payments, nothing paid now. */
  mode: CheckoutMode;
  /** For `periodic`: the order the payer set up. */
  schedule?: { frequency: string; startDate: string; endDate?: string };
}

export interface ServiceDeps {
  config: BffConfig;
  store: Store;
  upstream: Upstream;
  logger: Logger;
  now: () => number;
  onFinal: (event: CheckoutEvent) => void;
  /** Webhook events, written with the change they report (absent: no webhook configured). */
  webhook?: { enabled: boolean; event(e: WebhookEvent): OutboxEvent };
}

/** The result of an action: what to write, and an error to answer with after writing. */
interface Outcome {
  patch: CheckoutPatch;
  error?: ApiError;
}

/** The view's code for an upstream fault: a timeout, or any other. */
const faultCode = (err: unknown) => (err instanceof UpstreamError && err.kind === 'timeout' ? 'upstream-timeout' : 'upstream');

export function createCheckoutService(deps: ServiceDeps) {
  const { config, store, upstream, logger, now } = deps;
  // The longest an action holds the checkout's lock: a login reads the bank list, logs in and
  // reads the accounts, each read-only call with its retries; plus a margin. Only a lock older
  // than that belongs to a process that stopped mid-call.
  const busyTtlMs = 2 * upstream.readOnlyMaxMs + config.provider.timeoutMs + 5_000;

  /** What the merchant is told when a checkout reaches an outcome (or unknown); null otherwise. */
  function checkoutEvent(before: CheckoutRecord, state: CheckoutRecord['state'], mode: CheckoutMode, internal: Internal, source: CheckoutEvent['source']): CheckoutEvent | null {
    if (before.state === state || !(isFinal(state) || state === 'unknown')) return null;
    return {
      checkoutId: before.id,
      reference: before.reference,
      amount: before.amount,
      state,
      previousState: before.state,
      source,
      mode,
      ...(mode === 'periodic' && internal.schedule ? { schedule: internal.schedule } : {}),
    };
  }

  function announce(before: CheckoutRecord, after: CheckoutRecord, source: CheckoutEvent['source']) {
    const event = checkoutEvent(before, after.state, after.mode, internalOf(after), source);
    if (event) deps.onFinal(event);
  }

  /**
   * Writes a change of `from` with compare-and-set, with the webhook event it reports in the
   * same transaction, and tells the in-process hook. `before` is the checkout as the action
   * found it (its state is the event's previous state). Null when `from` was stale.
   */
  async function commit(before: CheckoutRecord, from: CheckoutRecord, patch: CheckoutPatch, source: CheckoutEvent['source']): Promise<CheckoutRecord | null> {
    const event = deps.webhook?.enabled
      ? checkoutEvent(before, patch.state ?? from.state, patch.mode ?? from.mode, (patch.internal ?? from.internal) as Internal, source)
      : null;
    const written = await store.updateCheckout(from.id, from.version, patch, event ? [deps.webhook!.event({ type: 'checkout.updated', data: event })] : []);
    if (written) announce(before, written, source);
    return written;
  }

  /** Applies expiry and deadline; returns the current record. */
  async function settle(rec: CheckoutRecord): Promise<CheckoutRecord> {
    for (let i = 0; i < 3; i++) {
      const patch = timePatch(rec, now(), busyTtlMs, config.linkGraceMinutes * 60_000);
      if (!patch) return rec;
      const next = await commit(rec, rec, { ...patch, updatedAt: now() }, 'time');
      if (next) return next;
      const fresh = await store.getCheckout(rec.id);
      if (!fresh) throw errors.notFound('Checkout');
      rec = fresh;
    }
    return rec;
  }

  async function bySecret(secret: string | undefined): Promise<CheckoutRecord> {
    if (!secret || secret.length > 200) throw errors.unauthorized('Missing or invalid X-Checkout-Secret.');
    const rec = await store.getCheckoutBySecretHash(await hashSecret(secret));
    if (!rec) throw errors.unauthorized('Missing or invalid X-Checkout-Secret.');
    return settle(rec);
  }

  async function periodicBankViews(): Promise<PeriodicBankView[]> {
    const banks = await upstream.periodicBanks();
    return banks
      .filter((b) => b.enabledPeriodicPayment === 1)
      .map((b) => ({
        bankId: b.bankId,
        name: b.name,
        enabled: b.enabled === 1,
        frequencies: b.frequencyPeriodicPayment ?? [],
        groupId: b.bankGroupId ?? null,
        groupName: b.bankGroupName ?? null,
      }));
  }

  /** The periodic bank list for a view; a provider fault is told, not hidden as an empty list. */
  async function periodicContext(): Promise<Pick<ViewContext, 'periodicBanks' | 'periodicBanksError'>> {
    try {
      return { periodicBanks: await periodicBankViews() };
    } catch (err) {
      const code = faultCode(err);
      logger.log('warn', 'periodic.banks_unavailable', { code: err instanceof ProviderError ? err.code : code });
      return { periodicBanks: [], periodicBanksError: code };
    }
  }

  async function view(rec: CheckoutRecord): Promise<CheckoutView> {
    const periodic = rec.state === 'periodic' ? await periodicContext() : {};
    return toView(rec, { sandbox: config.sandbox, payeeName: config.merchant.name, ...periodic });
  }

  /**
   * Runs one action under the checkout's lock. `allowed` are the states it may start from.
   * The lock is a `busy` marker written with compare-and-set; a second request meanwhile gets 409.
   */
  async function act(
    rec: CheckoutRecord,
    op: string,
    allowed: CheckoutRecord['state'][],
    run: (rec: CheckoutRecord, i: Internal) => Promise<Outcome>,
  ): Promise<CheckoutRecord> {
    if (isFinal(rec.state)) throw errors.conflict('checkout_finished', `The checkout is already ${rec.state}.`);
    if (internalOf(rec).busy) throw errors.conflict('checkout_busy', 'Another request for this checkout is in progress.');
    if (!allowed.includes(rec.state)) {
      throw errors.conflict('invalid_state', `This action is not possible while the checkout is in state ${rec.state}.`);
    }
    const locked = await store.updateCheckout(rec.id, rec.version, {
      internal: { ...rec.internal, busy: { op, since: now() } },
    });
    if (!locked) throw errors.conflict('checkout_busy', 'Another request for this checkout is in progress.');
    let outcome: Outcome;
    try {
      outcome = await run(locked, internalOf(locked));
    } catch (err) {
      // Input or state problems found before any upstream call: release the lock, change nothing.
      const { busy, ...rest } = internalOf(locked);
      await store.updateCheckout(locked.id, locked.version, { internal: rest as Record<string, unknown> });
      throw err;
    }
    const { busy, ...baseInternal } = (outcome.patch.internal ?? locked.internal) as Internal;
    const written = await commit(rec, locked, { ...outcome.patch, internal: baseInternal as Record<string, unknown>, updatedAt: now() }, 'native');
    if (!written) throw new Error(`checkout ${locked.id}: lost its lock`);
    logger.log('info', 'checkout.transition', { checkoutId: written.id, op, from: rec.state, to: written.state, ...(written.error ? { code: written.error.code } : {}) });
    if (outcome.error) throw outcome.error;
    return written;
  }

  /** A provider error at a step: where the checkout goes, attempts spent. */
  function providerErrorPatch(rec: CheckoutRecord, i: Internal, op: Parameters<typeof stateAfterError>[0], err: ProviderError): CheckoutPatch {
    const attemptsLeft = costsAttempt(err.code) ? Math.max(0, rec.attemptsLeft - 1) : rec.attemptsLeft;
    let state = stateAfterError(op, err.code);
    let code = err.code;
    if (attemptsLeft === 0 && costsAttempt(err.code) && state !== 'failed') {
      state = 'failed';
      code = 'attempts';
    }
    let internal: Internal = i;
    if (state === 'select-bank' || state === 'login' || state === 'failed') {
      internal = state === 'select-bank' ? merchantData(i) : { ...merchantData(i), ...(i.bank ? { bank: i.bank } : {}) };
    }
    return { state, attemptsLeft, error: viewError(code), internal: internal as Record<string, unknown> };
  }

  /** An upstream fault (timeout, 5xx, garbage). For a transfer or validation the outcome is unknown. */
  function faultOutcome(i: Internal, op: string, err: unknown, keepState: CheckoutRecord['state']): Outcome {
    const apiError = toApiError(err);
    const code = faultCode(err);
    const timedOut = code === 'upstream-timeout';
    // A call that must never be sent twice and whose outcome is not known: transfer init and
    // validate on any fault (money may have moved), login and second login on a timeout (the
    // bank may have counted the attempt). The checkout is reconciled, never resubmitted.
    if (op === 'transfer' || op === 'validate' || (timedOut && (op === 'login' || op === 'second-login'))) {
      return { patch: { state: 'unknown', error: viewError('unknown'), internal: i as Record<string, unknown> }, error: apiError };
    }
    return { patch: { state: keepState, error: viewError(code), internal: i as Record<string, unknown> }, error: apiError };
  }

  /** After login (or second login) succeeded: contracts to choose, or the accounts. */
  async function afterSession(i: Internal, sessionId: string, contracts: { contractId: string; contractInfo: string }[] | null | undefined): Promise<Outcome> {
    const base: Internal = { ...i, sessionId, secondLogin: undefined };
    if (contracts && contracts.length > 1) {
      return { patch: { state: 'select-contract', error: null, internal: { ...base, contracts } as Record<string, unknown> } };
    }
    const contractId = contracts?.[0]?.contractId;
    return listAccounts({ ...base, ...(contractId ? { contractId, contracts: contracts ?? [] } : {}) }, contractId);
  }

  async function listAccounts(i: Internal, contractId: string | undefined): Promise<Outcome> {
    try {
      const res = await upstream.readOnly(() =>
        upstream.native.accountsList({ sessionId: i.sessionId!, ...(contractId ? { contractId } : {}) }),
      );
      const accounts = (res.listAccounts ?? []).map((a) => ({ accountId: a.accountId, accountInfo: a.accountInfo, amount: a.amount ?? null }));
      return { patch: { state: 'select-account', error: null, internal: { ...i, accounts } as Record<string, unknown> } };
    } catch (err) {
      if (err instanceof ProviderError) {
        return { patch: { state: 'select-bank', error: viewError(err.code), internal: merchantData(i) as Record<string, unknown> } };
      }
      return faultOutcome(scrubSession(i) as Internal, 'accounts', err, 'select-bank');
    }
  }

  async function findBank(bankId: string): Promise<BankType> {
    const groups = await upstream.nativeBanks().catch((err) => {
      throw toApiError(err);
    });
    for (const g of groups) for (const t of g.types) if (t.bankId === bankId) return t;
    throw errors.validation([{ path: 'bankId', message: 'is not a bank of the list' }]);
  }

  function ensureMode(rec: CheckoutRecord, mode: CheckoutMode) {
    if (!rec.modes.includes(mode)) throw errors.conflict('mode_not_allowed', `This checkout does not allow the ${mode} mode.`);
  }

  /**
   * Ends what time alone has ended, without waiting for anyone to look: checkouts past their
   * expiry or deadline (a redirect one past its link's lifetime and the grace period). Each is
   * settled like any read would (compare-and-set, its webhook event in the same write), so
   * several instances sweeping at once end each checkout once. Returns how many changed.
   */
  async function sweep(limit = 200): Promise<number> {
    let changed = 0;
    for (const rec of await store.findDue(now(), limit)) {
      const after = await settle(rec).catch(() => rec);
      if (after.state !== rec.state) changed++;
    }
    return changed;
  }

  return {
    bySecret,
    view,
    settle,
    sweep,
    commit,

    async login(rec: CheckoutRecord, body: LoginBody) {
      ensureMode(rec, 'native');
      return act(rec, 'login', ['select-bank', 'login'], async (_locked, i) => {
        const bank = await findBank(body.bankId);
        if (!bank.active) throw new ApiError(422, 'bank_unavailable', 'This bank is in maintenance; choose another one.');
        const loginType = bank.logins.find((l) => l.loginId === body.loginId);
        if (!loginType) throw errors.validation([{ path: 'loginId', message: 'is not a login type of this bank' }]);
        if (!loginType.active) throw new ApiError(422, 'login_unavailable', 'This login type is in maintenance; choose another one.');
        const issues = checkFields(loginType.fields, body.fields, 'fields');
        if (issues.length) throw errors.validation(issues);
        const creds = loginCredentials(loginType.fields, body.fields);
        if (!creds.userId || !creds.userSecret) throw errors.validation([{ path: 'fields', message: 'user and secret are required' }]);
        const fresh: Internal = { ...merchantData(i), bank };
        try {
          const res = await upstream.native.login({ bankId: bank.bankId, userId: creds.userId, userSecret: creds.userSecret, ...(creds.userExtraField ? { userExtraField: creds.userExtraField } : {}) });
          if (!res.sessionId) throw new UpstreamError('schema', 'login');
          if (res.status === '229') {
            if (!res.secondLoginField || !res.secondLoginType) throw new UpstreamError('schema', 'login');
            const secondLogin = { type: res.secondLoginType as 1 | 2 | 3, value: res.secondLoginValue ?? null, field: res.secondLoginField };
            return { patch: { state: 'second-login', error: null, internal: { ...fresh, sessionId: res.sessionId, secondLogin } as Record<string, unknown> } };
          }
          return afterSession(fresh, res.sessionId, res.listContracts);
        } catch (err) {
          if (err instanceof ProviderError) return { patch: providerErrorPatch(rec, fresh, 'login', err) };
          return faultOutcome(fresh, 'login', err, 'login');
        }
      });
    },

    async secondLogin(rec: CheckoutRecord, value: string) {
      return act(rec, 'second-login', ['second-login'], async (_locked, i) => {
        const s = i.secondLogin!;
        const msg = checkField(s.field, value);
        if (msg) throw errors.validation([{ path: 'value', message: msg }]);
        try {
          const res = await upstream.native.secondLogin({ sessionId: i.sessionId!, secondLoginType: String(s.type), valueFromUser: value });
          return afterSession(i, res.sessionId ?? i.sessionId!, res.listContracts);
        } catch (err) {
          if (err instanceof ProviderError) return { patch: providerErrorPatch(rec, i, 'second-login', err) };
          return faultOutcome(scrubSession(i) as Internal, 'second-login', err, 'login');
        }
      });
    },

    async contract(rec: CheckoutRecord, contractId: string) {
      return act(rec, 'contract', ['select-contract'], async (_locked, i) => {
        if (!(i.contracts ?? []).some((c) => c.contractId === contractId)) {
          throw errors.validation([{ path: 'contractId', message: 'is not one of the contracts offered' }]);
        }
        return listAccounts({ ...i, contractId }, contractId);
      });
    },

    async transfer(rec: CheckoutRecord, accountId: string) {
      return act(rec, 'transfer', ['select-account'], async (_locked, i) => {
        if (!(i.accounts ?? []).some((a) => a.accountId === accountId)) {
          throw errors.validation([{ path: 'accountId', message: 'is not one of the accounts offered' }]);
        }
        const started = now();
        try {
          const res = await upstream.native.transferInit({
            sessionId: i.sessionId!,
            accountIdOrigin: accountId,
            amount: rec.amount,
            subject: rec.subject,
            holderDestiny: rec.holderDestiny,
            accountDestiny: rec.accountDestiny,
          });
          const next: Internal = { ...i, accountId, transactionId: res.transactionId ?? undefined };
          if (res.status === '200') {
            return { patch: { state: 'succeeded', error: null, internal: scrubSession({ ...next, outcomeAt: now() }) } };
          }
          if (!res.validations?.length) throw new UpstreamError('schema', 'transfer/init');
          return {
            patch: {
              state: 'validate',
              error: null,
              internal: { ...next, validations: res.validations, round: 1, deadline: started + VALIDATION_WINDOW_MS } as Record<string, unknown>,
            },
          };
        } catch (err) {
          if (err instanceof ProviderError) return { patch: providerErrorPatch(rec, i, 'transfer', err) };
          return faultOutcome(i, 'transfer', err, 'select-account');
        }
      });
    },

    async validate(rec: CheckoutRecord, values: Record<string, string>) {
      return act(rec, 'validate', ['validate'], async (_locked, i) => {
        const validations = i.validations ?? [];
        const filled = { ...values };
        // Type 6: the payer signs in the bank's app; the answer is the "signed" confirmation.
        for (const v of validations) if (v.type === 6 && filled[v.fieldId] === undefined) filled[v.fieldId] = config.provider.indirectSignedValue;
        const issues = checkFields(validations as FieldBank[], filled, 'values', (f) => (f as { type?: number }).type === 6);
        if (issues.length) throw errors.validation(issues);
        try {
          const res = await upstream.native.transferValidate({
            sessionId: i.sessionId!,
            validations: validations.map((v) => ({ ...stripNulls(v), valueFromUser: filled[v.fieldId]! })),
          });
          if (res.status === '200') {
            return { patch: { state: 'succeeded', error: null, internal: scrubSession({ ...i, outcomeAt: now() }) } };
          }
          const nextValidations = res.validations?.length ? res.validations : validations;
          const same = JSON.stringify(nextValidations.map((v) => v.fieldId)) === JSON.stringify(validations.map((v) => v.fieldId));
          return {
            patch: {
              state: 'validate',
              error: null,
              internal: { ...i, validations: nextValidations, round: (i.round ?? 1) + (same ? 0 : 1) } as Record<string, unknown>,
            },
          };
        } catch (err) {
          if (err instanceof ProviderError) return { patch: providerErrorPatch(rec, i, 'validate', err) };
          return faultOutcome(i, 'validate', err, 'validate');
        }
      });
    },

    async cancel(rec: CheckoutRecord) {
      return act(
        rec,
        'cancel',
        ['select-bank', 'login', 'second-login', 'select-contract', 'select-account', 'validate', 'periodic', 'redirect'],
        async (_locked, i) => ({ patch: { state: 'cancelled', error: viewError('cancelled'), internal: scrubSession(i) } }),
      );
    },

    async chooseMode(rec: CheckoutRecord, mode: CheckoutMode) {
      ensureMode(rec, mode);
      if (mode === 'redirect') return this.redirect(rec);
      return act(rec, 'mode', ['select-bank', 'login', 'periodic'], async (_locked, i) => ({
        patch: { mode, state: mode === 'periodic' ? 'periodic' : 'select-bank', error: null, internal: merchantData(i) as Record<string, unknown> },
      }));
    },

    async redirect(rec: CheckoutRecord) {
      ensureMode(rec, 'redirect');
      if (rec.state === 'redirect' && rec.mode === 'redirect') return rec;
      return act(rec, 'redirect', ['select-bank', 'login', 'periodic'], async (_locked, i) => {
        try {
          const res = await upstream.links.signer({
            subject: rec.subject,
            amount: rec.amount,
            reference: rec.reference,
            ...returnUrls(config, rec),
            expireMinutes: Math.max(1, Math.ceil((rec.expiresAt - now()) / 60_000)),
            ...(rec.customData ? { customData: rec.customData } : {}),
            ...destinyForLinks(rec),
          });
          if (!res.url) throw new UpstreamError('schema', 'url/signer');
          return { patch: { mode: 'redirect', state: 'redirect', error: null, internal: { ...scrubSession(i), idDebt: res.idDebt ?? undefined, url: res.url } } };
        } catch (err) {
          return { patch: { internal: i as Record<string, unknown> }, error: toApiError(err) };
        }
      });
    },

    async periodic(rec: CheckoutRecord, body: PeriodicBody) {
      ensureMode(rec, 'periodic');
      return act(rec, 'periodic', ['periodic', 'select-bank'], async (_locked, i) => {
        const banks = await periodicBankViews().catch((err) => {
          throw toApiError(err);
        });
        const bank = banks.find((b) => b.bankId === body.bankId);
        if (!bank || !bank.enabled) throw errors.validation([{ path: 'bankId', message: 'is not a bank that offers periodic payments now' }]);
        if (!bank.frequencies.includes(body.frequency)) {
          throw errors.validation([{ path: 'frequency', message: `must be one of ${bank.frequencies.join(', ')}` }]);
        }
        // The first payment within the merchant's window: a mandate that starts years away is no payment for an order.
        const latest = new Date(now() + config.periodicStartWithinDays * 86_400_000).toISOString().slice(0, 10);
        if (body.startDate > latest) throw errors.validation([{ path: 'startDate', message: `must be within ${config.periodicStartWithinDays} days (by ${latest})` }]);
        const request = {
          subject: rec.subject,
          amount: rec.amount,
          reference: rec.reference,
          frequency: body.frequency,
          debtorAccount: body.debtorAccount,
          startDate: body.startDate,
          ...(body.endDate ? { endDate: body.endDate } : {}),
          bankIdSelected: body.bankId,
          ...returnUrls(config, rec),
          expireMinutes: Math.max(1, Math.ceil((rec.expiresAt - now()) / 60_000)),
          ...(rec.customData ? { customData: rec.customData } : {}),
          ...destinyForLinks(rec),
        };
        const checked = linkSchemas.createPeriodicSignerRequest({ now }).safeParse(request);
        if (!checked.success) {
          throw errors.validation(zodIssues(checked.error.issues).map((x) => ({ ...x, path: x.path === 'subject' ? 'subject (set by the merchant)' : x.path })));
        }
        try {
          const res = await upstream.links.periodicSigner(request);
          if (!res.url) throw new UpstreamError('schema', 'url/periodic-payment-signer');
          const schedule = { frequency: body.frequency, startDate: body.startDate, ...(body.endDate ? { endDate: body.endDate } : {}) };
          return { patch: { mode: 'periodic', state: 'redirect', error: null, internal: { ...scrubSession(i), idDebt: res.idDebt ?? undefined, url: res.url, schedule } } };
        } catch (err) {
          return { patch: { internal: i as Record<string, unknown> }, error: toApiError(err) };
        }
      });
    },

    /**
     * A verified result of the payment-link service for this checkout: moves it forward only.
     * Returns the record after, and whether it changed.
     */
    async applyLinkResult(rec: CheckoutRecord, status: string, transactionId: string, source: CheckoutEvent['source']) {
      for (let tries = 0; tries < 5; tries++) {
        const next = linkOutcome(rec.state, status);
        if (!next) return { record: rec, changed: false };
        const i = internalOf(rec);
        const written = await commit(
          rec,
          rec,
          {
            state: next,
            error: next === 'failed' ? viewError(status) : null,
            internal: { ...i, linkTransactionId: transactionId, outcomeAt: now() } as Record<string, unknown>,
            updatedAt: now(),
          },
          source,
        );
        if (written) return { record: written, changed: true };
        const fresh = await store.getCheckout(rec.id);
        if (!fresh) return { record: rec, changed: false };
        rec = fresh;
      }
      throw errors.conflict('checkout_busy', 'The checkout is being updated; try again.');
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;

function stripNulls<T extends object>(v: T): T {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined)) as T;
}

/** Where the provider sends results for a checkout: the BFF, which verifies and redirects. */
function returnUrls(config: BffConfig, rec: CheckoutRecord) {
  const q = `?c=${encodeURIComponent(rec.id)}`;
  return {
    urlOk: `${config.publicUrl}/v1/return/ok${q}`,
    urlError: `${config.publicUrl}/v1/return/error${q}`,
    urlNotif: `${config.publicUrl}/v1/notifications/provider${q}`,
  };
}

/**
 * The payment-link service ties the destination to the API client unless the integrator may
 * name one ("only for specific integrators"): the BFF sends it only when the merchant set it
 * explicitly on the checkout.
 */
function destinyForLinks(rec: CheckoutRecord) {
  return internalOf(rec).explicitDestiny ? { holderDestiny: rec.holderDestiny, accountDestiny: rec.accountDestiny } : {};
}
