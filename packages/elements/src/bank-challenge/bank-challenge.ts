import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { CheckoutView, ValidationView } from '@bank-checkout/contract';
import { INDIRECT_SIGNED_VALUE } from '@bank-checkout/contract';
import { emit } from '../events.js';
import type { MessageKey, MessageParams } from '../i18n/index.js';
import { announcementDue, deadlineMs, secondsLeft } from '../logic/countdown.js';
import { formatClock } from '../logic/format.js';
import { BankElement } from '../shared/bank-element.js';
import { FieldsController } from '../shared/fields.js';
import { elementStyles } from '../shared/styles.js';
import { challengeStyles } from './bank-challenge.styles.js';

import { systemClock, type Clock } from '../shared/clock.js';

export { systemClock, type Clock };

/** Card images are shown only as inline raster or SVG data, never fetched from an address. */
export function isCardImage(value: string | null): value is string {
  return value !== null && /^data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]/i.test(value);
}

/** Seconds left under which the countdown turns to the warning colour. */
const LOW_SECONDS = 20;
/** After the deadline, the checkout is read again every this many ticks until it moved on. */
const EXPIRED_REFRESH_TICKS = 5;

/**
 * The transfer's validations, one widget per type: 0 signature code, 1 SMS code, 2 coordinates
 * (the position is shown), 3 coordinates whose position came by SMS, 4 token, 5 coordinates card
 * shown on screen (the bank's image, with a text alternative), 6 signing in the bank's app on
 * another device (instructions, a waiting state and a "done" action that sends `SIGNED`).
 * Several validations of a round are answered together; a further round replaces them. A
 * countdown to the bank's deadline is shown and announced to screen readers at 60, 30 and 10
 * seconds; when time is up the form closes and the checkout is read again.
 *
 * @summary Asks for the payment's confirmation codes before the bank's deadline.
 * @fires bank-challenge-expire - The deadline passed; detail `{deadline}`.
 * @fires bank-checkout-step - Used alone with `client`: the BFF answered with a new state.
 * @fires bank-checkout-error - Used alone with `client`: the call failed.
 * @csspart form - The form.
 * @csspart title - The heading.
 * @csspart countdown - The time left.
 * @csspart validation - One validation's widget.
 * @csspart position - A coordinates position asked for.
 * @csspart card - The coordinates card image (type 5).
 * @csspart device - The other-device instructions and waiting state (type 6).
 * @csspart field - A field (label, input, messages).
 * @csspart label - A field's label.
 * @csspart hint - What to enter.
 * @csspart input - A field's input.
 * @csspart reveal - The show toggle of a masked field.
 * @csspart field-error - A field's error message.
 * @csspart error - An error message.
 * @csspart fill-test - The "fill test values" button (test mode).
 * @csspart test-not-yet - Test mode: confirm before approving in the app (type 6).
 * @csspart device-label - The bank's label of an approval in its app (type 6).
 * @csspart device-instructions - The bank's instructions for it (type 6).
 * @csspart submit - The confirm (or "done") button.
 */
/** What the simulated app answers before the payer approved (test mode only). */
const INDIRECT_PENDING_TEST_VALUE = 'PENDING';

@customElement('bank-challenge')
export class BankChallenge extends BankElement {
  static override styles = [...elementStyles, challengeStyles];
  protected override readonly stepState = 'validate' as const;

  /** The round's validations; by default the step's. */
  @property({ attribute: false }) validations?: ValidationView[] | null;
  /** The round number (1, 2, …); by default the step's. */
  @property({ type: Number }) round?: number;
  /** ISO instant the bank cancels the transfer at; by default the step's. */
  @property() deadline?: string;
  /** The clock of the countdown. */
  @property({ attribute: false }) clock: Clock = systemClock;

  @state() private remaining = 0;
  @state() private expired = false;
  @state() private announcement = '';
  @state() private notYet = false;
  private lastSpoken: number | null = null;
  private deadlineSeen: string | null | undefined = undefined;
  private ticksExpired = 0;
  private shownKey = '';
  private shownRound = 0;
  private stopTimer: (() => void) | null = null;
  private readonly fields = new FieldsController(this, 'validation');

  private get step() {
    const s = this.currentView?.step;
    const v = s?.state === 'validate' ? s : null;
    const validations = this.validations ?? v?.validations ?? [];
    return { validations, round: this.round ?? v?.round ?? 1, deadline: this.deadline ?? v?.deadline ?? null };
  }

  private static keyOf(round: number, validations: readonly ValidationView[]): string {
    return `${round}|${validations.map((v) => `${v.type}:${v.fieldId}`).join(',')}`;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.startTimer();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopTimer?.();
    this.stopTimer = null;
  }

  private startTimer(): void {
    this.stopTimer?.();
    this.stopTimer = this.clock.every(1000, () => this.tick());
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const { validations, round, deadline } = this.step;
    if (changed.has('clock') && this.isConnected) this.startTimer();
    if (deadline !== this.deadlineSeen) {
      this.deadlineSeen = deadline;
      this.lastSpoken = null;
      this.expired = false;
    }
    const key = BankChallenge.keyOf(round, validations);
    let further = false;
    if (key !== this.shownKey) {
      further = this.shownKey !== '' && round > this.shownRound;
      this.shownKey = key;
      this.shownRound = round;
      this.fields.clear();
      this.notYet = false;
    }
    this.tick();
    if (further && !this.expired) {
      this.announcement = `${this.t('challenge.nextRound')} ${this.t('challenge.announce', { seconds: this.remaining })}`;
    }
  }

  /**
   * Updates the time left and announces the marks. Once the deadline passed: closes the form,
   * tells the page, and reads the checkout again (every few seconds until it moved on).
   */
  private tick(): void {
    const deadline = this.step.deadline;
    if (!deadline) return;
    if (this.expired) {
      if (++this.ticksExpired % EXPIRED_REFRESH_TICKS === 0) void this.checkout?.refresh();
      return;
    }
    const left = secondsLeft(deadlineMs(deadline), this.clock.now());
    this.remaining = left;
    const due = announcementDue(this.lastSpoken, left);
    if (due !== null) {
      this.lastSpoken = due;
      this.announcement = this.t('challenge.announce', { seconds: due });
    }
    if (left === 0) {
      this.expired = true;
      this.ticksExpired = 0;
      this.announcement = this.t('challenge.expired');
      this.fields.clear();
      emit(this, 'bank-challenge-expire', { deadline });
      void this.checkout?.refresh();
    }
  }

  /**
   * The bank answered with the same approval in its app still open: not approved yet. (A fresh
   * challenge after a wrong code comes with its error, and is not this.)
   */
  private static stillWaiting(next: CheckoutView | null, sent: string): boolean {
    return next?.step.state === 'validate' && !next.error && next.step.validations.some((v) => v.type === 6) && BankChallenge.keyOf(next.step.round, next.step.validations) === sent;
  }

  /** Test mode: confirm before approving in the (simulated) app, to see the bank's "not yet". */
  private async notApprovedYet(): Promise<void> {
    const { validations, round } = this.step;
    if (this.busy || this.expired) return;
    const values = Object.fromEntries(validations.map((v) => [v.fieldId, INDIRECT_PENDING_TEST_VALUE]));
    const sent = BankChallenge.keyOf(round, validations);
    const next: CheckoutView | null = await this.run((client) => client.validate({ values }));
    if (BankChallenge.stillWaiting(next, sent)) this.notYet = true;
  }

  /** Test mode: the bank's test value in each field that asks for one. */
  private fillTestValues(): void {
    for (const v of this.step.validations) if (v.type !== 6 && v.testValue) this.fields.set(v, v.testValue);
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const { validations, round } = this.step;
    if (this.busy || this.expired || !validations.length) return;
    const typed = validations.filter((v) => v.type !== 6);
    const values = this.fields.collect(typed);
    if (!values) return;
    for (const v of validations) if (v.type === 6) values[v.fieldId] = INDIRECT_SIGNED_VALUE;
    this.fields.clear();
    this.notYet = false;
    const sent = BankChallenge.keyOf(round, validations);
    const next: CheckoutView | null = await this.run((client) => client.validate({ values }));
    if (BankChallenge.stillWaiting(next, sent)) this.notYet = true;
  }

  private renderField(v: ValidationView, hint: MessageKey, params?: MessageParams, autocomplete = 'off'): TemplateResult {
    return this.fields.render(v, {
      autocomplete,
      label: v.label || this.t('challenge.code'),
      hint: this.t(hint, params),
      disabled: this.busy || this.expired,
    });
  }

  private renderPosition(position: string | null): TemplateResult | typeof nothing {
    return position ? html`<p class="position" part="position" aria-hidden="true">${position}</p>` : nothing;
  }

  private renderValidation(v: ValidationView): TemplateResult {
    let body: TemplateResult;
    switch (v.type) {
      case 0:
        body = this.renderField(v, 'challenge.type0');
        break;
      case 1:
        body = v.value ? this.renderField(v, 'challenge.type1To', { phone: v.value }, 'one-time-code') : this.renderField(v, 'challenge.type1', undefined, 'one-time-code');
        break;
      case 2:
        body = html`${this.renderPosition(v.value)}${this.renderField(v, 'challenge.type2', { position: v.value ?? '' })}`;
        break;
      case 3:
        body = v.value
          ? html`${this.renderPosition(v.value)}${this.renderField(v, 'challenge.type3At', { position: v.value })}`
          : this.renderField(v, 'challenge.type3');
        break;
      case 5:
        // The position asked for is in the bank's label: the image's alternative says it too.
        body = html`${isCardImage(v.value) ? html`<img part="card" src=${v.value} alt=${v.label ? this.t('challenge.cardAltAt', { position: v.label }) : this.t('challenge.cardAlt')} />` : nothing}
        ${this.renderField(v, 'challenge.type5')}`;
        break;
      case 6:
        // The bank's own words first (what to approve, and where), then how to go on here.
        body = html`<div class="stack" part="device">
          ${v.label ? html`<p class="bank-label" part="device-label"><strong>${v.label}</strong></p>` : nothing}
          ${v.value ? html`<p part="device-instructions">${v.value}</p>` : nothing}
          <p>${this.t('challenge.type6', { done: this.t('challenge.done') })}</p>
          <p class="waiting"><span class="spinner" aria-hidden="true"></span>${this.t('challenge.waiting')}</p>
        </div>`;
        break;
      default:
        body = this.renderField(v, 'challenge.type4');
    }
    return html`<div class="validation" part="validation" data-type=${v.type}>${body}</div>`;
  }

  override render() {
    const { validations, round, deadline } = this.step;
    if (!validations.length) return nothing;
    const onlyDevice = validations.every((v) => v.type === 6);
    return html`<form class="stack" part="form" novalidate @submit=${this.submit}>
      <div class="head">
        <h2 part="title" tabindex="-1">${this.t('challenge.title')}${round > 1 ? html` <span class="muted round">${this.t('challenge.round', { round })}</span>` : nothing}</h2>
        ${deadline
          ? html`<p class="countdown ${this.remaining <= LOW_SECONDS ? 'low' : ''}" part="countdown">
              <span>${this.t('challenge.timeLeft')}</span> <span role="timer">${formatClock(this.remaining)}</span>
            </p>`
          : nothing}
      </div>
      <p class="sr-only" role="status" aria-atomic="true">${this.announcement}</p>
      ${this.expired
        ? html`<div class="alert" role="alert" part="error"><p>${this.t('challenge.expired')}</p></div>`
        : html`${this.renderError(
              // A wrong code with attempts left: a fresh challenge, and how many tries remain.
              this.errorCode?.code === 'B103' && this.currentView ? html`<p>${this.t('challenge.newCode')} ${this.t('field.attemptsLeft', { count: this.currentView.attemptsLeft })}</p>` : nothing,
            )}
            ${this.notYet ? html`<p class="notice" role="alert">${this.t('challenge.notYet')}</p>` : nothing}
            ${validations.map((v) => this.renderValidation(v))}
            <div class="actions">
              <button type="submit" class="primary" part="submit" ?disabled=${this.busy}>
                ${this.t(onlyDevice ? 'challenge.done' : 'challenge.submit')}
              </button>
              ${this.inSandbox && onlyDevice
                ? html`<button type="button" part="test-not-yet" ?disabled=${this.busy || this.expired} @click=${this.notApprovedYet}>${this.t('challenge.testNotYet')}</button>`
                : nothing}
              ${this.inSandbox && validations.some((v) => v.type !== 6 && v.testValue)
                ? html`<button type="button" part="fill-test" ?disabled=${this.busy || this.expired} @click=${this.fillTestValues}>${this.t('login.fillTest')}</button>`
                : nothing}
            </div>`}
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-challenge': BankChallenge;
  }
}
