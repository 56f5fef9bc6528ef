/**
 * The native bank session, one payer action at a time: login, second login, contract,
 * transfer, validations. Each runs under the checkout's lock (core.act) and makes at most one
 * call that may cost the payer an attempt; where each provider answer leaves the checkout is
 * the transition table's (ERROR_TARGETS, unknownAfterFault).
 */
import { ProviderError, UpstreamError, type BankType, type FieldBank } from '@bank-checkout/provider';
import type { LoginBody } from '@bank-checkout/contract';
import { ApiError, StaleStep, errors } from '../errors.js';
import type { CheckoutPatch, CheckoutRecord } from '../store/types.js';
import { toApiError } from '../upstream.js';
import type { Core, Outcome } from './core.js';
import { merchantData, scrubSession, type Internal } from './internal.js';
import { VALIDATION_WINDOW_MS, checkField, checkFields, loginCredentials, viewError } from './machine.js';
import { SESSION_END, costsAttempt, sessionEnded, stateAfterError, unknownAfterFault, type ErrorStep } from './transitions.js';

/** The view's code for an upstream fault: a timeout, or any other. */
export const faultCode = (err: unknown) => (err instanceof UpstreamError && err.kind === 'timeout' ? 'upstream-timeout' : 'upstream');

function stripNulls<T extends object>(v: T): T {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined)) as T;
}

export function nativeActions(core: Core) {
  const { config, upstream, now } = core;

  /** A provider error at a step: where the checkout goes, attempts spent. */
  function providerErrorPatch(rec: CheckoutRecord, i: Internal, step: ErrorStep, err: ProviderError): CheckoutPatch {
    const attemptsLeft = costsAttempt(err.code) ? Math.max(0, rec.attemptsLeft - 1) : rec.attemptsLeft;
    const ended = sessionEnded(step, err.code, i.sessionAt, now(), config.provider.sessionQuietMs);
    let state = ended ? SESSION_END.to : stateAfterError(step, err.code);
    let code = err.code;
    if (attemptsLeft === 0 && costsAttempt(err.code) && state !== 'failed') {
      state = 'failed';
      code = 'attempts';
    }
    let internal = i;
    if (state === 'select-bank') internal = merchantData(i);
    else if (state === 'login' || state === 'failed') internal = { ...merchantData(i), ...(i.bank ? { bank: i.bank } : {}) };
    // A wrong second-login code is not wrong credentials, a session that ended is not bad data:
    // the message says which it was.
    let error = viewError(code);
    if (ended) error = { code, message: 'error.sessionEnded' };
    else if (step === 'second-login' && code === 'B100') error = { code, message: 'error.secondLoginCode' };
    return { state, attemptsLeft, error, internal };
  }

  /** An upstream fault (timeout, 5xx, garbage): the checkout stays, or becomes unknown when the call's outcome is not known. */
  function faultOutcome(i: Internal, step: string, err: unknown, keepState: CheckoutRecord['state']): Outcome {
    const code = faultCode(err);
    const unknown = unknownAfterFault(step, code === 'upstream-timeout');
    return { patch: { state: unknown ? 'unknown' : keepState, error: viewError(unknown ? 'unknown' : code), internal: i }, error: toApiError(err) };
  }

  /** After login (or second login) succeeded: contracts to choose, or the accounts. */
  async function afterSession(rec: CheckoutRecord, i: Internal, sessionId: string, contracts: { contractId: string; contractInfo: string }[] | null | undefined): Promise<Outcome> {
    const { secondLogin, ...base } = { ...i, sessionId, sessionAt: now() };
    if (contracts && contracts.length > 1) return { patch: { state: 'select-contract', error: null, internal: { ...base, contracts } } };
    const contractId = contracts?.[0]?.contractId;
    return listAccounts(rec, { ...base, ...(contractId ? { contractId, contracts: contracts ?? [] } : {}) }, contractId);
  }

  async function listAccounts(rec: CheckoutRecord, i: Internal, contractId: string | undefined): Promise<Outcome> {
    try {
      const res = await upstream.readOnly(() => upstream.native.accountsList({ sessionId: i.sessionId!, ...(contractId ? { contractId } : {}) }));
      const accounts = (res.listAccounts ?? []).map((a) => ({ accountId: a.accountId, accountInfo: a.accountInfo, amount: a.amount ?? null }));
      return { patch: { state: 'select-account', error: null, internal: { ...i, accounts, sessionAt: now() } } };
    } catch (err) {
      if (err instanceof ProviderError) return { patch: providerErrorPatch(rec, i, 'accounts', err) };
      return faultOutcome(scrubSession(i), 'accounts', err, 'select-bank');
    }
  }

  /**
   * A wrong validation code with attempts left (one is spent). The bank ends that transaction
   * but keeps the session, so the same transfer is started again at once and the payer gets a
   * fresh challenge; if the bank will not, the account list is where to try again.
   */
  async function retryChallenge(rec: CheckoutRecord, i: Internal): Promise<Outcome> {
    const attemptsLeft = rec.attemptsLeft - 1;
    const { validations, round, deadline, transactionId, ...session } = i;
    const started = now();
    try {
      const res = await upstream.native.transferInit({
        sessionId: i.sessionId!,
        accountIdOrigin: i.accountId!,
        amount: rec.amount,
        subject: rec.subject,
        holderDestiny: rec.holderDestiny,
        accountDestiny: rec.accountDestiny,
      });
      if (res.status === '200') return { patch: { state: 'succeeded', attemptsLeft, error: null, internal: scrubSession({ ...session, outcomeAt: now() }) } };
      if (res.validations?.length) {
        const next: Internal = { ...session, ...(res.transactionId ? { transactionId: res.transactionId } : {}), validations: res.validations, round: 1, deadline: started + VALIDATION_WINDOW_MS };
        return { patch: { state: 'validate', attemptsLeft, error: viewError('B103'), internal: next } };
      }
    } catch {
      // The new transfer could not start: the payer chooses the account again.
    }
    const { accountId, ...rest } = session;
    return { patch: { state: 'select-account', attemptsLeft, error: viewError('B103'), internal: rest } };
  }

  async function findBank(bankId: string): Promise<BankType> {
    const groups = await upstream.nativeBanks().catch((err) => {
      throw toApiError(err);
    });
    for (const g of groups) for (const t of g.types) if (t.bankId === bankId) return t;
    throw errors.validation([{ path: 'bankId', message: 'is not a bank of the list' }]);
  }

  return {
    async login(rec: CheckoutRecord, body: LoginBody) {
      core.ensureMode(rec, 'native');
      return core.act(rec, 'login', async (_locked, i) => {
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
            return { patch: { state: 'second-login', error: null, internal: { ...fresh, sessionId: res.sessionId, secondLogin } } };
          }
          return afterSession(rec, fresh, res.sessionId, res.listContracts);
        } catch (err) {
          if (err instanceof ProviderError) return { patch: providerErrorPatch(rec, fresh, 'login', err) };
          return faultOutcome(fresh, 'login', err, 'login');
        }
      });
    },

    async secondLogin(rec: CheckoutRecord, value: string) {
      return core.act(rec, 'second-login', async (_locked, i) => {
        const s = i.secondLogin!;
        const msg = checkField(s.field, value);
        if (msg) throw errors.validation([{ path: 'value', message: msg }]);
        try {
          const res = await upstream.native.secondLogin({ sessionId: i.sessionId!, secondLoginType: String(s.type), valueFromUser: value });
          return afterSession(rec, i, res.sessionId ?? i.sessionId!, res.listContracts);
        } catch (err) {
          if (err instanceof ProviderError) return { patch: providerErrorPatch(rec, i, 'second-login', err) };
          return faultOutcome(scrubSession(i), 'second-login', err, 'login');
        }
      });
    },

    async contract(rec: CheckoutRecord, contractId: string) {
      return core.act(rec, 'contract', async (_locked, i) => {
        if (!(i.contracts ?? []).some((c) => c.contractId === contractId)) throw errors.validation([{ path: 'contractId', message: 'is not one of the contracts offered' }]);
        return listAccounts(rec, { ...i, contractId }, contractId);
      });
    },

    async transfer(rec: CheckoutRecord, accountId: string) {
      return core.act(rec, 'transfer', async (_locked, i) => {
        if (!(i.accounts ?? []).some((a) => a.accountId === accountId)) throw errors.validation([{ path: 'accountId', message: 'is not one of the accounts offered' }]);
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
          const next: Internal = { ...i, accountId, ...(res.transactionId ? { transactionId: res.transactionId } : {}) };
          if (res.status === '200') return { patch: { state: 'succeeded', error: null, internal: scrubSession({ ...next, outcomeAt: now() }) } };
          if (!res.validations?.length) throw new UpstreamError('schema', 'transfer/init');
          return { patch: { state: 'validate', error: null, internal: { ...next, validations: res.validations, round: 1, deadline: started + VALIDATION_WINDOW_MS } } };
        } catch (err) {
          if (err instanceof ProviderError) {
            const patch = providerErrorPatch(rec, i, 'transfer', err);
            // The account stays in the list, marked: the payer sees which one the bank refused.
            if (patch.state === 'select-account') patch.internal = { ...patch.internal, refused: [...new Set([...(i.refused ?? []), accountId])] };
            return { patch };
          }
          return faultOutcome(i, 'transfer', err, 'select-account');
        }
      });
    },

    async validate(rec: CheckoutRecord, values: Record<string, string>) {
      return core.act(rec, 'validate', async (_locked, i) => {
        const validations = i.validations ?? [];
        // Answers to another round's codes (another window answered that one): a stale step.
        const keys = Object.keys(values);
        if (keys.length && !keys.some((k) => validations.some((v) => v.fieldId === k))) throw new StaleStep('These codes answer a round of validations the checkout has left.');
        const filled = { ...values };
        // Type 6: the payer signs in the bank's app; the answer is the "signed" confirmation.
        for (const v of validations) if (v.type === 6 && filled[v.fieldId] === undefined) filled[v.fieldId] = config.provider.indirectSignedValue;
        const issues = checkFields(validations as FieldBank[], filled, 'values', (f) => (f as { type?: number }).type === 6);
        if (issues.length) throw errors.validation(issues);
        try {
          const res = await upstream.native.transferValidate({ sessionId: i.sessionId!, validations: validations.map((v) => ({ ...stripNulls(v), valueFromUser: filled[v.fieldId]! })) });
          if (res.status === '200') return { patch: { state: 'succeeded', error: null, internal: scrubSession({ ...i, outcomeAt: now() }) } };
          const nextValidations = res.validations?.length ? res.validations : validations;
          const same = JSON.stringify(nextValidations.map((v) => v.fieldId)) === JSON.stringify(validations.map((v) => v.fieldId));
          return { patch: { state: 'validate', error: null, internal: { ...i, validations: nextValidations, round: (i.round ?? 1) + (same ? 0 : 1) } } };
        } catch (err) {
          if (err instanceof ProviderError && err.code === 'B103' && rec.attemptsLeft > 1) return retryChallenge(rec, i);
          if (err instanceof ProviderError) return { patch: providerErrorPatch(rec, i, 'validate', err) };
          return faultOutcome(i, 'validate', err, 'validate');
        }
      });
    },
  };
}
