/**
 * What `<bank-checkout>` adds beyond the steps, in one module fetched after the first screen:
 * the phone hand-off (QR code), the other rail (the bank's own page when the in-page flow cannot
 * go on at a bank), the receipt of a payment, and the words once an unknown outcome is no longer
 * watched. Each element is in its own file.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { BankView } from '@bank-checkout/contract';
import type { StepParts, Translate } from './templates.js';
import '../bank-handoff/bank-handoff.js';
import './rail-offer.js';
import '../bank-result/receipt.js';

/** The offer of the bank's own page, above the step, for the bank the payer chose last. */
export const railOffer = (bank: BankView | null): TemplateResult => html`<bank-rail-offer .bank=${bank}></bank-rail-offer>`;

/**
 * Under the step: finishing on the phone, at the start of the bank's-page and periodic methods
 * and while waiting at the bank's page; the receipt of a payment.
 */
export function afterStep(p: StepParts): TemplateResult | typeof nothing {
  const v = p.view;
  if (p.redirectStart || v.state === 'periodic') return html`<bank-handoff></bank-handoff>`;
  if (v.state === 'redirect' && p.status !== 'leaving') return html`<bank-handoff ?open=${p.onPhone}></bank-handoff>`;
  return v.state === 'succeeded' ? html`<bank-receipt></bank-receipt>` : nothing;
}

/** What happens next, once an unknown outcome is no longer watched. */
export const unknownLater = (t: Translate): TemplateResult => html`<p class="notice" role="status" part="unknown-later">${t('result.unknownLater')}</p>`;
