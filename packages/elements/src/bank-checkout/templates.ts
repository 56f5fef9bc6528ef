/**
 * The parts of `<bank-checkout>` that depend only on what they are given: the summary, the
 * redirect step, the notice of a failed call, the choice of mode, the back and cancel buttons.
 * The element decides when each shows.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView } from '@bank-checkout/contract';
import type { MessageKey, MessageParams } from '../i18n/index.js';
import { formatCents, formatIban } from '../logic/format.js';
import { isWebUrl } from '../logic/redirect.js';
import type { Notice } from './checkout-controller.js';

export type Translate = (key: MessageKey, params?: MessageParams) => string;

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

/** The cancel button, or its confirmation (`confirming`). */
export function cancelTemplate(t: Translate, busy: boolean, confirming: boolean, cancel: () => void, confirm: (asking: boolean) => void): TemplateResult {
  return html`<div class="cancel actions" part="cancel">
    ${
      confirming
        ? html`<p id="cancel-question">${t('action.cancelConfirm')}</p>
            <button type="button" aria-describedby="cancel-question" ?disabled=${busy} @click=${cancel}>${t('action.cancelYes')}</button>
            <button type="button" class="primary" aria-describedby="cancel-question" @click=${() => confirm(false)}>${t('action.cancelNo')}</button>`
        : html`<button type="button" class="link" ?disabled=${busy} @click=${() => confirm(true)}>${t('action.cancel')}</button>`
    }
  </div>`;
}
