/**
 * What `<bank-checkout>` shows under its summary once the checkout is read, above all the current
 * step, for the view and where the payer is on it: what the first screen needs is drawn here
 * (the bank list, the redirect steps, the result); the bank session's steps come with their file
 * (later-steps.ts), the periodic form with its own, "Loading…" standing in until they are in;
 * what comes after the first screen (extras.ts) shows once it is in.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { BankSelectDetail } from '../events.js';
import { allows, stepKey } from '../logic/checkout.js';
import type { Notice } from './checkout-controller.js';
import { LATER_STATES, extrasModule, laterModule } from './loaders.js';
import type { PayerController } from './payer-controller.js';
import { cancelTemplate, loadingStep, modesTemplate, noticeTemplate, redirectStartTemplate, redirectTemplate, type StepParts } from './templates.js';

/** The bank list, or the bank chosen in it (its sign-in, or what it offers while in maintenance). */
function selector(p: StepParts): TemplateResult {
  const bank = p.choice;
  if (bank && bank !== 'list') return laterModule()?.chosen(bank, p) ?? loadingStep(p.t);
  return html`<bank-selector @bank-select=${(e: CustomEvent<BankSelectDetail>) => p.choose(e.detail.bankId)}></bank-selector>`;
}

/** The step of the view; `gaveUp`: an unknown outcome is no longer watched (the payer is told what happens next). */
export function stepTemplate(p: StepParts, gaveUp: boolean): TemplateResult | typeof nothing {
  const { view: v, t } = p;
  const step = v.step;
  if (p.redirectStart) return redirectStartTemplate(t, p.busy, () => p.run((c) => c.redirect()));
  // At a bank's sign-in, the payer may have gone back to the list (and chosen another bank there).
  if (step.state === 'select-bank' || (step.state === 'login' && p.choice)) return selector(p);
  switch (step.state) {
    case 'login':
    case 'second-login':
    case 'select-contract':
    case 'select-account':
    case 'validate':
      return laterModule()?.sessionStep(p) ?? loadingStep(t);
    case 'redirect':
      // Finishing on the phone, chosen at the start: the hand-off under the step says this page waits for it.
      return p.onPhone ? nothing : redirectTemplate(step.url, p.status === 'leaving', t, p.busy, p.refresh);
    case 'periodic':
      // Until the form's file is in (it started loading with the view), say so.
      return customElements.get('bank-periodic-form') ? html`<bank-periodic-form .clock=${p.clock}></bank-periodic-form>` : loadingStep(t);
    default:
      return html`<bank-result></bank-result>${step.state === 'unknown' && gaveUp ? (extrasModule()?.unknownLater(t) ?? nothing) : nothing}`;
  }
}

/**
 * A notice (`told`), the offer of the bank's own page, the choice of how to pay, the bank signed
 * in to, the step, and what follows it (the hand-off or the receipt, back, cancel). A new step
 * is drawn anew, the step itself (but for the bank session's, which keep the sign-in form among
 * them) and what follows it: nothing the payer sees moves to make room for it (the line above
 * the step keeps its height from the sign-in on).
 */
export function bodyTemplate(p: StepParts, payer: PayerController, told: Notice | null, gaveUp: boolean): TemplateResult {
  const { view: v, t } = p;
  const later = laterModule();
  const extras = extrasModule();
  return html`${told ? noticeTemplate(told, t, p.busy, () => void payer.retry()) : nothing} ${extras?.railOffer(payer.triedBank) ?? nothing}
    ${modesTemplate(p, payer.modesFolded, { choose: (m) => payer.chooseMode(m), change: () => void payer.changeMode(), leave: payer.leaveModes })}
    ${later?.bankLine(v, t) ?? nothing}
    ${keyed(LATER_STATES.has(v.state) || v.state === 'select-bank' ? '' : v.state, html`<div class="step" part="step">${stepTemplate(p, gaveUp)}</div>`)}
    ${keyed(
      stepKey(v) + (payer.chosenBank?.bankId ?? (payer.choice ? ' picking' : '')),
      html`${extras?.afterStep(p) ?? nothing} ${allows(v, 'back') && v.state !== 'login' ? (later?.backTemplate(p) ?? nothing) : nothing}
      ${allows(v, 'cancel') ? cancelTemplate(p) : nothing}`,
    )}`;
}
