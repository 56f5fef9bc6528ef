/**
 * `<bank-rail-offer>`: shown by `<bank-checkout>` under a failure that stops the in-page flow
 * at a bank (logic/rail.ts): one button pays the same checkout at the bank's own page instead.
 * When it shows, focus comes to its heading first (before the step and its error), so that
 * reading on from focus meets it. The bank's page asks for the bank itself (the signed payment
 * link names none). Loaded on demand.
 */
import { css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { CheckoutView } from '@bank-checkout/contract';
import { registerTexts } from '../i18n/index.js';
import { enExtras } from '../i18n/en-extras.js';
import { esExtras } from '../i18n/es-extras.js';
import { railRoute } from '../logic/rail.js';
import { BankElement } from '../shared/bank-element.js';
import { elementStyles } from '../shared/styles.js';

registerTexts({ en: enExtras, es: esExtras });

/**
 * @summary Offers the bank's own page when the in-page flow cannot go on at a bank.
 * @csspart rail - The offer.
 * @csspart rail-start - Its button.
 */
@customElement('bank-rail-offer')
export class BankRailOffer extends BankElement {
  static override styles = [
    ...elementStyles,
    css`
      h2 {
        margin: 0;
        font-size: 1.05em;
      }
    `,
  ];

  /** The bank the payer tried (its label names it); by default the view's. */
  @property({ attribute: false }) bank: { bankId: string; label: string } | null = null;

  private get bankLabel(): string {
    const v = this.currentView;
    const own = v && 'bank' in v.step ? v.step.bank.label : '';
    return own || this.bank?.label || '';
  }

  private start(v: CheckoutView): void {
    const route = railRoute(v);
    void this.run((c) => (route === 'restart' ? c.restart().then(() => c.redirect()) : c.redirect()));
  }

  /** Whether the offer shows now (`<bank-checkout>` then brings focus to it first, before the step). */
  get offering(): boolean {
    const v = this.currentView;
    return Boolean(v && railRoute(v));
  }

  override render() {
    const v = this.currentView;
    if (!v || !railRoute(v)) return nothing;
    const bank = this.bankLabel;
    return html`<section class="notice stack" part="rail" aria-labelledby="rail-title">
      <h2 id="rail-title" tabindex="-1">${this.t('rail.title')}</h2>
      <p>${bank ? this.t('rail.body', { bank }) : this.t('rail.bodyNoBank')}</p>
      <div class="actions">
        <button type="button" class="primary" part="rail-start" ?disabled=${this.busy} @click=${() => this.start(v)}>
          ${bank ? this.t('rail.start', { bank }) : this.t('rail.startNoBank')}
        </button>
      </div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-rail-offer': BankRailOffer;
  }
}
