/**
 * The gateway's pages as views: a status, the page title, its body and the line above the
 * title. Pure functions of the order and the visit; the routes render them in the layout.
 * Every address in a link or form is checked to be a web address first.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isWebUrl, safeHref } from '@bank-checkout/contract';
import type { LinkBank } from '@bank-checkout/provider';
import { asksLoginKey, findLinkBank, LINK_BANK_LOGIN_KEY, selectorEntries } from '../links/banks.js';
import type { SignedResult } from '../links/notify.js';
import type { Order, PeriodicTerms } from '../links/store.js';
import { html, type Html } from './page.js';
import type { GatewaySession } from './sessions.js';

/** The validation value that makes the sandbox bank refuse the operation. */
export const GATEWAY_FAIL_CODE = '0000';

export interface View {
  status: ContentfulStatusCode;
  title: string;
  body: Html;
  /** The line above the title. */
  context?: string;
}

const money = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' });

/** An amount in cents as shown to the payer (`19,99 €`). */
export function formatAmount(cents: number): string {
  return money.format(cents / 100);
}

export const TEXTS = {
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

const bankName = (bankId: string | undefined) => findLinkBank(bankId ?? '')?.name ?? 'your bank';
const atBank = (session: GatewaySession) => `${bankName(session.bankId)} · online banking (sandbox)`;

/** What the payer is asked to pay or authorise. `terms`: the periodic order's; `bankId`: the bank it fixes. */
export function summary(order: Order, terms: PeriodicTerms | undefined, bankId: string | undefined): Html {
  const lines = order.customRecipient ? order.customRecipient.split(';').map((l, i) => html`${i ? html`<br>` : ''}${l}`) : null;
  return html`<dl>
<dt>Amount</dt><dd>${formatAmount(order.amount)}</dd>
<dt>Subject</dt><dd>${order.subject}</dd>
${lines ? html`<dt>Recipient</dt><dd>${lines}</dd>` : ''}
<dt>Payee</dt><dd>${order.holderDestiny}<br>${order.accountDestiny}</dd>
${
  terms
    ? html`<dt>Debtor account</dt><dd>${terms.debtorAccount}</dd>
<dt>Frequency</dt><dd>${terms.frequency}</dd>
<dt>Start date</dt><dd>${terms.startDate}</dd>
<dt>End date</dt><dd>${terms.endDate ?? 'None (until cancelled)'}</dd>`
    : ''
}
${bankId ? html`<dt>Bank</dt><dd>${findLinkBank(bankId)?.name ?? bankId}</dd>` : ''}
</dl>`;
}

/** A form posting one step to the order's signed URL. */
export function stepForm(order: Order, step: string, session: GatewaySession | undefined, fields: Html | string, button: string, secondary = false): Html {
  return html`<form method="post" action="${safeHref(order.urlLong)}"${secondary ? html` class="inline"` : ''}>
<input type="hidden" name="step" value="${step}">${session ? html`<input type="hidden" name="session" value="${session.id}">` : ''}
${fields}<button type="submit"${secondary ? html` class="secondary"` : ''}>${button}</button>
</form>`;
}

const leaveForm = (order: Order, session?: GatewaySession) => stepForm(order, 'leave', session, '', 'Leave and return to the shop', true);
const errorLine = (error?: string) => (error ? html`<p class="error" role="alert" id="form-error">${error}</p>` : '');
const described = (error?: string) => (error ? html` aria-describedby="form-error" aria-invalid="true"` : '');
const backToSummary = (order: Order) => html`<p><a href="${safeHref(order.urlLong)}">Back to the payment summary</a></p>`;

export function summaryView(order: Order, shown: Html): View {
  const intro = order.kind === 'cancel' ? html`<p>The merchant asks you to cancel this periodic payment order.</p>` : '';
  return {
    status: 200,
    title: TEXTS[order.kind].title,
    body: html`${intro}${shown}${stepForm(order, 'start', undefined, '', 'Continue')}${leaveForm(order)}`,
    context: 'Payment gateway (sandbox)',
  };
}

/** The bank selector: every choosable bank and group, or the banks of one group. */
export function bankView(order: Order, shown: Html, session: GatewaySession, banks: LinkBank[], opts: { error?: string; group?: number } = {}): View {
  const inGroup = opts.group !== undefined ? banks.filter((b) => b.bankGroupId === opts.group) : null;
  const radio = (value: string, label: string) =>
    html`<label><input type="radio" name="bankId" value="${value}" required${described(opts.error)}> ${label}</label>`;
  const options = inGroup
    ? inGroup.map((b) => radio(b.bankId, b.name))
    : selectorEntries(banks).map((e) => (e.type === 'bank' ? radio(e.bank.bankId, e.bank.name) : radio(`group:${e.id}`, `${e.name} (choose the bank next)`)));
  const legend = inGroup ? `Choose your bank in ${inGroup[0]?.bankGroupName ?? 'the group'}` : 'Choose your bank';
  const fields = html`${errorLine(opts.error)}<fieldset><legend>${legend}</legend>${options}</fieldset>`;
  return {
    status: opts.error ? 400 : 200,
    title: 'Choose your bank',
    body: html`${shown}${stepForm(order, 'bank', session, fields, 'Continue')}${leaveForm(order, session)}`,
    context: TEXTS[order.kind].title,
  };
}

export function loginView(order: Order, session: GatewaySession, error?: string): View {
  const name = bankName(session.bankId);
  const key = asksLoginKey(session.bankId ?? '');
  const fields = html`${errorLine(error)}
<label for="user">User</label><input type="text" id="user" name="user" autocomplete="username" maxlength="64" required${described(error)}>
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" maxlength="64" required${described(error)}>
${key ? html`<label for="loginKey">Additional login key</label><input type="text" id="loginKey" name="loginKey" maxlength="64" required aria-describedby="loginKey-hint"><p class="hint" id="loginKey-hint">Sandbox: the additional login key is ${LINK_BANK_LOGIN_KEY}.</p>` : ''}
<p class="hint">Sandbox: any user and password are accepted.</p>`;
  return {
    status: error ? 400 : 200,
    title: `Log in to ${name}`,
    body: html`${stepForm(order, 'login', session, fields, 'Log in')}${leaveForm(order, session)}`,
    context: atBank(session),
  };
}

export function codeView(order: Order, shown: Html, session: GatewaySession, error?: string): View {
  const fields = html`${errorLine(error)}
<label for="code">Validation code</label><input type="text" id="code" name="code" autocomplete="one-time-code" maxlength="32" required aria-describedby="code-hint"${error ? html` aria-invalid="true"` : ''}>
<p class="hint" id="code-hint">Sandbox: any letters and digits authorise; ${GATEWAY_FAIL_CODE} makes the validation fail.</p>`;
  return {
    status: error ? 400 : 200,
    title: TEXTS[order.kind].authorise,
    body: html`${shown}${stepForm(order, 'code', session, fields, 'Authorise')}${leaveForm(order, session)}`,
    context: atBank(session),
  };
}

/** What a failure means to the payer, by code; the code itself stays as small print for the shop's support. */
const PAYER_FAILURE: Readonly<Record<string, string>> = {
  B103: 'Your bank could not confirm the payment with the code you entered, so nothing was charged.',
  E300: 'You left before the payment was complete, so nothing was charged.',
};

/** The payer's sentence for a failure, then its code in small print. */
function failureText(failure: { code: string; description: string }, className?: string): Html {
  const sentence = PAYER_FAILURE[failure.code] ?? 'The payment was not completed, so nothing was charged.';
  return html`<p${className ? html` class="${className}" role="alert"` : ''}>${sentence}</p>
<p class="hint">If you contact the shop about it, give them this code: ${failure.code}.</p>`;
}

/** The bank refused the code: the payer can only leave. */
export function codeFailedView(order: Order, session: GatewaySession, failure: { code: string; description: string }): View {
  return {
    status: 422,
    title: 'Validation failed',
    body: html`${failureText(failure, 'error')}
<p>You can leave the gateway and return to the shop.</p>${stepForm(order, 'leave', session, '', 'Leave and return to the shop')}`,
    context: atBank(session),
  };
}

/** The form that posts the signed result to the merchant's page through the payer's browser. */
export function returnForm(target: string | undefined, signed: SignedResult): Html {
  if (!isWebUrl(target)) return html`<p>You can close this window.</p>`;
  return html`<form method="post" action="${target}">
<input type="hidden" name="dataReturn" value="${signed.dataReturn}">
<input type="hidden" name="signatureDataReturn" value="${signed.signatureDataReturn}">
<button type="submit">Return to the shop</button>
</form>`;
}

export function leftView(order: Order, failure: { code: string; description: string }, signed: SignedResult): View {
  return {
    status: 200,
    title: 'You left the payment gateway',
    body: html`${failureText(failure)}${returnForm(order.urlError, signed)}`,
  };
}

export function doneView(order: Order, shown: Html, signed: SignedResult): View {
  const done = TEXTS[order.kind].done;
  return { status: 200, title: done, body: html`<p class="ok">${done}.</p>${shown}${returnForm(order.urlOk, signed)}` };
}

/** A page of one message: refusals, errors. */
export const messageView = (status: ContentfulStatusCode, title: string, text: string): View => ({ status, title, body: html`<p>${text}</p>` });

export const expiredSessionView = (order: Order): View => ({
  status: 409,
  title: 'Your visit to the gateway has expired',
  body: html`<p>Start again from the payment summary.</p>${backToSummary(order)}`,
});

export const wrongStepView = (order: Order): View => ({
  status: 409,
  title: 'This step is not the current one',
  body: html`<p>The gateway is waiting for another step. Start again from the payment summary.</p>${backToSummary(order)}`,
});
