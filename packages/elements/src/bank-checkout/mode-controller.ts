/**
 * The mode the payer wants (native, redirect or periodic) while the checkout is at its start,
 * and the switch of the BFF to it: one call at a time, until the checkout matches the latest
 * choice (the payer may move through the choices faster than the BFF answers).
 */
import type { ReactiveControllerHost } from 'lit';
import type { CheckoutMode, CheckoutView } from '@bank-checkout/contract';
import { needsSwitch, preferredMode } from '../logic/checkout.js';
import type { CheckoutController } from './checkout-controller.js';

/** Needs no hook of the host's: it asks the host to update when the choice changes. */
export class ModeController {
  /** The mode the payer (or the `mode` attribute) chose at the start; null: the view's. */
  wanted: CheckoutMode | null = null;
  /** The checkout a mode switch runs for (it follows later choices itself). */
  private switchingFor: AbortSignal | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly checkout: CheckoutController,
  ) {}

  /** Forgets the choice (a new checkout). */
  reset(): void {
    this.wanted = null;
    this.switchingFor = null;
    this.host.requestUpdate();
  }

  /** Sets the choice; the caller then syncs. */
  want(mode: CheckoutMode | null): void {
    this.wanted = mode;
    this.host.requestUpdate();
  }

  /** Takes the `mode` attribute as the payer's choice when the checkout allows it and is at its start. */
  prefer(attribute: CheckoutMode | undefined, view: CheckoutView): void {
    const mode = preferredMode(attribute, view);
    if (mode) {
      this.want(mode);
      void this.sync();
    }
  }

  /**
   * Switches the BFF to the chosen mode, one call at a time, until it matches the latest
   * choice. Focus stays on the chooser.
   */
  async sync(): Promise<void> {
    const c = this.checkout;
    const signal = c.signal;
    if (this.switchingFor === signal) return;
    this.switchingFor = signal;
    try {
      let v = c.view;
      while (v && this.wanted && !c.busy && needsSwitch(this.wanted, v)) {
        const mode = this.wanted;
        const next = await c.perform((client) => client.mode({ mode }), false);
        if (signal.aborted) return;
        if (!next) {
          // The notice tells why; the chooser shows the mode the checkout is in.
          this.want(null);
          return;
        }
        v = next;
      }
    } finally {
      if (this.switchingFor === signal) this.switchingFor = null;
    }
  }
}
