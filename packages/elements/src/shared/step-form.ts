/**
 * A step whose form lives in a file of its own (its state, checks and template): the element is
 * registered up front and stays light, and the form's code comes with the first element shown,
 * or ahead of time with `<bank-checkout>`'s later steps. Until it is in, the element says it is
 * loading, and its `updateComplete` waits for it.
 */
import { html, type PropertyValues, type TemplateResult, type nothing } from 'lit';
import { BankElement } from './bank-element.js';

export type { StepFormHost } from './bank-element.js';

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

/** What a step's form in a file of its own does for its element. */
export interface StepForm {
  willUpdate(changed: PropertyValues): void;
  render(): TemplateResult | typeof nothing;
}

/**
 * A step whose form comes in a file of its own (shared/step-form.ts): the form is made at the
 * first update after its file is in; until then the element says it is loading, and its
 * `updateComplete` waits for the form.
 */
export abstract class FormStepElement extends BankElement {
  /** The file of this step's form. */
  protected abstract get formFile(): FormFile<never, StepForm>;

  /** The form itself, once its file is in. */
  private form: StepForm | null = null;

  protected override willUpdate(changed: PropertyValues<this>): void {
    const file = this.formFile;
    if (!this.form && file.form) this.form = new file.form(this.formHost() as never);
    if (this.form) this.form.willUpdate(changed);
    else
      void file.load().then(
        () => this.requestUpdate(),
        () => {},
      );
  }

  /** Resolves once the form is shown (its file may still be coming at the first update). */
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    if (this.form || !this.hasUpdated) return done;
    await this.formFile.load().catch(() => {});
    return super.getUpdateComplete();
  }

  override render() {
    // Until the form's file is in, say so (as <bank-checkout> does for a step on its way).
    return this.form ? this.form.render() : html`<p role="status">${this.t('status.loading')}</p>`;
  }
}
