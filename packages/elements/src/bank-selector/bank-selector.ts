import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import type { BankGroupView, BankView } from '@bank-checkout/contract';
import { BankElement, asApiError } from '../shared/bank-element.js';
import { elementStyles } from '../shared/styles.js';
import { emit } from '../events.js';
import { deviceStorage, findBank, recallBank, rememberBank, type KeyValueStore, type PersonType } from '../logic/banks.js';
import { selectorStyles } from './bank-selector.styles.js';
import { firstBanks, listBanks, orderOf, type BankList } from './bank-list.js';

const optionId = (bankId: string) => `bank-${bankId.replace(/[^\w-]/g, '_')}`;

/**
 * Options rendered at first (the list's default height shows about eight) and added each time
 * the list is scrolled or moved to its end: a long list (hundreds of banks) costs what a
 * screenful costs. Every option carries its place in
 * the whole list (`aria-posinset`/`aria-setsize`), and the status line says how many match.
 * The list itself (search, person type, the bank last used first) is worked out only when one of
 * those changes (./bank-list.ts): moving through it, scrolling and rendering more do not.
 */
const WINDOW = 12;

/**
 * The bank list: groups and their banks, search by name (accents and case ignored), the person
 * type when a group has banks for both, banks in maintenance shown as such (choosing one tells
 * the page, which offers another way), and the bank last used on this device first. A combobox with a listbox: type to filter, arrows to
 * move, Enter to choose, Escape to clear.
 *
 * @summary Lets the payer find and choose their bank.
 * @fires bank-select - The payer chose a bank; detail `{bankId, label, type, active}` (`active` false: a bank in maintenance, which cannot be signed in to now).
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

  /** Where the last bank's id is kept; the device's own storage by default (opened when first needed, not with the element). */
  get storage(): KeyValueStore | null {
    return this.store === undefined ? (this.store = deviceStorage()) : this.store;
  }
  set storage(store: KeyValueStore | null) {
    this.store = store;
  }
  private store?: KeyValueStore | null;

  @state() private query = '';
  @state() private personType: PersonType = 0;
  @state() private activeId: string | null = null;
  @state() private loaded: BankGroupView[] | null = null;
  @state() private recentId: string | null = null;
  /** How many options are rendered now (see WINDOW). */
  @state() private limit = WINDOW;
  private loading = false;
  private personTypeChosen = false;
  /** The list as shown: worked out again only when the groups, search, person type or recent bank change. */
  private list: BankList | null = null;
  /** The banks rendered, by their option's id (one click listener serves every option). */
  private rendered = new Map<string, BankView>();
  private more?: IntersectionObserver;

  override connectedCallback(): void {
    super.connectedCallback();
    this.recentId = this.noRemember ? null : recallBank(this.storage);
  }

  private get allGroups(): BankGroupView[] | null {
    return this.groups ?? this.checkout?.groups ?? this.loaded;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.more?.disconnect();
    this.more = undefined;
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('query') || changed.has('personType') || changed.has('groups')) this.limit = WINDOW;
    const groups = this.allGroups;
    if (groups && !this.personTypeChosen) {
      // The person type of the bank last used here is the likely one again.
      const recent = findBank(groups, this.recentId);
      if (recent) this.personType = recent.type;
      this.personTypeChosen = true;
    }
    if (!groups && !this.checkout && this.client && !this.loading) void this.load();
    const list = this.list;
    if (!groups) this.list = null;
    else if (!list || list.groups !== groups || changed.has('query') || changed.has('personType') || changed.has('recentId')) {
      this.list = listBanks(groups, this.query, this.personType, this.recentId, list);
    }
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

  /** A bank chosen (one in maintenance too, which is not remembered: the page offers another way). */
  private select(bank: BankView): void {
    this.activeId = bank.bankId;
    if (bank.active && !this.noRemember) rememberBank(this.storage, bank.bankId);
    emit(this, 'bank-select', { bankId: bank.bankId, label: bank.label, type: bank.type, active: bank.active });
  }

  private onKeydown(e: KeyboardEvent): void {
    if (!this.list) return;
    const order = orderOf(this.list);
    const index = order.findIndex((b) => b.bankId === this.activeId);
    const move = (i: number) => {
      const to = Math.max(0, Math.min(order.length - 1, i));
      const bank = order[to];
      if (!bank) return;
      if (to >= this.limit) this.limit = to + WINDOW;
      this.activeId = bank.bankId;
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
    if (changed.has('activeId') && this.activeId) this.renderRoot.querySelector(`#${optionId(this.activeId)}`)?.scrollIntoView({ block: 'nearest' });
    // Render further options when the end of those rendered comes into view: by scrolling the
    // list (onListScroll), or the page when the list is not a scroll box of its own.
    const sentinel = this.renderRoot.querySelector('.more');
    if (sentinel && typeof IntersectionObserver !== 'undefined') {
      this.more ??= new IntersectionObserver((entries) => {
        if (entries.some((e) => e.isIntersecting)) this.limit += WINDOW * 2;
      });
      this.more.disconnect();
      this.more.observe(sentinel);
    } else this.more?.disconnect();
  }

  /** Near the end of the rendered options while scrolling: render further ones. */
  private onListScroll(e: Event): void {
    const list = e.currentTarget as HTMLElement;
    if (this.limit < (this.list?.total ?? 0) && list.scrollTop + list.clientHeight >= list.scrollHeight - 120) this.limit += WINDOW * 2;
  }

  private onListClick(e: Event): void {
    const option = e.target instanceof Element ? e.target.closest<HTMLElement>('[role=option]') : null;
    const bank = option ? this.rendered.get(option.id) : undefined;
    if (bank) this.select(bank);
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

  private renderOption(bank: BankView, position: number, total: number): TemplateResult {
    return html`<div
      role="option"
      id=${optionId(bank.bankId)}
      part="option"
      class=${bank.active ? nothing : 'maintenance'}
      aria-selected=${this.activeId === bank.bankId ? 'true' : 'false'}
      aria-posinset=${position}
      aria-setsize=${total}
    >
      <span>${bank.label}</span>
      ${bank.active ? nothing : html`<span class="badge">${this.t('selector.maintenance')}</span>`}
    </div>`;
  }

  // One template from the loading to the list: its heading stays one element (focus on it stays).
  override render() {
    const groups = this.allGroups;
    return html`<section class="stack" part="selector">
      <h2 id="title" part="title" tabindex="-1">${this.t('selector.title')}</h2>
      ${this.renderError()} ${groups ? this.renderBanks(groups) : this.failure ? nothing : html`<p role="status">${this.t('status.loading')}</p>`}
    </section>`;
  }

  private renderBanks(groups: BankGroupView[]) {
    const list = this.list!;
    const total = list.total;
    const active = this.activeId !== null && orderOf(list).some((b) => b.bankId === this.activeId) ? this.activeId : null;
    // The first `limit` options, section by section.
    const shown = firstBanks(list, this.limit);
    this.rendered = new Map(shown.flatMap((s) => s.banks.map((b) => [optionId(b.bankId), b])));
    const last = shown.at(-1);
    return html`${list.personType ? this.renderPersonType() : nothing}
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
          @keydown=${this.onKeydown}
        />
      </div>
      <p class="sr-only" role="status">${this.query ? this.t('selector.results', { count: total }) : ''}</p>
      <div id="banks" role="listbox" part="listbox" aria-label=${this.t('selector.banks')} ?hidden=${total === 0} @click=${this.onListClick} @scroll=${this.onListScroll}>
        ${shown.map((s, i) =>
          // A group of one bank that bears the group's own name needs no heading above it.
          s.group >= 0 && s.banks.length === 1 && s.banks[0]!.label.trim().toLowerCase() === groups[s.group]!.name.trim().toLowerCase()
            ? this.renderOption(s.banks[0]!, s.start + 1, total)
            : html`<div role="group" aria-labelledby="group-${i}">
                <div id="group-${i}" class="group-name" part="group" role="presentation">${s.group < 0 ? this.t('selector.recent') : groups[s.group]!.name}</div>
                ${s.banks.map((b, j) => this.renderOption(b, s.start + j + 1, total))}
              </div>`,
        )}
        ${last && last.start + last.banks.length < total ? html`<div class="more" role="presentation"></div>` : nothing}
      </div>
      ${total === 0 ? html`<p part="empty">${this.t('selector.empty', { query: this.query })}</p>` : nothing}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-selector': BankSelector;
  }
}
