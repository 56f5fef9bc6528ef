/**
 * One step back from a step of the bank session (second login, contracts, accounts), before the
 * transfer starts: to the contracts when the bank offered several (the session goes on), else to
 * the same bank's sign-in, which ends the bank session, so the payer is asked first (`asking`).
 * In the later steps' file (later-steps.ts): `<bank-checkout>` shows it beside those steps only.
 */
import { html, type TemplateResult } from 'lit';
import type { CheckoutView } from '@bank-checkout/contract';
import type { Translate } from './templates.js';

export function backTemplate(v: CheckoutView, t: Translate, busy: boolean, asking: boolean, ask: (asking: boolean) => void, back: () => void): TemplateResult {
  const signsOut = v.step.state !== 'select-account' || v.step.back !== 'select-contract';
  const bank = 'bank' in v.step ? v.step.bank.label : '';
  return html`<div class="back actions" part="back">
    ${
      asking
        ? html`<p id="back-question">${t('session.backConfirm', { bank })}</p>
            <button type="button" aria-describedby="back-question" ?disabled=${busy} @click=${back}>${t('session.backYes')}</button>
            <button type="button" class="primary" aria-describedby="back-question" @click=${() => ask(false)}>${t('session.backNo')}</button>`
        : html`<button type="button" class="link" ?disabled=${busy} @click=${() => (signsOut ? ask(true) : back())}>${t('session.back')}</button>`
    }
  </div>`;
}
