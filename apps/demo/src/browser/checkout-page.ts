import type { ResultWords } from '../result-words.js';

/**
 * What the checkout and result pages do beside the element: the language switch (remembered
 * for the shop's next pages, the result page included), a link to the order once the payment
 * ended (the element shows the outcome itself; the shop then shows the order's own page), the
 * cart's badge once a payment emptied the cart, and
 * on the result page words that follow a payment started again there and the payment's language. The element's
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
const FINAL = ['succeeded', 'failed', 'cancelled', 'expired', 'unknown'];
// A payment started again (Try again): the link to how the one before ended goes until this one ends.
document.addEventListener('bank-checkout-step', (e) => {
  if (after && !FINAL.includes(e.detail.state)) after.hidden = true;
});

type AllWords = Record<string, ResultWords>;
const wordsOf = (el: HTMLElement | null): AllWords | null => (el?.dataset.words ? (JSON.parse(el.dataset.words) as AllWords) : null);
/** The language of the payment, as the switch says now; English for one the shop has no words in. */
function lang(all: AllWords): string {
  const chosen = language instanceof HTMLSelectElement ? language.value : 'en';
  return all[chosen] ? chosen : 'en';
}

/**
 * The cart's badge once a payment succeeded: the shop empties the cart the payment bought (it
 * reads the payment from the BFF itself; the event is only the cue to ask).
 */
async function followCart(): Promise<void> {
  const badge = document.querySelector('header .nav-cart .badge');
  if (!badge) return;
  const res = await fetch('/cart/count', { cache: 'no-store' }).catch(() => null);
  const count = res?.ok ? ((await res.json()) as { count?: unknown }).count : undefined;
  if (typeof count !== 'number') return;
  if (count > 0) {
    badge.textContent = String(count);
    badge.setAttribute('aria-label', `${count} ${count === 1 ? 'item' : 'items'}`);
  } else badge.remove();
}

document.addEventListener('bank-checkout-complete', (e) => {
  if (e.detail.outcome === 'succeeded') void followCart();
  if (!after || !(link instanceof HTMLAnchorElement)) return;
  const { checkoutId, outcome } = e.detail;
  const all = wordsOf(after);
  link.href = `/result?${new URLSearchParams({ checkout: checkoutId, result: outcome }).toString()}`;
  link.textContent = all ? all[lang(all)]![outcome === 'succeeded' ? 'seeOrder' : 'seeWhatHappened'] : link.textContent;
  if (all) link.lang = lang(all);
  after.hidden = false;
});

/* ---------- the result page ---------- */

const result = document.querySelector<HTMLElement>('.result-page');
const all = wordsOf(result);

/** The page says what the checkout below shows (paying again, or how it ended), in the payment's language. */
function show(state: string): void {
  if (!result || !all) return;
  const l = lang(all);
  const w = all[l]!;
  const again = result.hasAttribute('data-again') && (state === 'failed' || state === 'cancelled');
  const words =
    state === 'succeeded' && result.hasAttribute('data-mandate')
      ? w.mandate
      : FINAL.includes(state)
        ? (w.final[(again ? `${state}Again` : state) as keyof ResultWords['final']] ?? w.underWay)
        : state === 'redirect'
          ? w.underWay
          : w.payAgain;
  result.lang = l;
  document.getElementById('result-title')!.textContent = words.title;
  document.getElementById('result-body')!.textContent = words.body;
  for (const el of result.querySelectorAll<HTMLElement>('[data-word]')) el.textContent = w[el.dataset.word as 'order' | 'continueShopping' | 'backToCart'];
  const schedule = document.getElementById('result-schedule');
  if (schedule?.dataset.schedules) schedule.textContent = (JSON.parse(schedule.dataset.schedules) as Record<string, string>)[l] ?? schedule.textContent;
}

/** A step or outcome of the checkout below (unchanged: a periodic order set up keeps its mandate's words). */
function follow(state: string): void {
  if (!result || result.dataset.state === state) return;
  result.dataset.state = state;
  show(state);
}

if (result) {
  document.addEventListener('bank-checkout-step', (e) => follow(e.detail.state));
  document.addEventListener('bank-checkout-complete', (e) => follow(e.detail.outcome));
  language?.addEventListener('change', () => show(result.dataset.state ?? ''));
}
