/**
 * The storefront: products, a cart kept in the server-side session, a checkout page that
 * creates the payment on the server (the browser only ever receives that checkout's client
 * secret) and embeds `<bank-checkout>`, and the page the payer returns to from the bank.
 */
import { Hono, type Context } from 'hono';
import type { CheckoutMode, CheckoutState } from '@bank-checkout/contract';
import { euros, flag, html, type SafeHtml } from './html.js';
import { originOf, page, readForm, type DemoContext } from './context.js';
import type { Session, SessionOrder } from './session.js';

export interface Product {
  id: string;
  name: string;
  description: string;
  /** In cents. */
  price: number;
}

export const PRODUCTS: readonly Product[] = [
  { id: 'mug', name: 'Stoneware mug', description: 'Hand-glazed, 350 ml, dishwasher safe.', price: 1850 },
  { id: 'tote', name: 'Linen tote bag', description: 'Undyed European linen with long handles.', price: 2400 },
  { id: 'coffee', name: 'Single-origin coffee, 1 kg', description: 'Washed Colombian beans, medium roast.', price: 2990 },
  { id: 'notebook', name: 'Dot-grid notebook', description: 'A5, 160 pages of 100 g paper, lay-flat binding.', price: 1275 },
];

export const MODES: readonly { mode: CheckoutMode; label: string; hint: string }[] = [
  { mode: 'native', label: 'In this page', hint: 'Log in to your bank and confirm the transfer without leaving the shop.' },
  { mode: 'redirect', label: "At my bank's page", hint: "Go to the payment gateway and your bank's own pages, then come back." },
  { mode: 'periodic', label: 'As a periodic payment', hint: 'Authorise a recurring transfer of this amount (a subscription).' },
];

const MAX_QUANTITY = 99;
const CHECKOUT_ID = /^[A-Za-z0-9_-]{1,64}$/;

const findProduct = (id: unknown) => PRODUCTS.find((p) => p.id === id);
const cartTotal = (s: Session) => s.cart.reduce((sum, l) => sum + (findProduct(l.productId)?.price ?? 0) * l.quantity, 0);

function quantityOf(v: unknown, min: number): number | null {
  if (typeof v !== 'string' || !/^\d{1,3}$/.test(v)) return null;
  const n = Number(v);
  return n >= min && n <= MAX_QUANTITY ? n : null;
}

const isMode = (v: unknown): v is CheckoutMode => MODES.some((m) => m.mode === v);

const FINAL_TEXT: Partial<Record<CheckoutState, { title: string; body: string }>> = {
  succeeded: { title: 'Thank you: your payment is complete', body: 'We have received your payment and are preparing your order.' },
  failed: { title: 'The payment did not go through', body: 'Nothing was charged. You can try again from your cart.' },
  cancelled: { title: 'The payment was cancelled', body: 'Nothing was charged. Your cart is still here.' },
  expired: { title: 'The payment expired', body: 'Nothing was charged. Start again from your cart.' },
  unknown: { title: 'Waiting for your bank', body: 'Your bank has not told us the outcome yet; this page checks again.' },
};

export function shopRoutes(ctx: DemoContext) {
  const app = new Hono();
  const { sessions, merchant } = ctx;

  const productCard = (p: Product, headingLevel: 'h2' | 'h1') => html`
    <div class="swatch swatch-${p.id}" aria-hidden="true"></div>
    ${headingLevel === 'h1' ? html`<h1>${p.name}</h1>` : html`<h2><a href="/products/${p.id}">${p.name}</a></h2>`}
    <p>${p.description}</p>
    <p class="price">${euros(p.price)}</p>`;

  const addForm = (p: Product, withQuantity: boolean) => html`<form method="post" action="/cart/add" class="add">
      <input type="hidden" name="productId" value="${p.id}">
      ${withQuantity
        ? html`<label for="qty-${p.id}">Quantity</label>
          <input id="qty-${p.id}" name="quantity" type="number" inputmode="numeric" min="1" max="${MAX_QUANTITY}" value="1" required>`
        : html`<input type="hidden" name="quantity" value="1">`}
      <button type="submit" class="primary" aria-label="Add to cart: ${p.name}">Add to cart</button>
    </form>`;

  app.get('/', (c) => {
    const session = sessions.get(c);
    const flash = sessions.takeFlash(session);
    return page(
      ctx,
      c,
      { title: 'Shop', section: 'shop', session },
      html`<h1>Small things, paid by bank transfer</h1>
        ${flashBox(flash)}
        <ul class="products" aria-label="Products">
          ${PRODUCTS.map((p) => html`<li class="product">${productCard(p, 'h2')}${addForm(p, false)}</li>`)}
        </ul>`,
    );
  });

  app.get('/products/:id', (c) => {
    const session = sessions.get(c);
    const p = findProduct(c.req.param('id'));
    if (!p) return notFound(c, session, 'That product does not exist.');
    return page(
      ctx,
      c,
      { title: p.name, section: 'shop', session },
      html`<p><a href="/">← All products</a></p><article class="product single">${productCard(p, 'h1')}${addForm(p, true)}</article>`,
    );
  });

  const notFound = (c: Context, session: Session, text: string) =>
    page(ctx, c, { title: 'Not found', section: 'shop', session }, html`<h1>Not found</h1><p>${text}</p><p><a href="/">Back to the shop</a></p>`, 404);

  const badRequest = (c: Context, session: Session, text: string) =>
    page(ctx, c, { title: 'Not understood', section: 'cart', session }, html`<h1>That did not work</h1><p role="alert">${text}</p><p><a href="/cart">Back to your cart</a></p>`, 400);

  app.post('/cart/add', async (c) => {
    const session = sessions.get(c);
    const form = await readForm(c);
    const p = findProduct(form.productId);
    const quantity = quantityOf(form.quantity ?? '1', 1);
    if (!p || quantity === null) return badRequest(c, session, `Choose a product and a quantity from 1 to ${MAX_QUANTITY}.`);
    const line = session.cart.find((l) => l.productId === p.id);
    if (line) line.quantity = Math.min(MAX_QUANTITY, line.quantity + quantity);
    else session.cart.push({ productId: p.id, quantity });
    session.cartRevision++;
    session.flash = { kind: 'success', text: `${p.name} is in your cart.` };
    return c.redirect('/cart', 303);
  });

  app.post('/cart/update', async (c) => {
    const session = sessions.get(c);
    const form = await readForm(c);
    const p = findProduct(form.productId);
    const quantity = quantityOf(form.quantity, 0);
    if (!p || quantity === null) return badRequest(c, session, `Choose a quantity from 0 to ${MAX_QUANTITY}.`);
    session.cart = session.cart.flatMap((l) => (l.productId !== p.id ? [l] : quantity === 0 ? [] : [{ ...l, quantity }]));
    session.cartRevision++;
    return c.redirect('/cart', 303);
  });

  app.get('/cart', (c) => {
    const session = sessions.get(c);
    const flash = sessions.takeFlash(session);
    const lines = session.cart.flatMap((l) => {
      const p = findProduct(l.productId);
      return p ? [{ p, quantity: l.quantity }] : [];
    });
    const body = lines.length
      ? html`<table class="cart">
            <caption class="visually-hidden">Items in your cart</caption>
            <thead><tr><th scope="col">Product</th><th scope="col">Price</th><th scope="col">Quantity</th><th scope="col" class="num">Subtotal</th></tr></thead>
            <tbody>
              ${lines.map(
                ({ p, quantity }) => html`<tr>
                  <th scope="row"><a href="/products/${p.id}">${p.name}</a></th>
                  <td>${euros(p.price)}</td>
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
            <tfoot><tr><th scope="row" colspan="3">Total</th><td class="num total">${euros(cartTotal(session))}</td></tr></tfoot>
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
    return page(ctx, c, { title: 'Cart', section: 'cart', session }, html`<h1>Your cart</h1>${flashBox(flash)}${body}`);
  });

  /** Creates (or finds again: Idempotency-Key) the checkout of this cart and goes to its page. */
  app.post('/checkout', async (c) => {
    const session = sessions.get(c);
    const form = await readForm(c);
    const mode = form.mode ?? 'native';
    if (!isMode(mode)) return badRequest(c, session, 'Choose how to pay.');
    const amount = cartTotal(session);
    if (amount <= 0) {
      session.flash = { kind: 'error', text: 'Your cart is empty.' };
      return c.redirect('/cart', 303);
    }
    // The same cart and choice give the same key: a double submit or a retry finds the same
    // checkout instead of creating a second one.
    const key = ctx.keyFor('cart', session.id, String(session.cartRevision), mode);
    const reference = `ORD-${key.slice(0, 10).toUpperCase()}`;
    const origin = originOf(ctx, c);
    const created = await merchant.createCheckout(
      {
        amount,
        subject: `Demo shop order ${reference}`,
        reference,
        urlOk: `${origin}/result`,
        urlError: `${origin}/result`,
        modes: [mode, ...MODES.map((m) => m.mode).filter((m) => m !== mode)],
        customData: JSON.stringify({ cart: session.cart.map((l) => [l.productId, l.quantity]) }),
      },
      key,
    );
    if (!created.ok) {
      session.flash = { kind: 'error', text: `The payment could not be prepared: ${created.error.message}` };
      return c.redirect('/cart', 303);
    }
    const order: SessionOrder = {
      checkoutId: created.data.id,
      clientSecret: created.data.clientSecret,
      reference,
      amount,
      cartRevision: session.cartRevision,
      lines: session.cart.flatMap((l) => {
        const p = findProduct(l.productId);
        return p ? [{ name: p.name, quantity: l.quantity, amount: p.price * l.quantity }] : [];
      }),
    };
    sessions.addOrder(session, order);
    return c.redirect(`/checkout?order=${encodeURIComponent(order.checkoutId)}&mode=${mode}`, 303);
  });

  app.get('/checkout', (c) => {
    const session = sessions.get(c);
    const order = session.orders.find((o) => o.checkoutId === c.req.query('order'));
    if (!order) return c.redirect('/cart', 303);
    const mode = c.req.query('mode');
    return page(
      ctx,
      c,
      { title: 'Checkout', section: 'cart', session, scripts: ['checkout'] },
      html`<div class="checkout-page">
        <section class="order-summary" aria-labelledby="order-title">
          <h1 id="order-title">Checkout</h1>
          <p>Order <strong>${order.reference}</strong></p>
          <ul class="lines">${order.lines.map((l) => html`<li><span>${l.quantity} × ${l.name}</span> <span class="num">${euros(l.amount)}</span></li>`)}</ul>
          <p class="total">Total <strong>${euros(order.amount)}</strong></p>
          <p><a href="/cart">← Back to your cart</a></p>
        </section>
        <section class="pay" aria-labelledby="pay-title">
          <h2 id="pay-title">Pay by bank</h2>
          ${checkoutElement(order, isMode(mode) ? mode : undefined)}
          <p class="after" id="after" hidden>
            <a id="after-link" href="/result?checkout=${order.checkoutId}" data-checkout="${order.checkoutId}">See your order</a>
          </p>
        </section>
      </div>`,
    );
  });

  const checkoutElement = (order: SessionOrder, mode?: CheckoutMode): SafeHtml =>
    html`<bank-checkout id="bank-checkout" locale="en" api="${ctx.opts.browserBffUrl}" checkout-secret="${order.clientSecret}"${
      mode ? html` mode="${mode}"` : ''
    }></bank-checkout>`;

  /**
   * Where the payer lands after the gateway (the BFF's 303 adds `checkout` and `result`). The
   * `result` parameter is only a hint: the outcome shown is the one the shop reads from the BFF.
   */
  app.get('/result', async (c) => {
    const session = sessions.get(c);
    const checkoutId = c.req.query('checkout') ?? '';
    if (!CHECKOUT_ID.test(checkoutId)) return notFound(c, session, 'There is no payment to show here.');
    const found = await merchant.getCheckout(checkoutId);
    if (!found.ok) {
      if (found.status === 404) return notFound(c, session, 'That payment does not exist.');
      return page(
        ctx,
        c,
        { title: 'Payment', section: 'cart', session },
        html`<h1>We could not check your payment just now</h1><p role="alert">${found.error.message}</p><p><a href="${c.req.url}">Try again</a></p>`,
        502,
      );
    }
    const checkout = found.data;
    const order = session.orders.find((o) => o.checkoutId === checkout.id);
    if (order && checkout.state === 'succeeded' && session.cartRevision === order.cartRevision) {
      session.cart = [];
      session.cartRevision++;
    }
    const text = FINAL_TEXT[checkout.state] ?? {
      title: 'Your payment is under way',
      body: 'The bank has not confirmed it yet; this page shows the outcome as soon as it arrives.',
    };
    const retry = checkout.state === 'succeeded' ? html`<a href="/">Continue shopping</a>` : html`<a href="/cart">Back to your cart</a>`;
    return page(
      ctx,
      c,
      { title: 'Your payment', section: 'cart', session, scripts: ['checkout'] },
      html`<div class="result-page" data-state="${checkout.state}">
        <h1>${text.title}</h1>
        <p>${text.body}</p>
        <p>Order <strong>${checkout.reference}</strong> · ${euros(checkout.amount)}</p>
        ${order
          ? checkoutElement(order)
          : ['succeeded', 'failed', 'cancelled', 'expired', 'unknown'].includes(checkout.state)
            ? html`<bank-result locale="en" status="${checkout.state}"${checkout.error ? html` code="${checkout.error.code}"` : ''}></bank-result>`
            : ''}
        <p>${retry}</p>
      </div>`,
    );
  });

  return app;
}

export function flashBox(flash: { kind: 'success' | 'error'; text: string; details?: { label: string; value: string; href?: string }[] } | null) {
  if (!flash) return '';
  return html`<div class="flash ${flash.kind}" role="${flash.kind === 'error' ? 'alert' : 'status'}" tabindex="-1" id="flash" autofocus>
    <p>${flash.text}</p>
    ${flash.details?.length
      ? html`<dl>${flash.details.map((d) => html`<dt>${d.label}</dt><dd>${d.href ? html`<a href="${d.href}">${d.value}</a>` : d.value}</dd>`)}</dl>`
      : ''}
  </div>`;
}
