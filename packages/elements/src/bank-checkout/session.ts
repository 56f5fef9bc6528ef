/**
 * How `<bank-checkout>` draws the bank session's steps: the sign-in, and every step after it
 * (second sign-in, contracts, accounts) with the sign-in form kept hidden among them; the
 * validation; a bank in maintenance; the bank signed in to; one step back; and, while a call is
 * with the bank, until when the payer waits at the latest. In the later steps' file
 * (later-steps.ts), with the elements and texts they show.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { BankView, CheckoutView } from '@bank-checkout/contract';
import { numberLocale } from '../logic/format.js';
import type { StepParts, Translate } from './templates.js';

/**
 * The sign-in and every step of the bank session after it (`after`): one template, so that the
 * sign-in form stays (hidden) while they show. Back at the same bank's sign-in (a wrong
 * second-login code, or the payer going back), the form still holds the identity typed (the
 * password and codes were cleared at submit).
 */
function signIn(p: StepParts, bank: BankView | null, after: TemplateResult | null = null): TemplateResult {
  return html`${after ? nothing : html`<button type="button" class="link" part="back" ?disabled=${p.busy} @click=${p.toBanks}>${p.t('action.back')}</button>`}
    <bank-login-form .bank=${bank} ?hidden=${!!after}></bank-login-form>
    ${after ?? nothing}`;
}

/** A bank chosen in the list: its sign-in, or, in maintenance, what it offers instead. */
export function chosen(bank: BankView, p: StepParts): TemplateResult {
  return bank.active ? signIn(p, bank) : html`<bank-maintenance .bank=${bank} @bank-choose-other=${p.toBanks}></bank-maintenance>`;
}

/** The step of a view in the bank session (`login` to `validate`). */
export function sessionStep(p: StepParts): TemplateResult {
  switch (p.view.state) {
    case 'second-login':
      return signIn(p, null, html`<bank-second-login></bank-second-login>`);
    case 'select-contract':
      return signIn(p, null, html`<bank-contract-picker></bank-contract-picker>`);
    case 'select-account':
      return signIn(p, null, html`<bank-account-picker></bank-account-picker>`);
    case 'validate':
      return html`<bank-challenge .clock=${p.clock}></bank-challenge>`;
    default:
      return signIn(p, null);
  }
}

/** The bank signed in to, after the sign-in. */
export function bankLine(v: CheckoutView, t: Translate): TemplateResult | typeof nothing {
  return 'bank' in v.step && v.step.bank.label && v.state !== 'login'
    ? html`<p class="bank-name" part="bank">${t('session.bank', { bank: v.step.bank.label })}</p>`
    : nothing;
}

/**
 * While a call is with the bank and its instance went quiet: until when the payer waits at the
 * latest (`until`, the view's `inFlightUntil`), in the payer's time of day; '' for no time.
 */
export function waitLine(until: string, t: Translate, locale: string): string {
  const at = new Date(until);
  return Number.isNaN(at.getTime()) ? '' : t('session.waitUntil', { time: at.toLocaleTimeString(numberLocale(locale)) });
}

/**
 * One step back from a step of the bank session (second login, contracts, accounts), before the
 * transfer starts: to the contracts when the bank offered several (the session goes on), else to
 * the same bank's sign-in, which ends the bank session, so the payer is asked first.
 */
export function backTemplate(p: StepParts): TemplateResult {
  const { view: v, t, busy } = p;
  const signsOut = v.step.state !== 'select-account' || v.step.back !== 'select-contract';
  const bank = 'bank' in v.step ? v.step.bank.label : '';
  return html`<div class="back actions" part="back">
    ${
      p.asking === 'back'
        ? html`<p id="back-question">${t('session.backConfirm', { bank })}</p>
            <button type="button" aria-describedby="back-question" ?disabled=${busy} @click=${() => p.run((c) => c.back())}>${t('session.backYes')}</button>
            <button type="button" class="primary" aria-describedby="back-question" @click=${() => p.ask('back', false)}>${t('session.backNo')}</button>`
        : html`<button type="button" class="link" ?disabled=${busy} @click=${() => (signsOut ? p.ask('back', true) : p.run((c) => c.back()))}>${t('session.back')}</button>`
    }
  </div>`;
}
