import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import type { PeriodicBankView } from '@bank-checkout/contract';
import { emit, type PeriodicSubmitDetail } from '../events.js';
import { editIban } from '../logic/iban.js';
import {
  chosenBank,
  chosenEntry,
  describeSchedule,
  firstEndDate,
  firstInvalid,
  firstStartDate,
  frequencyKey,
  keepSelection,
  periodicChoices,
  periodicErrors,
  periodicOrder,
  selectBank,
  selectEntry,
  PERIODIC_FIELD_IDS as FIELD_IDS,
  type PeriodicChoice,
  type PeriodicField as FieldName,
  type PeriodicForm,
} from '../logic/periodic.js';
import { isWebUrl } from '../logic/redirect.js';
import type { FieldError } from '../logic/validators.js';
import { BankElement } from '../shared/bank-element.js';
import { renderChoices } from '../shared/choices.js';
import { elementStyles } from '../shared/styles.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { periodicFormStyles } from './bank-periodic-form.styles.js';

/**
 * A periodic payment order: the bank (banks of a group are chosen through the group, then a
 * second list; banks not operational are listed but cannot be chosen), one of the frequencies
 * that bank accepts, the payer's IBAN (grouped in fours as it is typed, checked with the ISO
 * 13616 checksum, and not the payee's own account), the first payment's date (after today; the sentence under it says when the
 * payment runs) and an optional end date. Errors show once a field was left or on submit. A
 * valid submit fires `bank-periodic-submit`, then calls `POST /v1/checkout/periodic` through
 * `<bank-checkout>` (or its own `client`), which sends the payer to the bank's signed page.
 *
 * @summary Sets up a periodic payment from the payer's account.
 * @fires bank-periodic-submit - The payer submitted a valid order; detail `{bankId, frequency, debtorAccount, startDate, endDate?}` (`debtorAccount` is the payer's IBAN: keep it out of logs).
 * @fires bank-checkout-step - Used alone with `client`: the BFF answered with a new state.
 * @fires bank-checkout-error - Used alone with `client`: the call failed.
 * @csspart form - The form.
 * @csspart title - The heading.
 * @csspart intro - The line under the heading.
 * @csspart empty - The text shown when no bank offers periodic payments.
 * @csspart field - A field (label, control, messages).
 * @csspart label - A field's label.
 * @csspart select - The bank list and the list of a group's banks.
 * @csspart list - The frequencies.
 * @csspart option - One frequency.
 * @csspart input - The IBAN and date inputs.
 * @csspart hint - A line explaining a field.
 * @csspart schedule - The sentence saying when the payment runs.
 * @csspart field-error - A field's error message.
 * @csspart error - The error of the last call, or why the bank list could not be read.
 * @csspart submit - The button that continues to the bank.
 */
@customElement('bank-periodic-form')
export class BankPeriodicForm extends BankElement {
  static override styles = [...elementStyles, periodicFormStyles];
  protected override readonly stepState = 'periodic' as const;

  /** The banks that offer periodic payments; by default the step's. */
  @property({ attribute: false }) banks?: PeriodicBankView[] | null;
  /** The clock that decides what "today" is. */
  @property({ attribute: false }) clock: Pick<Clock, 'now'> = systemClock;
  /** Used alone with `client`: how the page goes to the bank's signed page. */
  @property({ attribute: false }) navigate: (url: string) => void = (url) => window.location.assign(url);

  /** What the payer entered: the bank list's entry, its bank, the frequency, the IBAN as shown (groups of four), the dates. */
  @state() private form: PeriodicForm = { entryKey: '', bankId: '', frequency: '', iban: '', startDate: '', endDate: '' };
  @state() private submitted = false;

  private choices: PeriodicChoice[] = [];
  /** Fields changed by the payer, and those left after a change (their errors show). */
  private readonly edited = new Set<FieldName>();
  private readonly touched = new Set<FieldName>();

  private set(changes: Partial<PeriodicForm>): void {
    this.form = { ...this.form, ...changes };
  }

  protected override willUpdate(): void {
    const s = this.currentView?.step;
    this.choices = periodicChoices(this.banks ?? (s?.state === 'periodic' ? s.banks : []), this.resolvedLocale);
    // Keep only choices that still exist and are operational.
    this.set(keepSelection(this.choices, this.form));
  }

  /** A choice was made: the form takes it, and the field counts as left at once. */
  private choose(field: FieldName, changes: Partial<PeriodicForm>): void {
    this.edited.add(field);
    this.touched.add(field);
    this.set(changes);
  }

  private leave(field: FieldName): void {
    if (!this.edited.has(field) || this.touched.has(field)) return;
    this.touched.add(field);
    this.requestUpdate();
  }

  private onIban(e: InputEvent): void {
    const input = e.target as HTMLInputElement;
    const edit = editIban(input.value, input.selectionStart ?? input.value.length, this.form.iban, e.inputType ?? '');
    this.set({ iban: edit.value });
    input.value = edit.value;
    input.setSelectionRange(edit.caret, edit.caret);
    this.edited.add('iban');
  }

  private onDate(field: 'start' | 'end', e: Event): void {
    this.set({ [field === 'start' ? 'startDate' : 'endDate']: (e.target as HTMLInputElement).value });
    this.edited.add(field);
  }

  private errors(first: string): Record<FieldName, FieldError | null> {
    return periodicErrors(this.choices, this.form, first, this.currentView?.payee.iban);
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    if (this.busy) return;
    this.submitted = true;
    const errors = this.errors(firstStartDate(this.clock.now()));
    const invalid = firstInvalid(errors);
    if (invalid) {
      await this.updateComplete;
      const target = this.shadowRoot?.getElementById(FIELD_IDS[invalid]);
      (target?.matches('input, select') ? target : target?.querySelector('input'))?.focus();
      return;
    }
    const detail: PeriodicSubmitDetail = periodicOrder(this.form);
    emit(this, 'bank-periodic-submit', detail);
    const next = await this.run((client) => client.periodic(detail));
    // Inside <bank-checkout> the checkout takes the payer to the bank.
    if (next && !this.checkout && next.step.state === 'redirect' && isWebUrl(next.step.url)) this.navigate(next.step.url);
  }

  /** A field's error line, and the ids that describe its control. */
  private messages(field: FieldName, error: FieldError | null, ...hintIds: string[]): { line: TemplateResult | typeof nothing; describedBy: string | typeof nothing } {
    const shown = this.submitted || this.touched.has(field) ? error : null;
    const id = `${FIELD_IDS[field]}-error`;
    const ids = [...hintIds, shown ? id : ''].filter(Boolean).join(' ');
    return {
      line: shown ? html`<p id=${id} class="error" part="field-error">${this.t(shown.key, shown.params)}</p>` : nothing,
      describedBy: ids || nothing,
    };
  }

  private renderSelect(field: 'bank' | 'groupBank', label: string, error: FieldError | null, options: TemplateResult[], placeholder: boolean, onChange: (value: string) => void): TemplateResult {
    const m = this.messages(field, error);
    return html`<div class="field" part="field">
      <label for=${FIELD_IDS[field]} part="label">${label}</label>
      <select
        id=${FIELD_IDS[field]}
        part="select"
        required
        aria-invalid=${m.line === nothing ? 'false' : 'true'}
        aria-describedby=${m.describedBy}
        @change=${(e: Event) => onChange((e.target as HTMLSelectElement).value)}
      >
        <option value="" disabled .selected=${placeholder}>${this.t('periodic.bankPlaceholder')}</option>
        ${options}
      </select>
      ${m.line}
    </div>`;
  }

  private option(value: string, name: string, enabled: boolean, selected: boolean): TemplateResult {
    return html`<option value=${value} ?disabled=${!enabled} .selected=${selected}>${enabled ? name : `${name} ${this.t('login.unavailable')}`}</option>`;
  }

  private renderDate(field: 'start' | 'end', label: string, min: string, value: string, error: FieldError | null, hint: { id: string; part: string; text: string } | null): TemplateResult {
    const id = FIELD_IDS[field];
    const m = this.messages(field, error, ...(hint ? [hint.id] : []));
    return html`<div class="field" part="field">
      <label for=${id} part="label">${label}</label>
      <input
        id=${id}
        part="input"
        type="date"
        min=${min}
        ?required=${field === 'start'}
        aria-invalid=${m.line === nothing ? 'false' : 'true'}
        aria-describedby=${m.describedBy}
        .value=${live(value)}
        @input=${(e: Event) => this.onDate(field, e)}
        @change=${(e: Event) => this.onDate(field, e)}
        @blur=${() => this.leave(field)}
      />
      ${hint ? html`<p id=${hint.id} class="hint" part=${hint.part}>${hint.text}</p>` : nothing} ${m.line}
    </div>`;
  }

  override render() {
    const f = this.form;
    const first = firstStartDate(this.clock.now());
    const errors = this.errors(first);
    const entry = chosenEntry(this.choices, f.entryKey);
    const bank = chosenBank(entry, f.bankId);
    const head = html`<h2 part="title" tabindex="-1">${this.t('periodic.title')}</h2>
      <p class="muted" part="intro">${this.t('periodic.body')}</p>
      ${this.renderError()}`;
    if (!this.choices.length) {
      const step = this.banks ? undefined : this.currentView?.step;
      const failed = step?.state === 'periodic' ? step.banksError : undefined;
      // The provider did not give the list: say so and offer to ask again, instead of "no banks".
      const empty = failed
        ? html`<div class="alert" role="alert" part="error">
            <p>${this.t(`error.${failed}`)}</p>
            ${this.checkout ? html`<button type="button" ?disabled=${this.busy} @click=${() => this.checkout?.refresh()}>${this.t('action.retry')}</button>` : nothing}
          </div>`
        : html`<p part="empty">${this.t('periodic.noBanks')}</p>`;
      return html`<div class="stack">${head}${empty}</div>`;
    }

    const frequency = this.messages('frequency', errors.frequency);
    const iban = this.messages('iban', errors.iban, `${FIELD_IDS.iban}-hint`);
    const schedule = f.frequency && !errors.start ? describeSchedule(f.frequency, f.startDate, this.resolvedLocale) : null;
    return html`<form class="stack" part="form" novalidate @submit=${this.submit}>
      ${head}
      ${this.renderSelect(
        'bank',
        this.t('periodic.bank'),
        errors.bank,
        this.choices.map((c) => this.option(c.key, c.name, c.enabled, c.key === f.entryKey)),
        !entry,
        (key) => this.choose('bank', selectEntry(this.choices, this.form, key)),
      )}
      ${
        entry?.group && entry.banks.length > 1
          ? this.renderSelect(
              'groupBank',
              this.t('periodic.groupBank', { group: entry.name }),
              errors.groupBank,
              entry.banks.map((b) => this.option(b.bankId, b.name, b.enabled, b.bankId === f.bankId)),
              !bank,
              (id) => this.choose('groupBank', selectBank(this.choices, this.form, id)),
            )
          : nothing
      }
      ${
        bank
          ? html`<div id=${FIELD_IDS.frequency} class="frequencies">
              ${renderChoices({
                name: 'frequency',
                legend: this.t('periodic.frequency'),
                choices: bank.frequencies.map((code) => {
                  const key = frequencyKey(code);
                  return { id: code, title: key ? this.t(key) : code };
                }),
                selected: f.frequency || null,
                disabled: false,
                onSelect: (code) => this.choose('frequency', { frequency: code }),
                ...(frequency.describedBy !== nothing ? { describedBy: frequency.describedBy } : {}),
              })}
              ${frequency.line}
            </div>`
          : nothing
      }
      <div class="field" part="field">
        <label for=${FIELD_IDS.iban} part="label">${this.t('periodic.account')}</label>
        <p id="${FIELD_IDS.iban}-hint" class="hint" part="hint">${this.t('periodic.accountHint')}</p>
        <input
          id=${FIELD_IDS.iban}
          class="iban"
          part="input"
          type="text"
          inputmode="text"
          autocomplete="off"
          autocapitalize="characters"
          spellcheck="false"
          required
          aria-invalid=${iban.line === nothing ? 'false' : 'true'}
          aria-describedby=${iban.describedBy}
          .value=${live(f.iban)}
          @input=${this.onIban}
          @blur=${() => this.leave('iban')}
        />
        ${iban.line}
      </div>
      ${this.renderDate(
        'start',
        this.t('periodic.start'),
        first,
        f.startDate,
        errors.start,
        schedule ? { id: `${FIELD_IDS.start}-schedule`, part: 'schedule', text: this.t(schedule.key, schedule.params) } : null,
      )}
      ${this.renderDate('end', this.t('periodic.end'), firstEndDate(f.startDate, first), f.endDate, errors.end, {
        id: `${FIELD_IDS.end}-hint`,
        part: 'hint',
        text: this.t('periodic.endHint'),
      })}
      <div class="actions">
        <button type="submit" class="primary" part="submit" ?disabled=${this.busy}>${this.t('periodic.submit')}</button>
      </div>
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-periodic-form': BankPeriodicForm;
  }
}
