/**
 * The native bank session, one payer action at a time: login, second login, contract,
 * transfer, validations. Each runs under the checkout's lock (core.act), makes at most one
 * call that may cost the payer an attempt, and reports an outcome (a success, the provider's
 * refusal at a step, a fault); where each outcome leads is the declaration's (declaration.ts).
 */
import { ProviderError, UpstreamError, type BankType } from '@bank-checkout/provider';
import { isProviderErrorCode, type LoginBody, type ProviderErrorCode } from '@bank-checkout/contract';
import { ApiError, StaleStep, errors } from '../errors.js';
import type { CheckoutRecord } from '../store/types.js';
import { toApiError } from '../upstream.js';
import { NotSent, type Core, type Outcome, type Send } from './core.js';
import { merchantData, scrubSession, type Internal } from './internal.js';
import { bankTried } from './funnel.js';
import { checkField, checkFields, loginCredentials } from './view.js';
import { deadlineFrom, faultCode as faultCodeOf, startsAgain, type ErrorStep, type InternalIn } from './transitions.js';

const timedOut = (err: unknown) => err instanceof UpstreamError && err.kind === 'timeout';

/** The states at which the payer chooses a bank in the list: the start, and a sign-in that failed (another bank may be chosen). */
const CHOOSING: readonly CheckoutRecord['state'][] = ['select-bank', 'login'];

/** The view's code for an upstream fault: a timeout, or any other. */
export const faultCode = (err: unknown) => faultCodeOf(timedOut(err));

function stripNulls<T extends object>(v: T): T {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined)) as T;
}

/**
 * A failed call at a step: the provider's refusal (its code), or a fault (timeout, 5xx,
 * garbage), answered with the fault's error after the checkout is written.
 */
function failure(step: ErrorStep, err: unknown, data: Internal): Outcome {
  // Nothing left: no outcome at the bank to report (the engine releases the lock).
  if (err instanceof NotSent) throw err;
  // A code the product does not know says nothing it can act on: a fault, as a garbled answer is.
  if (err instanceof ProviderError && isProviderErrorCode(err.code)) return { outcome: 'refused', step, code: err.code, data };
  return { outcome: 'fault', step, timedOut: timedOut(err), data, answer: toApiError(err) };
}

export function nativeActions(core: Core) {
  const { config, upstream, now } = core;

  /** After login (or second login) succeeded: contracts to choose, or the accounts. */
  async function afterSession(
    rec: CheckoutRecord,
    i: Internal,
    sessionId: string,
    contracts: { contractId: string; contractInfo: string }[] | null | undefined,
  ): Promise<Outcome> {
    const { secondLogin, ...base } = { ...i, sessionId, sessionAt: now() };
    if (contracts && contracts.length > 1) return { outcome: 'contracts-listed', data: { ...base, contracts } };
    const contractId = contracts?.[0]?.contractId;
    return listAccounts(rec, { ...base, ...(contractId ? { contractId, contracts } : {}) }, contractId);
  }

  async function listAccounts(rec: CheckoutRecord, i: Internal & { sessionId: string }, contractId: string | undefined): Promise<Outcome> {
    try {
      const res = await upstream.readOnly(() => upstream.native.accountsList({ sessionId: i.sessionId, ...(contractId ? { contractId } : {}) }));
      const accounts = (res.listAccounts ?? []).map((a) => ({ accountId: a.accountId, accountInfo: a.accountInfo, amount: a.amount ?? null }));
      return { outcome: 'accounts-listed', data: { ...i, accounts, sessionAt: now() } };
    } catch (err) {
      return failure('accounts', err, err instanceof ProviderError ? i : scrubSession(i));
    }
  }

  /**
   * A wrong validation code with attempts left. The bank ends that transaction but keeps the
   * session, so the same transfer is started again at once and the payer gets a fresh challenge;
   * if the bank will not, the account list is where to try again. Whichever way, the wrong code
   * spent one attempt (`spent`: the engine counts it as any refusal).
   */
  async function retryChallenge(rec: CheckoutRecord, i: InternalIn<'validate'>, send: Send, spent: ProviderErrorCode): Promise<Outcome> {
    const { validations, round, deadline, transactionId, ...session } = i;
    const started = now();
    try {
      const res = await send(() =>
        upstream.native.transferInit({
          sessionId: i.sessionId,
          accountIdOrigin: i.accountId,
          amount: rec.amount,
          subject: rec.subject,
          holderDestiny: rec.holderDestiny,
          accountDestiny: rec.accountDestiny,
        }),
      );
      if (res.status === '200') return { outcome: 'paid', spent, data: scrubSession({ ...session, outcomeAt: now() }) };
      if (res.validations?.length) {
        const next: Internal = {
          ...session,
          ...(res.transactionId ? { transactionId: res.transactionId } : {}),
          validations: res.validations,
          round: 1,
          deadline: deadlineFrom('validate', started),
        };
        return { outcome: 'validation-required', spent, data: next };
      }
    } catch {
      // The new transfer could not start (or could not leave in time): the payer chooses the account again.
    }
    const { accountId, ...rest } = session;
    return { outcome: 'transfer-abandoned', spent, data: rest };
  }

  async function findBank(bankId: string): Promise<BankType> {
    await upstream.nativeBanks().catch((err: unknown) => {
      throw toApiError(err);
    });
    const bank = upstream.cachedNativeBank(bankId);
    if (!bank) throw errors.validation([{ path: 'bankId', message: 'is not a bank of the list' }]);
    return bank;
  }

  return {
    /**
     * The payer chose a bank in the list, before signing in (one in maintenance too, which cannot
     * be signed in to): it counts as the bank chosen in the merchant's funnel. Nothing is sent to
     * the bank and the checkout's state stays; a checkout past the list (or with a call at the
     * bank) is left as it is.
     */
    async chooseBank(rec: CheckoutRecord, bankId: string): Promise<CheckoutRecord> {
      const bank = await findBank(bankId);
      const chosen = { bankId: bank.bankId, label: bank.label };
      const { record } = await core.change(
        rec,
        'bank-chosen',
        (r) => (CHOOSING.includes(r.state) ? { internal: { ...r.internal, funnel: bankTried(r, { ...r.internal, bank: chosen }) } } : null),
        'native',
        { whenBusy: 'skip' },
      );
      return record;
    },

    async login(rec: CheckoutRecord, body: LoginBody) {
      return core.act(rec, 'login', async (_locked, i, send) => {
        const bank = await findBank(body.bankId);
        if (!bank.active) throw new ApiError(422, 'bank_unavailable', 'This bank is in maintenance; choose another one.');
        const loginType = bank.logins.find((l) => l.loginId === body.loginId);
        if (!loginType) throw errors.validation([{ path: 'loginId', message: 'is not a login type of this bank' }]);
        if (!loginType.active) throw new ApiError(422, 'login_unavailable', 'This login type is in maintenance; choose another one.');
        const issues = checkFields(loginType.fields, body.fields, 'fields');
        if (issues.length) throw errors.validation(issues);
        const { userId, userSecret, userExtraField } = loginCredentials(loginType.fields, body.fields);
        if (!userId || !userSecret) throw errors.validation([{ path: 'fields', message: 'user and secret are required' }]);
        const fresh: Internal = { ...merchantData(i), bank: { bankId: bank.bankId, label: bank.label } };
        try {
          const res = await send(() =>
            upstream.native.login({
              bankId: bank.bankId,
              userId,
              userSecret,
              ...(userExtraField ? { userExtraField } : {}),
            }),
          );
          if (!res.sessionId) throw new UpstreamError('schema', 'login');
          if (res.status === '229') {
            if (!res.secondLoginField || !res.secondLoginType) throw new UpstreamError('schema', 'login');
            const secondLogin = { type: res.secondLoginType as 1 | 2 | 3, value: res.secondLoginValue ?? null, field: res.secondLoginField };
            return { outcome: 'second-login-required', data: { ...fresh, sessionId: res.sessionId, secondLogin } };
          }
          return await afterSession(rec, fresh, res.sessionId, res.listContracts);
        } catch (err) {
          // The bank counts as chosen for the merchant's funnel, even when it refused the payer at once.
          return failure('login', err, { ...fresh, funnel: bankTried(rec, fresh) });
        }
      });
    },

    async secondLogin(rec: CheckoutRecord, value: string) {
      return core.act(rec, 'second-login', async (_locked, i, send) => {
        const s = i.secondLogin;
        const msg = checkField(s.field, value);
        if (msg) throw errors.validation([{ path: 'value', message: msg }]);
        try {
          const res = await send(() => upstream.native.secondLogin({ sessionId: i.sessionId, secondLoginType: String(s.type), valueFromUser: value }));
          return await afterSession(rec, i, res.sessionId ?? i.sessionId, res.listContracts);
        } catch (err) {
          return failure('second-login', err, err instanceof ProviderError ? i : scrubSession(i));
        }
      });
    },

    async contract(rec: CheckoutRecord, contractId: string) {
      return core.act(rec, 'contract', async (_locked, i) => {
        if (!i.contracts.some((c) => c.contractId === contractId))
          throw errors.validation([{ path: 'contractId', message: 'is not one of the contracts offered' }]);
        return listAccounts(rec, { ...i, contractId }, contractId);
      });
    },

    async transfer(rec: CheckoutRecord, accountId: string) {
      return core.act(rec, 'transfer', async (_locked, i, send) => {
        if (!i.accounts.some((a) => a.accountId === accountId)) throw errors.validation([{ path: 'accountId', message: 'is not one of the accounts offered' }]);
        const started = now();
        try {
          const res = await send(() =>
            upstream.native.transferInit({
              sessionId: i.sessionId,
              accountIdOrigin: accountId,
              amount: rec.amount,
              subject: rec.subject,
              holderDestiny: rec.holderDestiny,
              accountDestiny: rec.accountDestiny,
            }),
          );
          const next: Internal = { ...i, accountId, ...(res.transactionId ? { transactionId: res.transactionId } : {}) };
          if (res.status === '200') return { outcome: 'paid', data: scrubSession({ ...next, outcomeAt: now() }) };
          if (!res.validations?.length) throw new UpstreamError('schema', 'transfer/init');
          return { outcome: 'validation-required', data: { ...next, validations: res.validations, round: 1, deadline: deadlineFrom('validate', started) } };
        } catch (err) {
          // The account stays in the list, marked: the payer sees which one the bank refused.
          return failure('transfer', err, err instanceof ProviderError ? { ...i, refused: [...new Set([...(i.refused ?? []), accountId])] } : i);
        }
      });
    },

    async validate(rec: CheckoutRecord, values: Record<string, string>) {
      return core.act(rec, 'validate', async (_locked, i, send) => {
        const validations = i.validations;
        // Answers to another round's codes (another window answered that one): a stale step.
        const keys = Object.keys(values);
        if (keys.length && !keys.some((k) => validations.some((v) => v.fieldId === k)))
          throw new StaleStep('These codes answer a round of validations the checkout has left.');
        const filled = { ...values };
        // Type 6: the payer signs in the bank's app; the answer is the "signed" confirmation.
        for (const v of validations) if (v.type === 6 && filled[v.fieldId] === undefined) filled[v.fieldId] = config.provider.indirectSignedValue;
        const issues = checkFields(validations, filled, 'values', (f) => (f as { type?: number }).type === 6);
        if (issues.length) throw errors.validation(issues);
        try {
          const res = await send(() =>
            upstream.native.transferValidate({
              sessionId: i.sessionId,
              validations: validations.map((v) => ({ ...stripNulls(v), valueFromUser: filled[v.fieldId]! })),
            }),
          );
          if (res.status === '200') return { outcome: 'paid', data: scrubSession({ ...i, outcomeAt: now() }) };
          const nextValidations = res.validations?.length ? res.validations : validations;
          const same = JSON.stringify(nextValidations.map((v) => v.fieldId)) === JSON.stringify(validations.map((v) => v.fieldId));
          return { outcome: 'validation-required', data: { ...i, validations: nextValidations, round: (i.round ?? 1) + (same ? 0 : 1) } };
        } catch (err) {
          // A refusal the declaration answers with the step started again (a wrong code: a fresh challenge), attempts left.
          if (err instanceof ProviderError && isProviderErrorCode(err.code) && startsAgain(rec.state, 'validate', 'validate', err.code) && rec.attemptsLeft > 1)
            return retryChallenge(rec, i, send, err.code);
          return failure('validate', err, i);
        }
      });
    },
  };
}
