import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { BankElement } from '../shared/bank-element.js';
import { renderChoices } from '../shared/choices.js';
import { PROVIDER_LANG } from '../shared/bank-fields.js';
import { elementStyles } from '../shared/styles.js';
import { contractPickerStyles } from './bank-contract-picker.styles.js';
import '../i18n/steps.js';

export interface ContractItem {
  contractId: string;
  info: string;
}

/**
 * The contracts of a multi-contract bank, as a radio list (arrow keys move and select). The
 * choice is sent with `POST /v1/checkout/contract`.
 *
 * @summary Lets the payer choose one of their bank contracts.
 * @fires bank-checkout-step - Used alone with `client`: the BFF answered with a new state.
 * @fires bank-checkout-error - Used alone with `client`: the call failed.
 * @csspart form - The form.
 * @csspart list - The list of contracts.
 * @csspart title - The step's heading, which names the list.
 * @csspart option - One contract.
 * @csspart empty - The text shown when there are no contracts.
 * @csspart error - An error message.
 * @csspart submit - The continue button.
 */
@customElement('bank-contract-picker')
export class BankContractPicker extends BankElement {
  static override styles = [...elementStyles, contractPickerStyles];
  protected override readonly stepState = 'select-contract' as const;

  /** The contracts; by default the step's. */
  @property({ attribute: false }) contracts?: ContractItem[] | null;

  @state() private selected: string | null = null;

  private get items(): ContractItem[] {
    const s = this.currentView?.step;
    return this.contracts ?? (s?.state === 'select-contract' ? s.contracts : []);
  }

  protected override willUpdate(): void {
    const items = this.items;
    if (!items.some((c) => c.contractId === this.selected)) this.selected = items.length === 1 ? items[0]!.contractId : null;
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const contractId = this.selected;
    if (!contractId || this.busy) return;
    await this.run((client) => client.contract({ contractId }));
  }

  override render() {
    const items = this.items;
    return html`<form class="stack" part="form" novalidate @submit=${this.submit}>
      <h2 id="contract-title" part="title" tabindex="-1">${this.t('contract.title')}</h2>
      ${this.renderError()}
      ${
        items.length
          ? renderChoices({
              name: 'contract',
              labelledBy: 'contract-title',
              choices: items.map((c) => ({ id: c.contractId, title: html`<span lang=${PROVIDER_LANG}>${c.info}</span>` })),
              selected: this.selected,
              disabled: this.busy,
              onSelect: (id) => (this.selected = id),
            })
          : html`<p part="empty">${this.t('contract.empty')}</p>`
      }
      ${
        items.length
          ? html`<div class="actions">
            <button type="submit" class="primary" part="submit" ?disabled=${!this.selected || this.busy}>${this.t('contract.submit')}</button>
          </div>`
          : nothing
      }
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-contract-picker': BankContractPicker;
  }
}
