import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { keyed } from 'lit/directives/keyed.js';
import { ContextProvider } from '@lit/context';
import type { BankView, CheckoutMode, CheckoutStart, CheckoutView } from '@bank-checkout/contract';
import { createCheckoutClient, type CheckoutClient } from '../client.js';
import { checkoutContext, type StepAction } from '../context.js';
import type { BankCheckoutElement, BankSelectDetail } from '../events.js';
import { findBank } from '../logic/banks.js';
import { allows, showsBankList, showsRedirectStart, shownMode, stepKey, waitKey } from '../logic/checkout.js';
import { BankBase } from '../shared/bank-element.js';
import { elementStyles } from '../shared/styles.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { formatCents } from '../logic/format.js';
import '../bank-selector/bank-selector.js';
import '../bank-result/bank-result.js';
import { CheckoutController } from './checkout-controller.js';
import { PollController } from './poll-controller.js';
import { ModeController } from './mode-controller.js';
import {
  LATER_STATES,
  LATER_STEPS,
  extrasReady,
  laterModule,
  loadExtras,
  loadFrameHost,
  loadLaterSteps,
  loadPeriodicForm,
  stepFilesSettled,
} from './loaders.js';
import { renderChoices } from '../shared/choices.js';
import { cancelTemplate, noticeTemplate, redirectStartTemplate, redirectTemplate, summaryTemplate, type Translate } from './templates.js';
import { checkoutStyles } from './bank-checkout.styles.js';

/** How long the isolated mode's frame has to show its first screen, by default (frame/host.ts; here too, as that file loads on demand). */
const FRAME_TIMEOUT_MS = 10_000;

/** How long the element watches an unknown outcome before telling the payer the shop will settle it. */
export const UNKNOWN_WATCH_MS = 15 * 60_000;

/**
 * The whole checkout, driven by the state the BFF returns: a summary (amount and payee always
 * visible), then the current step. It loads the checkout with the client secret, provides the
 * view and the typed client to the step elements (@lit/context), runs their actions one at a
 * time, resynchronises after any failed call, and fires the kit's events.
 *
 * @summary Embeddable pay-by-bank checkout.
 * @fires bank-checkout-step - The checkout moved to another step; detail `{checkoutId, state, previous, funnel, bankId?}` (`funnel`: the payer's funnel step it counts as: `started`, `bank`, `signed-in`, `confirmed`, `paid`, or null).
 * @fires bank-checkout-complete - Once, when the payment ended; detail `{checkoutId, outcome, code}`.
 * @fires bank-checkout-error - A call failed or the BFF answered with an error; detail `{checkoutId, code, status, requestId}`. `frame_hidden`: the isolated frame refused the payer's confirmation while it was not fully visible, or not still long enough before the press. Isolated, also when the frame cannot be shown: `code` is `frame_unreachable` (the frame's page loaded but never said it was there: the BFF down or `api` wrong), `frame_refused` (the BFF refuses this page's origin), `frame_timeout` (the frame did not load within `frame-timeout`) or `secret_refused` (given `checkout-secret`: an isolated checkout opens with a launch token only, and runs nothing), and `checkoutId` null.
 * @csspart base - The checkout's frame.
 * @csspart sandbox-banner - The test-mode banner.
 * @csspart summary - Amount and payee, with the details (account, concept, reference) on demand.
 * @csspart summary-details - The disclosure of the payment's details.
 * @csspart amount - The amount.
 * @csspart notice - A message about a failed call.
 * @csspart status - "Loading…" before the checkout shows; then "Contacting your bank…" while a call is in flight, for screen readers only (the step dims meanwhile, so nothing moves); shown to everyone, "Confirming with your bank…" while the payment's confirmation is with the bank (the step's inputs stay disabled until it is done).
 * @csspart modes - The choice of how to pay (when the merchant allowed several modes); once chosen, one line.
 * @csspart modes-change - "Change" on the one line of the chosen way to pay.
 * @csspart step - The current step.
 * @csspart back - The button that goes one step back: another bank at the login, the previous choice after it (before the transfer), and its confirmation when going back ends the bank session.
 * @csspart redirect-start - The button that takes the payer to the bank's page (redirect mode).
 * @csspart redirect-link - The link to the bank's page in the redirect state.
 * @csspart redirect-check - "Check again" while waiting for the bank's result.
 * @csspart bank - The bank the payer is logged in to (after login).
 * @csspart unknown-later - What happens next, once an unknown outcome is no longer watched.
 * @csspart cancel - The cancel button and its confirmation.
 * @csspart frame - Isolated mode: the iframe the checkout runs in.
 * @csspart placeholder - Isolated mode: what shows, and is announced, while the frame loads.
 * @csspart failure - Isolated mode: why the frame could not be shown, with Try again (an alert).
 * @csspart retry - Isolated mode: the failure's Try again button.
 * @slot fallback - Isolated mode: the shop's own way forward, shown under the failure only (such as another way to pay).
 * @cssproperty --bank-checkout-placeholder-height - Isolated mode: the placeholder's height while the frame loads (at least the screen's height and 32rem: what follows stays below the fold until the frame says its height).
 * @cssproperty --bank-max-width - Widest the checkout grows (32rem).
 * @cssproperty --bank-padding - Padding inside the frame (16px; 12px on a screen up to 400px wide).
 */
@customElement('bank-checkout')
export class BankCheckout extends BankBase {
  static override styles = [...elementStyles, checkoutStyles];

  /**
   * The checkout's client secret, sent only in the `X-Checkout-Secret` header (inline checkouts:
   * the weaker mode). An isolated element refuses it (`secret_refused`) and runs nothing.
   */
  @property({ attribute: 'checkout-secret' }) checkoutSecret = '';
  /**
   * The single-use launch token of an isolated checkout (the recommended mode), from the
   * merchant's server. With it the checkout always runs isolated: only its frame can redeem it.
   */
  @property({ attribute: 'launch-token' }) launchToken = '';
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
  /**
   * The first screen, when the page already has it (the isolated frame gets it with its launch):
   * the view and, when it opens on the bank list, the list. Read once, when the checkout starts:
   * no call is made for them.
   */
  @property({ attribute: false }) initial?: CheckoutStart;

  /** The clock of the validation countdown and of the background checks. */
  @property({ attribute: false }) clock: Clock = systemClock;
  /**
   * Milliseconds before the first check while the outcome is unknown or the payer is back from
   * the bank's page; each next wait is 1.5 times longer, up to a minute.
   */
  @property({ type: Number, attribute: 'poll-interval' }) pollInterval = 5000;
  /** How the page goes to the bank's page (`window.location.assign` by default). */
  @property({ attribute: false }) navigate: (url: string) => void = (url) => window.location.assign(url);

  /**
   * Runs the checkout in a frame served by the BFF's own origin (recommended): the bank password
   * and codes are typed in a page the merchant page's scripts cannot reach. Events, `locale`,
   * `mode` and the `--bank-*` properties pass through; parts inside do not. Read when the
   * element starts (set it in the markup).
   */
  @property({ type: Boolean, reflect: true }) isolate = false;

  /**
   * Isolated mode: milliseconds the frame has to load and say it is there (10 s); a frame that
   * said it waits for its launch as long as it takes. Past it, or as soon as the frame's page
   * loaded without saying it or the BFF said it refuses this page's origin, the element fires
   * `bank-checkout-error` (`frame_timeout`, `frame_unreachable`, `frame_refused`) and shows the
   * payer why, with Try again and the `fallback` slot.
   */
  @property({ type: Number, attribute: 'frame-timeout' }) frameTimeout = FRAME_TIMEOUT_MS;

  /** Isolated: asked for, or implied by a launch token (which only the frame can use). */
  private get isolating(): boolean {
    return this.isolate || Boolean(this.launchToken);
  }

  /** The isolated mode's frame, once its host is loaded. */
  private isolated: import('../frame/host.js').IsolatedCheckout | null = null;

  /** A bank the payer chose in the list (shown with its login form until the BFF answers). */
  @state() private chosenBank: BankView | null = null;
  /** The bank the payer chose last (named by the offer of its own page when the in-page flow stops there). */
  private triedBank: BankView | null = null;
  /** In the `login` state: the payer went back to the list. */
  @state() private picking = false;
  @state() private confirmingCancel = false;
  /** The payer asked before a back that ends the bank session. */
  @state() private confirmingBack = false;
  /** The choice of how to pay shows as one line with "Change" (once the payer moved on from it). */
  @state() private modesCollapsed = false;

  /** The client, api, secret and fetch the checkout was started with. */
  private source: unknown[] = [];
  private readonly checkout = new CheckoutController(this, {
    applied: (view, before, fromAction) => this.applied(view, before, fromAction),
    settled: () => void this.modes.sync(),
    idle: () => this.schedulePoll(this.checkout.view),
    focus: () => void this.focusStep(),
    navigate: (url) => this.navigate(url),
  });
  /** The mode the payer chose at the start, and the switch of the BFF to it. */
  private readonly modes = new ModeController(this, this.checkout);
  private readonly poll = new PollController(
    this,
    () => this.pollInterval,
    () => void this.checkout.check(),
    () => this.clock,
  );
  private readonly provider = new ContextProvider(this, { context: checkoutContext });

  /** Reads the checkout again (read-only, safe to repeat). */
  readonly refresh = (): Promise<void> => this.checkout.refresh();
  /**
   * Reads the checkout again in the background, as when another window may have moved it on (no
   * busy state; skipped while an action runs); a step changed meanwhile is said and shown.
   */
  readonly check = (): Promise<void> => this.checkout.check();
  /** Runs one action; after a failed call the view is read again, as the call may have changed it. */
  readonly run = (action: StepAction): Promise<CheckoutView | null> => this.checkout.run(action);

  private readonly setOnPhone = (on: boolean): void => {
    this.checkout.stay = on;
    this.requestUpdate();
  };

  private readonly tr: Translate = (key, params) => this.t(key, params);

  /**
   * Starts reading the checkout as soon as it has its client, before the first render: also
   * while the texts of a language loaded on demand are on their way (no update runs until they
   * are in), so that the two come in parallel.
   */
  protected override shouldUpdate(changed: PropertyValues<this>): boolean {
    const source = [this.client, this.api, this.checkoutSecret, this.fetch];
    if (!this.isolating && source.some((v, i) => v !== this.source[i])) {
      this.source = source;
      this.start();
    }
    return super.shouldUpdate(changed);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (this.isolating) return void this.runIsolated();
    if (changed.has('mode') && this.checkout.view) this.modes.prefer(this.mode, this.checkout.view);
    const c = this.checkout;
    if (c.view?.modes.includes('periodic') && !customElements.get('bank-periodic-form')) void loadPeriodicForm().then(() => this.requestUpdate());
    if (c.view?.modes.includes('native') && !LATER_STEPS.every((tag) => customElements.get(tag))) {
      // The bank list first: the later steps' file is fetched once it is on screen (a frame,
      // then a task; its download and evaluation would delay it), unless the step shown needs
      // it or the page is hidden (no frame comes then).
      const load = () =>
        void loadLaterSteps().then(
          () => this.requestUpdate(),
          () => {},
        );
      if (this.chosenBank || LATER_STATES.has(c.view.state) || document.visibilityState === 'hidden') load();
      else requestAnimationFrame(() => setTimeout(load));
    }
    if (c.view && !extrasReady()) {
      // Like the later steps: after the first screen, at once when the page is hidden (no frame comes then).
      const load = () =>
        void loadExtras().then(
          () => this.requestUpdate(),
          () => {},
        );
      if (document.visibilityState === 'hidden') load();
      else requestAnimationFrame(() => setTimeout(load));
    }
    this.provider.setValue({
      view: c.view,
      groups: c.groups,
      client: c.client,
      locale: this.resolvedLocale,
      busy: c.busy,
      run: c.run,
      refresh: c.refresh,
      check: c.check,
      onPhone: c.stay,
      setOnPhone: this.setOnPhone,
    });
  }

  /** In isolated mode: the frame shows the checkout; this element only hosts it. */
  private async runIsolated(): Promise<void> {
    const { IsolatedCheckout } = await loadFrameHost();
    if (!this.isConnected) return;
    this.isolated ??= new IsolatedCheckout(
      this,
      this.renderRoot as ShadowRoot,
      () => this,
      (url) => this.navigate(url),
      // The catalogues' words (a failure's come with the host's failure chunk).
      () => [this.t('frame.title'), this.t('frame.loading')],
    );
    this.isolated.connect();
    this.isolated.update();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.isolated?.teardown();
  }

  override focus(options?: FocusOptions): void {
    if (this.isolated) this.isolated.focus();
    else super.focus(options);
  }

  /** Sends the `--bank-*` properties to the frame again (isolated mode; class and style changes are seen without it). */
  refreshTheme(): void {
    this.isolated?.update();
  }

  /** (Re)starts with the current client: forgets the old checkout and loads the new one. */
  private start(): void {
    this.poll.schedule(null);
    this.chosenBank = null;
    this.triedBank = null;
    this.picking = false;
    this.confirmingCancel = false;
    this.modes.reset();
    this.confirmingBack = false;
    this.modesCollapsed = false;
    const fetch = this.fetch;
    const client =
      this.client ??
      (this.api && this.checkoutSecret ? createCheckoutClient({ api: this.api, secret: this.checkoutSecret, ...(fetch ? { fetch } : {}) }) : null);
    const first = this.initial;
    this.initial = undefined;
    this.checkout.start(client, first);
    // In a language whose amounts need Intl (English and Spanish do without), the page's first
    // number format reads Intl's data (tens of ms): now, while the first call is on its way.
    if (client) formatCents(0, 'EUR', this.resolvedLocale);
  }

  /** A view arrived: resets what the payer was doing on the old step, and follows the new one. */
  private applied(view: CheckoutView, before: CheckoutView | null, fromAction: boolean): void {
    if (fromAction || (before && stepKey(before) !== stepKey(view))) {
      this.chosenBank = null;
      this.picking = false;
      this.confirmingCancel = false;
      this.confirmingBack = false;
    }
    // Found at a bank's sign-in (a reload, a back from the accounts): the way to pay was chosen.
    if (view.state === 'login' && (!before || before.state !== 'login')) this.modesCollapsed = true;
    // The shop asked for a way to pay (its own page offered the choice): it shows on one line.
    if (!before && this.mode && view.modes.includes(this.mode)) this.modesCollapsed = true;
    if (!before) this.modes.prefer(this.mode, view);
    if (showsBankList(view, this.modes.wanted)) void this.checkout.loadGroups();
    this.schedulePoll(view);
  }

  /**
   * Checks again while a result is awaited. An unknown outcome is watched for UNKNOWN_WATCH_MS
   * (the bank's session has long ended by then; only the shop can settle it), then the payer is
   * told what happens next instead of watching for ever.
   */
  private schedulePoll(view: CheckoutView | null): void {
    this.poll.schedule(waitKey(view, this.checkout.leaving), view?.state === 'unknown' ? UNKNOWN_WATCH_MS : undefined);
  }

  /** The payer chose a mode: redirect is shown at once; native and periodic ask the BFF. */
  private chooseMode(mode: CheckoutMode): void {
    this.modes.want(mode);
    this.checkout.clearNotice();
    this.chosenBank = null;
    const v = this.checkout.view;
    if (v && showsBankList(v, mode)) void this.checkout.loadGroups();
    void this.modes.sync();
  }

  private async retryNotice(): Promise<void> {
    const c = this.checkout;
    c.clearNotice();
    await c.refresh();
    const v = c.view;
    if ((v?.state === 'select-bank' && shownMode(v, this.modes.wanted) === 'native') || this.picking) await c.loadGroups();
  }

  /**
   * Moves focus to the current step (its first field or its heading); first to the offer of the
   * bank's own page when one shows (above the step: reading on from focus meets it, then the step).
   */
  async focusStep(): Promise<void> {
    await this.updateComplete;
    const offer = this.renderRoot.querySelector<BankBase & { offering?: boolean }>('bank-rail-offer');
    if (offer?.offering) {
      await offer.focusStart();
      return;
    }
    let step = this.renderRoot.querySelector('.step')?.lastElementChild as (BankBase | HTMLElement) | null;
    if (step?.matches('p[role=status]')) {
      // The step's file is still coming: focus it once it is in.
      await stepFilesSettled();
      await this.updateComplete;
      step = this.renderRoot.querySelector('.step')?.lastElementChild as (BankBase | HTMLElement) | null;
    }
    if (step && 'focusStart' in step) await step.focusStart();
    else this.renderRoot.querySelector<HTMLElement>('.step h2[tabindex]')?.focus();
  }

  /**
   * The bank chosen in the list and not yet signed in to (its id), or null: what the payer chose
   * there, shown with its sign-in form (the isolated frame keeps it for a reload of this checkout).
   */
  get chosenBankId(): string | null {
    return this.chosenBank?.bankId ?? null;
  }

  /** Chooses a bank of the list as the payer does (its sign-in form shows, focus on it); a bank not in the list is ignored. */
  chooseBank(bankId: string): void {
    const bank = findBank(this.checkout.groups ?? [], bankId);
    if (!bank) return;
    this.chosenBank = this.triedBank = bank;
    this.modesCollapsed = true;
    this.checkout.clearNotice();
    void this.focusStep();
    // A bank in maintenance is told to the BFF for the merchant's funnel (no sign-in will say it
    // was chosen); nothing waits for it. An active bank is told by its sign-in: no request more.
    if (!bank.active) void this.checkout.client?.chooseBank?.({ bankId }).catch(() => {});
  }

  private backToBanks(): void {
    this.chosenBank = null;
    this.picking = true;
    this.checkout.clearNotice();
    void this.checkout.loadGroups();
    void this.focusStep();
  }

  private async cancel(): Promise<void> {
    this.confirmingCancel = false;
    await this.checkout.run((client) => client.cancel());
  }

  /** Opens the choice of how to pay again, focus on the chosen one. */
  private async changeMode(): Promise<void> {
    this.modesCollapsed = false;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('[part=modes] input:checked')?.focus();
  }

  /** The payer left the choice of how to pay after choosing: it folds to one line. */
  private readonly leaveModes = (e: FocusEvent): void => {
    const modes = e.currentTarget as HTMLElement;
    if (this.modes.wanted && !modes.contains(e.relatedTarget as Node | null)) this.modesCollapsed = true;
  };

  /**
   * Asks before cancelling, or before a back that ends the bank session (focus on the safe
   * answer), or goes back to the button asked from.
   */
  private async confirm(which: 'cancel' | 'back', asking: boolean): Promise<void> {
    if (which === 'cancel') this.confirmingCancel = asking;
    else this.confirmingBack = asking;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>(`[part=${which}] ${asking ? '.primary' : 'button'}`)?.focus();
  }

  /**
   * The login and every step of the bank session after it (second login, contracts, accounts):
   * one template, so that the login form stays (hidden) while they show. Back at the same bank's
   * sign-in (a wrong second-login code, or the payer going back), the form still holds the
   * identity typed (the password and codes were cleared at submit).
   */
  private renderLogin(bank: BankView | null, after: TemplateResult | null = null): TemplateResult {
    return html`${after ? nothing : html`<button type="button" class="link" part="back" ?disabled=${this.checkout.busy} @click=${this.backToBanks}>${this.t('action.back')}</button>`}
      ${this.loaded('bank-login-form', html`<bank-login-form .bank=${bank} ?hidden=${!!after}></bank-login-form>`)}
      ${after ?? nothing}`;
  }

  private renderSelector(): TemplateResult {
    const bank = this.chosenBank;
    // A bank in maintenance: what it offers instead (with the later steps, fetched once the list shows).
    if (bank && !bank.active)
      return this.loaded('bank-maintenance', html`<bank-maintenance .bank=${bank} @bank-choose-other=${this.backToBanks}></bank-maintenance>`);
    return bank
      ? this.renderLogin(bank)
      : html`<bank-selector @bank-select=${(e: CustomEvent<BankSelectDetail>) => this.chooseBank(e.detail.bankId)}></bank-selector>`;
  }

  /**
   * The choice of how to pay, while the checkout is at its start and allows several modes; once
   * the payer moved on from it, one line with "Change".
   */
  private renderModes(v: CheckoutView): TemplateResult | typeof nothing {
    if (!allows(v, 'mode')) return nothing;
    if (this.modesCollapsed) {
      return html`<div class="modes chosen" part="modes">
        <span>${this.t(`mode.${shownMode(v, this.modes.wanted)}`)}</span>
        <button type="button" class="link" part="modes-change" aria-label=${this.t('mode.changeLabel')} ?disabled=${this.checkout.busy} @click=${() => void this.changeMode()}>
          ${this.t('mode.change')}
        </button>
      </div>`;
    }
    return html`<div class="modes" part="modes" @focusout=${this.leaveModes}>
      ${renderChoices({
        name: 'mode',
        legend: this.t('mode.title'),
        choices: v.modes.map((m) => ({ id: m, title: this.t(`mode.${m}`), detail: this.t(`mode.${m}Detail`) })),
        selected: shownMode(v, this.modes.wanted),
        disabled: false,
        onSelect: (m) => this.chooseMode(m as CheckoutMode),
      })}
    </div>`;
  }

  private renderStep(v: CheckoutView): TemplateResult | typeof nothing {
    const step = v.step;
    if (showsRedirectStart(v, this.modes.wanted)) return redirectStartTemplate(this.tr, this.checkout.busy, () => void this.checkout.run((c) => c.redirect()));
    switch (step.state) {
      case 'select-bank':
        return this.renderSelector();
      case 'login':
        return this.picking ? this.renderSelector() : this.renderLogin(null);
      case 'second-login':
        return this.renderLogin(null, this.loaded('bank-second-login', html`<bank-second-login></bank-second-login>`));
      case 'select-contract':
        return this.renderLogin(null, this.loaded('bank-contract-picker', html`<bank-contract-picker></bank-contract-picker>`));
      case 'select-account':
        return this.renderLogin(null, this.loaded('bank-account-picker', html`<bank-account-picker></bank-account-picker>`));
      case 'validate':
        return this.loaded('bank-challenge', html`<bank-challenge .clock=${this.clock}></bank-challenge>`);
      case 'redirect':
        // Finishing on the phone, chosen at the start: the hand-off under the step says this page waits for it.
        return this.checkout.stay ? nothing : redirectTemplate(step.url, this.checkout.leaving, this.tr, this.checkout.busy, this.refresh);
      case 'periodic':
        // Until the form's file is in (it started loading with the view), say so.
        return this.loaded('bank-periodic-form', html`<bank-periodic-form .clock=${this.clock}></bank-periodic-form>`);
      default:
        return html`<bank-result></bank-result>${
          step.state === 'unknown' && this.poll.gaveUp
            ? this.extra(html`<p class="notice" role="status" part="unknown-later">${this.t('result.unknownLater')}</p>`)
            : nothing
        }`;
    }
  }

  /** A step loaded on demand, once its file is in; until then, says so. */
  private loaded(tag: string, step: TemplateResult): TemplateResult {
    return customElements.get(tag) ? step : html`<p role="status">${this.t('status.loading')}</p>`;
  }

  /** What extras.ts adds, once it is in (nothing until then: none of it is needed at once). */
  private extra(t: TemplateResult): TemplateResult | typeof nothing {
    return extrasReady() ? t : nothing;
  }

  /**
   * Under the step (extras.ts): finishing on the phone, at the start of the bank's-page and
   * periodic methods and while waiting at the bank's page; the receipt of a payment.
   */
  private renderAfterStep(v: CheckoutView): TemplateResult | typeof nothing {
    if (showsRedirectStart(v, this.modes.wanted) || v.state === 'periodic') return this.extra(html`<bank-handoff></bank-handoff>`);
    if (v.state === 'redirect' && !this.checkout.leaving) return this.extra(html`<bank-handoff ?open=${this.checkout.stay}></bank-handoff>`);
    return v.state === 'succeeded' ? this.extra(html`<bank-receipt></bank-receipt>`) : nothing;
  }

  private renderCancel(): TemplateResult {
    return cancelTemplate(
      this.tr,
      this.checkout.busy,
      this.confirmingCancel,
      () => void this.cancel(),
      (asking) => void this.confirm('cancel', asking),
    );
  }

  override render() {
    if (this.isolating) return nothing;
    const { view: v, notice, loadError, busy, confirming } = this.checkout;
    // A new step is drawn anew, the step itself (but for the bank session's, which keep the
    // sign-in form among them) and what follows it: nothing the payer sees moves to make room
    // for it (the line above the step keeps its height from the sign-in on).
    const body = v
      ? html`${notice && !confirming ? noticeTemplate(notice, this.tr, busy, () => void this.retryNotice()) : nothing}
          ${this.extra(html`<bank-rail-offer .bank=${this.triedBank}></bank-rail-offer>`)}
          ${this.renderModes(v)}
          ${'bank' in v.step && v.step.bank.label && v.state !== 'login' && laterModule() ? html`<p class="bank-name" part="bank">${this.t('session.bank', { bank: v.step.bank.label })}</p>` : nothing}
          ${keyed(LATER_STATES.has(v.state) || v.state === 'select-bank' ? '' : v.state, html`<div class="step" part="step">${this.renderStep(v)}</div>`)}
          ${keyed(
            stepKey(v) + (this.chosenBank?.bankId ?? (this.picking ? ' picking' : '')),
            html`${this.renderAfterStep(v)}
            ${
              allows(v, 'back') && v.state !== 'login'
                ? laterModule()?.backTemplate(
                    v,
                    this.tr,
                    this.checkout.busy,
                    this.confirmingBack,
                    (asking) => void this.confirm('back', asking),
                    () => {
                      this.confirmingBack = false;
                      void this.checkout.run((c) => c.back());
                    },
                  )
                : nothing
            }
            ${allows(v, 'cancel') ? this.renderCancel() : nothing}`,
          )}`
      : loadError
        ? html`<div class="step" part="step"><bank-result status="error" .code=${loadError.code}></bank-result></div>`
        : nothing;
    // One status line (a polite live region, kept in the page): "Loading…" before the checkout
    // shows; then, for screen readers only, "Contacting your bank…" while a call is on its way;
    // shown to everyone, "Confirming with your bank…" while the payment is being confirmed.
    const status = confirming ? this.t('status.confirming') : busy ? this.t(v ? 'status.busy' : 'status.loading') : '';
    return html`<div class="checkout" part="base" lang=${this.resolvedLocale} aria-busy=${busy ? 'true' : 'false'}>
      ${v?.sandbox ? html`<p class="notice" part="sandbox-banner">${this.t('sandbox.banner')}</p>` : nothing} ${v ? summaryTemplate(v, this.tr, this.resolvedLocale) : nothing}
      <p class=${!v ? 'status' : confirming ? 'status notice' : 'status sr-only'} role="status" part="status">${status}</p>
      ${body}
    </div>`;
  }
}

declare module '../events.js' {
  interface BankCheckoutElement extends BankCheckout {}
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-checkout': BankCheckoutElement;
  }
}
