/**
 * What the checkout and result pages do beside the element: the language switch, and a link to
 * the order once the payment ended (the element shows the outcome itself; the shop then shows
 * the order's own page). The element's events are the same inline and isolated.
 */

const after = document.getElementById('after');
const language = document.getElementById('checkout-language');

// The element follows its locale at runtime (loading Catalan, Basque or Galician on first use).
language?.addEventListener('change', () => {
  const el = document.getElementById('bank-checkout');
  if (el && language instanceof HTMLSelectElement) el.setAttribute('locale', language.value);
});
const link = document.getElementById('after-link');

document.addEventListener('bank-checkout-complete', (e) => {
  if (!after || !(link instanceof HTMLAnchorElement)) return;
  const { checkoutId, outcome } = e.detail;
  link.href = `/result?${new URLSearchParams({ checkout: checkoutId, result: outcome }).toString()}`;
  link.textContent = outcome === 'succeeded' ? 'Continue: see your order' : 'See what happened to your order';
  after.hidden = false;
});
