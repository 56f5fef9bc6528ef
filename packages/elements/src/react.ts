/**
 * `@bank-checkout/elements/react`: React components for the kit's elements, made with
 * `@lit/react`: typed props (the element's properties) and `onBank…` event props with the
 * events' typed details. React 19 can also use the tags directly; these wrappers add the
 * typing and work on React 18.
 *
 * ```tsx
 * import { BankCheckout } from '@bank-checkout/elements/react';
 * <BankCheckout checkoutSecret={secret} api="/bff" onBankCheckoutComplete={(e) => go(e.detail.outcome)} />
 * ```
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import { BankCheckout as BankCheckoutElement } from './bank-checkout/bank-checkout.js';
import { BankSelector as BankSelectorElement } from './bank-selector/bank-selector.js';
import { BankLoginForm as BankLoginFormElement } from './bank-login-form/bank-login-form.js';
import { BankSecondLogin as BankSecondLoginElement } from './bank-second-login/bank-second-login.js';
import { BankContractPicker as BankContractPickerElement } from './bank-contract-picker/bank-contract-picker.js';
import { BankMaintenance as BankMaintenanceElement } from './bank-maintenance/bank-maintenance.js';
import { BankAccountPicker as BankAccountPickerElement } from './bank-account-picker/bank-account-picker.js';
import { BankChallenge as BankChallengeElement } from './bank-challenge/bank-challenge.js';
import { BankPeriodicForm as BankPeriodicFormElement } from './bank-periodic-form/bank-periodic-form.js';
import { BankResult as BankResultElement } from './bank-result/bank-result.js';
import type { BankEventMap } from './events.js';

/** The React prop of a kit event, typed with its detail. */
const on = <K extends keyof BankEventMap>(name: K) => name as EventName<CustomEvent<BankEventMap[K]>>;

/** Events every step fires (it moved the checkout, or a call failed). */
const stepEvents = { onBankCheckoutStep: on('bank-checkout-step'), onBankCheckoutError: on('bank-checkout-error') };

export const BankCheckout = createComponent({
  tagName: 'bank-checkout',
  elementClass: BankCheckoutElement,
  react: React,
  events: { ...stepEvents, onBankCheckoutComplete: on('bank-checkout-complete') },
  displayName: 'BankCheckout',
});

export const BankSelector = createComponent({
  tagName: 'bank-selector',
  elementClass: BankSelectorElement,
  react: React,
  events: { onBankSelect: on('bank-select'), onBankCheckoutError: on('bank-checkout-error') },
  displayName: 'BankSelector',
});

export const BankLoginForm = createComponent({
  tagName: 'bank-login-form',
  elementClass: BankLoginFormElement,
  react: React,
  events: stepEvents,
  displayName: 'BankLoginForm',
});

export const BankSecondLogin = createComponent({
  tagName: 'bank-second-login',
  elementClass: BankSecondLoginElement,
  react: React,
  events: stepEvents,
  displayName: 'BankSecondLogin',
});

export const BankContractPicker = createComponent({
  tagName: 'bank-contract-picker',
  elementClass: BankContractPickerElement,
  react: React,
  events: stepEvents,
  displayName: 'BankContractPicker',
});

export const BankMaintenance = createComponent({
  tagName: 'bank-maintenance',
  elementClass: BankMaintenanceElement,
  react: React,
  events: { ...stepEvents, onBankChooseOther: on('bank-choose-other') },
  displayName: 'BankMaintenance',
});

export const BankAccountPicker = createComponent({
  tagName: 'bank-account-picker',
  elementClass: BankAccountPickerElement,
  react: React,
  events: stepEvents,
  displayName: 'BankAccountPicker',
});

export const BankChallenge = createComponent({
  tagName: 'bank-challenge',
  elementClass: BankChallengeElement,
  react: React,
  events: { ...stepEvents, onBankChallengeExpire: on('bank-challenge-expire') },
  displayName: 'BankChallenge',
});

export const BankPeriodicForm = createComponent({
  tagName: 'bank-periodic-form',
  elementClass: BankPeriodicFormElement,
  react: React,
  events: { ...stepEvents, onBankPeriodicSubmit: on('bank-periodic-submit') },
  displayName: 'BankPeriodicForm',
});

export const BankResult = createComponent({
  tagName: 'bank-result',
  elementClass: BankResultElement,
  react: React,
  events: { onBankRetry: on('bank-retry') },
  displayName: 'BankResult',
});
