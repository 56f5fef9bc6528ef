/**
 * The context `<bank-checkout>` provides to its step elements: the current view, the bank list,
 * the typed client, the locale, whether a call is in flight, and the way to run an action.
 */
import { createContext } from '@lit/context';
import type { BankGroupView, CheckoutView } from '@bank-checkout/contract';
import type { CheckoutClient } from './client.js';

/**
 * One call of a step to the BFF, given the typed client (such as `(c) => c.cancel()`). Not to
 * be confused with the contract's `CheckoutAction`, the name of an action the BFF allows.
 */
export type StepAction = (client: CheckoutClient) => Promise<CheckoutView>;

export interface CheckoutContextValue {
  view: CheckoutView | null;
  groups: BankGroupView[] | null;
  client: CheckoutClient | null;
  /** A resolved locale with a catalogue (`es`, `en`, …). */
  locale: string;
  /** A call to the BFF is in flight: actions are disabled. */
  busy: boolean;
  /**
   * Runs one action against the BFF and shows its answer. Resolves with the new view, or null
   * when the call failed (the provider shows the error and resynchronises the view).
   */
  run(action: StepAction): Promise<CheckoutView | null>;
  /** Reads the current view again (read-only, safe to repeat). */
  refresh(): Promise<void>;

  /** Reads the current view again quietly (no busy state; skipped while an action runs): a background check. */
  check?(): Promise<void>;
  /** The payer finishes at the bank's page on their phone: the page stays when the bank's page is ready, and waits for the result. */
  onPhone?: boolean;
  /** Sets `onPhone`. */
  setOnPhone?(on: boolean): void;
}

export const checkoutContext = createContext<CheckoutContextValue | undefined>(Symbol.for('bank-checkout.context'));
