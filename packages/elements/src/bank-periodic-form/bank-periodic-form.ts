import { customElement, property } from 'lit/decorators.js';
import type { PeriodicBankView } from '@bank-checkout/contract';
import { elementStyles } from '../shared/styles.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { FormFile, FormStepElement, type StepForm, type StepFormHost } from '../shared/step-form.js';
import { periodicFormStyles } from './bank-periodic-form.styles.js';

/**
 * The form's code (order-form.ts, its own file): loaded with the first form shown, as most
 * checkouts never show one (`<bank-checkout>` fetches it with the element). The element knows
 * the form only as a StepForm, so that nothing here imports that file.
 */
export const orderForm = new FormFile<StepFormHost<BankPeriodicForm>, StepForm>(() => import('./order-form.js'));

/**
 * A periodic payment order: the bank (banks of a group are chosen through the group, then a
 * second list; banks not operational are listed but cannot be chosen), one of the frequencies
 * that bank accepts, the payer's IBAN (grouped in fours as it is typed, checked with the ISO
 * 13616 checksum, and not the payee's own account), the first payment's date (after today; the sentence under it says when the
 * payment runs) and an optional end date. Errors show once a field was left or on submit. A
 * valid submit fires `bank-periodic-submit`, then calls `POST /v1/checkout/periodic` through
 * `<bank-checkout>` (or its own `client`), which sends the payer to the bank's signed page.
 * The element is registered up front; the form's code comes with the first form shown (until
 * then it says it is loading, and `updateComplete` waits for it).
 *
 * @summary Sets up a periodic payment from the payer's account.
 * @fires bank-periodic-submit - The payer submitted a valid order; detail `{bankId, frequency, debtorAccount, startDate, endDate?}` (`debtorAccount` is the payer's IBAN: keep it out of logs).
 * @fires bank-checkout-step - Used alone with `client`: the BFF answered with a new state.
 * @fires bank-checkout-error - Used alone with `client`: the call failed.
 * @csspart form - The form.
 * @csspart title - The heading.
 * @csspart intro - The line under the heading.
 * @csspart empty - The text shown when no bank offers periodic payments.
 * @csspart field - A field (label, control, messages).
 * @csspart label - A field's label.
 * @csspart select - The bank list and the list of a group's banks.
 * @csspart list - The frequencies.
 * @csspart option - One frequency.
 * @csspart input - The IBAN and date inputs.
 * @csspart hint - A line explaining a field.
 * @csspart schedule - The sentence saying when the payment runs.
 * @csspart field-error - A field's error message.
 * @csspart error - The error of the last call, or why the bank list could not be read.
 * @csspart submit - The button that continues to the bank.
 */
@customElement('bank-periodic-form')
export class BankPeriodicForm extends FormStepElement {
  static override styles = [...elementStyles, periodicFormStyles];
  protected override readonly stepState = 'periodic' as const;

  /** The banks that offer periodic payments; by default the step's. */
  @property({ attribute: false }) banks?: PeriodicBankView[] | null;
  /** The clock that decides what "today" is. */
  @property({ attribute: false }) clock: Pick<Clock, 'now'> = systemClock;
  /** Used alone with `client`: how the page goes to the bank's signed page. */
  @property({ attribute: false }) navigate: (url: string) => void = (url) => window.location.assign(url);

  protected get formFile() {
    return orderForm;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-periodic-form': BankPeriodicForm;
  }
}
