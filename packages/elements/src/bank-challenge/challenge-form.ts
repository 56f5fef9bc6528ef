/**
 * The validation form itself: one widget per validation type, the countdown and its
 * announcements, the codes' checks and the calls. Its own file: `<bank-checkout>` fetches it
 * with its later steps once the checkout is on screen, and a `<bank-challenge>` used alone
 * loads it with the first challenge shown. The element (bank-challenge.ts) is registered up
 * front and renders this once it is in.
 */
import { html, nothing, type PropertyValues, type ReactiveController, type TemplateResult } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { CheckoutView, ValidationView } from '@bank-checkout/contract';
import { INDIRECT_SIGNED_VALUE } from '@bank-checkout/contract';
import { emit } from '../events.js';
import { registerTexts, type MessageKey, type MessageParams } from '../i18n/index.js';
import { enChallenge } from '../i18n/en-challenge.js';
import { esChallenge } from '../i18n/es-challenge.js';
import { announcementDue, deadlineMs, secondsLeft } from '../logic/countdown.js';
import { formatCents, formatClock } from '../logic/format.js';
import { askedCell, cardGrid, svgSource, svgTexts, type CardGrid } from '../logic/card.js';
import { FieldsController } from '../shared/fields.js';
import { PROVIDER_LANG, positionIn, validationName } from '../shared/bank-fields.js';
import type { StepFormHost } from '../shared/step-form.js';
import { challengeForm, isCardImage, type BankChallenge } from './bank-challenge.js';
import '../i18n/steps.js';

// This form's texts come with it.
registerTexts({ en: enChallenge, es: esChallenge });

/** Seconds left under which the countdown turns to the warning colour. */
const LOW_SECONDS = 20;
/** How long an announcement of the time left stays in its status before it is emptied. */
const ANNOUNCE_HOLD_MS = 1_000;
/** After the deadline, the checkout is read again every this many ticks until it moved on. */
const EXPIRED_REFRESH_TICKS = 5;
/** What the simulated app answers before the payer approved (test mode only). */
const INDIRECT_PENDING_TEST_VALUE = 'PENDING';

let lastCard: { image: string; grid: CardGrid | null } | null = null;
/** The grid of an SVG card's texts (read as data, nothing of it run or shown), remembered for the last card. */
function readCard(image: string): CardGrid | null {
  if (lastCard?.image === image) return lastCard.grid;
  const source = svgSource(image);
  const grid = source ? cardGrid(svgTexts(source)) : null;
  lastCard = { image, grid };
  return grid;
}

/**
 * A card wider than its place is drawn smaller (`compact`: a smaller type, narrower cells), which
 * fits a card of five columns into a 280 px phone's checkout; one still wider scrolls sideways:
 * it is then a tab stop (arrow keys scroll it), and the asked cell is brought to its middle; one
 * that fits is no tab stop.
 */
function fitCard(scroller: HTMLElement): void {
  const wider = () => scroller.scrollWidth > scroller.clientWidth + 1;
  scroller.classList.remove('compact');
  if (wider()) scroller.classList.add('compact');
  const scrolls = wider();
  if (scrolls) scroller.tabIndex = 0;
  else scroller.removeAttribute('tabindex');
  const cell = scroller.querySelector('.asked');
  if (!scrolls || !cell) return;
  const c = cell.getBoundingClientRect();
  const s = scroller.getBoundingClientRect();
  scroller.scrollLeft += c.left + c.width / 2 - (s.left + s.width / 2);
}

/** What the form reads and calls on its element. */
export type ChallengeFormHost = StepFormHost<BankChallenge>;

export class ChallengeForm implements ReactiveController {
  private remaining = 0;
  private expired = false;
  /**
   * What the status says (rendered in the current language, so a switch follows it), and when it
   * was said: it is emptied ANNOUNCE_HOLD_MS later, so that a screen reader reading the page
   * finds no time that has passed (the visible countdown is always current).
   */
  private announcement: { key: MessageKey; params?: MessageParams; nextRound?: boolean; at: number } | null = null;
  private notYet = false;
  private lastSpoken: number | null = null;
  private deadlineSeen: string | null | undefined = undefined;
  private ticksExpired = 0;
  private shownKey = '';
  private shownRound = 0;
  private stopTimer: (() => void) | null = null;
  /** Watches the card's place (fitCard). */
  private cards: ResizeObserver | null = null;
  /** The card fitted last. */
  private fitted: HTMLElement | null = null;
  private readonly fields: FieldsController;
  /** Listeners that keep their `this` (Lit calls them on the element) and stay the same between renders. */
  private readonly onSubmit = (e: SubmitEvent): void => void this.submit(e);
  private readonly onNotYet = (): void => void this.notApprovedYet();
  private readonly onFillTest = (): void => this.fillTestValues();

  constructor(private readonly host: ChallengeFormHost) {
    this.fields = new FieldsController(host.element, 'validation');
    host.element.addController(this);
  }

  private get el(): BankChallenge {
    return this.host.element;
  }

  private t(key: MessageKey, params?: MessageParams): string {
    return this.el.t(key, params);
  }

  private get step() {
    const s = this.host.view()?.step;
    const v = s?.state === 'validate' ? s : null;
    const validations = this.el.validations ?? v?.validations ?? [];
    return { validations, round: this.el.round ?? v?.round ?? 1, deadline: this.el.deadline ?? v?.deadline ?? null };
  }

  private static keyOf(round: number, validations: readonly ValidationView[]): string {
    return `${round}|${validations.map((v) => `${v.type}:${v.fieldId}`).join(',')}`;
  }

  hostConnected(): void {
    this.startTimer();
  }

  hostDisconnected(): void {
    this.stopTimer?.();
    this.stopTimer = null;
    this.cards?.disconnect();
    this.cards = null;
    this.fitted = null;
  }

  /**
   * A card shown is fitted to its place before it is first drawn, and again (in the next frame)
   * whenever the width of that place (the validation it is in) changes.
   */
  hostUpdated(): void {
    const scroller = this.el.shadowRoot?.querySelector<HTMLElement>('.card-scroll');
    const place = scroller?.parentElement;
    if (!scroller || !place || scroller === this.fitted) return;
    this.fitted = scroller;
    fitCard(scroller);
    let width = place.clientWidth;
    this.cards?.disconnect();
    this.cards = new ResizeObserver(() => {
      if (place.clientWidth === width) return;
      width = place.clientWidth;
      requestAnimationFrame(() => fitCard(scroller));
    });
    this.cards.observe(place);
  }

  private startTimer(): void {
    this.stopTimer?.();
    this.stopTimer = this.el.clock.every(1000, () => this.tick());
  }

  /** Before each update of the element: a new round or deadline resets what was shown. */
  willUpdate(changed: PropertyValues<BankChallenge>): void {
    const { validations, round, deadline } = this.step;
    if (changed.has('clock') && this.el.isConnected) this.startTimer();
    if (deadline !== this.deadlineSeen) {
      this.deadlineSeen = deadline;
      this.lastSpoken = null;
      this.expired = false;
    }
    const key = ChallengeForm.keyOf(round, validations);
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
      this.announcement = { key: 'challenge.announce', params: { seconds: this.remaining }, nextRound: true, at: this.el.clock.now() };
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
      if (++this.ticksExpired % EXPIRED_REFRESH_TICKS === 0) void this.host.checkout()?.refresh();
      return;
    }
    const now = this.el.clock.now();
    const left = secondsLeft(deadlineMs(deadline), now);
    if (left !== this.remaining) this.el.requestUpdate();
    this.remaining = left;
    if (this.announcement && now - this.announcement.at >= ANNOUNCE_HOLD_MS) {
      this.announcement = null;
      this.el.requestUpdate();
    }
    const due = announcementDue(this.lastSpoken, left);
    if (due !== null) {
      this.lastSpoken = due;
      this.announcement = { key: 'challenge.announce', params: { seconds: due }, at: now };
      this.el.requestUpdate();
    }
    if (left === 0) {
      this.expired = true;
      this.ticksExpired = 0;
      this.announcement = { key: 'challenge.expired', at: now };
      this.el.requestUpdate();
      this.fields.clear();
      emit(this.el, 'bank-challenge-expire', { deadline });
      void this.focusExpired();
      void this.host.checkout()?.refresh();
    }
  }

  /**
   * Time is up: the field the payer was in closes, so focus goes to the alert that says why
   * (unless the payer is elsewhere on the page).
   */
  private async focusExpired(): Promise<void> {
    const active = document.activeElement;
    const here = !!this.el.shadowRoot?.activeElement || active === null || active === document.body;
    await this.el.updateComplete;
    if (here) this.el.shadowRoot?.querySelector<HTMLElement>('[part=error]')?.focus();
  }

  /**
   * The bank answered with the same approval in its app still open: not approved yet. (A fresh
   * challenge after a wrong code comes with its error, and is not this.)
   */
  private static stillWaiting(next: CheckoutView | null, sent: string): boolean {
    return (
      next?.step.state === 'validate' &&
      !next.error &&
      next.step.validations.some((v) => v.type === 6) &&
      ChallengeForm.keyOf(next.step.round, next.step.validations) === sent
    );
  }

  private setNotYet(notYet: boolean): void {
    this.notYet = notYet;
    this.el.requestUpdate();
  }

  /** Test mode: confirm before approving in the (simulated) app, to see the bank's "not yet". */
  private async notApprovedYet(): Promise<void> {
    const { validations, round } = this.step;
    if (this.host.busy() || this.expired) return;
    const values = Object.fromEntries(validations.map((v) => [v.fieldId, INDIRECT_PENDING_TEST_VALUE]));
    // As on "I have approved it": the notice goes while the bank is asked, and comes again (said again) if it still has not seen it.
    this.setNotYet(false);
    const sent = ChallengeForm.keyOf(round, validations);
    const next: CheckoutView | null = await this.host.run((client) => client.validate({ values }));
    if (ChallengeForm.stillWaiting(next, sent)) this.setNotYet(true);
  }

  /** Test mode: the bank's test value in each field that asks for one. */
  private fillTestValues(): void {
    for (const v of this.step.validations) if (v.type !== 6 && v.testValue) this.fields.set(v, v.testValue);
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const { validations, round } = this.step;
    if (this.host.busy() || this.expired || !validations.length) return;
    const typed = validations.filter((v) => v.type !== 6);
    const values = this.fields.collect(typed);
    if (!values) return;
    for (const v of validations) if (v.type === 6) values[v.fieldId] = INDIRECT_SIGNED_VALUE;
    // While the payer cannot see the whole payment the isolated frame's client refuses to send
    // it (and says why): the codes typed stay for the next try.
    const client = this.host.checkout()?.client;
    if (!client?.confirmable || (await client.confirmable())) this.fields.clear();
    this.setNotYet(false);
    const sent = ChallengeForm.keyOf(round, validations);
    const next: CheckoutView | null = await this.host.run((client) => client.validate({ values }));
    if (ChallengeForm.stillWaiting(next, sent)) this.setNotYet(true);
  }

  /** A validation's field, named by its type and the position it asks for (`position`), the bank's own words beside. */
  private renderField(
    v: ValidationView,
    hint: MessageKey,
    params?: MessageParams,
    autocomplete = 'off',
    describedBy?: string,
    position: string | null = null,
  ): TemplateResult {
    const name = validationName(v.type, position, v, this.host.locale(), (k, p) => this.t(k, p));
    return this.fields.render(v, {
      autocomplete,
      label: name.text,
      bankText: name.bank,
      hint: this.t(hint, params),
      disabled: this.host.busy() || this.expired,
      showTestValue: this.host.inSandbox(),
      rejectedBy: this.host.rejectedBy(),
      ...(describedBy ? { describedBy } : {}),
    });
  }

  /**
   * The coordinates card as a table (its rows and columns read as data, zoomable), the cell asked
   * for marked in words and by its outline; an image the kit cannot read stays an image with a
   * text alternative. A card wider than the step is drawn smaller; one still wider scrolls
   * sideways by itself, the asked cell in view and the row numbers kept at the left (`fitCard`);
   * the field's name says the position.
   */
  private renderCard(v: ValidationView): TemplateResult {
    const image = v.value;
    if (!isCardImage(image)) return this.renderField(v, 'challenge.type5', undefined, 'off', undefined, positionIn(v.label));
    const grid = readCard(image);
    if (!grid) {
      const position = positionIn(v.label);
      return html`<img part="card" src=${image} alt=${position ? this.t('challenge.cardAltAt', { position }) : this.t('challenge.cardAlt')} />
        ${this.renderField(v, 'challenge.type5', undefined, 'off', undefined, position)}`;
    }
    const asked = askedCell(grid, v.label);
    const position = asked ? `${grid.columns[asked.column]}${grid.rows[asked.row]!.label}` : positionIn(v.label);
    const id = v.fieldId.replace(/[^\w-]/g, '_');
    const askedId = `card-asked-${id}`;
    return html`<div class="card-scroll" part="card-scroll" role="region" aria-labelledby="card-caption-${id}">
        <table class="card" part="card">
          <caption id="card-caption-${id}">${this.t('challenge.cardCaption')}</caption>
          <thead>
            <tr>
              <td></td>
              ${grid.columns.map((c) => html`<th scope="col">${c}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${grid.rows.map(
              (r, row) => html`<tr>
                <th scope="row">${r.label}</th>
                ${r.cells.map((value, column) =>
                  asked && asked.row === row && asked.column === column
                    ? html`<td class="asked" part="card-asked" id=${askedId}>${value}<span class="sr-only"> ${this.t('challenge.cardAsked', { position: position! })}</span></td>`
                    : html`<td>${value}</td>`,
                )}
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${this.renderField(v, 'challenge.type5', undefined, 'off', asked ? askedId : undefined, position)}`;
  }

  /** The status's words now, in the current language. */
  private spoken(): string {
    const a = this.announcement;
    if (!a) return '';
    const said = this.t(a.key, a.params);
    return a.nextRound ? `${this.t('challenge.nextRound')} ${said}` : said;
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
        body = v.value
          ? this.renderField(v, 'challenge.type1To', { phone: v.value }, 'one-time-code')
          : this.renderField(v, 'challenge.type1', undefined, 'one-time-code');
        break;
      case 2: {
        const position = v.value ?? positionIn(v.label);
        body = html`${this.renderPosition(position)}${this.renderField(v, 'challenge.type2', { position: position ?? '' }, 'off', undefined, position)}`;
        break;
      }
      case 3:
        body = v.value
          ? html`${this.renderPosition(v.value)}${this.renderField(v, 'challenge.type3At', { position: v.value }, 'off', undefined, v.value)}`
          : this.renderField(v, 'challenge.type3');
        break;
      case 5:
        body = this.renderCard(v);
        break;
      case 6:
        // The bank's own words first (what to approve, and where), then how to go on here.
        body = html`<div class="stack" part="device">
          ${v.label ? html`<p class="bank-label" part="device-label" lang=${PROVIDER_LANG}><strong>${v.label}</strong></p>` : nothing}
          ${v.value ? html`<p part="device-instructions" lang=${PROVIDER_LANG}>${v.value}</p>` : nothing}
          <p>${this.t('challenge.type6', { done: this.t('challenge.done') })}</p>
          <p class="waiting"><span class="spinner" aria-hidden="true"></span>${this.t('challenge.waiting')}</p>
        </div>`;
        break;
      default:
        body = this.renderField(v, 'challenge.type4');
    }
    return html`<div class="validation" part="validation" data-type=${v.type}>${body}</div>`;
  }

  /**
   * A further round is headed by its number ("Confirmation 2"), in place of the first round's
   * heading and no longer than it, and its fields and buttons are drawn anew: nothing the payer
   * saw moves to make room for them.
   */
  render(): TemplateResult | typeof nothing {
    const { validations, round, deadline } = this.step;
    const busy = this.host.busy();
    const sandbox = this.host.inSandbox();
    const view = this.host.view();
    if (!validations.length) return nothing;
    const onlyDevice = validations.every((v) => v.type === 6);
    return html`<form class="stack" part="form" novalidate @submit=${this.onSubmit}>
      <div class="head">
        <h2 part="title" tabindex="-1">${round > 1 ? this.t('challenge.round', { round }) : this.t('challenge.title')}</h2>
        ${
          deadline
            ? html`<p class="countdown ${this.remaining <= LOW_SECONDS ? 'low' : ''}" part="countdown">
              <span>${this.t('challenge.timeLeft')}</span> <span role="timer">${formatClock(this.remaining)}</span>
            </p>`
            : nothing
        }
      </div>
      <p class="sr-only" role="status" aria-atomic="true">${this.spoken()}</p>
      ${
        this.expired
          ? html`<div class="alert" role="alert" part="error" tabindex="-1"><p>${this.t('challenge.expired')}</p></div>`
          : html`${this.host.renderError(
              // A wrong code with attempts left: a fresh challenge, and how many tries remain.
              this.host.errorCode()?.code === 'B103' && view
                ? html`<p>${this.t('challenge.newCode')} ${this.t('field.attemptsLeft', { count: view.attemptsLeft })}</p>`
                : nothing,
            )}
            ${this.notYet ? html`<p class="notice" role="alert">${this.t('challenge.notYet')}</p>` : nothing}
            ${keyed(
              this.shownKey,
              html`${validations.map((v) => this.renderValidation(v))}
            <div class="actions">
              <button type="submit" class="primary" part="submit" ?disabled=${busy}>
                ${
                  // The button names the amount it confirms (as the account list's Pay does): with it on the
                  // screen, the payer sees what they confirm even where the summary has scrolled away.
                  onlyDevice
                    ? this.t('challenge.done')
                    : view
                      ? this.t('challenge.submitAmount', { amount: formatCents(view.amount, view.currency, this.host.locale()) })
                      : this.t('challenge.submit')
                }
              </button>
              ${
                sandbox && onlyDevice
                  ? html`<button type="button" part="test-not-yet" ?disabled=${busy || this.expired} @click=${this.onNotYet}>${this.t('challenge.testNotYet')}</button>`
                  : nothing
              }
              ${
                sandbox && validations.some((v) => v.type !== 6 && v.testValue)
                  ? html`<button type="button" part="fill-test" ?disabled=${busy || this.expired} @click=${this.onFillTest}>${this.t('login.fillTest')}</button>`
                  : nothing
              }
            </div>`,
            )}`
      }
    </form>`;
  }
}

challengeForm.define(ChallengeForm);
