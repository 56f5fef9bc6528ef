import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { BankElement } from '../shared/bank-element.js';
import { renderChoices } from '../shared/choices.js';
import { PROVIDER_LANG } from '../shared/bank-fields.js';
import { elementStyles } from '../shared/styles.js';
import { formatCents, formatIban } from '../logic/format.js';
import { accountPickerStyles } from './bank-account-picker.styles.js';
import '../i18n/steps.js';

export interface AccountItem {
  accountId: string;
  info: string;
  /** Balance in cents when the bank gives it. */
  balance: number | null;
  /** The bank refused a transfer from this account in this checkout. */
  refused?: boolean;
}

/**
 * The payer's accounts at the bank, as a radio list (arrow keys move and select), each with its
 * balance when the bank gives one (formatted for the locale). The pay button names the amount;
 * the choice starts the transfer with `POST /v1/checkout/transfer`.
 *
 * @summary Lets the payer choose the account to pay from.
 * @fires bank-checkout-step - Used alone with `client`: the BFF answered with a new state.
 * @fires bank-checkout-error - Used alone with `client`: the call failed.
 * @csspart form - The form.
 * @csspart list - The list of accounts.
 * @csspart title - The step's heading, which names the list.
 * @csspart option - One account.
 * @csspart detail - An account's balance.
 * @csspart flag - "Refused by your bank", on an account the bank refused in this checkout.
 * @csspart empty - The text shown when there are no accounts.
 * @csspart error - An error message (such as an account that cannot pay).
 * @csspart submit - The pay button.
 */
/** Codes for an account the bank will not pay from; another account may work. */
const REFUSED_ACCOUNT_CODES = ['B101', 'B106', 'B107', 'E302'];

/** IBANs in an account's text, in groups of four (they wrap between groups, never inside one). */
const groupIbans = (text: string) => text.replace(/\b[A-Z]{2}\d{2}[A-Z0-9]{11,30}\b/g, (iban) => formatIban(iban));

@customElement('bank-account-picker')
export class BankAccountPicker extends BankElement {
  static override styles = [...elementStyles, accountPickerStyles];
  protected override readonly stepState = 'select-account' as const;

  /** The accounts; by default the step's. */
  @property({ attribute: false }) accounts?: AccountItem[] | null;
  /** The amount to pay in cents, for the pay button; by default the checkout's. */
  @property({ type: Number }) amount?: number;
  /** ISO currency of amount and balances; by default the checkout's, else EUR. */
  @property() currency?: string;

  @state() private selected: string | null = null;
  /** The view whose answer was last looked at (an account the bank refused is not kept chosen). */
  private seenView: unknown = null;

  override connectedCallback(): void {
    super.connectedCallback();
    // The validation comes next: its form's code (a file of its own) is fetched while the payer chooses.
    void import('../bank-challenge/challenge-form.js').catch(() => {});
  }

  private get items(): AccountItem[] {
    const s = this.currentView?.step;
    return this.accounts ?? (s?.state === 'select-account' ? s.accounts : []);
  }

  protected override willUpdate(): void {
    const items = this.items;
    const v = this.currentView;
    // The bank refused the account chosen (blocked, joint, no transfers, the payee's own): choose again.
    if (v !== this.seenView) {
      this.seenView = v;
      if (v?.error && REFUSED_ACCOUNT_CODES.includes(v.error.code) && items.length > 1) this.selected = null;
    }
    if (!items.some((a) => a.accountId === this.selected)) this.selected = items.length === 1 ? items[0]!.accountId : this.chosen;
  }

  /** The account the checkout says stays chosen (a transfer that did not go through in time), if it is listed. */
  private get chosen(): string | null {
    const s = this.currentView?.step;
    const chosen = !this.accounts && s?.state === 'select-account' ? s.chosen : undefined;
    return chosen && this.items.some((a) => a.accountId === chosen) ? chosen : null;
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const accountId = this.selected;
    if (!accountId || this.busy) return;
    await this.run((client) => client.transfer({ accountId }));
  }

  override render() {
    const items = this.items;
    const locale = this.resolvedLocale;
    const currency = this.currency ?? this.currentView?.currency ?? 'EUR';
    const amount = this.amount ?? this.currentView?.amount;
    const money = (cents: number) => formatCents(cents, currency, locale);
    return html`<form class="stack" part="form" novalidate @submit=${this.submit}>
      <h2 id="account-title" part="title" tabindex="-1">${this.t('account.title')}</h2>
      ${this.renderError()}
      ${
        items.length
          ? renderChoices({
              name: 'account',
              labelledBy: 'account-title',
              choices: items.map((a) => {
                // An account the bank refused in this checkout says so, in words (part of the option's
                // name, so assistive technology reads it) set apart in the error colour.
                return {
                  id: a.accountId,
                  // The bank's own words for the account, in its language.
                  title: html`<span lang=${PROVIDER_LANG}>${groupIbans(a.info)}</span>`,
                  ...(a.balance != null ? { detail: this.t('account.balance', { amount: money(a.balance) }) } : {}),
                  ...(a.refused ? { flag: this.t('account.refused') } : {}),
                };
              }),
              selected: this.selected,
              disabled: this.busy,
              onSelect: (id) => (this.selected = id),
            })
          : html`<p part="empty">${this.t('account.empty')}</p>`
      }
      ${
        items.length
          ? html`<div class="actions">
            <button type="submit" class="primary" part="submit" ?disabled=${!this.selected || this.busy}>
              ${amount != null ? this.t('account.submit', { amount: money(amount) }) : this.t('action.continue')}
            </button>
          </div>`
          : nothing
      }
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-account-picker': BankAccountPicker;
  }
}
