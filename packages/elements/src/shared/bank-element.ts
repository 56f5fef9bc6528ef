/**
 * The base of every kit element: locale, messages, the checkout context, and running an action
 * either through `<bank-checkout>` (context) or, when used alone, through its own `client`.
 */
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ContextConsumer } from '@lit/context';
import { errorCategory, type CheckoutState, type CheckoutView } from '@bank-checkout/contract';
import { CheckoutApiError, type CheckoutClient } from '../client.js';
import { checkoutContext, type StepAction, type CheckoutContextValue } from '../context.js';
import { emit, stepDetail } from '../events.js';
import { browserLanguages, errorKey, isLocaleReady, loadLocale, resolveLocale, translate, type MessageKey, type MessageParams } from '../i18n/index.js';
import { elementStyles } from './styles.js';

/** What a step's form reads and calls on its element, the element's own side included. */
export interface StepFormHost<E extends HTMLElement> {
  readonly element: E;
  /** The checkout view (the element's `view`, else the checkout's). */
  view(): CheckoutView | null;
  locale(): string;
  /** A call is in flight. */
  busy(): boolean;
  /** Test mode (the element's `sandbox`, else the view's). */
  inSandbox(): boolean;
  /** Inside `<bank-checkout>`: what it provides. */
  checkout(): CheckoutContextValue | undefined;
  /** Runs an action as a step does (through `<bank-checkout>`, or alone with the element's `client`). */
  run(action: StepAction): Promise<CheckoutView | null>;
  /** The error that applies to the step now, if any. */
  errorCode(): { code: string; message?: string } | null;
  /** The id of the step's error when the bank refused what was typed (the fields point at it). */
  rejectedBy(): string | null;
  /** That error as an alert, with optional extra lines. */
  renderError(extra?: TemplateResult | typeof nothing): TemplateResult | typeof nothing;
}

/** The id of a step's error message (the fields the bank refused point at it). */
export const STEP_ERROR_ID = 'step-error';

/** Any failure as a `CheckoutApiError` (a thrown non-API error counts as generic). */
export function asApiError(err: unknown): CheckoutApiError {
  return err instanceof CheckoutApiError ? err : new CheckoutApiError(0, 'generic', 'Unexpected error.');
}

/**
 * Locale, messages and theme, shared by every kit element.
 *
 * @cssproperty --bank-color-background - Background.
 * @cssproperty --bank-color-surface - Background of highlighted areas.
 * @cssproperty --bank-color-text - Text colour.
 * @cssproperty --bank-color-muted - Secondary text colour.
 * @cssproperty --bank-color-border - Border colour of inputs and frames.
 * @cssproperty --bank-color-primary - Buttons, links, selection.
 * @cssproperty --bank-color-on-primary - Text on primary buttons.
 * @cssproperty --bank-color-error - Errors.
 * @cssproperty --bank-color-success - Success.
 * @cssproperty --bank-color-notice-background - Background of notices and the test-mode banner.
 * @cssproperty --bank-color-notice-text - Text of notices and the test-mode banner.
 * @cssproperty --bank-color-focus - Focus ring.
 * @cssproperty --bank-radius - Corner radius (8px).
 * @cssproperty --bank-spacing - Base spacing (12px).
 * @cssproperty --bank-font-family - Font family (system UI).
 * @cssproperty --bank-font-size - Base font size (1rem).
 */
export abstract class BankBase extends LitElement {
  static override styles = elementStyles;

  /** Language of the texts (`es`, `en`, `ca`, …). Default: the checkout's, then the browser's, then English. */
  @property() locale?: string;

  /** A locale inherited from an enclosing element, if any. */
  protected get inheritedLocale(): string | undefined {
    return undefined;
  }

  protected get resolvedLocale(): string {
    return resolveLocale(this.locale, this.inheritedLocale, browserLanguages());
  }

  t(key: MessageKey, params?: MessageParams): string {
    return translate(this.resolvedLocale, key, params);
  }

  /** Waits for the texts of a language loaded on demand, so no text shows in another language first. */
  protected override shouldUpdate(changed: PropertyValues): boolean {
    const locale = this.resolvedLocale;
    if (isLocaleReady(locale)) return super.shouldUpdate(changed);
    void loadLocale(locale).then(() => this.requestUpdate());
    return false;
  }

  /** Moves focus to the start of what the element shows: its error, else its heading, else its first control. */
  async focusStart(): Promise<void> {
    await this.updateComplete;
    const root = this.renderRoot as ShadowRoot;
    const target =
      root.querySelector<HTMLElement>('[role=alert][tabindex]') ??
      root.querySelector<HTMLElement>('h2[tabindex]') ??
      root.querySelector<HTMLElement>('input:checked, input:not([disabled]), button:not([disabled])');
    target?.focus();
  }
}

/** A step of the checkout: context, view, client, and the view's error. */
export abstract class BankElement extends BankBase {
  /** The checkout view to render when used without `<bank-checkout>`. */
  @property({ attribute: false }) view?: CheckoutView | null;

  /** The client to call when used without `<bank-checkout>`. */
  @property({ attribute: false }) client?: CheckoutClient;

  /** Test mode (the sandbox): shows a banner and test helpers. Default: the view's `sandbox`. */
  @property({ type: Boolean }) sandbox = false;

  /** What an enclosing `<bank-checkout>` provides (each change updates the element). */
  private readonly provided = new ContextConsumer(this, { context: checkoutContext, subscribe: true });

  /** Provided by an enclosing `<bank-checkout>`. */
  protected get checkout(): CheckoutContextValue | undefined {
    return this.provided.value;
  }

  /** The error of this element's own last call (when used alone). */
  @state() protected failure: CheckoutApiError | null = null;

  @state() private ownBusy = false;

  /** The state this element stands for, to decide whether the view's error is about it. */
  protected readonly stepState: CheckoutState | null = null;

  protected override get inheritedLocale(): string | undefined {
    return this.checkout?.locale;
  }

  protected get currentView(): CheckoutView | null {
    return this.view ?? this.checkout?.view ?? null;
  }

  protected get busy(): boolean {
    return this.ownBusy || (this.checkout?.busy ?? false);
  }

  protected get inSandbox(): boolean {
    return this.sandbox || (this.currentView?.sandbox ?? false);
  }

  /**
   * Runs an action: through `<bank-checkout>` when inside one; alone, with `client`, firing
   * `bank-checkout-step` or `bank-checkout-error` itself.
   */
  protected async run(action: StepAction): Promise<CheckoutView | null> {
    if (this.checkout) return this.checkout.run(action);
    if (!this.client || this.ownBusy) return null;
    this.ownBusy = true;
    this.failure = null;
    try {
      const next = await action(this.client);
      emit(this, 'bank-checkout-step', stepDetail(next, this.currentView?.state ?? this.stepState));
      return next;
    } catch (err) {
      const e = asApiError(err);
      this.failure = e;
      emit(this, 'bank-checkout-error', { checkoutId: this.currentView?.id ?? null, code: e.code, status: e.status, requestId: e.requestId });
      return null;
    } finally {
      this.ownBusy = false;
    }
  }

  /** Whether the view's error belongs to what this element shows now. */
  protected viewErrorApplies(view: CheckoutView): boolean {
    return view.state === this.stepState;
  }

  protected get errorCode(): { code: string; message?: string } | null {
    if (this.failure) return { code: this.failure.code };
    const v = this.currentView;
    return v?.error && this.viewErrorApplies(v) ? v.error : null;
  }

  /** What a form in a file of its own reads and calls on this element (shared/step-form.ts). */
  protected formHost(): StepFormHost<this> {
    return {
      element: this,
      view: () => this.currentView,
      locale: () => this.resolvedLocale,
      busy: () => this.busy,
      inSandbox: () => this.inSandbox,
      checkout: () => this.checkout,
      run: (action) => this.run(action),
      errorCode: () => this.errorCode,
      rejectedBy: () => this.rejectedBy,
      renderError: (extra) => this.renderError(extra),
    };
  }

  /**
   * The id of the step's error when the bank refused what the payer typed (wrong credentials or
   * code): the fields it is about point at it. Null otherwise.
   */
  protected get rejectedBy(): string | null {
    const e = this.errorCode;
    return e && errorCategory(e.code) === 'credentials' ? STEP_ERROR_ID : null;
  }

  /** The current error as an alert, with optional extra lines. */
  protected renderError(extra?: TemplateResult | typeof nothing): TemplateResult | typeof nothing {
    const e = this.errorCode;
    if (!e) return nothing;
    return html`<div class="alert" role="alert" part="error" id=${STEP_ERROR_ID} tabindex="-1">
      <p>${this.t(errorKey(e.code, e.message))}</p>
      ${extra ?? nothing}
    </div>`;
  }
}
