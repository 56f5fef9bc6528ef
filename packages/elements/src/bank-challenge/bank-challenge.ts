import { customElement, property } from 'lit/decorators.js';
import type { ValidationView } from '@bank-checkout/contract';
import { elementStyles } from '../shared/styles.js';
import { FormFile, FormStepElement, type StepForm, type StepFormHost } from '../shared/step-form.js';
import { challengeStyles } from './bank-challenge.styles.js';

import { systemClock, type Clock } from '../shared/clock.js';

export { systemClock, type Clock };

/**
 * The form's code (challenge-form.ts, its own file): `<bank-checkout>` fetches it with its later
 * steps; a `<bank-challenge>` used alone loads it with the first challenge shown. The element
 * knows the form only as a StepForm, so that nothing here imports that file.
 */
export const challengeForm = new FormFile<StepFormHost<BankChallenge>, StepForm>(() => import('./challenge-form.js'));

/** Card images are shown only as inline raster or SVG data, never fetched from an address. */
export function isCardImage(value: string | null): value is string {
  return value !== null && /^data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]/i.test(value);
}

/**
 * The transfer's validations, one widget per type: 0 signature code, 1 SMS code, 2 coordinates
 * (the position is shown), 3 coordinates whose position came by SMS, 4 token, 5 coordinates card
 * shown on screen (the bank's image, with a text alternative), 6 signing in the bank's app on
 * another device (instructions, a waiting state and a "done" action that sends `SIGNED`).
 * Several validations of a round are answered together; a further round replaces them. A
 * countdown to the bank's deadline is shown and announced to screen readers at 60, 30 and 10
 * seconds; when time is up the form closes and the checkout is read again. The element is
 * registered up front; its form's code comes in a file of its own (until then it says it is
 * loading, and `updateComplete` waits for it).
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
 * @csspart bank-text - The bank's own words for a field (Spanish), when the label is the kit's.
 * @csspart hint - What to enter.
 * @csspart input - A field's input.
 * @csspart reveal - The show toggle of a masked field.
 * @csspart field-error - A field's error message.
 * @csspart error - An error message.
 * @csspart fill-test - The "fill test values" button (test mode).
 * @csspart test-value - A validation's test value, as text (test mode).
 * @csspart test-not-yet - Test mode: confirm before approving in the app (type 6).
 * @csspart device-label - The bank's label of an approval in its app (type 6).
 * @csspart device-instructions - The bank's instructions for it (type 6).
 * @csspart submit - The confirm (or "done") button.
 */
@customElement('bank-challenge')
export class BankChallenge extends FormStepElement {
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

  protected get formFile() {
    return challengeForm;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-challenge': BankChallenge;
  }
}
