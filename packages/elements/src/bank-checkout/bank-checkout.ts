import { html, nothing, type PropertyValues } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { ContextProvider } from '@lit/context';
import type { CheckoutMode, CheckoutStart, CheckoutView } from '@bank-checkout/contract';
import { createCheckoutClient, type CheckoutClient } from '../client.js';
import { checkoutContext, type StepAction } from '../context.js';
import type { BankCheckoutElement } from '../events.js';
import { showsBankList, waitKey } from '../logic/checkout.js';
import { BankBase } from '../shared/bank-element.js';
import { elementStyles } from '../shared/styles.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { formatCents } from '../logic/format.js';
import '../bank-selector/bank-selector.js';
import '../bank-result/bank-result.js';
import { CheckoutController, oneMoment } from './checkout-controller.js';
import { PollController } from './poll-controller.js';
import { ModeController } from './mode-controller.js';
import { PayerController } from './payer-controller.js';
import { LATER_STATES, laterModule, loadFor, loadFrameHost } from './loaders.js';
import { bodyTemplate } from './step.js';
import { statusTemplate, summaryTemplate, type Translate } from './templates.js';
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
 * @csspart status - "Loading…" before the checkout shows; then "Contacting your bank…" while a call is in flight, for screen readers only (the step dims meanwhile, so nothing moves); shown to everyone, "Confirming with your bank…" while the payment's confirmation is with the bank (the step's inputs stay disabled until it is done), and, once the BFF says until when a call with the bank lasts at the latest, that time ("Your bank has not answered yet. This page goes on by 10:42:15 at the latest.").
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
  /** Where the payer is on the step beyond what the view says, and focus. */
  private readonly payer: PayerController = new PayerController(this, this.checkout, this.modes);
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
    const c = this.checkout;
    const v = c.view;
    if (changed.has('mode') && v) this.modes.prefer(this.mode, v);
    if (v) loadFor(v.modes, !!this.payer.chosenBank || LATER_STATES.has(v.state) || !!c.until, () => this.requestUpdate());
    this.provider.setValue(c.context(this.resolvedLocale));
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
    this.payer.reset();
    this.modes.reset();
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
    this.payer.applied(view, before, fromAction, this.mode);
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
    this.poll.schedule(waitKey(view, this.checkout.status === 'leaving'), view?.state === 'unknown' ? UNKNOWN_WATCH_MS : undefined);
  }

  /**
   * Moves focus to the current step (its first field or its heading); first to the offer of the
   * bank's own page when one shows (above the step: reading on from focus meets it, then the step).
   */
  focusStep(): Promise<void> {
    return this.payer.focusStep();
  }

  /**
   * The bank chosen in the list and not yet signed in to (its id), or null: what the payer chose
   * there, shown with its sign-in form (the isolated frame keeps it for a reload of this checkout).
   */
  get chosenBankId(): string | null {
    return this.payer.chosenBank?.bankId ?? null;
  }

  /** Chooses a bank of the list as the payer does (its sign-in form shows, focus on it); a bank not in the list is ignored. */
  chooseBank(bankId: string): void {
    this.payer.chooseBank(bankId);
  }

  override render() {
    if (this.isolating) return nothing;
    const { view: v, status, notice, loadError, until } = this.checkout;
    const waitLine = (until && laterModule()?.waitLine(until, this.tr, this.resolvedLocale)) || '';
    // "One moment" while the line is busy, unless the status line says until when.
    const told = status === 'confirming' || waitLine ? null : (notice ?? (status === 'waiting' ? oneMoment : null));
    const body = v
      ? bodyTemplate(this.payer.parts(v, this.tr, this.clock, this.refresh), this.payer, told, this.poll.gaveUp)
      : loadError
        ? html`<div class="step" part="step"><bank-result status="error" .code=${loadError.code}></bank-result></div>`
        : nothing;
    return html`<div class="checkout" part="base" lang=${this.resolvedLocale} aria-busy=${this.checkout.busy ? 'true' : 'false'}>
      ${v?.sandbox ? html`<p class="notice" part="sandbox-banner">${this.t('sandbox.banner')}</p>` : nothing} ${v ? summaryTemplate(v, this.tr, this.resolvedLocale) : nothing}
      ${statusTemplate(status, !!v, this.tr, waitLine)} ${body}
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
