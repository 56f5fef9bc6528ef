/** When the bank's own page is offered in one tap (logic/rail.ts). */
import type { ViewErrorCode } from '@bank-checkout/contract';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { railRoute } from '../src/logic/rail.js';
import { view } from './fixtures.js';

const err = (code: ViewErrorCode) => ({ code, message: `error.${code}` as const });

describe('railRoute', () => {
  it('offers the bank’s page after a bank-side refusal or an upstream failure at sign-in, when redirect is allowed', () => {
    for (const code of ['B104', 'B105', 'B108'] as const)
      assert.equal(railRoute(view({ state: 'select-bank' }, { modes: ['native', 'redirect'], error: err(code) })), 'redirect', code);
    assert.equal(
      railRoute(view({ state: 'login', bank: { bankId: 'a', label: 'A' } as never }, { modes: ['native', 'redirect'], error: err('upstream') })),
      'redirect',
    );
    assert.equal(railRoute(view({ state: 'failed' }, { modes: ['native', 'redirect'], error: err('B108') })), 'restart');
  });

  it('offers nothing for the payer’s own mistakes, without redirect, or outside the native flow', () => {
    assert.equal(railRoute(view({ state: 'login', bank: { bankId: 'a', label: 'A' } as never }, { modes: ['native', 'redirect'], error: err('B100') })), null);
    assert.equal(railRoute(view({ state: 'select-bank' }, { modes: ['native'], error: err('B104') })), null);
    assert.equal(railRoute(view({ state: 'select-bank' }, { modes: ['native', 'redirect'] })), null);
    assert.equal(
      railRoute(view({ state: 'select-account', bank: { bankId: 'a', label: 'A' }, accounts: [] }, { modes: ['native', 'redirect'], error: err('upstream') })),
      null,
    );
  });
});
