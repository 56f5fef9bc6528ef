/**
 * What the checkout and result pages do beside the element: the language switch (remembered
 * for the shop's next pages, the result page included), a link to the order once the payment
 * ended (the element shows the outcome itself; the shop then shows the order's own page), and
 * on the result page a heading that follows a payment started again there. The element's
 * events are the same inline and isolated.
 */

const after = document.getElementById('after');
const language = document.getElementById('checkout-language');
/** Kept as the shop's `checkout-language` cookie (apps/demo/src/shop.ts reads it). */
const LANGUAGE_COOKIE = 'checkout-language';

// The element follows its locale at runtime (loading Catalan, Basque or Galician on first use).
language?.addEventListener('change', () => {
  const el = document.getElementById('bank-checkout');
  if (!(language instanceof HTMLSelectElement)) return;
  el?.setAttribute('locale', language.value);
  document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(language.value)}; Path=/; SameSite=Lax; Max-Age=31536000`;
});
const link = document.getElementById('after-link');

document.addEventListener('bank-checkout-complete', (e) => {
  if (!after || !(link instanceof HTMLAnchorElement)) return;
  const { checkoutId, outcome } = e.detail;
  link.href = `/result?${new URLSearchParams({ checkout: checkoutId, result: outcome }).toString()}`;
  link.textContent = outcome === 'succeeded' ? 'Continue: see your order' : 'See what happened to your order';
  after.hidden = false;
});

/* ---------- the result page ---------- */

interface Words {
  title: string;
  body: string;
}
const result = document.querySelector<HTMLElement>('.result-page');
const texts = result?.dataset.texts ? (JSON.parse(result.dataset.texts) as { final: Record<string, Words>; underWay: Words; payAgain: Words }) : null;
const FINAL = ['succeeded', 'failed', 'cancelled', 'expired', 'unknown'];

/** The heading says what the checkout below shows: paying again, or how it ended. */
function follow(state: string): void {
  if (!result || !texts) return;
  const words = FINAL.includes(state) ? (texts.final[state] ?? texts.underWay) : state === 'redirect' ? texts.underWay : texts.payAgain;
  // Unchanged (a periodic order set up keeps the server's words: a mandate, with its schedule).
  if (result.dataset.state === state) return;
  result.dataset.state = state;
  document.getElementById('result-title')!.textContent = words.title;
  document.getElementById('result-body')!.textContent = words.body;
}

if (result) {
  document.addEventListener('bank-checkout-step', (e) => follow(e.detail.state));
  document.addEventListener('bank-checkout-complete', (e) => follow(e.detail.outcome));
}
