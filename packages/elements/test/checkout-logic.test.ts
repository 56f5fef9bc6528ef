import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckoutMode } from '@bank-checkout/contract';
import { modeOf, needsSwitch, preferredMode, showsBankList, showsRedirectStart, shownMode, stepKey, waitKey } from '../src/logic/checkout.js';
import { AURORA, PERIODIC_BANKS, validation, view } from './fixtures.js';

const ALL: CheckoutMode[] = ['native', 'redirect', 'periodic'];
const selectBank = (modes: CheckoutMode[] = ALL, mode: CheckoutMode = 'native') => view({ state: 'select-bank' }, { modes, mode });
const periodic = view({ state: 'periodic', banks: PERIODIC_BANKS }, { mode: 'periodic', modes: ALL });
const challenge = (round: number) =>
  view({ state: 'validate', bank: { bankId: 'aurora', label: 'Aurora' }, round, deadline: '2030-01-01T00:00:00Z', validations: [validation(1)] });
const redirect = view({ state: 'redirect', url: 'https://gateway.example/pay' }, { mode: 'redirect', modes: ALL });

describe('checkout steps', () => {
  it('tells a new round of validations from the same step', () => {
    assert.equal(stepKey(challenge(1)), 'validate#1');
    assert.notEqual(stepKey(challenge(1)), stepKey(challenge(2)));
    assert.equal(stepKey(selectBank()), 'select-bank');
  });

  it('waits for a result only while unknown, or back from the bank’s page', () => {
    assert.equal(waitKey(view({ state: 'unknown' }), false), 'unknown');
    assert.equal(waitKey(redirect, false), 'redirect');
    assert.equal(waitKey(redirect, true), null, 'not while the page is on its way to the bank');
    assert.equal(waitKey(selectBank(), false), null);
    assert.equal(waitKey(null, false), null);
  });
});

describe('checkout modes', () => {
  it('reads the mode a checkout at its start stands for', () => {
    assert.equal(modeOf(selectBank()), 'native');
    assert.equal(modeOf(selectBank(ALL, 'redirect')), 'redirect');
    assert.equal(modeOf(periodic), 'periodic');
  });

  it('shows the mode the payer chose when the merchant allowed it, else the checkout’s', () => {
    assert.equal(shownMode(selectBank(), 'periodic'), 'periodic');
    assert.equal(shownMode(selectBank(['native', 'redirect']), 'periodic'), 'native');
    assert.equal(shownMode(periodic, null), 'periodic');
  });

  it('asks the BFF to switch only when it allows a switch and the mode differs; redirect never', () => {
    assert.equal(needsSwitch('periodic', selectBank()), true);
    assert.equal(needsSwitch('native', selectBank()), false);
    assert.equal(needsSwitch('native', periodic), true);
    assert.equal(needsSwitch('redirect', selectBank()), false);
    assert.equal(needsSwitch('periodic', challenge(1)), false, 'not past the start');
    assert.equal(needsSwitch('periodic', selectBank(['native', 'periodic'], 'native')), true);
    assert.equal(needsSwitch('periodic', { ...selectBank(), actions: ['login', 'cancel'] }), false, 'the view’s actions decide');
  });

  it('takes the merchant’s preferred mode only when allowed and at the start', () => {
    assert.equal(preferredMode('periodic', selectBank()), 'periodic');
    assert.equal(preferredMode('redirect', selectBank()), 'redirect');
    assert.equal(preferredMode('native', selectBank()), null, 'already shown');
    assert.equal(preferredMode('periodic', selectBank(['native', 'redirect'])), null, 'not allowed by the merchant');
    assert.equal(preferredMode('periodic', selectBank(['native'])), null, 'one mode: no switch');
    assert.equal(preferredMode('native', redirect), null, 'past the start');
    assert.equal(preferredMode(undefined, selectBank()), null);
  });

  it('shows the redirect button when redirect is chosen and the BFF offers it', () => {
    assert.equal(showsRedirectStart(selectBank(), 'redirect'), true);
    assert.equal(showsRedirectStart(selectBank(ALL, 'redirect'), null), true);
    assert.equal(showsRedirectStart(selectBank(), null), false);
    assert.equal(showsRedirectStart(view({ state: 'login', bank: AURORA }, { modes: ALL }), 'redirect'), true);
    assert.equal(showsRedirectStart(redirect, 'redirect'), false, 'the redirect state shows its own step');
  });

  it('needs the native bank list only when the native list is what shows', () => {
    assert.equal(showsBankList(selectBank(), null), true);
    assert.equal(showsBankList(selectBank(), 'redirect'), false);
    assert.equal(showsBankList(selectBank(), 'periodic'), false);
    assert.equal(showsBankList(periodic, 'native'), false, 'the BFF must switch first');
    assert.equal(showsBankList(view({ state: 'login', bank: AURORA }), null), false);
  });
});
