/**
 * The hosted gateway of the payment-link service: the pages a signed URL leads to, and the
 * short URLs that redirect to them. Server-rendered HTML forms, no script, so every step is a
 * plain form POST to the same signed URL:
 *
 *   summary → bank (a group opens a second selector) → bank login → validation code → result
 *
 * A periodic order whose request named `bankIdSelected`, and a cancellation (which goes to the
 * bank where the order was authorised), skip the bank step. Every page offers to leave the
 * gateway. The sandbox bank accepts any user and password; a bank that asks for an additional
 * login key wants `user1`; any code of letters and digits authorises, `0000` fails (B103)
 * and then the payer can only leave.
 *
 * The steps of one visit are tied together by a random gateway session id in a hidden field,
 * valid for 30 minutes; the signed URL alone never moves an order past its summary.
 */
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { LinkBank } from '@bank-checkout/provider';
import { asksLoginKey, findLinkBank, LINK_BANK_LOGIN_KEY, LINK_BANKS, periodicBanksFor, selectorEntries } from '../links/banks.js';
import { LEFT_GATEWAY, settle, VALIDATION_FAILED, type SettleDeps } from '../links/settle.js';
import type { SignedResult } from '../links/notify.js';
import { isExpired, LINK_ENVS, type LinkEnv, type Order } from '../links/store.js';
import { h, layout, PAGE_HEADERS, type SafeHtml } from './html.js';
import { isGatewayKind, type UrlSigner } from './sign.js';

export { createUrlSigner, type UrlSigner, type GatewayKind } from './sign.js';
export { walkGateway, submit, formFor, readForms, radioValues, toPage, type GatewayPage, type GatewayForm, type GatewayWalk, type RequestFn } from './drive.js';

/** The validation value that makes the sandbox bank refuse the operation. */
export const GATEWAY_FAIL_CODE = '0000';
export const GATEWAY_SESSION_TTL_MS = 30 * 60_000;
const MAX_SESSIONS = 10_000;
const MAX_FORM_BYTES = 16 * 1024;
const CODE = /^[A-Za-z0-9]{1,32}$/;
const STEPS = ['start', 'bank', 'login', 'code', 'leave'];

type Stage = 'bank' | 'login' | 'code' | 'failed';

interface GatewaySession {
  id: string;
  env: LinkEnv;
  idDebt: string;
  stage: Stage;
  bankId?: string;
  /** When the payer started: the notification's `dateInitPayment`. */
  initAt: number;
  lastUsed: number;
}

export interface GatewayDeps extends SettleDeps {
  signer: UrlSigner;
}

const money = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' });

/** An amount in cents as shown to the payer (`19,99 €`). */
export function formatAmount(cents: number): string {
  return money.format(cents / 100);
}

const TEXTS = {
  pay: { title: 'Payment summary', authorise: 'Authorise the payment', done: 'Payment completed successfully', paid: 'This order has already been paid' },
  periodic: {
    title: 'Periodic payment order',
    authorise: 'Authorise the periodic payment order',
    done: 'Periodic payment order authorised successfully',
    paid: 'This periodic payment order has already been authorised',
  },
  cancel: {
    title: 'Cancel a periodic payment order',
    authorise: 'Authorise the cancellation',
    done: 'Periodic payment order cancelled successfully',
    paid: 'This cancellation has already been authorised',
  },
} as const;

export function createGateway(deps: GatewayDeps): Hono {
  const sessions = new Map<string, GatewaySession>();
  const app = new Hono();

  const page = (c: Context, status: ContentfulStatusCode, title: string, body: SafeHtml, context?: string) =>
    c.html(layout(title, body, context), status, PAGE_HEADERS);

  /* ---------- sessions ---------- */

  function openSession(order: Order, stage: Stage, bankId?: string): GatewaySession {
    const t = deps.now();
    for (const [id, s] of sessions) if (t - s.lastUsed > GATEWAY_SESSION_TTL_MS) sessions.delete(id);
    while (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
    const s: GatewaySession = { id: randomBytes(18).toString('base64url'), env: order.env, idDebt: order.idDebt, stage, initAt: t, lastUsed: t, ...(bankId ? { bankId } : {}) };
    sessions.set(s.id, s);
    return s;
  }

  function findSession(order: Order, id: string | null): GatewaySession | undefined {
    const s = id ? sessions.get(id) : undefined;
    if (!s || s.env !== order.env || s.idDebt !== order.idDebt) return undefined;
    const t = deps.now();
    if (t - s.lastUsed > GATEWAY_SESSION_TTL_MS) {
      sessions.delete(s.id);
      return undefined;
    }
    s.lastUsed = t;
    return s;
  }

  /* ---------- what an order allows ---------- */

  /** The periodic order a cancellation order cancels. */
  const targetOf = (order: Order) => (order.cancels ? deps.store.get(order.env, order.cancels) : undefined);

  /** The bank fixed by the order, when the payer does not choose one. */
  function fixedBank(order: Order): string | undefined {
    if (order.kind === 'periodic') return order.terms?.bankId;
    if (order.kind === 'cancel') return targetOf(order)?.periodic?.bankId;
    return undefined;
  }

  /** Banks the payer may choose: operational ones, and for a periodic order those with its frequency. */
  function choosableBanks(order: Order): LinkBank[] {
    if (order.kind === 'periodic' && order.terms) return periodicBanksFor(order.terms.frequency);
    return LINK_BANKS.filter((b) => b.enabled === 1);
  }

  /** Why the order cannot be paid (or authorised) now: status and text; null when it can. */
  function refusal(order: Order): { status: ContentfulStatusCode; title: string; text: string } | null {
    if (order.codStatus === 'OK') return { status: 409, title: TEXTS[order.kind].paid, text: 'Nothing more can be done with this link.' };
    if (order.kind === 'cancel' && targetOf(order)?.periodic?.status !== 'ACTIVE') {
      return { status: 409, title: 'The periodic payment order is already cancelled', text: 'Nothing more can be done with this link.' };
    }
    if (!order.enabled) return { status: 403, title: 'This payment link is disabled', text: 'The merchant has disabled this link. Ask the merchant for a new one.' };
    if (isExpired(order, deps.now())) return { status: 410, title: 'This payment link has expired', text: 'Ask the merchant for a new link.' };
    return null;
  }

  /* ---------- page parts ---------- */

  function summary(order: Order): SafeHtml {
    const terms = order.kind === 'cancel' ? targetOf(order)?.terms : order.terms;
    const bankId = fixedBank(order);
    const lines = order.customRecipient ? order.customRecipient.split(';').map((l, i) => h`${i ? h`<br>` : ''}${l}`) : null;
    return h`<dl>
<dt>Amount</dt><dd>${formatAmount(order.amount)}</dd>
<dt>Subject</dt><dd>${order.subject}</dd>
${lines ? h`<dt>Recipient</dt><dd>${lines}</dd>` : ''}
<dt>Payee</dt><dd>${order.holderDestiny}<br>${order.accountDestiny}</dd>
${terms
  ? h`<dt>Debtor account</dt><dd>${terms.debtorAccount}</dd>
<dt>Frequency</dt><dd>${terms.frequency}</dd>
<dt>Start date</dt><dd>${terms.startDate}</dd>
<dt>End date</dt><dd>${terms.endDate ?? 'None (until cancelled)'}</dd>`
  : ''}
${bankId ? h`<dt>Bank</dt><dd>${findLinkBank(bankId)?.name ?? bankId}</dd>` : ''}
</dl>`;
  }

  function form(order: Order, step: string, session: GatewaySession | undefined, fields: SafeHtml | string, button: string, secondary = false): SafeHtml {
    return h`<form method="post" action="${order.urlLong}"${secondary ? h` class="inline"` : ''}>
<input type="hidden" name="step" value="${step}">${session ? h`<input type="hidden" name="session" value="${session.id}">` : ''}
${fields}<button type="submit"${secondary ? h` class="secondary"` : ''}>${button}</button>
</form>`;
  }

  const leaveForm = (order: Order, session?: GatewaySession) => form(order, 'leave', session, '', 'Leave and return to the shop', true);
  const errorLine = (error?: string) => (error ? h`<p class="error" role="alert" id="form-error">${error}</p>` : '');
  const described = (error?: string) => (error ? h` aria-describedby="form-error" aria-invalid="true"` : '');

  function summaryPage(c: Context, order: Order) {
    const intro = order.kind === 'cancel' ? h`<p>The merchant asks you to cancel this periodic payment order.</p>` : '';
    return page(c, 200, TEXTS[order.kind].title, h`${intro}${summary(order)}${form(order, 'start', undefined, '', 'Continue')}${leaveForm(order)}`, 'Payment gateway (sandbox)');
  }

  function bankPage(c: Context, order: Order, session: GatewaySession, opts: { error?: string; group?: number } = {}) {
    const banks = choosableBanks(order);
    const inGroup = opts.group !== undefined ? banks.filter((b) => b.bankGroupId === opts.group) : null;
    const radio = (value: string, label: string) =>
      h`<label><input type="radio" name="bankId" value="${value}" required${described(opts.error)}> ${label}</label>`;
    const options = inGroup
      ? inGroup.map((b) => radio(b.bankId, b.name))
      : selectorEntries(banks).map((e) => (e.type === 'bank' ? radio(e.bank.bankId, e.bank.name) : radio(`group:${e.id}`, `${e.name} (choose the bank next)`)));
    const legend = inGroup ? `Choose your bank in ${inGroup[0]?.bankGroupName ?? 'the group'}` : 'Choose your bank';
    const fields = h`${errorLine(opts.error)}<fieldset><legend>${legend}</legend>${options}</fieldset>`;
    return page(c, opts.error ? 400 : 200, 'Choose your bank', h`${summary(order)}${form(order, 'bank', session, fields, 'Continue')}${leaveForm(order, session)}`, TEXTS[order.kind].title);
  }

  function loginPage(c: Context, order: Order, session: GatewaySession, error?: string) {
    const bank = findLinkBank(session.bankId ?? '');
    const name = bank?.name ?? 'your bank';
    const key = asksLoginKey(session.bankId ?? '');
    const fields = h`${errorLine(error)}
<label for="user">User</label><input type="text" id="user" name="user" autocomplete="username" maxlength="64" required${described(error)}>
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" maxlength="64" required${described(error)}>
${key ? h`<label for="loginKey">Additional login key</label><input type="text" id="loginKey" name="loginKey" maxlength="64" required aria-describedby="loginKey-hint"><p class="hint" id="loginKey-hint">Sandbox: the additional login key is ${LINK_BANK_LOGIN_KEY}.</p>` : ''}
<p class="hint">Sandbox: any user and password are accepted.</p>`;
    return page(c, error ? 400 : 200, `Log in to ${name}`, h`${form(order, 'login', session, fields, 'Log in')}${leaveForm(order, session)}`, `${name} · online banking (sandbox)`);
  }

  function codePage(c: Context, order: Order, session: GatewaySession, error?: string) {
    const name = findLinkBank(session.bankId ?? '')?.name ?? 'your bank';
    const fields = h`${errorLine(error)}
<label for="code">Validation code</label><input type="text" id="code" name="code" autocomplete="one-time-code" maxlength="32" required aria-describedby="code-hint"${error ? h` aria-invalid="true"` : ''}>
<p class="hint" id="code-hint">Sandbox: any letters and digits authorise; ${GATEWAY_FAIL_CODE} makes the validation fail.</p>`;
    return page(c, error ? 400 : 200, TEXTS[order.kind].authorise, h`${summary(order)}${form(order, 'code', session, fields, 'Authorise')}${leaveForm(order, session)}`, `${name} · online banking (sandbox)`);
  }

  /** The form that posts the signed result to the merchant's page through the payer's browser. */
  function returnForm(target: string | undefined, signed: SignedResult): SafeHtml {
    if (!target) return h`<p>You can close this window.</p>`;
    return h`<form method="post" action="${target}">
<input type="hidden" name="dataReturn" value="${signed.dataReturn}">
<input type="hidden" name="signatureDataReturn" value="${signed.signatureDataReturn}">
<button type="submit">Return to the shop</button>
</form>`;
  }

  /* ---------- routes ---------- */

  /** The order a signed URL names, or the page refusing the URL. */
  function orderOf(c: Context): Order | Response {
    const { env, kind, id } = c.req.param() as { env: string; kind: string; id: string };
    const valid = (LINK_ENVS as readonly string[]).includes(env) && isGatewayKind(kind) && deps.signer.verify(env, kind, id, c.req.query('sig'));
    if (!valid) return page(c, 403, 'This link is not valid', h`<p>The link was altered or is incomplete. Use the link exactly as the merchant sent it.</p>`);
    const order = deps.store.get(env as LinkEnv, id);
    if (!order || order.kind !== kind) return page(c, 404, 'Unknown payment order', h`<p>This payment order no longer exists.</p>`);
    return order;
  }

  function refused(c: Context, order: Order): Response | null {
    const r = refusal(order);
    return r ? page(c, r.status, r.title, h`<p>${r.text}</p>`) : null;
  }

  async function readForm(c: Context): Promise<URLSearchParams | Response> {
    if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header('Content-Type') ?? '')) {
      return page(c, 415, 'Unsupported form', h`<p>The gateway accepts its own forms only (application/x-www-form-urlencoded).</p>`);
    }
    const text = await c.req.text();
    if (text.length > MAX_FORM_BYTES) return page(c, 413, 'Form too large', h`<p>The form sent is larger than ${MAX_FORM_BYTES} bytes.</p>`);
    return new URLSearchParams(text);
  }

  const path = '/gateway/:env/:kind/:id';

  app.get(path, (c) => {
    const order = orderOf(c);
    if (order instanceof Response) return order;
    return refused(c, order) ?? summaryPage(c, order);
  });

  app.post(path, async (c) => {
    const order = orderOf(c);
    if (order instanceof Response) return order;
    const data = await readForm(c);
    if (data instanceof Response) return data;
    const no = refused(c, order);
    if (no) return no;
    const step = data.get('step') ?? '';
    if (!STEPS.includes(step)) return page(c, 400, 'Unknown step', h`<p>The form sent is not one of the gateway's.</p>`);
    const session = findSession(order, data.get('session'));

    const expiredSession = () =>
      page(
        c,
        409,
        'Your visit to the gateway has expired',
        h`<p>Start again from the payment summary.</p><p><a href="${order.urlLong}">Back to the payment summary</a></p>`,
      );

    if (step === 'start') {
      const bankId = fixedBank(order);
      const s = openSession(order, bankId ? 'login' : 'bank', bankId);
      return bankId ? loginPage(c, order, s) : bankPage(c, order, s);
    }

    if (step === 'leave') {
      if (data.get('session') && !session) return expiredSession();
      const failure = session?.stage === 'failed' ? VALIDATION_FAILED : LEFT_GATEWAY;
      if (session) sessions.delete(session.id);
      const signed = await settle(deps, order, {
        ok: false,
        ...failure,
        ...(session?.bankId ? { bankId: session.bankId } : {}),
        dateInitPayment: session?.initAt ?? deps.now(),
      });
      return page(
        c,
        200,
        'You left the payment gateway',
        h`<p>The operation was not completed (${failure.code}: ${failure.description}).</p>${returnForm(order.urlError, signed)}`,
      );
    }

    if (!session) return expiredSession();

    if (step === 'bank' && session.stage === 'bank') {
      const choice = data.get('bankId') ?? '';
      const banks = choosableBanks(order);
      const group = /^group:(\d{1,9})$/.exec(choice);
      if (group) {
        const id = Number(group[1]);
        if (!banks.some((b) => b.bankGroupId === id)) return bankPage(c, order, session, { error: 'Choose one of the banks listed.' });
        return bankPage(c, order, session, { group: id });
      }
      if (!banks.some((b) => b.bankId === choice)) return bankPage(c, order, session, { error: 'Choose one of the banks listed.' });
      session.bankId = choice;
      session.stage = 'login';
      return loginPage(c, order, session);
    }

    if (step === 'login' && session.stage === 'login') {
      const user = (data.get('user') ?? '').trim();
      const password = data.get('password') ?? '';
      if (!user || !password || user.length > 64 || password.length > 64) {
        return loginPage(c, order, session, 'Enter your user and password (at most 64 characters each).');
      }
      if (asksLoginKey(session.bankId ?? '') && data.get('loginKey') !== LINK_BANK_LOGIN_KEY) {
        return loginPage(c, order, session, 'The additional login key is not correct.');
      }
      session.stage = 'code';
      return codePage(c, order, session);
    }

    if (step === 'code' && session.stage === 'code') {
      const code = (data.get('code') ?? '').trim();
      if (code === GATEWAY_FAIL_CODE) {
        session.stage = 'failed';
        return page(
          c,
          422,
          'Validation failed',
          h`<p class="error" role="alert">The bank could not validate the operation (${VALIDATION_FAILED.code}: ${VALIDATION_FAILED.description}).</p>
<p>You can leave the gateway and return to the shop.</p>${form(order, 'leave', session, '', 'Leave and return to the shop')}`,
          `${findLinkBank(session.bankId ?? '')?.name ?? 'your bank'} · online banking (sandbox)`,
        );
      }
      if (!CODE.test(code)) return codePage(c, order, session, 'The validation code is made of letters and digits (at most 32).');
      sessions.delete(session.id);
      const signed = await settle(deps, order, { ok: true, bankId: session.bankId!, dateInitPayment: session.initAt });
      return page(c, 200, TEXTS[order.kind].done, h`<p class="ok">${TEXTS[order.kind].done}.</p>${summary(order)}${returnForm(order.urlOk, signed)}`);
    }

    return page(
      c,
      409,
      'This step is not the current one',
      h`<p>The gateway is waiting for another step. Start again from the payment summary.</p><p><a href="${order.urlLong}">Back to the payment summary</a></p>`,
    );
  });

  /* ---------- short URLs ---------- */

  const shortUrl = (c: Context) => {
    const env = c.req.param('env') ?? '';
    const name = c.req.query('s') ?? '';
    const order = (LINK_ENVS as readonly string[]).includes(env) ? deps.store.byShortName(env as LinkEnv, name) : undefined;
    if (!order) return page(c, 404, 'Unknown short link', h`<p>No payment link has this short address.</p>`);
    const t = deps.now();
    order.short.clicks++;
    order.short.updateAt = t;
    return c.redirect(order.urlLong, 302);
  };
  app.get('/s/:env/', shortUrl);
  app.get('/s/:env', shortUrl);

  return app;
}
