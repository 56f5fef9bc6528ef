import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { BankView, CheckoutView, LoginTypeView } from '@bank-checkout/contract';
import { BankElement } from '../shared/bank-element.js';
import { FieldsController } from '../shared/fields.js';
import { fieldName, loginTypeName } from '../shared/bank-fields.js';
import { elementStyles } from '../shared/styles.js';
import { loginFormStyles } from './bank-login-form.styles.js';
import '../i18n/steps.js';

/** The login type shown first: the bank's default when active, else the first active one. */
export function initialLogin(bank: BankView): LoginTypeView | undefined {
  const active = bank.logins.filter((l) => l.active);
  return active.find((l) => l.loginId === bank.defaultLogin) ?? active[0];
}

/** Measures the login types' names (one canvas for every form). */
let measuring: CanvasRenderingContext2D | null | undefined;

/**
 * The bank's login form, built from its login types and field descriptors: a choice of login
 * type when there are several (those in maintenance disabled), numeric fields that take digits
 * only, lengths, masking with a reveal toggle, identity-document checks, errors after
 * interaction or submit. The values are sent with `POST /v1/checkout/login` and cleared from
 * the form at once. In test mode it shows a banner and can fill the bank's test values.
 *
 * @summary Signs the payer in to their bank.
 * @fires bank-checkout-step - Used alone with `client`: the BFF answered with a new state.
 * @fires bank-checkout-error - Used alone with `client`: the call failed.
 * @csspart form - The form.
 * @csspart title - The heading.
 * @csspart sandbox-banner - The test-mode banner.
 * @csspart login-types - The choice of login type: a label and a list, or radio buttons where a list would cut a name.
 * @csspart field - A field (label, input, messages).
 * @csspart label - A field's label.
 * @csspart bank-text - The bank's own words for a field (Spanish), when the label is the kit's.
 * @csspart input - A field's input.
 * @csspart reveal - The show-password toggle.
 * @csspart field-error - A field's error message.
 * @csspart error - The error from the bank.
 * @csspart submit - The sign-in button.
 * @csspart fill-test - The "fill test values" button (test mode).
 * @csspart test-value - A field's test value, as text (test mode).
 * @csspart last-attempt - Says that one attempt is left, before the payer types.
 * @csspart attempts - Says, before a try, how many attempts the payer has to sign in and confirm the payment.
 */
@customElement('bank-login-form')
export class BankLoginForm extends BankElement {
  static override styles = [...elementStyles, loginFormStyles];
  protected override readonly stepState = 'login' as const;

  /** The bank to sign in to; by default the one of a `login` step. */
  @property({ attribute: false }) bank?: BankView | null;

  @state() private loginId: string | null = null;
  /** The login types' names do not fit a list at the form's width: radio buttons (see measure). */
  @state() private narrow = false;
  private resized?: ResizeObserver;
  private shownBankId: string | null = null;
  private readonly fields = new FieldsController(this, 'login');

  private get currentBank(): BankView | null {
    if (this.bank) return this.bank;
    const step = this.currentView?.step;
    return step?.state === 'login' ? step.bank : null;
  }

  private get login(): LoginTypeView | undefined {
    const bank = this.currentBank;
    return bank?.logins.find((l) => l.loginId === this.loginId && l.active);
  }

  protected override willUpdate(): void {
    // Kept aside (hidden) while the second login shows: the identity typed waits for a wrong code.
    if (this.hidden) return;
    const bank = this.currentBank;
    if ((bank?.bankId ?? null) !== this.shownBankId) {
      this.shownBankId = bank?.bankId ?? null;
      this.loginId = bank ? (initialLogin(bank)?.loginId ?? null) : null;
      this.fields.clear();
    }
  }

  protected override viewErrorApplies(view: CheckoutView): boolean {
    return view.step.state === 'login' && view.step.bank.bankId === this.currentBank?.bankId;
  }

  private chooseLogin(loginId: string): void {
    this.loginId = loginId;
    this.fields.clear();
  }

  private fillTestValues(): void {
    for (const f of this.login?.fields ?? []) if (f.testValue) this.fields.set(f, f.testValue);
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const bank = this.currentBank;
    const login = this.login;
    if (!bank || !login || this.busy) return;
    const values = this.fields.collect(login.fields);
    if (!values) return;
    // Passwords go at once; the identity stays, so that a wrong password means typing only it again.
    const identity = new Set(login.fields.filter((f) => !f.password).map((f) => f.fieldId));
    this.fields.clear((id) => identity.has(id));
    await this.run((client) => client.login({ bankId: bank.bankId, loginId: login.loginId, fields: values }));
  }

  /** The names of the bank's login types, as the choice shows them. */
  private loginTypes(bank: BankView) {
    return bank.logins.map((l) => {
      const name = loginTypeName(l, this.resolvedLocale, (k) => this.t(k));
      return { l, lang: name.lang ?? nothing, text: l.active ? name.text : `${name.text} ${this.t('login.unavailable')}` };
    });
  }

  /**
   * Whether the name of a login type the payer can choose is wider than a list the form's width
   * shows whole (its padding and arrow taken as 3em): the choice is radio buttons then. Measured
   * after each render (before it is drawn) and whenever the form's width changes.
   */
  private measure(): void {
    const bank = this.currentBank;
    const form = this.renderRoot.querySelector<HTMLElement>('form');
    const ctx = bank && bank.logins.length > 1 && form?.clientWidth ? (measuring ??= document.createElement('canvas').getContext('2d')) : null;
    if (!ctx) return;
    const style = getComputedStyle(form!);
    ctx.font = style.font;
    const widest = Math.max(...this.loginTypes(bank!).map((t) => (t.l.active ? ctx.measureText(t.text).width : 0)));
    this.narrow = widest + 3 * parseFloat(style.fontSize) > form!.clientWidth;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Measured again in the next frame: the choice it makes changes the form's height, which the
    // observer would otherwise see again in this one.
    let width = -1;
    (this.resized ??= new ResizeObserver(() => {
      if (this.clientWidth !== width) requestAnimationFrame(() => this.measure());
      width = this.clientWidth;
    })).observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resized?.disconnect();
  }

  protected override updated(): void {
    this.measure();
  }

  /**
   * The bank's login types (those in maintenance disabled): one line, a list, so that the fields
   * come soon after it on a phone; radio buttons, whose names wrap, where a list would cut one.
   */
  private renderLoginTypes(bank: BankView): TemplateResult {
    const types = this.loginTypes(bank);
    const choose = (e: Event) => this.chooseLogin((e.target as HTMLSelectElement | HTMLInputElement).value);
    if (this.narrow) {
      return html`<fieldset class="types" part="login-types">
        <legend>${this.t('login.type')}</legend>
        ${types.map(
          ({ l, lang, text }) =>
            html`<label
              ><input type="radio" name="login-type" value=${l.loginId} ?disabled=${!l.active || this.busy} .checked=${l.loginId === this.loginId} @change=${choose} /><span
                lang=${lang}
                >${text}</span
              ></label
            >`,
        )}
      </fieldset>`;
    }
    return html`<div class="field" part="login-types">
      <label for="login-type">${this.t('login.type')}</label>
      <select id="login-type" ?disabled=${this.busy} @change=${choose}>
        ${types.map(({ l, lang, text }) => html`<option value=${l.loginId} lang=${lang} ?disabled=${!l.active} .selected=${l.loginId === this.loginId}>${text}</option>`)}
      </select>
    </div>`;
  }

  override render() {
    const bank = this.currentBank;
    if (!bank) return nothing;
    const login = this.login;
    const sandbox = this.inSandbox;
    const attempts =
      this.errorCode?.code === 'B100' && this.currentView ? html`<p>${this.t('field.attemptsLeft', { count: this.currentView.attemptsLeft })}</p>` : nothing;
    // One attempt left (two wrong passwords, or a start again once they ran out): said before the payer types.
    const last = this.currentView?.attemptsLeft === 1 && this.errorCode?.code !== 'B100';
    // The attempts for signing in and confirming together, said before a try (not beside an error that says what is left).
    const left = this.currentView?.attemptsLeft ?? 0;
    const budget = left > 1 && !this.errorCode ? left : 0;
    return html`<form class="stack" part="form" novalidate @submit=${this.submit}>
      <h2 part="title" tabindex="-1">${this.t('login.title', { bank: bank.label })}</h2>
      ${sandbox && !this.checkout ? html`<p class="notice" part="sandbox-banner">${this.t('sandbox.banner')}</p>` : nothing} ${this.renderError(attempts)}
      ${last ? html`<p class="notice" part="last-attempt">${this.t('login.lastAttempt')}</p>` : nothing}
      ${bank.logins.length > 1 ? this.renderLoginTypes(bank) : nothing}
      ${
        login
          ? login.fields.map((f, i) => {
              const name = fieldName(f, this.resolvedLocale, (k) => this.t(k), i);
              return this.fields.render(f, {
                autocomplete: 'off',
                label: name.text,
                bankText: name.bank,
                disabled: this.busy,
                showTestValue: sandbox,
                rejectedBy: this.rejectedBy,
              });
            })
          : html`<p class="alert" role="alert">${this.t('login.noActiveType')}</p>`
      }
      <p class="hint" id="login-intro">${this.t('login.intro')}</p>
      ${budget ? html`<p class="hint" id="login-attempts" part="attempts">${this.t('login.attempts', { count: budget })}</p>` : nothing}
      <div class="actions">
        <button type="submit" class="primary" part="submit" aria-describedby=${budget ? 'login-intro login-attempts' : 'login-intro'} ?disabled=${!login || this.busy}>
          ${this.t('login.submit')}
        </button>
        ${
          sandbox && login?.fields.some((f) => f.testValue)
            ? html`<button type="button" part="fill-test" ?disabled=${this.busy} @click=${this.fillTestValues}>${this.t('login.fillTest')}</button>`
            : nothing
        }
      </div>
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-login-form': BankLoginForm;
  }
}
