import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { ContextProvider } from '@lit/context';
import type { BankGroupView, BankView, CheckoutView } from '@bank-checkout/bff/contract';
import { createCheckoutClient, type CheckoutApiError, type CheckoutClient } from '../client.js';
import { checkoutContext, type CheckoutAction } from '../context.js';
import { emit, isOutcome, type BankSelectDetail } from '../events.js';
import { errorKey, type MessageKey } from '../i18n/index.js';
import { formatCents, formatIban } from '../logic/format.js';
import { findBank } from '../logic/banks.js';
import { BankBase, asApiError } from '../shared/bank-element.js';
import { elementStyles } from '../shared/styles.js';
import { canRetry } from '../bank-result/bank-result.js';
import { systemClock, type Clock } from '../bank-challenge/bank-challenge.js';
import '../bank-selector/bank-selector.js';
import '../bank-login-form/bank-login-form.js';
import '../bank-second-login/bank-second-login.js';
import '../bank-contract-picker/bank-contract-picker.js';
import '../bank-account-picker/bank-account-picker.js';
import '../bank-challenge/bank-challenge.js';
import '../bank-result/bank-result.js';
import { checkoutStyles } from './bank-checkout.styles.js';

/** States the payer may cancel from. */
const CANCELLABLE: readonly string[] = ['select-bank', 'login', 'second-login', 'select-contract', 'select-account', 'validate', 'periodic'];

const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

/** What changes the step shown: the state, and the round of validations. */
const stepKey = (v: CheckoutView) => (v.step.state === 'validate' ? `validate#${v.step.round}` : v.state);

/**
 * The whole checkout, driven by the state the BFF returns: a summary (amount and payee always
 * visible), then the current step. It loads the checkout with the client secret, provides the
 * view and the typed client to the step elements (@lit/context), runs their actions one at a
 * time, resynchronises after any failed call, and fires the kit's events.
 *
 * @summary Embeddable pay-by-bank checkout.
 * @fires bank-checkout-step - The checkout moved to another step; detail `{checkoutId, state, previous}`.
 * @fires bank-checkout-complete - Once, when the payment ended; detail `{checkoutId, outcome, code}`.
 * @fires bank-checkout-error - A call failed or the BFF answered with an error; detail `{checkoutId, code, status, requestId}`.
 * @slot periodic - A periodic-payment form shown in the `periodic` state.
 * @csspart base - The checkout's frame.
 * @csspart sandbox-banner - The test-mode banner.
 * @csspart summary - Amount, payee and concept.
 * @csspart amount - The amount.
 * @csspart notice - A message about a failed call.
 * @csspart status - "Contacting your bank…" while a call is in flight.
 * @csspart step - The current step.
 * @csspart back - The "choose another bank" button.
 * @csspart redirect-start - The button that starts a checkout in redirect mode.
 * @csspart redirect-link - The link to the bank in the redirect state.
 * @csspart cancel - The cancel button and its confirmation.
 * @cssproperty --bank-max-width - Widest the checkout grows (32rem).
 * @cssproperty --bank-padding - Padding inside the frame (16px).
 */
@customElement('bank-checkout')
export class BankCheckout extends BankBase {
  static override styles = [...elementStyles, checkoutStyles];

  /** The checkout's client secret, sent only in the `X-Checkout-Secret` header. */
  @property({ attribute: 'checkout-secret' }) checkoutSecret = '';
  /** Base address of the BFF, such as `https://shop.example/bff`. */
  @property() api = '';
  /** A fetch to use instead of the global one. */
  @property({ attribute: false }) fetch?: typeof fetch;
  /** A ready client instead of `api`, `checkout-secret` and `fetch`. */
  @property({ attribute: false }) client?: CheckoutClient;
  /** The clock of the validation countdown. */
  @property({ attribute: false }) clock: Clock = systemClock;
  /** Milliseconds between checks while the outcome is unknown. */
  @property({ type: Number, attribute: 'poll-interval' }) pollInterval = 5000;
  /** How the page goes to the bank in the redirect state. */
  @property({ attribute: false }) navigate: (url: string) => void = (url) => window.location.assign(url);

  @state() private view: CheckoutView | null = null;
  @state() private groups: BankGroupView[] | null = null;
  @state() private busy = false;
  @state() private loadError: CheckoutApiError | null = null;
  @state() private notice: { key: MessageKey; retry: boolean } | null = null;
  /** A bank the payer chose in the list (shown with its login form until the BFF answers). */
  @state() private chosenBank: BankView | null = null;
  /** In the `login` state: the payer went back to the list. */
  @state() private picking = false;
  @state() private confirmingCancel = false;

  private activeClient: CheckoutClient | null = null;
  /** Bumped when the checkout changes, so late answers for the old one are dropped. */
  private generation = 0;
  private completed = false;
  private loadingGroups = false;
  private pollTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly provider = new ContextProvider(this, { context: checkoutContext });

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopPolling();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('checkoutSecret') || changed.has('api') || changed.has('fetch') || changed.has('client')) this.start();
    this.provider.setValue({
      view: this.view,
      groups: this.groups,
      client: this.activeClient,
      locale: this.resolvedLocale,
      busy: this.busy,
      run: this.run,
      refresh: this.refresh,
    });
  }

  /** (Re)starts with the current client: forgets the old checkout and loads the new one. */
  private start(): void {
    this.generation++;
    this.stopPolling();
    this.activeClient =
      this.client ??
      (this.api && this.checkoutSecret ? createCheckoutClient({ api: this.api, secret: this.checkoutSecret, ...(this.fetch ? { fetch: this.fetch } : {}) }) : null);
    this.view = null;
    this.groups = null;
    this.loadError = null;
    this.notice = null;
    this.chosenBank = null;
    this.picking = false;
    this.confirmingCancel = false;
    this.busy = false;
    this.completed = false;
    this.loadingGroups = false;
    if (this.activeClient) void this.refresh();
  }

  /** Reads the checkout again (read-only, safe to repeat). */
  readonly refresh = async (): Promise<void> => {
    const client = this.activeClient;
    if (!client) return;
    const gen = this.generation;
    this.busy = true;
    try {
      const view = await client.checkout();
      if (gen !== this.generation) return;
      this.loadError = null;
      this.apply(view, false);
    } catch (err) {
      if (gen !== this.generation) return;
      const e = asApiError(err);
      this.report(e);
      if (!this.view || e.status === 401 || e.status === 404) {
        this.view = null;
        this.loadError = e;
      } else {
        this.notice = { key: errorKey(e.code), retry: canRetry('error', e.code) };
      }
    } finally {
      if (gen === this.generation) this.busy = false;
    }
  };

  /** Runs one action; after a failed call the view is read again, as the call may have changed it. */
  readonly run = async (action: CheckoutAction): Promise<CheckoutView | null> => {
    const client = this.activeClient;
    if (!client || this.busy) return null;
    const gen = this.generation;
    this.busy = true;
    this.notice = null;
    try {
      const view = await action(client);
      if (gen !== this.generation) return null;
      this.busy = false;
      this.apply(view, true);
      void this.focusStep();
      return view;
    } catch (err) {
      if (gen !== this.generation) return null;
      const e = asApiError(err);
      this.report(e);
      this.busy = false;
      if (e.status === 401 || e.status === 404) {
        this.view = null;
        this.loadError = e;
        return null;
      }
      if (e.code !== 'rate_limited' && e.code !== 'validation_failed') await this.refresh();
      // The view tells the story itself when it carries the same error or reached an outcome.
      const v = this.view as CheckoutView | null;
      const told = v && (v.error?.code === e.code || isOutcome(v.state) || v.state === 'unknown');
      this.notice = told ? null : { key: errorKey(e.code), retry: canRetry('error', e.code) };
      void this.focusStep();
      return null;
    } finally {
      if (gen === this.generation) this.busy = false;
    }
  };

  private report(e: CheckoutApiError): void {
    emit(this, 'bank-checkout-error', { checkoutId: this.view?.id ?? null, code: e.code, status: e.status, requestId: e.requestId });
  }

  /** Shows a view the BFF answered with, and fires what it means. */
  private apply(view: CheckoutView, fromAction: boolean): void {
    const before = this.view;
    this.view = view;
    if (fromAction || (before && stepKey(before) !== stepKey(view))) {
      this.chosenBank = null;
      this.picking = false;
      this.confirmingCancel = false;
    }
    if (!before || stepKey(before) !== stepKey(view)) {
      emit(this, 'bank-checkout-step', { checkoutId: view.id, state: view.state, previous: before?.state ?? null });
    }
    if (view.error && (fromAction || !before)) {
      emit(this, 'bank-checkout-error', { checkoutId: view.id, code: view.error.code, status: null, requestId: null });
    }
    if (isOutcome(view.state) && !this.completed) {
      this.completed = true;
      emit(this, 'bank-checkout-complete', { checkoutId: view.id, outcome: view.state, code: view.error?.code ?? null });
    }
    if (view.step.state === 'redirect' && isWebUrl(view.step.url)) this.navigate(view.step.url);
    if (view.state === 'select-bank' && view.mode !== 'redirect') void this.loadGroups();
    this.stopPolling();
    if (view.state === 'unknown') this.pollTimer = setTimeout(() => void this.refresh(), this.pollInterval);
  }

  private stopPolling(): void {
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }

  private async loadGroups(): Promise<void> {
    const client = this.activeClient;
    if (!client || this.groups || this.loadingGroups) return;
    const gen = this.generation;
    this.loadingGroups = true;
    try {
      const { groups } = await client.banks();
      if (gen === this.generation) this.groups = groups;
    } catch (err) {
      if (gen !== this.generation) return;
      const e = asApiError(err);
      this.report(e);
      this.notice = { key: errorKey(e.code), retry: true };
    } finally {
      if (gen === this.generation) this.loadingGroups = false;
    }
  }

  private async retryNotice(): Promise<void> {
    this.notice = null;
    await this.refresh();
    if (this.view?.state === 'select-bank' || this.picking) await this.loadGroups();
  }

  private async focusStep(): Promise<void> {
    await this.updateComplete;
    const step = this.renderRoot.querySelector('.step')?.lastElementChild as BankBase | null;
    if (step && 'focusStart' in step) await step.focusStart();
  }

  private chooseBank(bankId: string): void {
    const bank = findBank(this.groups ?? [], bankId);
    if (!bank) return;
    this.chosenBank = bank;
    this.notice = null;
    void this.focusStep();
  }

  private backToBanks(): void {
    this.chosenBank = null;
    this.picking = true;
    this.notice = null;
    void this.loadGroups();
    void this.focusStep();
  }

  private async cancel(): Promise<void> {
    this.confirmingCancel = false;
    await this.run((client) => client.cancel());
  }

  private renderSummary(v: CheckoutView): TemplateResult {
    const locale = this.resolvedLocale;
    return html`<section class="summary" part="summary" aria-label=${this.t('summary.label')}>
      <dl>
        <dt>${this.t('summary.amount')}</dt>
        <dd class="amount" part="amount">${formatCents(v.amount, v.currency, locale)}</dd>
        <dt>${this.t('summary.payee')}</dt>
        <dd>${v.payee.name}</dd>
        ${v.payee.iban ? html`<dt>${this.t('summary.iban')}</dt><dd>${formatIban(v.payee.iban)}</dd>` : nothing}
        ${v.subject ? html`<dt>${this.t('summary.subject')}</dt><dd>${v.subject}</dd>` : nothing}
        ${v.reference ? html`<dt>${this.t('summary.reference')}</dt><dd>${v.reference}</dd>` : nothing}
      </dl>
    </section>`;
  }

  private renderLogin(bank: BankView | null): TemplateResult {
    return html`<button type="button" class="link" part="back" ?disabled=${this.busy} @click=${this.backToBanks}>${this.t('action.back')}</button>
      <bank-login-form .bank=${bank}></bank-login-form>`;
  }

  private renderSelector(): TemplateResult {
    return this.chosenBank ? this.renderLogin(this.chosenBank) : html`<bank-selector @bank-select=${(e: CustomEvent<BankSelectDetail>) => this.chooseBank(e.detail.bankId)}></bank-selector>`;
  }

  private renderStep(v: CheckoutView): TemplateResult | typeof nothing {
    const step = v.step;
    switch (step.state) {
      case 'select-bank':
        // A checkout created for the payment-link service's gateway: one action takes the payer there.
        if (v.mode === 'redirect') {
          return html`<button type="button" class="primary" part="redirect-start" ?disabled=${this.busy} @click=${() => this.run((c) => c.redirect())}>
            ${this.t('redirect.start')}
          </button>`;
        }
        return this.renderSelector();
      case 'login':
        return this.picking ? this.renderSelector() : this.renderLogin(null);
      case 'second-login':
        return html`<bank-second-login></bank-second-login>`;
      case 'select-contract':
        return html`<bank-contract-picker></bank-contract-picker>`;
      case 'select-account':
        return html`<bank-account-picker></bank-account-picker>`;
      case 'validate':
        return html`<bank-challenge .clock=${this.clock}></bank-challenge>`;
      case 'redirect':
        return html`<h2 tabindex="-1">${this.t('redirect.title')}</h2>
          ${isWebUrl(step.url) ? html`<p><a part="redirect-link" href=${step.url} rel="noopener">${this.t('redirect.link')}</a></p>` : nothing}`;
      case 'periodic':
        return html`<slot name="periodic"><h2 tabindex="-1">${this.t('periodic.title')}</h2><p>${this.t('periodic.body')}</p></slot>`;
      default:
        return html`<bank-result></bank-result>`;
    }
  }

  private renderCancel(): TemplateResult {
    return html`<div class="cancel actions" part="cancel">
      ${this.confirmingCancel
        ? html`<p id="cancel-question">${this.t('action.cancelConfirm')}</p>
            <button type="button" ?disabled=${this.busy} @click=${this.cancel}>${this.t('action.cancelYes')}</button>
            <button type="button" class="primary" @click=${() => (this.confirmingCancel = false)}>${this.t('action.cancelNo')}</button>`
        : html`<button type="button" class="link" ?disabled=${this.busy} @click=${() => (this.confirmingCancel = true)}>${this.t('action.cancel')}</button>`}
    </div>`;
  }

  override render() {
    const v = this.view;
    const body = v
      ? html`${this.renderSummary(v)}
          ${this.notice
            ? html`<div class="notice actions" role="alert" part="notice">
                <span>${this.t(this.notice.key)}</span>
                ${this.notice.retry ? html`<button type="button" ?disabled=${this.busy} @click=${this.retryNotice}>${this.t('action.retry')}</button>` : nothing}
              </div>`
            : nothing}
          <div class="step" part="step">${this.renderStep(v)}</div>
          ${CANCELLABLE.includes(v.state) ? this.renderCancel() : nothing}`
      : this.loadError
        ? html`<div class="step" part="step"><bank-result status="error" .code=${this.loadError.code}></bank-result></div>`
        : nothing;
    return html`<div class="checkout" part="base" lang=${this.resolvedLocale} aria-busy=${this.busy ? 'true' : 'false'}>
      ${v?.sandbox ? html`<p class="notice" part="sandbox-banner">${this.t('sandbox.banner')}</p>` : nothing} ${body}
      <p class="status" role="status" part="status">${this.busy ? this.t(v ? 'status.busy' : 'status.loading') : ''}</p>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-checkout': BankCheckout;
  }
}
