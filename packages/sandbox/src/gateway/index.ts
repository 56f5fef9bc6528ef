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
import { Hono, type Context } from 'hono';
import { asksLoginKey, LINK_BANK_LOGIN_KEY } from '../links/banks.js';
import { LEFT_GATEWAY, settle, VALIDATION_FAILED, type SettleDeps } from '../links/settle.js';
import { LINK_ENVS, type LinkEnv, type Order } from '../links/store.js';
import { layout, PAGE_HEADERS } from './page.js';
import { orderRules } from './rules.js';
import { createSessionStore } from './sessions.js';
import { isGatewayKind, type UrlSigner } from './sign.js';
import * as views from './views.js';
import { GATEWAY_FAIL_CODE, type View } from './views.js';

export { createUrlSigner, type UrlSigner, type GatewayKind } from './sign.js';
export { walkGateway, submit, formFor, readForms, radioValues, toPage, type GatewayPage, type GatewayForm, type GatewayWalk, type RequestFn } from './drive.js';
export { GATEWAY_FAIL_CODE, formatAmount } from './views.js';
export { GATEWAY_SESSION_TTL_MS } from './sessions.js';

const MAX_FORM_BYTES = 16 * 1024;
const CODE = /^[A-Za-z0-9]{1,32}$/;
const STEPS = ['start', 'bank', 'login', 'code', 'leave'];

export interface GatewayDeps extends SettleDeps {
  signer: UrlSigner;
}

export function createGateway(deps: GatewayDeps): Hono {
  const sessions = createSessionStore(deps.now);
  const rules = orderRules(deps);
  const app = new Hono();

  const render = (c: Context, view: View) => c.html(layout(view.title, view.body, view.context), view.status, PAGE_HEADERS);
  const message = (c: Context, ...args: Parameters<typeof views.messageView>) => render(c, views.messageView(...args));
  /** The order's summary, with the periodic terms and the fixed bank. */
  const shown = (order: Order) => views.summary(order, order.kind === 'cancel' ? rules.targetOf(order)?.terms : order.terms, rules.fixedBank(order));

  /** The order a signed URL names, or the page refusing the URL. */
  function orderOf(c: Context): Order | Response {
    const { env, kind, id } = c.req.param() as { env: string; kind: string; id: string };
    const valid = (LINK_ENVS as readonly string[]).includes(env) && isGatewayKind(kind) && deps.signer.verify(env, kind, id, c.req.query('sig'));
    if (!valid) return message(c, 403, 'This link is not valid', 'The link was altered or is incomplete. Use the link exactly as the merchant sent it.');
    const order = deps.store.get(env as LinkEnv, id);
    if (!order || order.kind !== kind) return message(c, 404, 'Unknown payment order', 'This payment order no longer exists.');
    return order;
  }

  function refused(c: Context, order: Order): Response | null {
    const r = rules.refusal(order);
    return r ? message(c, r.status, r.title, r.text) : null;
  }

  async function readForm(c: Context): Promise<URLSearchParams | Response> {
    if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header('Content-Type') ?? '')) {
      return message(c, 415, 'Unsupported form', 'The gateway accepts its own forms only (application/x-www-form-urlencoded).');
    }
    const text = await c.req.text();
    if (text.length > MAX_FORM_BYTES) return message(c, 413, 'Form too large', `The form sent is larger than ${MAX_FORM_BYTES} bytes.`);
    return new URLSearchParams(text);
  }

  const path = '/gateway/:env/:kind/:id';

  app.get(path, (c) => {
    const order = orderOf(c);
    if (order instanceof Response) return order;
    return refused(c, order) ?? render(c, views.summaryView(order, shown(order)));
  });

  app.post(path, async (c) => {
    const order = orderOf(c);
    if (order instanceof Response) return order;
    const data = await readForm(c);
    if (data instanceof Response) return data;
    const no = refused(c, order);
    if (no) return no;
    const step = data.get('step') ?? '';
    if (!STEPS.includes(step)) return message(c, 400, 'Unknown step', "The form sent is not one of the gateway's.");
    const session = sessions.find(order, data.get('session'));

    if (step === 'start') {
      const bankId = rules.fixedBank(order);
      const s = sessions.open(order, bankId ? 'login' : 'bank', bankId);
      return render(c, bankId ? views.loginView(order, s) : views.bankView(order, shown(order), s, rules.choosableBanks(order)));
    }

    if (step === 'leave') {
      if (data.get('session') && !session) return render(c, views.expiredSessionView(order));
      const failure = session?.stage === 'failed' ? VALIDATION_FAILED : LEFT_GATEWAY;
      if (session) sessions.end(session);
      const signed = await settle(deps, order, {
        ok: false,
        ...failure,
        ...(session?.bankId ? { bankId: session.bankId } : {}),
        dateInitPayment: session?.initAt ?? deps.now(),
      });
      return render(c, views.leftView(order, failure, signed));
    }

    if (!session) return render(c, views.expiredSessionView(order));

    if (step === 'bank' && session.stage === 'bank') {
      const choice = data.get('bankId') ?? '';
      const banks = rules.choosableBanks(order);
      const bankView = (opts: { error?: string; group?: number }) => render(c, views.bankView(order, shown(order), session, banks, opts));
      const group = /^group:(\d{1,9})$/.exec(choice);
      if (group) {
        const id = Number(group[1]);
        if (!banks.some((b) => b.bankGroupId === id)) return bankView({ error: 'Choose one of the banks listed.' });
        return bankView({ group: id });
      }
      if (!banks.some((b) => b.bankId === choice)) return bankView({ error: 'Choose one of the banks listed.' });
      session.bankId = choice;
      session.stage = 'login';
      return render(c, views.loginView(order, session));
    }

    if (step === 'login' && session.stage === 'login') {
      const user = (data.get('user') ?? '').trim();
      const password = data.get('password') ?? '';
      if (!user || !password || user.length > 64 || password.length > 64) {
        return render(c, views.loginView(order, session, 'Enter your user and password (at most 64 characters each).'));
      }
      if (asksLoginKey(session.bankId ?? '') && data.get('loginKey') !== LINK_BANK_LOGIN_KEY) {
        return render(c, views.loginView(order, session, 'The additional login key is not correct.'));
      }
      session.stage = 'code';
      return render(c, views.codeView(order, shown(order), session));
    }

    if (step === 'code' && session.stage === 'code') {
      const code = (data.get('code') ?? '').trim();
      if (code === GATEWAY_FAIL_CODE) {
        session.stage = 'failed';
        return render(c, views.codeFailedView(order, session, VALIDATION_FAILED));
      }
      if (!CODE.test(code)) return render(c, views.codeView(order, shown(order), session, 'The validation code is made of letters and digits (at most 32).'));
      sessions.end(session);
      const signed = await settle(deps, order, { ok: true, bankId: session.bankId!, dateInitPayment: session.initAt });
      return render(c, views.doneView(order, shown(order), signed));
    }

    return render(c, views.wrongStepView(order));
  });

  /* ---------- short URLs ---------- */

  const shortUrl = (c: Context) => {
    const env = c.req.param('env') ?? '';
    const name = c.req.query('s') ?? '';
    const order = (LINK_ENVS as readonly string[]).includes(env) ? deps.store.byShortName(env as LinkEnv, name) : undefined;
    if (!order) return message(c, 404, 'Unknown short link', 'No payment link has this short address.');
    const t = deps.now();
    order.short.clicks++;
    order.short.updateAt = t;
    return c.redirect(order.urlLong, 302);
  };
  app.get('/s/:env/', shortUrl);
  app.get('/s/:env', shortUrl);

  return app;
}
