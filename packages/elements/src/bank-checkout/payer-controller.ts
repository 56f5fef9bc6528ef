/**
 * Where the payer is on the step of `<bank-checkout>`, beyond what the view says: a bank chosen
 * in the list (its sign-in shown until the BFF answers) or the list again from a bank's sign-in,
 * the question asked before cancelling or going back, the choice of how to pay folded to one
 * line; and focus, moved to where the payer goes on. A new step, or an answer to the payer's
 * action, resets what belonged to the old one.
 */
import type { LitElement } from 'lit';
import type { BankView, CheckoutMode, CheckoutView } from '@bank-checkout/contract';
import { findBank } from '../logic/banks.js';
import { showsBankList, showsRedirectStart, shownMode, stepKey } from '../logic/checkout.js';
import type { Clock } from '../shared/clock.js';
import type { CheckoutController } from './checkout-controller.js';
import { stepFilesSettled } from './loaders.js';
import type { ModeController } from './mode-controller.js';
import type { Choice, StepParts, Translate } from './templates.js';

/** An element that can take focus at its step's start (every kit element). */
type Focusable = HTMLElement & { focusStart?(): Promise<void>; offering?: boolean };

export class PayerController {
  /** Where the payer is on the step beyond what the view says: the bank list, or a bank chosen in it. */
  choice: Choice = null;
  /** The bank the payer chose last (named by the offer of its own page when the in-page flow stops there). */
  triedBank: BankView | null = null;
  /** The question asked before cancelling, or before a back that ends the bank session. */
  asking: 'cancel' | 'back' | null = null;
  /** The choice of how to pay shows as one line with "Change" (once the payer moved on from it). */
  modesFolded = false;

  constructor(
    private readonly host: LitElement,
    private readonly checkout: CheckoutController,
    private readonly modes: ModeController,
  ) {}

  private set(changes: Partial<Pick<PayerController, 'choice' | 'triedBank' | 'asking' | 'modesFolded'>>): void {
    Object.assign(this, changes);
    this.host.requestUpdate();
  }

  /** A new checkout: nothing chosen yet. */
  reset(): void {
    this.set({ choice: null, triedBank: null, asking: null, modesFolded: false });
  }

  /** A view arrived: resets what the payer was doing on the old step. */
  applied(view: CheckoutView, before: CheckoutView | null, fromAction: boolean, preferred: CheckoutMode | undefined): void {
    if (fromAction || (before && stepKey(before) !== stepKey(view))) this.set({ choice: null, asking: null });
    // Found at a bank's sign-in (a reload, a back from the accounts): the way to pay was chosen.
    if (view.state === 'login' && (!before || before.state !== 'login')) this.set({ modesFolded: true });
    // The shop asked for a way to pay (its own page offered the choice): it shows on one line.
    if (!before && preferred && view.modes.includes(preferred)) this.set({ modesFolded: true });
  }

  /** The bank chosen in the list and not yet signed in to, or null. */
  get chosenBank(): BankView | null {
    return this.choice === 'list' ? null : this.choice;
  }

  /** Chooses a bank of the list (its sign-in form shows, focus on it); a bank not in the list is ignored. */
  readonly chooseBank = (bankId: string): void => {
    const bank = findBank(this.checkout.groups ?? [], bankId);
    if (!bank) return;
    this.set({ choice: bank, triedBank: bank, modesFolded: true });
    this.checkout.clearNotice();
    void this.focusStep();
    // A bank in maintenance is told to the BFF for the merchant's funnel (no sign-in will say it
    // was chosen); nothing waits for it. An active bank is told by its sign-in: no request more.
    if (!bank.active) void this.checkout.client?.chooseBank?.({ bankId }).catch(() => {});
  };

  /** Back to the bank list, for another bank. */
  readonly toBanks = (): void => {
    this.set({ choice: 'list' });
    this.checkout.clearNotice();
    void this.checkout.loadGroups();
    void this.focusStep();
  };

  /** The payer chose a mode: redirect is shown at once; native and periodic ask the BFF. */
  chooseMode(mode: CheckoutMode): void {
    this.modes.want(mode);
    this.checkout.clearNotice();
    if (this.choice !== 'list') this.set({ choice: null });
    const v = this.checkout.view;
    if (v && showsBankList(v, mode)) void this.checkout.loadGroups();
    void this.modes.sync();
  }

  /** Opens the choice of how to pay again, focus on the chosen one. */
  async changeMode(): Promise<void> {
    this.set({ modesFolded: false });
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLInputElement>('[part=modes] input:checked')?.focus();
  }

  /** The payer left the choice of how to pay after choosing: it folds to one line. */
  readonly leaveModes = (e: FocusEvent): void => {
    const modes = e.currentTarget as HTMLElement;
    if (this.modes.wanted && !modes.contains(e.relatedTarget as Node | null)) this.set({ modesFolded: true });
  };

  /**
   * Asks before cancelling, or before a back that ends the bank session (focus on the safe
   * answer), or goes back to the button asked from.
   */
  readonly ask = async (which: 'cancel' | 'back', asking: boolean): Promise<void> => {
    this.set({ asking: asking ? which : null });
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLButtonElement>(`[part=${which}] ${asking ? '.primary' : 'button'}`)?.focus();
  };

  /** Tries again after a failed call: the checkout read again, and the bank list when it shows. */
  async retry(): Promise<void> {
    const c = this.checkout;
    c.clearNotice();
    await c.refresh();
    const v = c.view;
    if ((v?.state === 'select-bank' && shownMode(v, this.modes.wanted) === 'native') || this.choice === 'list') await c.loadGroups();
  }

  /**
   * Moves focus to the current step (its first field or its heading); first to the offer of the
   * bank's own page when one shows (above the step: reading on from focus meets it, then the step).
   */
  async focusStep(): Promise<void> {
    const root = this.host.renderRoot;
    await this.host.updateComplete;
    const offer = root.querySelector<Focusable>('bank-rail-offer');
    if (offer?.offering) return offer.focusStart?.();
    const step = () => root.querySelector('.step')?.lastElementChild as Focusable | null;
    if (step()?.matches('p[role=status]')) {
      // The step's file is still coming: focus it once it is in.
      await stepFilesSettled();
      await this.host.updateComplete;
    }
    const at = step();
    if (at?.focusStart) await at.focusStart();
    else root.querySelector<HTMLElement>('.step h2[tabindex]')?.focus();
  }

  /** What the step's templates read and call (templates.ts `StepParts`). */
  parts(view: CheckoutView, t: Translate, clock: Clock, refresh: () => unknown): StepParts {
    const c = this.checkout;
    return {
      view,
      t,
      status: c.status,
      busy: c.busy,
      clock,
      wanted: this.modes.wanted,
      redirectStart: showsRedirectStart(view, this.modes.wanted),
      choice: this.choice,
      asking: this.asking,
      onPhone: c.onPhone,
      toBanks: this.toBanks,
      choose: this.chooseBank,
      ask: this.ask,
      run: (action) => {
        this.set({ asking: null });
        void c.run(action);
      },
      refresh,
    };
  }
}
