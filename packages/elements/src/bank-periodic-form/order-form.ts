/**
 * The periodic order form itself: what the payer entered, its checks and its template. Its own
 * file, loaded when the first `<bank-periodic-form>` shows (most checkouts never show one); the
 * element (bank-periodic-form.ts) is registered up front and renders this once it is in.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { emit, type PeriodicSubmitDetail } from '../events.js';
import { registerTexts, type MessageKey, type MessageParams } from '../i18n/index.js';
import { enPeriodic } from '../i18n/en-periodic.js';
import { esPeriodic } from '../i18n/es-periodic.js';
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
import { renderChoices } from '../shared/choices.js';
import type { StepFormHost } from '../shared/step-form.js';
import { orderForm, type BankPeriodicForm } from './bank-periodic-form.js';
import '../i18n/steps.js';

// This form's texts come with it.
registerTexts({ en: enPeriodic, es: esPeriodic });

/** What the form reads and calls on its element. */
export type OrderFormHost = StepFormHost<BankPeriodicForm>;

export class OrderForm {
  /** What the payer entered: the bank list's entry, its bank, the frequency, the IBAN as shown (groups of four), the dates. */
  private form: PeriodicForm = { entryKey: '', bankId: '', frequency: '', iban: '', startDate: '', endDate: '' };
  private submitted = false;

  private choices: PeriodicChoice[] = [];
  /** Fields changed by the payer, and those left after a change (their errors show). */
  private readonly edited = new Set<FieldName>();
  private readonly touched = new Set<FieldName>();

  /** Listeners that keep their `this` (Lit calls them on the element) and stay the same between renders. */
  private readonly onSubmit = (e: SubmitEvent): void => void this.submit(e);
  private readonly onIbanInput = (e: InputEvent): void => this.onIban(e);

  constructor(private readonly host: OrderFormHost) {}

  private get el(): BankPeriodicForm {
    return this.host.element;
  }

  private t(key: MessageKey, params?: MessageParams): string {
    return this.el.t(key, params);
  }

  private set(changes: Partial<PeriodicForm>): void {
    this.form = { ...this.form, ...changes };
    this.el.requestUpdate();
  }

  /** Before each update of the element: the choices for the current banks, and the form kept in step with them. */
  willUpdate(): void {
    const s = this.host.view()?.step;
    this.choices = periodicChoices(this.el.banks ?? (s?.state === 'periodic' ? s.banks : []), this.host.locale());
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
    this.el.requestUpdate();
  }

  private onIban(e: InputEvent): void {
    const input = e.target as HTMLInputElement;
    const edit = editIban(input.value, input.selectionStart ?? input.value.length, this.form.iban, e.inputType);
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
    return periodicErrors(this.choices, this.form, first, this.host.view()?.payee.iban);
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    if (this.host.busy()) return;
    this.submitted = true;
    this.el.requestUpdate();
    const errors = this.errors(firstStartDate(this.el.clock.now()));
    const invalid = firstInvalid(errors);
    if (invalid) {
      await this.el.updateComplete;
      const target = this.el.shadowRoot?.getElementById(FIELD_IDS[invalid]);
      (target?.matches('input, select') ? target : target?.querySelector('input'))?.focus();
      return;
    }
    const detail: PeriodicSubmitDetail = periodicOrder(this.form);
    emit(this.el, 'bank-periodic-submit', detail);
    const next = await this.host.run((client) => client.periodic(detail));
    // Inside <bank-checkout> the checkout takes the payer to the bank.
    if (next && !this.host.checkout() && next.step.state === 'redirect' && isWebUrl(next.step.url)) this.el.navigate(next.step.url);
  }

  /** A field's error line, and the ids that describe its control. */
  private messages(
    field: FieldName,
    error: FieldError | null,
    ...hintIds: string[]
  ): { line: TemplateResult | typeof nothing; describedBy: string | typeof nothing } {
    const shown = this.submitted || this.touched.has(field) ? error : null;
    const id = `${FIELD_IDS[field]}-error`;
    const ids = [...hintIds, shown ? id : ''].filter(Boolean).join(' ');
    return {
      line: shown ? html`<p id=${id} class="error" part="field-error">${this.t(shown.key, shown.params)}</p>` : nothing,
      describedBy: ids || nothing,
    };
  }

  private renderSelect(
    field: 'bank' | 'groupBank',
    label: string,
    error: FieldError | null,
    options: TemplateResult[],
    placeholder: boolean,
    onChange: (value: string) => void,
  ): TemplateResult {
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

  private renderDate(
    field: 'start' | 'end',
    label: string,
    min: string,
    value: string,
    error: FieldError | null,
    hint: { id: string; part: string; text: string } | null,
  ): TemplateResult {
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

  render(): TemplateResult {
    const f = this.form;
    const first = firstStartDate(this.el.clock.now());
    const errors = this.errors(first);
    const entry = chosenEntry(this.choices, f.entryKey);
    const bank = chosenBank(entry, f.bankId);
    const head = html`<h2 part="title" tabindex="-1">${this.t('periodic.title')}</h2>
      <p class="muted" part="intro">${this.t('periodic.body')}</p>
      ${this.host.renderError()}`;
    if (!this.choices.length) {
      const step = this.el.banks ? undefined : this.host.view()?.step;
      const failed = step?.state === 'periodic' ? step.banksError : undefined;
      // The provider did not give the list: say so and offer to ask again, instead of "no banks".
      const empty = failed
        ? html`<div class="alert" role="alert" part="error">
            <p>${this.t(`error.${failed}`)}</p>
            ${this.host.checkout() ? html`<button type="button" ?disabled=${this.host.busy()} @click=${() => this.host.checkout()?.refresh()}>${this.t('action.retry')}</button>` : nothing}
          </div>`
        : html`<p part="empty">${this.t('periodic.noBanks')}</p>`;
      return html`<div class="stack">${head}${empty}</div>`;
    }

    const frequency = this.messages('frequency', errors.frequency);
    const iban = this.messages('iban', errors.iban, `${FIELD_IDS.iban}-hint`);
    const schedule = f.frequency && !errors.start ? describeSchedule(f.frequency, f.startDate, this.host.locale()) : null;
    return html`<form class="stack" part="form" novalidate @submit=${this.onSubmit}>
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
          @input=${this.onIbanInput}
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
        <button type="submit" class="primary" part="submit" ?disabled=${this.host.busy()}>${this.t('periodic.submit')}</button>
      </div>
    </form>`;
  }
}

orderForm.define(OrderForm);
