import { html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { emit } from '../events.js';
import { BankElement } from '../shared/bank-element.js';
import { elementStyles } from '../shared/styles.js';
import '../i18n/steps.js';

/**
 * A bank in maintenance, chosen in the list: it cannot be signed in to now. It says so and offers
 * the bank's own page when the checkout allows the bank's-page method (that page asks for the
 * bank again), or another bank. The provider says no more than that the bank is in maintenance
 * (no time it returns), so neither does this. `<bank-checkout>` shows it with its later steps.
 *
 * @summary Offers another way when the bank chosen is in maintenance.
 * @fires bank-choose-other - The payer wants another bank (`<bank-checkout>` shows the list again).
 * @fires bank-checkout-step - Used alone with `client`: the BFF answered with a new state.
 * @fires bank-checkout-error - Used alone with `client`: the call failed.
 * @csspart maintenance - The notice.
 * @csspart title - Its heading.
 * @csspart page - The button that pays at the bank's own page.
 * @csspart other - The button that chooses another bank.
 */
@customElement('bank-maintenance')
export class BankMaintenance extends BankElement {
  static override styles = elementStyles;

  /** The bank in maintenance (its name is said). */
  @property({ attribute: false }) bank: { bankId: string; label: string } | null = null;

  override render() {
    const bank = this.bank;
    if (!bank) return nothing;
    const v = this.currentView;
    const page = !!v?.actions.includes('redirect');
    return html`<section class="notice stack" part="maintenance" aria-labelledby="title">
      <h2 id="title" part="title" tabindex="-1">${this.t('maintenance.title', { bank: bank.label })}</h2>
      <p>${this.t(page ? 'maintenance.body' : 'maintenance.bodyNoPage')}</p>
      <div class="actions">
        ${
          page
            ? html`<button type="button" class="primary" part="page" ?disabled=${this.busy} @click=${() => void this.run((c) => c.redirect())}>
              ${this.t('maintenance.page', { bank: bank.label })}
            </button>`
            : nothing
        }
        <button type="button" part="other" ?disabled=${this.busy} @click=${() => emit(this, 'bank-choose-other', {})}>${this.t('action.back')}</button>
      </div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-maintenance': BankMaintenance;
  }
}
