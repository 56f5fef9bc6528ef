import { html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { FieldView } from '@bank-checkout/contract';
import { BankElement } from '../shared/bank-element.js';
import { positionIn, secondLoginName } from '../shared/bank-fields.js';
import { FieldsController } from '../shared/fields.js';
import { elementStyles } from '../shared/styles.js';
import type { MessageKey } from '../i18n/index.js';
import { secondLoginStyles } from './bank-second-login.styles.js';
import '../i18n/steps.js';

/** 1 SMS code, 2 coordinates card position, 3 token from the bank's app. */
export type SecondLoginKind = 1 | 2 | 3;

/**
 * The bank's second login step: a code received by SMS (`autocomplete="one-time-code"`), the
 * value at a position of the coordinates card (the position is shown), or a code from the
 * bank's app. The field's rules come from its descriptor; the value is sent with
 * `POST /v1/checkout/second-login` and cleared at once.
 *
 * @summary Asks for the second login code.
 * @fires bank-checkout-step - Used alone with `client`: the BFF answered with a new state.
 * @fires bank-checkout-error - Used alone with `client`: the call failed.
 * @csspart form - The form.
 * @csspart title - The heading.
 * @csspart position - The coordinates position asked for (type 2).
 * @csspart field - The field (label, input, messages).
 * @csspart label - The field's label.
 * @csspart bank-text - The bank's own words for a field (Spanish), when the label is the kit's.
 * @csspart hint - What to enter.
 * @csspart input - The input.
 * @csspart reveal - The show toggle of a masked field.
 * @csspart field-error - The field's error message.
 * @csspart error - An error from the bank.
 * @csspart fill-test - The "fill test values" button (test mode).
 * @csspart test-value - The test value, as text (test mode).
 * @csspart submit - The continue button.
 */
@customElement('bank-second-login')
export class BankSecondLogin extends BankElement {
  static override styles = [...elementStyles, secondLoginStyles];
  protected override readonly stepState = 'second-login' as const;

  /** The kind of second login; by default the step's. */
  @property({ type: Number }) type?: SecondLoginKind;
  /** What the bank shows (a phone number for SMS, a card position for coordinates); by default the step's. */
  @property() value?: string | null;
  /** The field descriptor; by default the step's. */
  @property({ attribute: false }) field?: FieldView | null;

  private readonly fields = new FieldsController(this, 'second');
  private shownKey = '';

  private get step() {
    const s = this.currentView?.step;
    const fromView = s?.state === 'second-login' ? s : null;
    const field = this.field ?? fromView?.field ?? null;
    if (!field) return null;
    return { type: this.type ?? fromView?.type ?? 1, value: this.value ?? fromView?.value ?? null, field };
  }

  protected override willUpdate(): void {
    const s = this.step;
    const key = s ? `${s.type}|${s.value}|${s.field.fieldId}` : '';
    if (key !== this.shownKey) {
      this.shownKey = key;
      this.fields.clear();
    }
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const s = this.step;
    if (!s || this.busy) return;
    const values = this.fields.collect([s.field]);
    if (!values) return;
    this.fields.clear();
    const value = values[s.field.fieldId]!;
    await this.run((client) => client.secondLogin({ value }));
  }

  override render() {
    const s = this.step;
    if (!s) return nothing;
    const position = s.type === 2 ? (s.value ?? positionIn(s.field.label)) : null;
    const name = secondLoginName(s.type, position, s.field, this.resolvedLocale, (k, p) => this.t(k, p));
    const hint: [MessageKey, Record<string, string>?] =
      s.type === 1
        ? s.value
          ? ['second.smsTo', { phone: s.value }]
          : ['second.sms']
        : s.type === 2
          ? position
            ? ['second.coordinates', { position }]
            : ['second.coordinatesAsked']
          : ['second.token'];
    return html`<form class="stack" part="form" novalidate @submit=${this.submit}>
      <h2 part="title" tabindex="-1">${this.t('second.title')}</h2>
      ${this.renderError()}
      ${position ? html`<p class="position" part="position" aria-hidden="true">${position}</p>` : nothing}
      ${this.fields.render(s.field, {
        autocomplete: s.type === 1 ? 'one-time-code' : 'off',
        label: name.text,
        bankText: name.bank,
        hint: this.t(...hint),
        disabled: this.busy,
        showTestValue: this.inSandbox,
        rejectedBy: this.rejectedBy,
      })}
      <div class="actions">
        <button type="submit" class="primary" part="submit" ?disabled=${this.busy}>${this.t('second.submit')}</button>
        ${
          this.inSandbox && s.field.testValue
            ? html`<button type="button" part="fill-test" ?disabled=${this.busy} @click=${() => this.fields.set(s.field, s.field.testValue!)}>${this.t('login.fillTest')}</button>`
            : nothing
        }
      </div>
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-second-login': BankSecondLogin;
  }
}
