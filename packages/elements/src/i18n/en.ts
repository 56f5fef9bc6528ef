import type { enChallenge } from './en-challenge.js';
import type { enSteps } from './en-steps.js';
import type { enPeriodic } from './en-periodic.js';
import type { enExtras } from './en-extras.js';
import type { enFrame } from './en-frame.js';

/**
 * English: the reference catalogue, with its parts in files of their own (en-steps.ts,
 * en-challenge.ts and en-periodic.ts: the texts of the steps and forms that load on demand,
 * which bring them; en-frame.ts: those only the isolated frame shows, which its page brings). Their keys
 * define `MessageKey`; every other locale must have each of them. `{name}` marks a parameter.
 * These are the texts of what a page loads up front.
 */
export const en = {
  'summary.label': 'Payment summary',
  'frame.title': 'Pay by bank',
  'frame.loading': 'Loading the payment…',
  'summary.amount': 'Amount',
  'summary.payee': 'Pay to',
  'summary.iban': 'Account',
  'summary.subject': 'Concept',
  'summary.reference': 'Reference',
  'summary.details': 'Payment details',
  'sandbox.banner': 'Test mode: no real money moves.',
  'status.loading': 'Loading…',
  'status.busy': 'Contacting your bank…',
  'status.oneMoment': 'One moment…',
  'status.confirming': 'Confirming with your bank…',

  'action.back': 'Choose another bank',
  'action.cancel': 'Cancel payment',
  'action.cancelConfirm': 'Cancel this payment?',
  'action.cancelYes': 'Yes, cancel',
  'action.cancelNo': 'No, continue',
  'action.retry': 'Try again',
  'action.refresh': 'Check again',
  'action.continue': 'Continue',

  'selector.title': 'Choose your bank',
  'selector.search': 'Search your bank',
  'selector.banks': 'Banks',
  'selector.personType': 'Account holder',
  'selector.natural': 'Personal',
  'selector.legal': 'Business',
  'selector.recent': 'Last used',
  'selector.maintenance': '(in maintenance)',
  'selector.empty': 'No bank matches “{query}”.',
  'selector.results': 'Banks found: {count}',

  'result.succeeded': 'Payment completed',
  'result.succeededBody': 'Your bank has accepted the payment.',
  'result.mandate': 'Periodic payment set up',
  'result.mandateBody': 'Nothing was charged today: your bank pays on the dates you chose.',
  'result.failed': 'Payment not completed',
  'result.expired': 'Payment time ran out',
  'result.cancelled': 'Payment cancelled',
  'result.unknown': 'We are confirming your payment',
  'result.error': 'Something went wrong',

  'redirect.title': 'Taking you to your bank…',
  'redirect.link': 'Continue to your bank',
  'redirect.start': 'Pay at your bank’s website',
  'redirect.intro': 'You will pay on your bank’s secure page and then come back here.',
  'redirect.waitingTitle': 'Waiting for your bank',
  'redirect.waitingBody': 'If you completed the payment at your bank, this page updates by itself in a moment. Do not pay again.',
  'redirect.back': 'Return to your bank’s page',

  'mode.title': 'How do you want to pay?',
  'mode.native': 'Pay now from your bank',
  'mode.nativeDetail': 'Sign in to your bank here, without leaving this page.',
  'mode.redirect': 'Pay on your bank’s page',
  'mode.redirectDetail': 'We take you to your bank’s website to pay.',
  'mode.periodic': 'Set up a periodic payment',
  'mode.periodicDetail': 'Authorise this amount to be paid from your account on a schedule.',
  'mode.change': 'Change',
  'mode.changeLabel': 'Change how to pay',

  'error.B100': 'Your bank did not accept these credentials. Check them and try again.',
  'error.B101': 'This account cannot be used for the payment. Choose another account.',
  'error.B102': 'Your bank did not authorise this payment.',
  'error.B103': 'The confirmation code was not correct.',
  'error.B104': 'Your bank needs you to do something in your online banking first (such as activating a service). Then try again.',
  'error.B105': 'This bank is in maintenance right now. Please choose another bank or try later.',
  'error.B106': 'This account needs more than one signature. Choose another account.',
  'error.B107': 'Transfers are not allowed from this account. Choose another account.',
  'error.B108': 'Your online-banking user may not make transfers. Ask your bank, or choose another bank.',
  'error.E300': 'Your bank could not complete the operation right now. Try again in a few minutes, or choose another bank.',
  'error.linkNotCompleted': 'The payment was not completed at your bank. No money was moved.',
  'error.E301': 'Your bank rejected some of the data sent.',
  'error.secondLoginCode': 'The code was not correct, so your bank closed the login. Log in again to get a new code.',
  'error.sessionEnded': 'Your session with the bank has ended. Log in again to continue.',
  'error.E302': 'You cannot pay from the account that receives the payment. Choose another account.',
  'error.expired': 'The time to pay has run out. Start again from the shop.',
  'error.cancelled': 'The payment was cancelled. No money was moved.',
  'error.unknown': 'We could not learn the outcome from your bank yet. Do not pay again: we are checking it.',
  'error.deadline': 'The confirmation was not completed in time, so your bank cancelled it.',
  'error.attempts': 'There were too many failed attempts, so the payment was stopped.',
  'error.upstream': 'Your bank’s service answered with an error. Try again in a moment.',
  'error.upstream_timeout': 'Your bank’s service did not answer in time. Try again in a moment.',
  'error.invalid_state': 'This step is no longer possible. The page shows the current step.',
  'error.network': 'We could not reach the payment service. Check your connection and try again.',
  'error.rate_limited': 'Too many requests. Wait a moment and try again.',
  'error.checkout_busy': 'Your previous request is still in progress. Wait a moment.',
  'error.checkout_finished': 'This payment has already finished.',
  'error.unauthorized': 'This payment link is not valid.',
  'error.not_found': 'This payment could not be found.',
  'error.validation_failed': 'Some of the data is not valid. Check it and try again.',
  'error.mode_not_allowed': 'This way of paying is not available for this payment.',
  'error.generic': 'Something went wrong. Try again in a moment.',
  'error.stale_step': 'This payment moved on in another window: this page now shows where it is.',
} as const;

export type MessageKey = keyof typeof en | keyof typeof enSteps | keyof typeof enChallenge | keyof typeof enPeriodic | ExtrasKey | keyof typeof enFrame;
/** The texts of what loads after the first screen (en-extras.ts). */
export type ExtrasKey = keyof typeof enExtras;
/** A complete catalogue: one string per key. */
export type Catalogue = Record<MessageKey, string>;
/** The texts of what a page loads up front (`en` and `es` as built in). */
export type UpFrontTexts = Record<keyof typeof en, string>;
