/**
 * Inputs built from field descriptors (FieldBank), shared by the login form, the second login
 * and the challenge. Values live only in this controller and the inputs' `value` property
 * (never in an attribute); errors show once a field was left or the form submitted; `clear()`
 * empties everything after a submit.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { FieldView } from '@bank-checkout/contract';
import type { MessageKey, MessageParams } from '../i18n/index.js';
import { parseFieldInput } from '../logic/parsers.js';
import { validateField, type FieldError } from '../logic/validators.js';
import { PROVIDER_LANG } from './bank-fields.js';

export type FieldDescriptor = Pick<FieldView, 'fieldId' | 'label' | 'min' | 'max' | 'valueType' | 'specificType' | 'password'> &
  Partial<Pick<FieldView, 'testValue'>>;

export interface FieldRenderOptions {
  /** The `autocomplete` token: `off` for credentials, `one-time-code` for codes by SMS. */
  autocomplete: string;
  /** Visible label; the descriptor's by default. */
  label?: string;
  /**
   * The bank's own words for the field (Spanish) when the label is the kit's: shown under the
   * label as a description, marked as Spanish.
   */
  bankText?: string | undefined;
  /** A line under the label explaining what to enter. */
  hint?: string;
  disabled?: boolean;
  /** In test mode: the field's test value is shown as text (the form's fill button types it). */
  showTestValue?: boolean;
  /** Ids of more texts about the field (such as the card cell asked for). */
  describedBy?: string;
  /**
   * The id of the step's error when the bank refused what was typed here: the field is then
   * marked invalid and tied to that message.
   */
  rejectedBy?: string | null;
}

interface Host extends ReactiveControllerHost, HTMLElement {
  t(key: MessageKey, params?: MessageParams): string;
}

export class FieldsController implements ReactiveController {
  private values = new Map<string, string>();
  private touched = new Set<string>();
  private revealed = new Set<string>();
  private submitted = false;

  constructor(
    private readonly host: Host,
    private readonly idPrefix: string,
  ) {
    host.addController(this);
  }

  hostConnected(): void {}

  /** Clears values, reveal toggles and error display when the host leaves the page. */
  hostDisconnected(): void {
    this.clear();
  }

  private id(field: FieldDescriptor): string {
    return `${this.idPrefix}-${field.fieldId.replace(/[^\w-]/g, '_')}`;
  }

  value(fieldId: string): string {
    return this.values.get(fieldId) ?? '';
  }

  /** Sets a value as if typed (parsed by the field's rules). */
  set(field: FieldDescriptor, raw: string): void {
    this.values.set(field.fieldId, parseFieldInput(field, raw));
    this.host.requestUpdate();
  }

  /** A field counts as touched once the payer typed in it and left it. */
  private leave(field: FieldDescriptor): void {
    if (!this.values.has(field.fieldId) || this.touched.has(field.fieldId)) return;
    this.touched.add(field.fieldId);
    this.host.requestUpdate();
  }

  errorOf(field: FieldDescriptor): FieldError | null {
    if (!this.submitted && !this.touched.has(field.fieldId)) return null;
    return validateField(field, this.value(field.fieldId));
  }

  /**
   * On submit: the values of `fields` when all are valid; otherwise null, with every error shown
   * and focus on the first field in error.
   */
  collect(fields: readonly FieldDescriptor[]): Record<string, string> | null {
    this.submitted = true;
    this.host.requestUpdate();
    const invalid = fields.find((f) => validateField(f, this.value(f.fieldId)) !== null);
    if (invalid) {
      void this.host.updateComplete.then(() => (this.host.shadowRoot?.getElementById(this.id(invalid)) as HTMLInputElement | null)?.focus());
      return null;
    }
    return Object.fromEntries(fields.map((f) => [f.fieldId, this.value(f.fieldId)]));
  }

  /**
   * Forgets every value (or every one but those `keep` names), reveal and error state: after a
   * submit, or when the step changes.
   */
  clear(keep?: (fieldId: string) => boolean): void {
    if (keep) {
      for (const id of [...this.values.keys()]) if (!keep(id)) this.values.delete(id);
    } else {
      this.values.clear();
    }
    this.touched.clear();
    this.revealed.clear();
    this.submitted = false;
    this.host.requestUpdate();
  }

  render(field: FieldDescriptor, opts: FieldRenderOptions): TemplateResult {
    const id = this.id(field);
    const error = this.errorOf(field);
    const revealed = this.revealed.has(field.fieldId);
    const label = opts.label ?? field.label;
    const testValue = opts.showTestValue ? field.testValue : undefined;
    const rejected = !error && !!opts.rejectedBy;
    const describedBy = [
      opts.hint ? `${id}-hint` : '',
      opts.bankText ? `${id}-bank` : '',
      opts.describedBy ?? '',
      testValue ? `${id}-test` : '',
      error ? `${id}-error` : '',
      rejected ? opts.rejectedBy : '',
    ]
      .filter(Boolean)
      .join(' ');
    const numeric = field.valueType === 'numeric';
    return html`<div class="field" part="field">
      <label for=${id} part="label">${label}</label>
      ${opts.hint ? html`<p id="${id}-hint" class="hint" part="hint">${opts.hint}</p>` : nothing}
      ${
        opts.bankText
          ? html`<p id="${id}-bank" class="hint" part="bank-text">${this.host.t('field.bankWords')} <q lang=${PROVIDER_LANG}>${opts.bankText}</q></p>`
          : nothing
      }
      ${testValue ? html`<p id="${id}-test" class="hint" part="test-value">${this.host.t('field.testValue', { value: testValue })}</p>` : nothing}
      <div class="control">
        <input
          id=${id}
          part="input"
          type=${field.password && !revealed ? 'password' : 'text'}
          inputmode=${numeric ? 'numeric' : 'text'}
          autocomplete=${opts.autocomplete}
          autocapitalize="off"
          spellcheck="false"
          minlength=${field.min ?? nothing}
          maxlength=${field.max ?? nothing}
          required
          aria-invalid=${error || rejected ? 'true' : 'false'}
          aria-describedby=${describedBy || nothing}
          ?disabled=${opts.disabled ?? false}
          .value=${live(this.value(field.fieldId))}
          @input=${(e: InputEvent) => this.set(field, (e.target as HTMLInputElement).value)}
          @blur=${() => this.leave(field)}
        />
        ${
          field.password
            ? html`<button
              type="button"
              class="reveal"
              part="reveal"
              aria-pressed=${revealed ? 'true' : 'false'}
              aria-controls=${id}
              ?disabled=${opts.disabled ?? false}
              @click=${() => {
                if (revealed) this.revealed.delete(field.fieldId);
                else this.revealed.add(field.fieldId);
                this.host.requestUpdate();
              }}
            >
              ${this.host.t('field.reveal')}<span class="sr-only"> ${midSentence(label)}</span>
            </button>`
            : nothing
        }
      </div>
      ${error ? html`<p id="${id}-error" class="error" part="field-error">${this.host.t(error.key, error.params)}</p>` : nothing}
    </div>`;
  }
}

/** A label as it reads after a verb (`Show password`): a capital that only starts a word is lowered; `PIN` and `B3` stay. */
export const midSentence = (label: string): string => label.replace(/^\p{Lu}(?=\p{Ll})/u, (c) => c.toLowerCase());
