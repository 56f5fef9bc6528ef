/**
 * The storefront's pages as HTML: products, the cart with the choice of how to pay, the
 * checkout page that embeds `<bank-checkout>`, and the result page. Pure functions of what
 * the routes read.
 */
import type { CheckoutMode } from '@bank-checkout/contract';
import { MAX_QUANTITY, MODES, type Product } from './catalog.js';
import { RESULT_WORDS, resultWords, scheduleText } from './result-words.js';
import { euros } from './format.js';
import { isolatedCheckoutHtml } from '@bank-checkout/elements/prerender';
import { flag, flashBox, html, raw, type Html } from './layout.js';
import type { MerchantCheckout } from './merchant.js';
import type { Flash, SessionOrder } from './session.js';

export function productCard(p: Product, headingLevel: 'h2' | 'h1'): Html {
  return html`
    <div class="swatch swatch-${p.id}" aria-hidden="true"></div>
    ${headingLevel === 'h1' ? html`<h1>${p.name}</h1>` : html`<h2><a href="/products/${p.id}">${p.name}</a></h2>`}
    <p>${p.description}</p>
    <p class="price">${euros(p.price)}</p>`;
}

export function addForm(p: Product, withQuantity: boolean): Html {
  return html`<form method="post" action="/cart/add" class="add">
      <input type="hidden" name="productId" value="${p.id}">
      ${
        withQuantity
          ? html`<label for="qty-${p.id}">Quantity</label>
          <input id="qty-${p.id}" name="quantity" type="number" inputmode="numeric" min="1" max="${MAX_QUANTITY}" value="1" required>`
          : html`<input type="hidden" name="quantity" value="1">`
      }
      <button type="submit" class="primary" aria-label="Add to cart: ${p.name}">Add to cart</button>
    </form>`;
}

export function shopView(products: readonly Product[], flash: Flash | null): Html {
  return html`<h1>Small things, paid by bank transfer</h1>
        ${flashBox(flash)}
        <ul class="products" aria-label="Products">
          ${products.map((p) => html`<li class="product">${productCard(p, 'h2')}${addForm(p, false)}</li>`)}
        </ul>`;
}

export function productView(p: Product): Html {
  return html`<p><a href="/">← All products</a></p><article class="product single">${productCard(p, 'h1')}${addForm(p, true)}</article>`;
}

export const notFoundView = (text: string): Html => html`<h1>Not found</h1><p>${text}</p><p><a href="/">Back to the shop</a></p>`;

export const badRequestView = (text: string): Html => html`<h1>That did not work</h1><p role="alert">${text}</p><p><a href="/cart">Back to your cart</a></p>`;

/** The cart's lines, its total, and the choice of how to pay; or the empty cart. */
export function cartView(lines: { p: Product; quantity: number }[], total: number, flash: Flash | null): Html {
  const body = lines.length
    ? html`<table class="cart">
            <caption class="visually-hidden">Items in your cart</caption>
            <thead><tr><th scope="col">Product</th><th scope="col" class="price">Price</th><th scope="col">Quantity</th><th scope="col" class="num">Subtotal</th></tr></thead>
            <tbody>
              ${lines.map(
                ({ p, quantity }) => html`<tr>
                  <th scope="row"><a href="/products/${p.id}">${p.name}</a><span class="unit">${euros(p.price)} each</span></th>
                  <td class="price">${euros(p.price)}</td>
                  <td>
                    <form method="post" action="/cart/update" class="inline">
                      <input type="hidden" name="productId" value="${p.id}">
                      <label class="visually-hidden" for="q-${p.id}">Quantity of ${p.name}</label>
                      <input id="q-${p.id}" name="quantity" type="number" inputmode="numeric" min="0" max="${MAX_QUANTITY}" value="${quantity}" required>
                      <button type="submit">Update</button>
                    </form>
                  </td>
                  <td class="num">${euros(p.price * quantity)}</td>
                </tr>`,
              )}
            </tbody>
            <tfoot><tr><th scope="row">Total</th><td class="price"></td><td></td><td class="num total">${euros(total)}</td></tr></tfoot>
          </table>
          <form method="post" action="/checkout" class="pay-form">
            <fieldset>
              <legend>How would you like to pay by bank?</legend>
              ${MODES.map(
                (m, i) => html`<div class="choice">
                  <input type="radio" id="mode-${m.mode}" name="mode" value="${m.mode}"${flag(i === 0, 'checked')} aria-describedby="mode-${m.mode}-hint">
                  <label for="mode-${m.mode}">${m.label}</label>
                  <p id="mode-${m.mode}-hint" class="hint">${m.hint}</p>
                </div>`,
              )}
            </fieldset>
            <button type="submit" class="primary">Continue to payment</button>
          </form>`
    : html`<p>Your cart is empty. <a href="/">Browse the products</a>.</p>`;
  return html`<h1>Your cart</h1>${flashBox(flash)}${body}`;
}

/** The languages `<bank-checkout>` speaks, each named in itself. */
const LANGUAGES: [string, string][] = [
  ['en', 'English'],
  ['es', 'Español'],
  ['ca', 'Català'],
  ['eu', 'Euskara'],
  ['gl', 'Galego'],
];

/** The payer's language for the checkout: one the element speaks, else English. */
export function checkoutLanguage(wanted: string | undefined): string {
  return LANGUAGES.some(([code]) => code === wanted) ? wanted! : 'en';
}

/** The switch of the checkout's language (the page's script applies it and remembers it). */
function languageSwitch(locale: string): Html {
  return html`<p class="language">
            <label for="checkout-language">Language of the payment</label>
            <select id="checkout-language">
              ${LANGUAGES.map(([code, name]) => html`<option value="${code}" lang="${code}"${code === locale ? html` selected` : ''}>${name}</option>`)}
            </select>
          </p>`;
}

/** What the page opens its checkout with: an isolated one's launch token, or an inline one's client secret. */
export type PageCredential = { launchToken: string; state?: string; modes?: readonly string[] } | { clientSecret: string };

/**
 * The element for one of the session's checkouts. Isolated: it gets a single-use launch token,
 * and the checkout runs in a frame on the BFF's origin that alone holds what opens it. Inline
 * (the demonstration of the weaker mode): the client secret.
 */
export function checkoutElement(api: string, credential: PageCredential, mode?: CheckoutMode, locale = 'en'): Html {
  // Isolated: written with its frame in (the frame's page and modules load while the browser reads this page).
  if ('launchToken' in credential)
    return raw(
      isolatedCheckoutHtml({
        id: 'bank-checkout',
        api,
        launchToken: credential.launchToken,
        locale,
        ...(mode ? { mode } : {}),
        ...(credential.state ? { state: credential.state } : {}),
        ...(credential.modes ? { modes: credential.modes } : {}),
      }),
    );
  return html`<bank-checkout id="bank-checkout" checkout-secret="${credential.clientSecret}" locale="${locale}" api="${api}"${mode ? html` mode="${mode}"` : ''}></bank-checkout>`;
}

/**
 * The checkout page: the order, then the checkout. The checkout brings its own headings (its
 * steps', level two), so the page adds only its own level-one heading. On a phone the order
 * folds into the heading's line (its total; the reference and the lines on demand) and the
 * language switch takes one line, so that the checkout's first bank shows on a 320×640 screen.
 */
export function checkoutView(order: SessionOrder, element: Html, locale = 'en'): Html {
  const lines = html`<ul class="lines">${order.lines.map((l) => html`<li><span>${l.quantity} × ${l.name}</span> <span class="num">${euros(l.amount)}</span></li>`)}</ul>`;
  const back = html`<p class="back"><a href="/cart">← Back to your cart</a></p>`;
  return html`<div class="checkout-page">
        <section class="order-summary" aria-labelledby="order-title">
          <h1 id="order-title">Checkout</h1>
          <details class="order-fold">
            <summary>Total <strong>${euros(order.amount)}</strong></summary>
            <p class="reference">Order <strong>${order.reference}</strong></p>
            ${lines}${back}
          </details>
          <div class="order-full">
            <p>Order <strong>${order.reference}</strong></p>
            ${lines}
            <p class="total">Total <strong>${euros(order.amount)}</strong></p>
            ${back}
          </div>
        </section>
        <div class="pay">
          ${languageSwitch(locale)}
          ${element}
          <p class="after" id="after" hidden data-words="${JSON.stringify(RESULT_WORDS)}">
            <a id="after-link" href="/result?checkout=${order.checkoutId}" data-checkout="${order.checkoutId}">See your order</a>
          </p>
        </div>
      </div>`;
}

/** The shop could not read the payment: the error and a way to try again (`retryUrl`, checked). */
export function resultUnavailableView(message: string, retryUrl: string): Html {
  return html`<h1>We could not check your payment just now</h1><p role="alert">${message}</p><p><a href="${retryUrl}">Try again</a></p>`;
}

/**
 * The outcome read from the BFF, in the payment's language (`locale`, the one chosen for the
 * checkout). With the session's own checkout (`element`) the element shows it and follows it (a
 * payment started again here included: the page's script changes the words to those in its
 * `data-words`, and follows the language switch); otherwise `<bank-result>` shows a final state.
 * When the checkout below offers to pay again, the page says so too (one next step, not two). A
 * periodic order set up is told as a mandate with its schedule, never as a payment.
 */
export function resultView(checkout: MerchantCheckout, element: Html | null, locale = 'en'): Html {
  const { lang, words } = resultWords(locale);
  const mandate = checkout.state === 'succeeded' && checkout.mode === 'periodic';
  const again = !!element && (checkout.state === 'failed' || checkout.state === 'cancelled') && checkout.actions.includes('restart');
  const text = mandate
    ? words.mandate
    : (words.final[again ? (`${checkout.state}Again` as 'failedAgain' | 'cancelledAgain') : checkout.state] ?? words.underWay);
  const [href, word] = checkout.state === 'succeeded' ? ['/', 'continueShopping' as const] : ['/cart', 'backToCart' as const];
  const schedule = mandate && checkout.schedule ? checkout.schedule : null;
  const schedules = schedule ? Object.fromEntries(Object.keys(RESULT_WORDS).map((l) => [l, scheduleText(schedule, l)])) : {};
  return html`<div class="result-page" lang="${lang}" data-state="${checkout.state}"${flag(mandate, 'data-mandate')}${flag(again, 'data-again')} data-words="${JSON.stringify(RESULT_WORDS)}">
        <h1 id="result-title">${text.title}</h1>
        <p id="result-body">${text.body}</p>
        <p><span data-word="order">${words.order}</span> <strong>${checkout.reference}</strong> · ${euros(checkout.amount)}${
          schedule ? html` · <span id="result-schedule" data-schedules="${JSON.stringify(schedules)}">${schedules[lang]}</span>` : ''
        }</p>
        ${
          element
            ? html`${languageSwitch(locale)}${element}`
            : ['succeeded', 'failed', 'cancelled', 'expired', 'unknown'].includes(checkout.state)
              ? html`<bank-result locale="${locale}" status="${checkout.state}"${checkout.error ? html` code="${checkout.error.code}"` : ''}></bank-result>`
              : ''
        }
        <p><a href="${href}" data-word="${word}">${words[word]}</a></p>
      </div>`;
}
