/**
 * Journeys the payer makes through the rig: the native flow, typing what the payer knows (the
 * bank's credentials, the codes the bank's device shows), and the payment-link flows through
 * the provider's hosted gateway back to the merchant's page.
 */
import assert from 'node:assert/strict';
import type { BankView, CheckoutView } from '@bank-checkout/contract';
import { formFor, submit, testCredentials, walkGateway } from '@bank-checkout/sandbox/testing';
import { payingAccount } from '../../../packages/bff/test/flow.js';
import { GATEWAY_PAYER } from './canary.js';
import { json, type Rig } from './rig.js';

export async function bankOf(rig: Rig, secret: string, bankId: string): Promise<BankView> {
  const { groups } = await json<{ groups: { types: BankView[] }[] }>(await rig.checkout(secret, '/v1/banks'));
  const bank = groups.flatMap((g) => g.types).find((b) => b.bankId === bankId);
  assert.ok(bank, `bank ${bankId} listed`);
  return bank;
}

export interface NativePlan {
  loginId?: string;
  /** Replaces the login's secret (a wrong password). */
  userSecret?: string;
  /** Replaces the code the device shows for the second login (a wrong code). */
  secondLogin?: string;
  /** Replaces the answer to a validation (a wrong code). */
  answer?: (fieldId: string, type: number) => string | undefined;
  stopAt?: CheckoutView['state'];
}

/** The payer logs in and answers every step from what the bank tells them, to a final state. */
export async function payNative(rig: Rig, secret: string, bankId: string, plan: NativePlan = {}): Promise<CheckoutView> {
  const bank = await bankOf(rig, secret, bankId);
  const loginId = plan.loginId ?? bank.defaultLogin;
  const creds: Record<string, string | undefined> = { ...testCredentials(bankId, loginId), ...(plan.userSecret ? { userSecret: plan.userSecret } : {}) };
  const fields = Object.fromEntries(bank.logins.find((l) => l.loginId === loginId)!.fields.map((f) => [f.fieldId, creds[f.fieldId] ?? '']));
  for (const v of Object.values(fields)) rig.typed.add(v);
  let v = await json<CheckoutView>(await rig.checkout(secret, '/v1/checkout/login', { bankId, loginId, fields }));
  for (let guard = 0; guard < 12; guard++) {
    if (plan.stopAt && v.state === plan.stopAt) return v;
    const s = v.step;
    switch (s.state) {
      case 'second-login': {
        const value = plan.secondLogin ?? rig.device.get(s.field.fieldId);
        assert.ok(value, 'the device shows the second-login code');
        rig.typed.add(value);
        v = await json(await rig.checkout(secret, '/v1/checkout/second-login', { value }));
        break;
      }
      case 'select-contract':
        v = await json(await rig.checkout(secret, '/v1/checkout/contract', { contractId: s.contracts[0]!.contractId }));
        break;
      case 'select-account':
        v = await json(await rig.checkout(secret, '/v1/checkout/transfer', { accountId: payingAccount(bankId, s.accounts) }));
        break;
      case 'validate': {
        const values = Object.fromEntries(
          s.validations.map((x) => [x.fieldId, plan.answer?.(x.fieldId, x.type) ?? (x.type === 6 ? 'SIGNED' : (rig.device.get(x.fieldId) ?? ''))]),
        );
        for (const value of Object.values(values)) rig.typed.add(value);
        v = await json(await rig.checkout(secret, '/v1/checkout/validate', { values }));
        break;
      }
      default:
        return v;
    }
  }
  throw new Error(`payNative: no final state, last ${v.state}`);
}

export interface LinkJourney {
  view: CheckoutView;
  /** Where the payer's browser ends: the BFF's 303 to the merchant's page. */
  location: string;
}

/**
 * A checkout in a payment-link mode: the element asks the BFF for the signed URL, the payer's
 * browser opens it, logs in at the gateway with the canary credentials, authorises (or fails
 * with `0000` and leaves), and posts the result back to the BFF, which redirects to the shop.
 */
export async function payByLink(rig: Rig, secret: string, how: { periodic?: Record<string, unknown>; fail?: boolean } = {}): Promise<LinkJourney> {
  const view = how.periodic
    ? await json<CheckoutView>(await rig.checkout(secret, '/v1/checkout/periodic', how.periodic))
    : await json<CheckoutView>(await rig.checkout(secret, '/v1/checkout/redirect', {}));
  assert.equal(view.step.state, 'redirect');
  const url = view.step.url;
  let page = await walkGateway(rig.browser, url, { ...GATEWAY_PAYER, code: how.fail ? '0000' : GATEWAY_PAYER.code, bankId: 'es-cantabrico' });
  if (how.fail) page = await submit(rig.browser, formFor(page, 'leave'));
  const back = page.forms.find((f) => 'dataReturn' in f.fields);
  assert.ok(back, `the gateway page "${page.title}" posts the result back`);
  const res = await rig.browser(back.action, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(back.fields).toString(),
  });
  assert.equal(res.status, 303);
  return { view, location: res.headers.get('Location') ?? '' };
}
