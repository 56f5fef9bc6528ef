/**
 * The parts of `<bank-checkout>` that depend only on what they are given: the summary, the
 * status line, the redirect step, the notice of a failed call, the choice of mode, the cancel
 * button. The element decides when each shows.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { BankView, CheckoutMode, CheckoutView } from '@bank-checkout/contract';
import type { MessageKey, MessageParams } from '../i18n/index.js';
import { allows, shownMode } from '../logic/checkout.js';
import { formatCents, formatIban } from '../logic/format.js';
import { isWebUrl } from '../logic/redirect.js';
import { renderChoices } from '../shared/choices.js';
import type { Clock } from '../shared/clock.js';
import type { StepAction } from '../context.js';
import { isBusy, type CheckoutStatus, type Notice } from './checkout-controller.js';

export type Translate = (key: MessageKey, params?: MessageParams) => string;

/**
 * Where the payer is on the step beyond what the view says: null, the view's own step; `list`,
 * back at the bank list from a bank's sign-in; a bank chosen in the list, shown with its sign-in
 * (or what it offers while in maintenance) until the BFF answers.
 */
export type Choice = null | 'list' | BankView;

/** What `<bank-checkout>` gives the templates of its steps (step.ts, later-steps.ts, extras.ts). */
export interface StepParts {
  readonly view: CheckoutView;
  readonly t: Translate;
  readonly status: CheckoutStatus;
  /** A call the payer waits for is under way: the step's buttons are disabled. */
  readonly busy: boolean;
  readonly clock: Clock;
  /** The mode the payer chose at the start (null: the view's). */
  readonly wanted: CheckoutMode | null;
  /** Redirect mode at the start: the button that takes the payer to the bank's page shows instead of the step. */
  readonly redirectStart: boolean;
  readonly choice: Choice;
  /** The question asked before cancelling, or before a back that ends the bank session. */
  readonly asking: 'cancel' | 'back' | null;
  /** The payer finishes at the bank's page on their phone. */
  readonly onPhone: boolean;
  /** Shows the bank list again (another bank). */
  toBanks(): void;
  choose(bankId: string): void;
  /** Asks before cancelling or going back (`asking`), or takes the question back. */
  ask(which: 'cancel' | 'back', asking: boolean): unknown;
  /** Runs an action (a question asked before it is answered). */
  run(action: StepAction): void;
  refresh(): unknown;
}

/** Said in place of a step whose file is still on its way. */
export const loadingStep = (t: Translate): TemplateResult => html`<p role="status">${t('status.loading')}</p>`;

/**
 * The status line (a polite live region, kept in the page): "Loading…" before the checkout
 * shows; then, for screen readers only, "Contacting your bank…" while a call is on its way;
 * shown to everyone, "Confirming with your bank…" while the payment is being confirmed, or
 * `waitLine` (until when the wait lasts at the latest) once the view says it.
 */
export function statusTemplate(status: CheckoutStatus, viewShown: boolean, t: Translate, waitLine: string): TemplateResult {
  const told = waitLine || status === 'confirming';
  const text = waitLine || (status === 'confirming' ? t('status.confirming') : isBusy(status) ? t(viewShown ? 'status.busy' : 'status.loading') : '');
  return html`<p class=${!viewShown ? 'status' : told ? 'status notice' : 'status sr-only'} role="status" part="status">${text}</p>`;
}

/**
 * Amount and payee, always visible; the payee's account, the concept and the reference on
 * demand (a disclosure), so that the step starts high on a phone.
 */
export function summaryTemplate(v: CheckoutView, t: Translate, locale: string): TemplateResult {
  const row = (key: MessageKey, value: string) => (value ? html`<dt>${t(key)}</dt><dd>${value}</dd>` : nothing);
  return html`<section class="summary" part="summary" aria-label=${t('summary.label')}>
    <dl>
      <dt>${t('summary.amount')}</dt>
      <dd class="amount" part="amount">${formatCents(v.amount, v.currency, locale)}</dd>
      <dt>${t('summary.payee')}</dt>
      <dd>${v.payee.name}</dd>
    </dl>
    <details part="summary-details">
      <summary>${t('summary.details')}</summary>
      <dl>${row('summary.iban', v.payee.iban ? formatIban(v.payee.iban) : '')} ${row('summary.subject', v.subject)} ${row('summary.reference', v.reference)}</dl>
    </details>
  </section>`;
}

/** A failed call, with a retry when it makes sense. */
export function noticeTemplate(notice: Notice, t: Translate, busy: boolean, retry: () => void): TemplateResult {
  return html`<div class="notice actions" role="alert" part="notice">
    <span>${t(notice.key)}</span>
    ${notice.retry ? html`<button type="button" ?disabled=${busy} @click=${retry}>${t('action.retry')}</button>` : nothing}
  </div>`;
}

/** Redirect mode at the start: one button creates the signed URL and takes the payer there. */
export function redirectStartTemplate(t: Translate, busy: boolean, start: () => void): TemplateResult {
  return html`<h2 tabindex="-1">${t('mode.redirect')}</h2>
    <p>${t('redirect.intro')}</p>
    <button type="button" class="primary" part="redirect-start" ?disabled=${busy} @click=${start}>${t('redirect.start')}</button>`;
}

/** The `redirect` state: on the way to the bank (`leaving`), or back from it and waiting for its result. */
export function redirectTemplate(url: string, leaving: boolean, t: Translate, busy: boolean, check: () => unknown): TemplateResult {
  const link = (key: MessageKey) => (isWebUrl(url) ? html`<a part="redirect-link" href=${url} rel="noopener">${t(key)}</a>` : nothing);
  if (leaving) return html`<h2 tabindex="-1">${t('redirect.title')}</h2><p>${link('redirect.link')}</p>`;
  return html`<h2 tabindex="-1">${t('redirect.waitingTitle')}</h2>
    <p>${t('redirect.waitingBody')}</p>
    <div class="actions">
      ${link('redirect.back')}
      <button type="button" part="redirect-check" ?disabled=${busy} @click=${check}>${t('action.refresh')}</button>
    </div>`;
}

/** The cancel button, or its confirmation (while asking). */
export function cancelTemplate(p: StepParts): TemplateResult {
  const { t, busy } = p;
  return html`<div class="cancel actions" part="cancel">
    ${
      p.asking === 'cancel'
        ? html`<p id="cancel-question">${t('action.cancelConfirm')}</p>
            <button type="button" aria-describedby="cancel-question" ?disabled=${busy} @click=${() => p.run((c) => c.cancel())}>${t('action.cancelYes')}</button>
            <button type="button" class="primary" aria-describedby="cancel-question" @click=${() => p.ask('cancel', false)}>${t('action.cancelNo')}</button>`
        : html`<button type="button" class="link" ?disabled=${busy} @click=${() => p.ask('cancel', true)}>${t('action.cancel')}</button>`
    }
  </div>`;
}

/**
 * The choice of how to pay, while the checkout is at its start and allows several modes; once
 * the payer moved on from it (`collapsed`), one line with "Change".
 */
export function modesTemplate(
  p: StepParts,
  collapsed: boolean,
  on: { choose(mode: CheckoutMode): void; change(): void; leave(e: FocusEvent): void },
): TemplateResult | typeof nothing {
  const { view: v, t } = p;
  if (!allows(v, 'mode')) return nothing;
  const shown = shownMode(v, p.wanted);
  if (collapsed) {
    return html`<div class="modes chosen" part="modes">
      <span>${t(`mode.${shown}`)}</span>
      <button type="button" class="link" part="modes-change" aria-label=${t('mode.changeLabel')} ?disabled=${p.busy} @click=${on.change}>${t('mode.change')}</button>
    </div>`;
  }
  return html`<div class="modes" part="modes" @focusout=${on.leave}>
    ${renderChoices({
      name: 'mode',
      legend: t('mode.title'),
      choices: v.modes.map((m) => ({ id: m, title: t(`mode.${m}`), detail: t(`mode.${m}Detail`) })),
      selected: shown,
      disabled: false,
      onSelect: (m) => on.choose(m as CheckoutMode),
    })}
  </div>`;
}
