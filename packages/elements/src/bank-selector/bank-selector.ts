import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import type { BankGroupView, BankView } from '@bank-checkout/contract';
import { BankElement, asApiError } from '../shared/bank-element.js';
import { elementStyles } from '../shared/styles.js';
import { emit } from '../events.js';
import { deviceStorage, filterBanks, findBank, needsPersonType, recallBank, rememberBank, type KeyValueStore, type PersonType } from '../logic/banks.js';
import { selectorStyles } from './bank-selector.styles.js';

const optionId = (bankId: string) => `bank-${bankId.replace(/[^\w-]/g, '_')}`;

/**
 * The bank list: groups and their banks, search by name (accents and case ignored), the person
 * type when a group has banks for both, banks in maintenance shown but not selectable, and the
 * bank last used on this device first. A combobox with a listbox: type to filter, arrows to
 * move, Enter to choose, Escape to clear.
 *
 * @summary Lets the payer find and choose their bank.
 * @fires bank-select - The payer chose a bank; detail `{bankId, label, type}`.
 * @fires bank-checkout-error - Loading the banks failed (used alone with `client`).
 * @csspart selector - The whole selector.
 * @csspart title - The heading.
 * @csspart person-type - The natural/legal person choice.
 * @csspart search - The search input.
 * @csspart listbox - The list of banks.
 * @csspart group - The name of a bank group.
 * @csspart option - One bank.
 * @csspart empty - The text shown when no bank matches.
 * @csspart error - An error message.
 * @cssproperty --bank-selector-max-height - Height of the list before it scrolls (22rem).
 */
@customElement('bank-selector')
export class BankSelector extends BankElement {
  static override styles = [...elementStyles, selectorStyles];
  protected override readonly stepState = 'select-bank' as const;

  /** The bank groups (`GET /v1/banks`); by default the checkout's. */
  @property({ attribute: false }) groups?: BankGroupView[] | null;

  /** Do not remember the chosen bank on this device. */
  @property({ type: Boolean, attribute: 'no-remember' }) noRemember = false;

  /** Where the last bank's id is kept; the device's own storage by default. */
  @property({ attribute: false }) storage: KeyValueStore | null = deviceStorage();

  @state() private query = '';
  @state() private personType: PersonType = 0;
  @state() private activeId: string | null = null;
  @state() private loaded: BankGroupView[] | null = null;
  @state() private recentId: string | null = null;
  private loading = false;
  private personTypeChosen = false;

  override connectedCallback(): void {
    super.connectedCallback();
    this.recentId = this.noRemember ? null : recallBank(this.storage);
  }

  private get allGroups(): BankGroupView[] | null {
    return this.groups ?? this.checkout?.groups ?? this.loaded;
  }

  protected override willUpdate(): void {
    const groups = this.allGroups;
    if (groups && !this.personTypeChosen) {
      // The person type of the bank last used here is the likely one again.
      const recent = findBank(groups, this.recentId);
      if (recent) this.personType = recent.type;
      this.personTypeChosen = true;
    }
    if (!groups && !this.checkout && this.client && !this.loading) void this.load();
  }

  private async load(): Promise<void> {
    this.loading = true;
    try {
      this.loaded = (await this.client!.banks()).groups;
    } catch (err) {
      const e = asApiError(err);
      this.failure = e;
      emit(this, 'bank-checkout-error', { checkoutId: null, code: e.code, status: e.status, requestId: e.requestId });
    } finally {
      this.loading = false;
    }
  }

  /** The banks as listed now: the recent one first (when not searching), then each group's. */
  private listed(groups: BankGroupView[]) {
    const matches = filterBanks(groups, this.query, this.personType);
    const recent = this.query === '' ? matches.flatMap((m) => m.banks).find((b) => b.bankId === this.recentId) : undefined;
    const sections = matches
      .map((m) => ({ name: m.group.name, banks: m.banks.filter((b) => b !== recent) }))
      .filter((s) => s.banks.length);
    if (recent) sections.unshift({ name: this.t('selector.recent'), banks: [recent] });
    return sections;
  }

  private select(bank: BankView): void {
    if (!bank.active) return;
    this.activeId = bank.bankId;
    if (!this.noRemember) rememberBank(this.storage, bank.bankId);
    emit(this, 'bank-select', { bankId: bank.bankId, label: bank.label, type: bank.type });
  }

  private onKeydown(e: KeyboardEvent, order: BankView[]): void {
    const index = order.findIndex((b) => b.bankId === this.activeId);
    const move = (i: number) => {
      const bank = order[Math.max(0, Math.min(order.length - 1, i))];
      if (bank) this.activeId = bank.bankId;
    };
    switch (e.key) {
      case 'ArrowDown':
        move(index < 0 ? 0 : index + 1);
        break;
      case 'ArrowUp':
        move(index < 0 ? order.length - 1 : index - 1);
        break;
      case 'PageDown':
        move(index + 5);
        break;
      case 'PageUp':
        move(index - 5);
        break;
      case 'Enter': {
        const bank = order[index];
        if (bank) this.select(bank);
        break;
      }
      case 'Escape':
        if (this.query === '' && this.activeId === null) return;
        this.query = '';
        this.activeId = null;
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has('activeId') && this.activeId) this.renderRoot.querySelector(`#${optionId(this.activeId)}`)?.scrollIntoView?.({ block: 'nearest' });
  }

  private renderPersonType(): TemplateResult {
    const choice = (type: PersonType, label: string) =>
      html`<label class="choice"
        ><input
          type="radio"
          name="person-type"
          .checked=${this.personType === type}
          @change=${() => {
            this.personType = type;
            this.personTypeChosen = true;
            this.activeId = null;
          }}
        />${label}</label
      >`;
    return html`<fieldset part="person-type">
      <legend>${this.t('selector.personType')}</legend>
      <div class="person">${choice(0, this.t('selector.natural'))}${choice(1, this.t('selector.legal'))}</div>
    </fieldset>`;
  }

  private renderOption(bank: BankView): TemplateResult {
    return html`<div
      role="option"
      id=${optionId(bank.bankId)}
      part="option"
      aria-selected=${this.activeId === bank.bankId ? 'true' : 'false'}
      aria-disabled=${bank.active ? nothing : 'true'}
      @click=${() => this.select(bank)}
    >
      <span>${bank.label}</span>
      ${bank.active ? nothing : html`<span class="badge">${this.t('selector.maintenance')}</span>`}
    </div>`;
  }

  override render() {
    const groups = this.allGroups;
    const heading = html`<h2 id="title" part="title" tabindex="-1">${this.t('selector.title')}</h2>`;
    if (!groups) {
      return html`<section class="stack" part="selector">
        ${heading} ${this.failure ? this.renderError() : html`<p role="status">${this.t('status.loading')}</p>`}
      </section>`;
    }
    const sections = this.listed(groups);
    const order = sections.flatMap((s) => s.banks);
    const active = order.some((b) => b.bankId === this.activeId) ? this.activeId : null;
    return html`<section class="stack" part="selector">
      ${heading} ${this.renderError()} ${needsPersonType(groups) ? this.renderPersonType() : nothing}
      <div class="field">
        <label for="search">${this.t('selector.search')}</label>
        <input
          id="search"
          part="search"
          type="text"
          role="combobox"
          aria-controls="banks"
          aria-expanded="true"
          aria-autocomplete="list"
          aria-activedescendant=${active ? optionId(active) : nothing}
          autocomplete="off"
          spellcheck="false"
          .value=${live(this.query)}
          @input=${(e: InputEvent) => {
            this.query = (e.target as HTMLInputElement).value;
            this.activeId = null;
          }}
          @keydown=${(e: KeyboardEvent) => this.onKeydown(e, order)}
        />
      </div>
      <p class="sr-only" role="status">${this.query ? this.t('selector.results', { count: order.length }) : ''}</p>
      <div id="banks" role="listbox" part="listbox" aria-label=${this.t('selector.banks')} ?hidden=${order.length === 0}>
        ${sections.map(
          (s, i) => html`<div role="group" aria-labelledby="group-${i}">
            <div id="group-${i}" class="group-name" part="group" role="presentation">${s.name}</div>
            ${s.banks.map((b) => this.renderOption(b))}
          </div>`,
        )}
      </div>
      ${order.length === 0 ? html`<p part="empty">${this.t('selector.empty', { query: this.query })}</p>` : nothing}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-selector': BankSelector;
  }
}
