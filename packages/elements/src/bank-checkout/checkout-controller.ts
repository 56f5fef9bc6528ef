/**
 * The data side of `<bank-checkout>`: the typed client, the current view and bank groups, one
 * call at a time, and the error policy (after a failed call the view is read again, as the call
 * may have changed it). What the checkout's line is doing is one status (`CheckoutStatus`, in
 * the manner of @lit/task's): idle, loading, acting, waiting, confirming, leaving or failed.
 * Each checkout gets an AbortSignal: when the element leaves the page or the checkout changes,
 * answers still on their way for the old one are dropped.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { BankGroupView, BanksResponse, CheckoutStart, CheckoutView } from '@bank-checkout/contract';
import { CheckoutApiError, type CheckoutClient } from '../client.js';
import type { CheckoutContextValue, StepAction } from '../context.js';
import { emit, isOutcome, stepDetail } from '../events.js';
import { stepKey } from '../logic/checkout.js';
import { isWebUrl } from '../logic/redirect.js';
import { errorKey, type MessageKey } from '../i18n/index.js';
import { asApiError } from '../shared/bank-element.js';
import { canRetry } from '../bank-result/bank-result.js';

/** A message about a failed call, and whether it offers to try again. */
export interface Notice {
  key: MessageKey;
  retry: boolean;
}

/**
 * What the checkout's line is doing: one at a time, in the manner of @lit/task's `TaskStatus`
 * (the data a status goes with, the error and the time the wait ends by, kept beside it).
 *
 * - `idle`: nothing under way; the view (when there is one) is the checkout as last read.
 * - `loading`: a read the payer waits for (the first screen, a refresh).
 * - `acting`: one of the payer's actions is on its way.
 * - `waiting`: the line is busy (503, 409 `checkout_busy`) or another call is with the bank: the
 *   checkout is read again until it is free.
 * - `confirming`: the payment is being confirmed with the bank (a transfer or a validation in
 *   flight, or answered 503): read again, at the last pace, until the call is done.
 * - `leaving`: this page sent the payer to the bank's page (rather than the payer coming back).
 * - `failed`: the checkout could not be loaded, or is gone (`loadError`): nothing else is shown.
 */
export type CheckoutStatus = 'idle' | 'loading' | 'acting' | 'waiting' | 'confirming' | 'leaving' | 'failed';

/** A call the payer waits for is under way: actions are refused meanwhile. */
export const isBusy = (s: CheckoutStatus): boolean => s === 'loading' || s === 'acting' || s === 'waiting' || s === 'confirming';

/** What the element does with what the controller learns. */
export interface CheckoutHooks {
  /** A view arrived: the answer to an action of this page (`fromAction`), or a read. */
  applied(view: CheckoutView, before: CheckoutView | null, fromAction: boolean): void;
  /** A read the payer waits for finished. */
  settled(): void;
  /** A background check failed, or the checkout was lost: decide about the next check. */
  idle(): void;
  /** An action of the payer ended, or the step changed by itself: move focus to the step. */
  focus(): void;
  /** Takes the page to the bank's page. */
  navigate(url: string): void;
}

/** A failed call's notice: the words its code names, or those its message names (a refusal the frame made itself says which). */
const notice = (e: CheckoutApiError, retry = canRetry('error', e.code)): Notice => ({ key: errorKey(e.code, e.message), retry });
/** Said while the line is busy and the checkout gives no time the wait ends by. */
export const oneMoment: Notice = { key: 'status.oneMoment', retry: false };
/** The checkout moved on in another window (or tab) of the payer. */
const movedOn: Notice = { key: errorKey('stale_step'), retry: false };

/** Whether the signal has aborted now (read after an await: it may have, whatever was true before). */
const aborted = (signal: AbortSignal) => signal.aborted;

/**
 * A busy line, not a failure: the BFF's store cannot answer for a moment (503), or another
 * request for this checkout still holds it (409 `checkout_busy`). The element waits, reads the
 * checkout again and goes on from what it says.
 */
const isBusyLine = (e: CheckoutApiError): boolean => e.status === 503 || e.code === 'checkout_busy';
/** This page can no longer open the checkout: it is gone, or it goes on in another window. */
const lost = (e: CheckoutApiError): boolean => e.status === 401 || e.status === 404 || e.code === 'opened_elsewhere';

/** The client's calls that move the payer's money: the transfer's start and the answer to its validations. */
const movesMoney = (name: unknown) => name === 'transfer' || name === 'validate';

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * The first screen in one call (the view, and the bank list when it opens on it); a BFF without
 * `GET /v1/checkout/start` (404) or a client without `start` gives the view alone.
 */
async function firstScreen(client: CheckoutClient): Promise<{ view: CheckoutView; banks: BanksResponse | null }> {
  if (client.start) {
    try {
      return await client.start();
    } catch (err) {
      if (!(err instanceof CheckoutApiError && err.status === 404)) throw err;
    }
  }
  return { view: await client.checkout(), banks: null };
}

export class CheckoutController implements ReactiveController {
  client: CheckoutClient | null = null;
  view: CheckoutView | null = null;
  groups: BankGroupView[] | null = null;
  /** What the checkout's line is doing (one at a time). */
  status: CheckoutStatus = 'idle';
  /**
   * Why the checkout could not be loaded, or is gone (`failed`), shown instead of it; kept while
   * a read tries again.
   */
  loadError: CheckoutApiError | null = null;
  /**
   * While `waiting` or `confirming`: when the wait ends at the latest, once the view says it (its
   * `inFlightUntil`: the instance holding the call went quiet).
   */
  until: string | undefined;
  notice: Notice | null = null;
  /** The waits before each new read while the line is busy (503, or 409 `checkout_busy`); after the last, the error shows. */
  busyDelaysMs: readonly number[] = [1_000, 2_000, 3_000, 5_000, 8_000, 8_000, 8_000];
  /**
   * The payer finishes at the bank's page on another device: this page stays when the bank's
   * page is ready, and waits for the result. The payer's choice, whatever the line is doing.
   */
  onPhone = false;

  /** Aborted when the checkout changes or the element leaves the page. */
  signal: AbortSignal = new AbortController().signal;

  private abort: AbortController | null = null;
  /** Calls of this checkout still on their way (what leaving the page drops). */
  private pending = 0;
  /** `bank-checkout-complete` was fired for this checkout: it fires once. */
  private toldOutcome = false;
  private groupsFor: AbortSignal | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly hooks: CheckoutHooks,
  ) {
    host.addController(this);
  }

  /** A call the payer waits for is in flight: actions are refused. */
  get busy(): boolean {
    return isBusy(this.status);
  }

  /** Sets `onPhone` (the hand-off's choice). */
  readonly setOnPhone = (on: boolean): void => {
    this.onPhone = on;
    this.host.requestUpdate();
  };

  /** What the step elements are given (@lit/context), in `locale`. */
  context(locale: string): CheckoutContextValue {
    return {
      view: this.view,
      groups: this.groups,
      client: this.client,
      locale,
      busy: this.busy,
      run: this.run,
      refresh: this.refresh,
      check: this.check,
      onPhone: this.onPhone,
      setOnPhone: this.setOnPhone,
    };
  }

  /**
   * Forgets the old checkout and loads the one of `client`; with `first` (its view and bank
   * list, as the isolated frame's redemption answered them), shows that without a call.
   */
  start(client: CheckoutClient | null, first?: CheckoutStart | null): void {
    this.client = client;
    this.view = null;
    this.groups = null;
    this.status = 'idle';
    this.loadError = null;
    this.toldOutcome = false;
    this.onPhone = false;
    this.renew();
    if (!client) return;
    if (!first) return void this.refresh();
    this.groups = first.banks?.groups ?? null;
    this.apply(first.view, false);
    this.hooks.settled();
  }

  /** Back on the page after leaving it mid-call: what was dropped is read again. */
  hostConnected(): void {
    window.addEventListener('pageshow', this.onPageShow);
    window.addEventListener('focus', this.onReturn);
    window.addEventListener('blur', this.onReturn);
    document.addEventListener('visibilitychange', this.onReturn);
    if (!this.signal.aborted) return;
    this.renew();
    if (this.client) void this.refresh();
  }

  hostDisconnected(): void {
    window.removeEventListener('pageshow', this.onPageShow);
    window.removeEventListener('focus', this.onReturn);
    window.removeEventListener('blur', this.onReturn);
    document.removeEventListener('visibilitychange', this.onReturn);
    if (this.pending) this.abort?.abort();
  }

  /** Back on this page from the bank's through the browser's history: wait for the result. */
  private readonly onPageShow = (e: PageTransitionEvent): void => {
    if (!e.persisted || this.status !== 'leaving') return;
    this.status = 'idle';
    void this.refresh();
  };

  /** This window lost the focus (to another window, or the page around its frame) since the checkout was read. */
  private left?: boolean;

  /**
   * The payer comes back to this window or tab: the checkout is read again (one read, only
   * then), as another window may have moved it on meanwhile. A window's first focus is no
   * return (the payer's first click into the checkout's frame reads nothing); its blur marks it left.
   */
  private readonly onReturn = (e: Event): void => {
    const v = this.view;
    if (e.type === 'blur') return void (this.left = true);
    if (e.type === 'focus' && !this.left) return;
    this.left = false;
    if (document.visibilityState === 'visible' && v && !isOutcome(v.state)) void this.check();
  };

  private renew(): void {
    this.abort?.abort();
    this.abort = new AbortController();
    this.signal = this.abort.signal;
    this.pending = 0;
    this.rest();
    this.notice = null;
    this.groupsFor = null;
    this.host.requestUpdate();
  }

  /** Waits for a call of the current checkout, counting it as on its way meanwhile. */
  private async track<T>(call: Promise<T>): Promise<T> {
    const signal = this.signal;
    this.pending++;
    try {
      return await call;
    } finally {
      if (signal === this.signal) this.pending--;
    }
  }

  private set(changes: Partial<Pick<CheckoutController, 'view' | 'groups' | 'notice'>>): void {
    Object.assign(this, changes);
    this.host.requestUpdate();
  }

  private to(status: CheckoutStatus, until?: string): void {
    this.status = status;
    this.until = until;
    this.host.requestUpdate();
  }

  /**
   * What was under way ended: idle again (a read that tried again after a failure, and came to
   * nothing new, fails again). Leaving and a failure stay as they are.
   */
  private rest(): void {
    if (isBusy(this.status)) this.to(this.loadError ? 'failed' : 'idle');
  }

  /** The checkout was read: a failure to load it is over. */
  private recover(): void {
    this.loadError = null;
    if (this.status === 'failed') this.to('idle');
  }

  clearNotice(): void {
    this.set({ notice: null });
  }

  /** Reads the checkout again (read-only, safe to repeat). */
  readonly refresh = (): Promise<void> => this.read(false);

  /** A background check: no busy state, dropped if an action started meanwhile; a failure only leads to the next check. */
  readonly check = (): Promise<void> => this.read(true);

  private async read(quiet: boolean): Promise<void> {
    const client = this.client;
    if (!client || (quiet && this.busy)) return;
    const signal = this.signal;
    if (!quiet) this.to('loading');
    try {
      const { view, banks } = await this.track(this.view || quiet ? client.checkout().then((view) => ({ view, banks: null })) : firstScreen(client));
      if (signal.aborted || (quiet && this.busy)) return;
      if (banks && !this.groups) this.groups = banks.groups;
      const before = this.view;
      this.apply(view, false);
      if (before && stepKey(before) !== stepKey(view)) {
        // The step changed by itself (time, the bank's result, another window): say so when
        // nothing else does, and bring focus to where the checkout is now.
        if (quiet && !view.error && !isOutcome(view.state) && view.state !== 'unknown') this.set({ notice: movedOn });
        this.hooks.focus();
      }
    } catch (err) {
      if (aborted(signal)) return;
      let e = asApiError(err);
      if (!quiet && isBusyLine(e)) {
        const waited = await this.waitOut(client, signal, false);
        if (aborted(signal)) return;
        if (!(waited instanceof CheckoutApiError)) {
          this.apply(waited, false);
          return;
        }
        e = waited;
      }
      this.report(e);
      if (!this.view || lost(e)) this.lose(e);
      else if (quiet) this.hooks.idle();
      else this.set({ notice: notice(e) });
    } finally {
      if (!aborted(signal) && !quiet) this.rest();
    }
    if (!aborted(signal) && !quiet) this.hooks.settled();
  }

  /** Runs one action; after a failed call the view is read again. Resolves with the new view, or null. */
  readonly run = (action: StepAction): Promise<CheckoutView | null> => this.perform(action, true);

  async perform(action: StepAction, focus: boolean): Promise<CheckoutView | null> {
    const client = this.client;
    if (!client || this.busy) return null;
    const signal = this.signal;
    this.notice = null;
    this.to('acting');
    /** The action reached for a call that moves the money. */
    let money = false;
    const moved = () => money;
    try {
      const view = await this.track(action(new Proxy(client, { get: (target, key): unknown => ((money ||= movesMoney(key)), Reflect.get(target, key)) })));
      if (aborted(signal)) return null;
      this.rest();
      this.apply(view, true);
      if (focus) this.hooks.focus();
      return view;
    } catch (err) {
      if (aborted(signal)) return null;
      const e = asApiError(err);
      if (!isBusyLine(e)) this.report(e);
      this.rest();
      if (lost(e)) {
        this.lose(e);
        return null;
      }
      if (e.code === 'stale_step' && e.view) {
        // Another window moved the checkout on: show where it is, and say so.
        this.apply(e.view, false);
        this.set({ notice: movedOn });
        if (focus) this.hooks.focus();
        return null;
      }
      if (isBusyLine(e)) {
        // The action may or may not have been applied: what the checkout says now decides. A
        // payment's confirmation the store could not record yet is being confirmed, not failed.
        const waited = await this.waitOut(client, signal, moved() && e.status === 503);
        return aborted(signal) ? null : this.waited(waited, true, focus);
      }
      // Refused before it was sent (frame_hidden), or as sent: the checkout did not change.
      if (e.code !== 'rate_limited' && e.code !== 'validation_failed' && e.code !== 'frame_hidden') await this.refresh();
      if (aborted(signal)) return null;
      // The view tells the story itself when it carries the same error or reached an outcome.
      const v = this.view;
      const told = v && (v.error?.code === e.code || isOutcome(v.state) || v.state === 'unknown');
      this.set({ notice: told ? null : notice(e) });
      if (focus) this.hooks.focus();
      return null;
    } finally {
      if (!signal.aborted) this.rest();
    }
  }

  /**
   * While the line is busy (503, 409 `checkout_busy`) or a call is with the bank (the view's
   * `inFlight`): the checkout is read again after each of `busyDelaysMs` until it answers with
   * no call in flight. The view it gives, or the last error (at once, an error that is not a busy
   * line). Confirming a payment (a transfer or a validation in flight, or answered 503), the
   * status is `confirming` and the reads go on at the last pace, through busy lines and a lost
   * connection, until the call is done: the bank may have moved the money. Otherwise it is
   * `waiting`, and after the last wait the last answer is given. Either says until when the
   * wait lasts at the latest once a view tells it (`inFlightUntil`, from `until` on).
   */
  private async waitOut(client: CheckoutClient, signal: AbortSignal, confirming: boolean, until?: string): Promise<CheckoutView | CheckoutApiError> {
    const delays = this.busyDelaysMs;
    let last: CheckoutView | CheckoutApiError = new CheckoutApiError(503, 'store_unavailable', 'busy');
    for (let i = 0; confirming || i < delays.length; i++) {
      this.notice = null;
      this.to(confirming ? 'confirming' : 'waiting', until);
      await pause(delays[Math.min(i, delays.length - 1)] ?? 0, signal);
      if (signal.aborted) return last;
      try {
        last = await this.track(client.checkout());
        if (!last.inFlight) break;
        confirming ||= movesMoney(last.inFlight);
        until = last.inFlightUntil;
      } catch (err) {
        last = asApiError(err);
        if (!isBusyLine(last) && (!confirming || last.status)) break;
      }
    }
    return last;
  }

  /** What a wait (waitOut) came to: the view it read, shown; or its error, told. Ends the wait. */
  private waited(got: CheckoutView | CheckoutApiError, fromAction: boolean, focus: boolean): CheckoutView | null {
    this.rest();
    if (got instanceof CheckoutApiError) {
      this.report(got);
      if (lost(got)) this.lose(got);
      else this.set({ notice: notice(got) });
      return null;
    }
    const before = this.view;
    this.apply(got, fromAction);
    if (focus || (before && stepKey(before) !== stepKey(got))) this.hooks.focus();
    return got;
  }

  /**
   * A view says a call is with the bank (another window's, or this page's before a reload): once
   * the call that brought the view has settled, the step waits, busy, and the checkout is read
   * again until the call is done.
   */
  private async follow(view: CheckoutView): Promise<void> {
    await Promise.resolve();
    const { client, signal } = this;
    if (!client || this.busy) return;
    const got = await this.waitOut(client, signal, movesMoney(view.inFlight), view.inFlightUntil);
    if (!signal.aborted) this.waited(got, false, false);
  }

  /** Loads the bank groups once per checkout. */
  async loadGroups(): Promise<void> {
    const client = this.client;
    if (!client || this.groups || this.groupsFor) return;
    const signal = (this.groupsFor = this.signal);
    try {
      const { groups } = await this.track(client.banks());
      if (!signal.aborted) this.set({ groups });
    } catch (err) {
      if (aborted(signal)) return;
      const e = asApiError(err);
      this.report(e);
      this.set({ notice: notice(e, true) });
    } finally {
      if (this.groupsFor === signal) this.groupsFor = null;
    }
  }

  /** The checkout is gone or could not be loaded. */
  private lose(e: CheckoutApiError): void {
    this.view = null;
    this.loadError = e;
    this.to('failed');
    this.hooks.idle();
  }

  private report(e: CheckoutApiError): void {
    emit(this.host, 'bank-checkout-error', { checkoutId: this.view?.id ?? null, code: e.code, status: e.status, requestId: e.requestId });
  }

  /** Shows a view the BFF answered with, and fires what it means. */
  private apply(view: CheckoutView, fromAction: boolean): void {
    const before = this.view;
    this.recover();
    this.set({ view });
    if (!before || stepKey(before) !== stepKey(view)) {
      emit(this.host, 'bank-checkout-step', stepDetail(view, before?.state ?? null));
    }
    if (view.error && (fromAction || !before)) {
      emit(this.host, 'bank-checkout-error', { checkoutId: view.id, code: view.error.code, status: null, requestId: null });
    }
    if (isOutcome(view.state) && !this.toldOutcome) {
      this.toldOutcome = true;
      emit(this.host, 'bank-checkout-complete', { checkoutId: view.id, outcome: view.state, code: view.error?.code ?? null });
    }
    // Only an action of this page sends the payer away; a checkout found in `redirect` waits for the result.
    if (fromAction && view.step.state === 'redirect' && isWebUrl(view.step.url) && !this.onPhone) {
      this.to('leaving');
      this.hooks.navigate(view.step.url);
    }
    this.hooks.applied(view, before, fromAction);
    if (view.inFlight && !isOutcome(view.state)) void this.follow(view);
  }
}
