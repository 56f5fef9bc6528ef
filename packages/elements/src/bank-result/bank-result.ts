import { html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { CheckoutView } from '@bank-checkout/contract';
import { emit } from '../events.js';
import { errorKey, type MessageKey } from '../i18n/index.js';
import { BankElement } from '../shared/bank-element.js';
import { elementStyles } from '../shared/styles.js';
import { resultStyles } from './bank-result.styles.js';

/** What a result shows: a final state, a pending outcome, or a checkout that could not be loaded. */
export type ResultStatus = 'succeeded' | 'failed' | 'expired' | 'cancelled' | 'unknown' | 'error';

const RESULT_STATUSES: readonly string[] = ['succeeded', 'failed', 'expired', 'cancelled', 'unknown'];

/** Errors that may pass by themselves: reading the checkout again makes sense. */
export const RETRYABLE_CODES: readonly string[] = [
  'network',
  'upstream',
  'upstream_timeout',
  'rate_limited',
  'checkout_busy',
  'invalid_response',
  'http_error',
  'generic',
];

/** Whether a result offers to try again (read the checkout again; never to repeat a payment). */
export function canRetry(status: ResultStatus, code: string | null | undefined): boolean {
  return status === 'unknown' || (status === 'error' && RETRYABLE_CODES.includes(code ?? 'generic'));
}

/**
 * The outcome: success, or failure with a human message for the provider's or the BFF's error
 * code in the payer's language; "check again" while the outcome is unknown, and "try again" when
 * the checkout could not be loaded for a passing reason.
 *
 * @summary Shows how the payment ended.
 * @fires bank-retry - The payer pressed "try again" / "check again".
 * @csspart result - The whole result.
 * @csspart icon - The outcome's icon.
 * @csspart title - The heading.
 * @csspart message - The explanation.
 * @csspart retry - The retry button.
 */
@customElement('bank-result')
export class BankResult extends BankElement {
  static override styles = [...elementStyles, resultStyles];

  /** The outcome; by default the view's state. */
  @property() status?: ResultStatus;
  /** The error code (`B102`, `deadline`, `network`, …); by default the view's. */
  @property() code?: string | null;

  private get shown(): { status: ResultStatus; code: string | null; message?: string } | null {
    const v: CheckoutView | null = this.currentView;
    const status = this.status ?? (v && RESULT_STATUSES.includes(v.state) ? (v.state as ResultStatus) : null);
    if (!status) return null;
    return { status, code: this.code ?? v?.error?.code ?? null, ...(v?.error && !this.code ? { message: v.error.message } : {}) };
  }

  private retry(): void {
    emit(this, 'bank-retry', {});
    void this.checkout?.refresh();
  }

  /** A failed or cancelled checkout the payer may start again (the view's `restart` action). */
  private get restartable(): boolean {
    return Boolean(this.currentView?.actions.includes('restart')) && !this.status;
  }

  private restart(): void {
    emit(this, 'bank-retry', {});
    void this.checkout?.run((c) => c.restart());
  }

  override render() {
    const s = this.shown;
    if (!s) return nothing;
    const fallback: MessageKey =
      s.status === 'cancelled' ? 'error.cancelled' : s.status === 'expired' ? 'error.expired' : s.status === 'unknown' ? 'error.unknown' : 'error.generic';
    // A periodic order set up is a mandate, nothing paid today: never told as a payment.
    const mandate = s.status === 'succeeded' && this.currentView?.mode === 'periodic';
    const message = mandate
      ? this.t('result.mandateBody')
      : s.status === 'succeeded'
        ? this.t('result.succeededBody')
        : this.t(s.code ? errorKey(s.code, s.message) : fallback);
    return html`<section class="stack result ${s.status}" part="result">
      <div class="icon" part="icon" aria-hidden="true"></div>
      <h2 part="title" tabindex="-1">${this.t(mandate ? 'result.mandate' : s.code === 'opened_elsewhere' ? 'result.elsewhere' : `result.${s.status}`)}</h2>
      <p part="message">${message}</p>
      ${
        this.restartable
          ? html`<div class="actions">
            <button type="button" class="primary" part="retry" ?disabled=${this.busy} @click=${this.restart}>${this.t('action.retry')}</button>
          </div>`
          : canRetry(s.status, s.code)
            ? html`<div class="actions">
            <button type="button" class="primary" part="retry" ?disabled=${this.busy} @click=${this.retry}>
              ${this.t(s.status === 'unknown' ? 'action.refresh' : 'action.retry')}
            </button>
          </div>`
            : nothing
      }
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-result': BankResult;
  }
}
