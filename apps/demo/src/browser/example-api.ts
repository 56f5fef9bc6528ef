/**
 * What both embedding examples do first: ask the shop's server for a checkout. The server
 * creates it with the BFF's merchant API (the merchant secret never reaches the page) and
 * answers with a single-use launch token (only the checkout's frame can redeem it) and the
 * BFF's address for the element.
 */
export type Mode = 'native' | 'redirect' | 'periodic';

export interface ExampleCheckout {
  checkoutId: string;
  launchToken: string;
  api: string;
  mode: Mode;
  amount: number;
}

export async function createExampleCheckout(mode: Mode): Promise<ExampleCheckout> {
  const res = await fetch('/examples/api/checkout', {
    method: 'POST',
    // A fresh key per attempt: a retry of this request finds the same checkout.
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({ mode }),
  });
  const body = (await res.json().catch(() => null)) as (ExampleCheckout & { error?: { message: string } }) | null;
  if (!res.ok || !body || body.error) throw new Error(body?.error?.message ?? `The shop answered HTTP ${res.status}.`);
  return body;
}

export const formatEuros = (cents: number) => new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' }).format(cents / 100);

/** The kit's events an integration usually listens to. */
export const CHECKOUT_EVENTS = ['bank-checkout-step', 'bank-checkout-complete', 'bank-checkout-error'] as const;
