/**
 * The data side of `<bank-checkout>`: the typed client, the current view and bank groups, one
 * call at a time, and the error policy (after a failed call the view is read again, as the call
 * may have changed it). Each checkout gets an AbortSignal: when the element leaves the page or
 * the checkout changes, answers still on their way for the old one are dropped.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { BankGroupView, BanksResponse, CheckoutStart, CheckoutView } from '@bank-checkout/contract';
import { CheckoutApiError, type CheckoutClient } from '../client.js';
import type { StepAction } from '../context.js';
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
const oneMoment: Notice = { key: 'status.oneMoment', retry: false };
/** The checkout moved on in another window (or tab) of the payer. */
const movedOn: Notice = { key: errorKey('stale_step'), retry: false };

/**
 * A busy line, not a failure: the BFF's store cannot answer for a moment (503), or another
 * request for this checkout still holds it (409 `checkout_busy`). The element waits, reads the
 * checkout again and goes on from what it says.
 */
/** Whether the signal has aborted now (read after an await: it may have, whatever was true before). */
const aborted = (signal: AbortSignal) => signal.aborted;

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
  /** A call the payer waits for is in flight: actions are refused. */
  busy = false;
  /** The checkout could not be loaded (or is gone): nothing else is shown. */
  loadError: CheckoutApiError | null = null;
  notice: Notice | null = null;
  /** This page sent the payer to the bank's page (rather than the payer coming back to it). */
  leaving = false;
  /** The waits before each new read while the line is busy (503, or 409 `checkout_busy`); after the last, the error shows. */
  busyDelaysMs: readonly number[] = [1_000, 2_000, 3_000, 5_000, 8_000, 8_000, 8_000];
  /** The payer finishes at the bank's page on another device: this page stays and waits for the result. */
  stay = false;
  /**
   * The payer's payment is being confirmed with the bank: a transfer or a validation is in
   * flight, or answered that the BFF's store could not take its answer yet (503). "Confirming
   * with your bank…" shows meanwhile, never an error.
   */
  confirming = false;

  /** Aborted when the checkout changes or the element leaves the page. */
  signal: AbortSignal = new AbortController().signal;

  private abort: AbortController | null = null;
  /** Calls of this checkout still on their way. */
  private pending = 0;
  private completed = false;
  private groupsFor: AbortSignal | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly hooks: CheckoutHooks,
  ) {
    host.addController(this);
  }

  /**
   * Forgets the old checkout and loads the one of `client`; with `first` (its view and bank
   * list, as the isolated frame's redemption answered them), shows that without a call.
   */
  start(client: CheckoutClient | null, first?: CheckoutStart | null): void {
    this.client = client;
    this.view = null;
    this.groups = null;
    this.loadError = null;
    this.completed = false;
    this.leaving = false;
    this.stay = false;
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
    if (!e.persisted || !this.leaving) return;
    this.leaving = false;
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
    this.busy = false;
    this.confirming = false;
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

  private set(changes: Partial<Pick<CheckoutController, 'view' | 'groups' | 'busy' | 'loadError' | 'notice' | 'confirming'>>): void {
    Object.assign(this, changes);
    this.host.requestUpdate();
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
    if (!quiet) this.set({ busy: true });
    try {
      const { view, banks } = await this.track(this.view || quiet ? client.checkout().then((view) => ({ view, banks: null })) : firstScreen(client));
      if (signal.aborted || (quiet && this.busy)) return;
      this.loadError = null;
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
          this.loadError = null;
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
      if (!aborted(signal) && !quiet) this.set({ busy: false });
    }
    if (!aborted(signal) && !quiet) this.hooks.settled();
  }

  /** Runs one action; after a failed call the view is read again. Resolves with the new view, or null. */
  readonly run = (action: StepAction): Promise<CheckoutView | null> => this.perform(action, true);

  async perform(action: StepAction, focus: boolean): Promise<CheckoutView | null> {
    const client = this.client;
    if (!client || this.busy) return null;
    const signal = this.signal;
    this.set({ busy: true, notice: null });
    /** The action reached for a call that moves the money. */
    let money = false;
    const moved = () => money;
    try {
      const view = await this.track(action(new Proxy(client, { get: (target, key): unknown => ((money ||= movesMoney(key)), Reflect.get(target, key)) })));
      if (aborted(signal)) return null;
      this.busy = false;
      this.apply(view, true);
      if (focus) this.hooks.focus();
      return view;
    } catch (err) {
      if (aborted(signal)) return null;
      const e = asApiError(err);
      if (!isBusyLine(e)) this.report(e);
      this.set({ busy: false });
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
        this.set({ busy: true });
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
      if (!signal.aborted) this.set({ busy: false });
    }
  }

  /**
   * While the line is busy (503, 409 `checkout_busy`) or a call is with the bank (the view's
   * `inFlight`): the checkout is read again after each of `busyDelaysMs` until it answers with
   * no call in flight. The view it gives, or the last error (at once, an error that is not a busy
   * line). Confirming a payment (`confirming`: a transfer or a validation in flight, or answered
   * 503), "Confirming with your bank…" shows, and the reads go on at the last pace, through busy
   * lines and a lost connection, until the call is done: the bank may have moved the money.
   * Otherwise "one moment" shows, and after the last wait the last answer is given.
   */
  private async waitOut(client: CheckoutClient, signal: AbortSignal, confirming: boolean): Promise<CheckoutView | CheckoutApiError> {
    const delays = this.busyDelaysMs;
    let last: CheckoutView | CheckoutApiError = new CheckoutApiError(503, 'store_unavailable', 'busy');
    for (let i = 0; confirming || i < delays.length; i++) {
      this.set(confirming ? { confirming, notice: null } : { notice: oneMoment });
      await pause(delays[Math.min(i, delays.length - 1)] ?? 0, signal);
      if (signal.aborted) return last;
      try {
        last = await this.track(client.checkout());
        if (!last.inFlight) break;
        confirming ||= movesMoney(last.inFlight);
      } catch (err) {
        last = asApiError(err);
        if (!isBusyLine(last) && (!confirming || last.status)) break;
      }
    }
    this.set({ confirming: false, ...(this.notice === oneMoment ? { notice: null } : {}) });
    return last;
  }

  /** What a wait (waitOut) came to: the view it read, shown; or its error, told. Ends the busy state. */
  private waited(got: CheckoutView | CheckoutApiError, fromAction: boolean, focus: boolean): CheckoutView | null {
    this.set({ busy: false });
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
  private async follow(inFlight: string): Promise<void> {
    await Promise.resolve();
    const { client, signal } = this;
    if (!client || this.busy) return;
    this.set({ busy: true });
    const got = await this.waitOut(client, signal, movesMoney(inFlight));
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
    this.set({ view: null, loadError: e });
    this.hooks.idle();
  }

  private report(e: CheckoutApiError): void {
    emit(this.host, 'bank-checkout-error', { checkoutId: this.view?.id ?? null, code: e.code, status: e.status, requestId: e.requestId });
  }

  /** Shows a view the BFF answered with, and fires what it means. */
  private apply(view: CheckoutView, fromAction: boolean): void {
    const before = this.view;
    this.set({ view });
    if (!before || stepKey(before) !== stepKey(view)) {
      emit(this.host, 'bank-checkout-step', stepDetail(view, before?.state ?? null));
    }
    if (view.error && (fromAction || !before)) {
      emit(this.host, 'bank-checkout-error', { checkoutId: view.id, code: view.error.code, status: null, requestId: null });
    }
    if (isOutcome(view.state) && !this.completed) {
      this.completed = true;
      emit(this.host, 'bank-checkout-complete', { checkoutId: view.id, outcome: view.state, code: view.error?.code ?? null });
    }
    // Only an action of this page sends the payer away; a checkout found in `redirect` waits for the result.
    if (fromAction && view.step.state === 'redirect' && isWebUrl(view.step.url) && !this.stay) {
      this.leaving = true;
      this.hooks.navigate(view.step.url);
    }
    this.hooks.applied(view, before, fromAction);
    if (view.inFlight && !isOutcome(view.state)) void this.follow(view.inFlight);
  }
}
