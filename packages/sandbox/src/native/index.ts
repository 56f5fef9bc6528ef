/**
 * The simulated native bank-session service (docs/provider.md, the native service) under
 * `/<nativeEnv>/...`: banks/list, login, secondlogin, accounts/list, transfer/init and
 * transfer/validate, all POST JSON, behind the API key and token headers.
 *
 * Choices where the spec is silent (see README.native.md):
 * - A call out of order, with an unknown or expired sessionId, or naming something that is
 *   not the session's (contract, account list state, transaction) answers E301.
 * - A transfer not fully validated within 90 s of transfer/init is cancelled: the next
 *   transfer/validate answers E300 and so does every later one for that transaction.
 * - Sessions end after 15 minutes without a call.
 * - A value that is present but wrong, whether it breaks its field's rules or not, is the
 *   bank's refusal: B100 at login and second login, B103 at transfer/validate (the
 *   description names the rule broken). E301 is kept for the request itself: a field missing
 *   or of the wrong type, an unknown bank, a call out of order.
 * - Type 6: transfer/validate with `valueFromUser` `SIGNED` confirms, `PENDING` answers 228
 *   with the same validation, `0000` fails.
 */
import { Hono } from 'hono';
import { isValidIban, native, normalizeIban } from '@bank-checkout/provider';
import { answer, requireClient, type Env, type SandboxConfig } from '../context.js';
import { createChallenges } from './challenges.js';
import { NATIVE_MAGIC, NATIVE_SESSION_IDLE_MS, NATIVE_VALIDATION_DEADLINE_MS, NATIVE_BANKS, SIM_BANKS } from './catalogue.js';
import { fieldIssue, sameValue } from './fields.js';
import { parseBody, sessionFor } from './requests.js';
import { createSessionStore, type Session, type Transaction } from './sessions.js';

/** The spelling of the description field in the login and second-login answers. */
const DESCRIPCION = 'descripción';
const LOGIN_FIELDS = ['userId', 'userSecret', 'userExtraField'] as const;

export function createNativeService(config: SandboxConfig): { app: Hono<Env> } {
  const sessions = createSessionStore(config.now, NATIVE_SESSION_IDLE_MS);
  const { issue, startSecondLogin } = createChallenges();
  const app = new Hono<Env>();
  const base = `/${config.nativeEnv}`;
  // Login and second login answer with `descripción`, as the spec shows; so do their refusals.
  app.use(
    `${base}/*`,
    requireClient(config, (path) => (/\/(login|secondlogin)$/.test(path) ? DESCRIPCION : 'description')),
  );

  function contractsOf(session: Session) {
    return session.sim.contracts ? { listContracts: session.sim.contracts } : {};
  }

  /* ---------- 1. banks/list ---------- */

  app.post(`${base}/banks/list`, (c) => answer(c, '200', 'Bank list', { listBanks: NATIVE_BANKS }));

  /* ---------- 2. login ---------- */

  app.post(`${base}/login`, async (c) => {
    const req = await parseBody(c, native.loginRequest, DESCRIPCION);
    if (req instanceof Response) return req;
    const sim = SIM_BANKS.get(req.bankId);
    if (!sim) return answer(c, 'E301', `bankId: unknown bank '${req.bankId}'; see banks/list`, {}, DESCRIPCION);
    if (!sim.bank.active) return answer(c, 'B105', `Bank ${sim.bank.label} is unavailable for maintenance`, {}, DESCRIPCION);

    const values: Record<string, string | undefined> = { userId: req.userId, userSecret: req.userSecret, userExtraField: req.userExtraField };
    let mayNotTransfer = false;
    if (req.userId === NATIVE_MAGIC.actionRequiredUserId) {
      return answer(c, 'B104', 'The user must use the online bank directly to accept its new conditions of service', {}, DESCRIPCION);
    } else if (req.userId === NATIVE_MAGIC.noTransferUserId) {
      mayNotTransfer = true;
    } else {
      const logins = sim.bank.logins.map((lt) => ({
        lt,
        issues: lt.fields.map((f, i) => fieldIssue(f, values[LOGIN_FIELDS[i]!], LOGIN_FIELDS[i])).filter((x): x is string => x !== null),
      }));
      const fitting = logins.filter((l) => l.issues.length === 0).map((l) => l.lt);
      if (fitting.length === 0) {
        const why = logins.map((l) => `login '${l.lt.loginId}': ${l.issues.join('; ')}`).join(' | ');
        // A value every login type of the bank needs is missing: the request is incomplete.
        const missing = sim.bank.logins.every((lt) => lt.fields.some((f, i) => !values[LOGIN_FIELDS[i]!]));
        const code = missing ? 'E301' : 'B100';
        const lead = missing ? `A value bank '${sim.bank.bankId}' needs is missing` : 'The bank rejected the credentials: they fit no login type';
        return answer(c, code, `${lead}: ${why}`, {}, DESCRIPCION);
      }
      const matched = fitting.find((lt) => lt.fields.every((f, i) => sameValue(f, values[LOGIN_FIELDS[i]!], f.testValue)));
      const maintenance = matched ? !matched.active : fitting.every((lt) => !lt.active);
      if (maintenance) {
        const lt = matched ?? fitting[0]!;
        return answer(c, 'B105', `Login type '${lt.loginId}' (${lt.label}) of ${sim.bank.label} is unavailable for maintenance`, {}, DESCRIPCION);
      }
      if (!matched) return answer(c, 'B100', 'The bank rejected the credentials', {}, DESCRIPCION);
    }

    const secondLogin = startSecondLogin(sim);
    const session = sessions.open(sim, { state: secondLogin ? 'second-login' : 'open', secondLogin, mayNotTransfer });
    if (secondLogin) {
      return answer(
        c,
        '229',
        'Login accepted; the bank asks for a second validation',
        { sessionId: session.id, secondLoginType: secondLogin.type, secondLoginValue: secondLogin.value, secondLoginField: secondLogin.field },
        DESCRIPCION,
      );
    }
    return answer(c, '200', 'Login accepted', { sessionId: session.id, ...contractsOf(session) }, DESCRIPCION);
  });

  /* ---------- 3. secondlogin ---------- */

  app.post(`${base}/secondlogin`, async (c) => {
    const req = await parseBody(c, native.secondLoginRequest, DESCRIPCION);
    if (req instanceof Response) return req;
    const session = sessionFor(c, sessions, req.sessionId, 'second-login', DESCRIPCION);
    if (session instanceof Response) return session;
    const pending = session.secondLogin!;
    if (req.secondLoginType !== String(pending.type)) {
      return answer(c, 'E301', `secondLoginType: this session's second login is of type ${pending.type}, not ${req.secondLoginType}`, {}, DESCRIPCION);
    }
    if (!sameValue(pending.field, req.valueFromUser, pending.field.testValue)) {
      sessions.end(session.id);
      const rule = fieldIssue(pending.field, req.valueFromUser, 'valueFromUser');
      return answer(c, 'B100', `The bank rejected the second-login code${rule ? ` (${rule})` : ''}; the session is closed, log in again`, {}, DESCRIPCION);
    }
    session.state = 'open';
    delete session.secondLogin;
    return answer(c, '200', 'Login completed', { sessionId: session.id, ...contractsOf(session) }, DESCRIPCION);
  });

  /* ---------- 4. accounts/list ---------- */

  app.post(`${base}/accounts/list`, async (c) => {
    const req = await parseBody(c, native.accountsRequest);
    if (req instanceof Response) return req;
    const session = sessionFor(c, sessions, req.sessionId, 'open');
    if (session instanceof Response) return session;
    const { contracts, accounts, bank } = session.sim;
    const contractId = req.contractId || undefined;
    if (contracts) {
      if (!contractId) {
        return answer(c, 'E301', `contractId: required, bank '${bank.bankId}' is multi-contract; use a contractId from listContracts`);
      }
      if (!contracts.some((k) => k.contractId === contractId)) {
        return answer(c, 'E301', `contractId: '${contractId}' is not a contract of this session; use one from listContracts`);
      }
    } else if (contractId) {
      return answer(c, 'E301', `contractId: bank '${bank.bankId}' is not multi-contract; send no contractId`);
    }
    const listAccounts = accounts
      .filter((a) => a.contractId === contractId)
      .map((a) => ({ accountId: a.accountId, accountInfo: `${a.name} · ${a.iban}`, amount: a.balance }));
    return answer(c, '200', 'Accounts of the session', { sessionId: session.id, listAccounts });
  });

  /* ---------- 5. transfer/init ---------- */

  app.post(`${base}/transfer/init`, async (c) => {
    const req = await parseBody(c, native.transferInitRequest);
    if (req instanceof Response) return req;
    if (!isValidIban(req.accountDestiny)) return answer(c, 'E301', 'accountDestiny: must be a valid IBAN (ISO 13616 checksum)');
    const session = sessionFor(c, sessions, req.sessionId, 'open');
    if (session instanceof Response) return session;
    if (session.mayNotTransfer) return answer(c, 'B108', 'This online-banking user may not make transfers');
    const origin = session.sim.accounts.find((a) => a.accountId === req.accountIdOrigin);
    if (!origin) return answer(c, 'B101', `accountIdOrigin: '${req.accountIdOrigin}' is not an account of this session`);
    if (origin.refusal === 'B101') return answer(c, 'B101', `Origin account ${origin.accountId} is blocked`);
    if (origin.refusal === 'B106') return answer(c, 'B106', `Origin account ${origin.accountId} needs the joint signature of its holders`);
    if (origin.refusal === 'B107') return answer(c, 'B107', `Origin account ${origin.accountId} does not allow transfers`);
    if (normalizeIban(req.accountDestiny) === origin.iban) {
      return answer(c, 'E302', 'accountDestiny is the IBAN of the origin account');
    }
    if (req.amount > NATIVE_MAGIC.maxAmountCents) {
      return answer(c, 'B102', `The bank does not authorise transfers above ${NATIVE_MAGIC.maxAmountCents} cents`);
    }
    const tx: Transaction = {
      id: sessions.newTransactionId(),
      initAt: config.now(),
      round: 0,
      validations: session.sim.rounds[0]!.map(issue),
      state: 'pending',
    };
    session.transaction = tx;
    return answer(c, '228', `Transfer started; answer the validations within ${NATIVE_VALIDATION_DEADLINE_MS / 1000} seconds`, {
      sessionId: session.id,
      transactionId: tx.id,
      validations: tx.validations,
    });
  });

  /* ---------- 6. transfer/validate ---------- */

  app.post(`${base}/transfer/validate`, async (c) => {
    const req = await parseBody(c, native.transferValidateRequest);
    if (req instanceof Response) return req;
    const session = sessionFor(c, sessions, req.sessionId, 'open');
    if (session instanceof Response) return session;
    const tx = session.transaction;
    if (!tx) return answer(c, 'E301', 'sessionId: no transfer in progress; call transfer/init first');
    if (tx.state === 'pending' && config.now() - tx.initAt > NATIVE_VALIDATION_DEADLINE_MS) tx.state = 'cancelled';
    if (tx.state === 'cancelled') {
      return answer(
        c,
        'E300',
        `Transaction ${tx.id} was cancelled: its validations were not completed within ${NATIVE_VALIDATION_DEADLINE_MS / 1000} seconds of transfer/init; start a new transfer/init`,
      );
    }
    if (tx.state !== 'pending') {
      const how = tx.state === 'done' ? 'is already completed' : `already failed (${tx.code})`;
      return answer(c, 'E301', `Transaction ${tx.id} ${how}; start a new transfer/init`);
    }

    // Every validation of the round answered once, by fieldId and type.
    const problems: string[] = [];
    const answers = new Map<string, string>();
    for (const entry of req.validations) {
      const asked = tx.validations.find((v) => v.fieldId === entry.fieldId);
      if (!asked) {
        problems.push(`validations: '${entry.fieldId}' is not asked in this round`);
        continue;
      }
      if (answers.has(entry.fieldId)) {
        problems.push(`validations: '${entry.fieldId}' is answered twice`);
        continue;
      }
      answers.set(entry.fieldId, entry.valueFromUser);
      if (Number(asked.type) !== entry.type) problems.push(`validations: '${entry.fieldId}' is of type ${asked.type}, not ${entry.type}`);
    }
    for (const v of tx.validations) if (!answers.has(v.fieldId)) problems.push(`validations: '${v.fieldId}' (type ${v.type}) is missing`);
    if (problems.length) return answer(c, 'E301', problems.join('; '));

    const fail = (description: string) => {
      tx.state = 'failed';
      tx.code = 'B103';
      return answer(c, 'B103', description);
    };
    const given = tx.validations.map((v) => ({ v, value: answers.get(v.fieldId)! }));
    if (given.some((g) => g.value === NATIVE_MAGIC.failValidation)) return fail(`Transfer validation failed (value ${NATIVE_MAGIC.failValidation})`);
    const pending = (g: (typeof given)[number]) => Number(g.v.type) === 6 && g.value === NATIVE_MAGIC.indirectPending;
    const rejected = given.find((g) => !pending(g) && !sameValue(g.v, g.value, g.v.testValue));
    if (rejected) {
      const rule = fieldIssue(rejected.v, rejected.value, rejected.v.fieldId);
      return fail(`Transfer validation failed: ${rule ?? `${rejected.v.fieldId} is not correct`}`);
    }
    const reply = (code: '200' | '228', description: string) =>
      answer(c, code, description, { sessionId: session.id, transactionId: tx.id, validations: code === '200' ? [] : tx.validations });
    if (given.some(pending)) {
      return reply('228', 'Not signed yet on the other device; send the validation again once the payer has confirmed it');
    }
    const next = session.sim.rounds[tx.round + 1];
    if (next) {
      tx.round += 1;
      tx.validations = next.map(issue);
      return reply('228', 'Validation accepted; the bank asks for a further validation');
    }
    tx.state = 'done';
    return reply('200', 'Transfer completed');
  });

  return { app };
}
