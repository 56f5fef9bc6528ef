import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { ContextProvider } from '@lit/context';
import type { BankGroupView, BankView, CheckoutMode, CheckoutView } from '@bank-checkout/contract';
import { createCheckoutClient, type CheckoutApiError, type CheckoutClient } from '../client.js';
import { checkoutContext, type CheckoutAction } from '../context.js';
import { emit, isOutcome, type BankSelectDetail } from '../events.js';
import { errorKey, type MessageKey } from '../i18n/index.js';
import { formatCents, formatIban } from '../logic/format.js';
import { findBank } from '../logic/banks.js';
import { isWebUrl, pollDelay } from '../logic/redirect.js';
import { BankBase, asApiError } from '../shared/bank-element.js';
import { elementStyles } from '../shared/styles.js';
import { renderChoices } from '../shared/choices.js';
import { canRetry } from '../bank-result/bank-result.js';
import { systemClock, type Clock } from '../bank-challenge/bank-challenge.js';
import '../bank-selector/bank-selector.js';
import '../bank-login-form/bank-login-form.js';
import '../bank-second-login/bank-second-login.js';
import '../bank-contract-picker/bank-contract-picker.js';
import '../bank-account-picker/bank-account-picker.js';
import '../bank-challenge/bank-challenge.js';
import '../bank-periodic-form/bank-periodic-form.js';
import '../bank-result/bank-result.js';
import { checkoutStyles } from './bank-checkout.styles.js';

/** States the payer may cancel from. */
const CANCELLABLE: readonly string[] = ['select-bank', 'login', 'second-login', 'select-contract', 'select-account', 'validate', 'periodic'];

/** States at the start of a checkout, where the BFF switches modes. */
const START_STATES: readonly string[] = ['select-bank', 'login', 'periodic'];
/** States where the mode chooser is shown (when the merchant allowed more than one mode). */
const CHOOSER_STATES: readonly string[] = ['select-bank', 'periodic'];

/** What changes the step shown: the state, and the round of validations. */
const stepKey = (v: CheckoutView) => (v.step.state === 'validate' ? `validate#${v.step.round}` : v.state);

/** The mode a view at its start stands for. */
const modeOf = (v: CheckoutView): CheckoutMode => (v.state === 'periodic' ? 'periodic' : v.mode === 'redirect' ? 'redirect' : 'native');

/**
 * Whether choosing `mode` needs `POST /v1/checkout/mode`. Redirect never does: the redirect
 * button's own call creates the signed URL (switching to it would create one at once).
 */
const needsSwitch = (mode: CheckoutMode, v: CheckoutView) => mode !== 'redirect' && START_STATES.includes(v.state) && modeOf(v) !== mode;

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
 * @csspart base - The checkout's frame.
 * @csspart sandbox-banner - The test-mode banner.
 * @csspart summary - Amount, payee and concept.
 * @csspart amount - The amount.
 * @csspart notice - A message about a failed call.
 * @csspart status - "Contacting your bank…" while a call is in flight.
 * @csspart modes - The choice of how to pay (when the merchant allowed several modes).
 * @csspart step - The current step.
 * @csspart back - The "choose another bank" button.
 * @csspart redirect-start - The button that takes the payer to the bank's page (redirect mode).
 * @csspart redirect-link - The link to the bank's page in the redirect state.
 * @csspart redirect-check - "Check again" while waiting for the bank's result.
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
  /**
   * The mode the merchant prefers: `native`, `redirect` or `periodic`. On load, when the
   * checkout allows it and is at its start, the checkout switches to it.
   */
  @property() mode?: CheckoutMode;
  /** A ready client instead of `api`, `checkout-secret` and `fetch`. */
  @property({ attribute: false }) client?: CheckoutClient;
  /** The clock of the validation countdown. */
  @property({ attribute: false }) clock: Clock = systemClock;
  /**
   * Milliseconds before the first check while the outcome is unknown or the payer is back from
   * the bank's page; each next wait is 1.5 times longer, up to a minute.
   */
  @property({ type: Number, attribute: 'poll-interval' }) pollInterval = 5000;
  /** How the page goes to the bank's page (`window.location.assign` by default). */
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
  /** The mode the payer (or the `mode` attribute) chose at the start; null: the view's. */
  @state() private wantedMode: CheckoutMode | null = null;
  /** This page sent the payer to the bank's page (rather than the payer coming back to it). */
  @state() private leaving = false;

  private activeClient: CheckoutClient | null = null;
  /** Bumped when the checkout changes, so late answers for the old one are dropped. */
  private generation = 0;
  private completed = false;
  private loadingGroups = false;
  /** A mode switch is running (it follows later choices itself). */
  private switching = false;
  private pollTimer: ReturnType<typeof setTimeout> | null = null;
  /** Checks made in the current waiting state (the wait grows with each). */
  private pollAttempt = 0;
  private pollKey = '';
  private readonly provider = new ContextProvider(this, { context: checkoutContext });

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('pageshow', this.onPageShow);
    if (this.view) this.schedulePoll(this.view);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('pageshow', this.onPageShow);
    this.stopPolling();
  }

  /** Back on this page from the bank's through the browser's history: wait for the result. */
  private readonly onPageShow = (e: PageTransitionEvent): void => {
    if (!e.persisted || !this.leaving) return;
    this.leaving = false;
    void this.refresh();
  };

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('checkoutSecret') || changed.has('api') || changed.has('fetch') || changed.has('client')) this.start();
    else if (changed.has('mode') && this.view) this.prefer(this.view);
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
    this.wantedMode = null;
    this.leaving = false;
    this.busy = false;
    this.completed = false;
    this.loadingGroups = false;
    this.switching = false;
    if (this.activeClient) void this.refresh();
  }

  /** Reads the checkout again (read-only, safe to repeat). */
  readonly refresh = (): Promise<void> => this.read(false);

  /**
   * Reads the checkout. A quiet read (a background check while waiting) shows no busy state
   * and is dropped if an action started meanwhile; a failed one only schedules the next check.
   */
  private async read(quiet: boolean): Promise<void> {
    const client = this.activeClient;
    if (!client || (quiet && this.busy)) return;
    const gen = this.generation;
    if (!quiet) this.busy = true;
    try {
      const view = await client.checkout();
      if (gen !== this.generation || (quiet && this.busy)) return;
      this.loadError = null;
      this.apply(view, false);
    } catch (err) {
      if (gen !== this.generation) return;
      const e = asApiError(err);
      this.report(e);
      if (!this.view || e.status === 401 || e.status === 404) {
        this.stopPolling();
        this.view = null;
        this.loadError = e;
      } else if (quiet) {
        this.schedulePoll(this.view);
      } else {
        this.notice = { key: errorKey(e.code), retry: canRetry('error', e.code) };
      }
    } finally {
      if (gen === this.generation && !quiet) this.busy = false;
    }
    if (gen === this.generation && !quiet) void this.syncMode();
  }

  /** Runs one action; after a failed call the view is read again, as the call may have changed it. */
  readonly run = (action: CheckoutAction): Promise<CheckoutView | null> => this.perform(action, true);

  private async perform(action: CheckoutAction, focus: boolean): Promise<CheckoutView | null> {
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
      if (focus) void this.focusStep();
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
      if (focus) void this.focusStep();
      return null;
    } finally {
      if (gen === this.generation) this.busy = false;
    }
  }

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
    if (!before) this.prefer(view);
    // Only an action of this page sends the payer away; a checkout found in `redirect` waits for the result.
    if (fromAction && view.step.state === 'redirect' && isWebUrl(view.step.url)) {
      this.leaving = true;
      this.navigate(view.step.url);
    }
    if (view.state === 'select-bank' && this.shownMode(view) === 'native' && !needsSwitch('native', view)) void this.loadGroups();
    this.schedulePoll(view);
  }

  /** Takes the `mode` attribute as the payer's choice when the checkout allows it and is at its start. */
  private prefer(view: CheckoutView): void {
    const mode = this.mode;
    if (mode && view.modes.includes(mode) && START_STATES.includes(view.state) && modeOf(view) !== mode) {
      this.wantedMode = mode;
      void this.syncMode();
    }
  }

  /** The mode shown at the start: the one chosen, else the view's. */
  private shownMode(v: CheckoutView): CheckoutMode {
    return this.wantedMode && v.modes.includes(this.wantedMode) ? this.wantedMode : modeOf(v);
  }

  /** The payer chose a mode: redirect is shown at once; native and periodic ask the BFF. */
  private chooseMode(mode: CheckoutMode): void {
    this.wantedMode = mode;
    this.notice = null;
    this.chosenBank = null;
    const v = this.view;
    if (v?.state === 'select-bank' && mode === 'native' && !needsSwitch(mode, v)) void this.loadGroups();
    void this.syncMode();
  }

  /**
   * Switches the BFF to the chosen mode, one call at a time, until it matches the latest
   * choice (the payer may move through the choices faster than the BFF answers). Focus stays
   * on the chooser.
   */
  private async syncMode(): Promise<void> {
    if (this.switching) return;
    const gen = this.generation;
    this.switching = true;
    try {
      let v = this.view;
      while (v && this.wantedMode && !this.busy && needsSwitch(this.wantedMode, v)) {
        const mode = this.wantedMode;
        const next = await this.perform((c) => c.mode({ mode }), false);
        if (gen !== this.generation) return;
        if (!next) {
          // The notice tells why; the chooser shows the mode the checkout is in.
          this.wantedMode = null;
          return;
        }
        v = next;
      }
    } finally {
      if (gen === this.generation) this.switching = false;
    }
  }

  /**
   * While the outcome is unknown, or the payer is back from the bank's page before its result
   * arrived, reads the checkout again: first after `pollInterval`, then 1.5 times later each
   * time, up to a minute. Stops on any other state and when the element leaves the page.
   */
  private schedulePoll(view: CheckoutView | null): void {
    this.stopPolling();
    const waiting = view && (view.state === 'unknown' || (view.state === 'redirect' && !this.leaving));
    if (!waiting || !this.isConnected) return;
    const key = stepKey(view);
    if (key !== this.pollKey) {
      this.pollKey = key;
      this.pollAttempt = 0;
    }
    this.pollTimer = setTimeout(() => void this.read(true), pollDelay(this.pollAttempt++, this.pollInterval));
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
    const v = this.view;
    if ((v?.state === 'select-bank' && this.shownMode(v) === 'native') || this.picking) await this.loadGroups();
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

  /** The choice of how to pay, while the checkout is at its start and allows several modes. */
  private renderModes(v: CheckoutView): TemplateResult | typeof nothing {
    if (v.modes.length < 2 || !CHOOSER_STATES.includes(v.state)) return nothing;
    return html`<div class="modes" part="modes">
      ${renderChoices({
        name: 'mode',
        legend: this.t('mode.title'),
        choices: v.modes.map((m) => ({ id: m, title: this.t(`mode.${m}`), detail: this.t(`mode.${m}Detail`) })),
        selected: this.shownMode(v),
        disabled: false,
        onSelect: (m) => this.chooseMode(m as CheckoutMode),
      })}
    </div>`;
  }

  /** Redirect mode at the start: one button creates the signed URL and takes the payer there. */
  private renderRedirectStart(): TemplateResult {
    return html`<p>${this.t('redirect.intro')}</p>
      <button type="button" class="primary" part="redirect-start" ?disabled=${this.busy} @click=${() => this.run((c) => c.redirect())}>
        ${this.t('redirect.start')}
      </button>`;
  }

  /** The `redirect` state: on the way to the bank, or back from it and waiting for its result. */
  private renderRedirect(url: string): TemplateResult {
    const link = (key: MessageKey) => (isWebUrl(url) ? html`<a part="redirect-link" href=${url} rel="noopener">${this.t(key)}</a>` : nothing);
    if (this.leaving) return html`<h2 tabindex="-1">${this.t('redirect.title')}</h2><p>${link('redirect.link')}</p>`;
    return html`<h2 tabindex="-1">${this.t('redirect.waitingTitle')}</h2>
      <p>${this.t('redirect.waitingBody')}</p>
      <div class="actions">
        ${link('redirect.back')}
        <button type="button" part="redirect-check" ?disabled=${this.busy} @click=${() => this.refresh()}>${this.t('action.refresh')}</button>
      </div>`;
  }

  private renderStep(v: CheckoutView): TemplateResult | typeof nothing {
    const step = v.step;
    if (START_STATES.includes(step.state) && this.shownMode(v) === 'redirect') return this.renderRedirectStart();
    switch (step.state) {
      case 'select-bank':
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
        return this.renderRedirect(step.url);
      case 'periodic':
        return html`<bank-periodic-form .clock=${this.clock}></bank-periodic-form>`;
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
          ${this.renderModes(v)}
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
