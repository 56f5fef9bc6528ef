/**
 * A step whose form lives in a file of its own (its state, checks and template): the element is
 * registered up front and stays light, and the form's code comes with the first element shown,
 * or ahead of time with `<bank-checkout>`'s later steps. Until it is in, the element says it is
 * loading, and its `updateComplete` waits for it.
 */
import type { TemplateResult, nothing } from 'lit';
import type { CheckoutView } from '@bank-checkout/contract';
import type { CheckoutContextValue, StepAction } from '../context.js';

/** What a step's form reads and calls on its element, the element's own side included. */
export interface StepFormHost<E extends HTMLElement> {
  readonly element: E;
  /** The checkout view (the element's `view`, else the checkout's). */
  view(): CheckoutView | null;
  locale(): string;
  /** A call is in flight. */
  busy(): boolean;
  /** Test mode (the element's `sandbox`, else the view's). */
  inSandbox(): boolean;
  /** Inside `<bank-checkout>`: what it provides. */
  checkout(): CheckoutContextValue | undefined;
  /** Runs an action as a step does (through `<bank-checkout>`, or alone with the element's `client`). */
  run(action: StepAction): Promise<CheckoutView | null>;
  /** The error that applies to the step now, if any. */
  errorCode(): { code: string; message?: string } | null;
  /** That error as an alert, with optional extra lines. */
  renderError(extra?: TemplateResult | typeof nothing): TemplateResult | typeof nothing;
}

/** Loads a module once; after a failed load, the next call tries again. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    }));
}

/**
 * A step's form class in a file of its own: `load()` fetches the file (once; again after a
 * failure), and the file hands its class to `define()` when it runs, however it was fetched, so
 * that an element whose form came ahead of time shows it at its first update.
 */
export class FormFile<Host, Form> {
  /** The form's class, once its file has run. */
  form: (new (host: Host) => Form) | undefined;
  readonly load: () => Promise<unknown>;

  constructor(load: () => Promise<unknown>) {
    this.load = loadOnce(load);
  }

  define(form: new (host: Host) => Form): void {
    this.form = form;
  }
}
