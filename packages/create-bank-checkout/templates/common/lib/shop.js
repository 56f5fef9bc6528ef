/**
 * What the shop does, whatever server framework answers its routes (shop.js): each handler
 * returns `{ status, headers, body }`.
 *
 * - `GET /`: the product, and a form that orders it.
 * - `POST /orders`: the order, and its checkout made on the BFF with the merchant secret (the
 *   amount is fixed here, never by the browser); then the payment page.
 * - `GET /orders/:reference/pay`: the payment page, `<bank-checkout isolate>` with a fresh launch
 *   token each time it loads. The payer's bank password is typed in a frame on the BFF's
 *   origin, which no script of this shop can read.
 * - `GET /orders/:reference`: the order, as the verified webhook told it, and as the BFF says
 *   it is now (where the bank's page sends the payer back).
 * - `POST /webhooks/bank-checkout`: the BFF's signed events, verified, each handled once.
 * - `GET /orders`: every order and its state.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createMerchantClient, MerchantApiError, verifyWebhook, WebhookSignatureError } from '@bank-checkout/bff/client';
import { openOrders } from './orders.js';
import { euros, html, page, stateWords } from './pages.js';
import { contentSecurityPolicy } from './policy.js';

/**
 * What a handler answers, for the framework to send.
 * @typedef {{ status: number, headers: Record<string, string>, body: string | Uint8Array }} Answer
 */

const PRODUCT = { name: 'Single-origin coffee, 250 g', price: 1250 };
const MAX_QUANTITY = 5;
const REFERENCE = /^ORD-[A-Z0-9]{10}$/;
/** A new order form's id: a double submit of one form makes one order. */
const newCart = () => Array.from(randomBytes(10), (b) => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[b % 32]).join('');

/** The isolated checkout's host: one file from @bank-checkout/elements, and the integrity hash it ships with. */
function frameHost() {
  const file = createRequire(import.meta.url).resolve('@bank-checkout/elements/bank-checkout-frame.min.js');
  return { body: readFileSync(file), integrity: readFileSync(`${file}.sri`, 'utf8').trim() };
}

/**
 * @param {Record<string, string | undefined>} env SHOP_URL, BFF_URL, BFF_PUBLIC_URL, BFF_MERCHANT_SECRET, MERCHANT_WEBHOOK_SECRET.
 */
export function createShop(env) {
  for (const name of ['SHOP_URL', 'BFF_URL', 'BFF_PUBLIC_URL', 'BFF_MERCHANT_SECRET', 'MERCHANT_WEBHOOK_SECRET']) {
    if (!env[name]) throw new Error(`shop: ${name} is not set (see .env)`);
  }
  const shopUrl = /** @type {string} */ (env.SHOP_URL).replace(/\/+$/, '');
  const bffOrigin = new URL(/** @type {string} */ (env.BFF_PUBLIC_URL)).origin;
  const bff = createMerchantClient({ url: /** @type {string} */ (env.BFF_URL), secret: /** @type {string} */ (env.BFF_MERCHANT_SECRET) });
  const orders = openOrders(env.ORDERS_FILE || 'data/orders.json');
  const host = frameHost();
  const css = readFileSync(new URL('../public/shop.css', import.meta.url));

  // The pages load scripts and styles from this shop alone, and frame only the BFF (lib/policy.js).
  const policy = contentSecurityPolicy(bffOrigin);
  /** @param {number} status @param {string} body @param {Record<string, string>} [headers] @returns {Answer} */
  const htmlAnswer = (status, body, headers = {}) => ({
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': policy, 'X-Content-Type-Options': 'nosniff', ...headers },
    body,
  });
  /** @param {number} status @param {string} title @param {string} message @returns {Answer} */
  const problem = (status, title, message) => htmlAnswer(status, page(title, html`<h1>${title}</h1><p>${message}</p><p><a href="/">Back to the shop</a></p>`));
  /** @param {string} location @returns {Answer} */
  const seeOther = (location) => ({ status: 303, headers: { Location: location }, body: '' });

  return {
    home() {
      const options = Array.from({ length: MAX_QUANTITY }, (_, i) => html`<option value="${i + 1}">${i + 1}</option>`);
      return htmlAnswer(
        200,
        page(
          'Shop',
          html`<h1>${PRODUCT.name}</h1>
<p>${euros(PRODUCT.price)} a bag. Pay by bank: from your bank account, in this page.</p>
<form method="post" action="/orders">
  <input type="hidden" name="cart" value="${newCart()}">
  <label for="quantity">Bags</label>
  <select id="quantity" name="quantity">${options}</select>
  <button type="submit">Order and pay</button>
</form>`,
        ),
      );
    },

    /**
     * A new order and its checkout. The reference comes from the order form, so a form sent
     * twice makes one order; it is also the checkout's Idempotency-Key, so a retry after a lost
     * answer finds the same checkout.
     * @param {Record<string, unknown>} form
     * @param {string | undefined} origin
     * @returns {Promise<Answer>}
     */
    async createOrder(form, origin) {
      // A form of another site cannot order here.
      if (origin && origin !== new URL(shopUrl).origin) return problem(403, 'Not ordered', 'This order did not come from the shop.');
      const quantity = Number(form.quantity);
      const reference = `ORD-${form.cart}`;
      if (!REFERENCE.test(reference)) return problem(422, 'Not ordered', 'Order from the shop page.');
      if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) return problem(422, 'Not ordered', `Choose from 1 to ${MAX_QUANTITY} bags.`);
      // Sent again: the order it made.
      if (orders.get(reference)) return seeOther(`/orders/${reference}/pay`);
      const amount = quantity * PRODUCT.price;
      const checkout = await bff.createCheckout(
        {
          amount,
          subject: `Coffee shop order ${reference}`,
          reference,
          // The bank's page (redirect mode) sends the payer back here, through the BFF.
          urlOk: `${shopUrl}/orders/${reference}`,
          urlError: `${shopUrl}/orders/${reference}`,
        },
        { idempotencyKey: reference },
      );
      orders.add({ reference, checkoutId: checkout.id, amount, quantity, createdAt: new Date().toISOString(), state: 'open', events: [] });
      return seeOther(`/orders/${reference}/pay`);
    },

    /**
     * The payment page: a fresh launch token on every load (a reload mid-payment included), which
     * only the checkout's frame can redeem, once.
     * @param {string} reference
     */
    async payPage(reference) {
      const order = REFERENCE.test(reference) ? orders.get(reference) : undefined;
      if (!order) return problem(404, 'No such order', 'This order does not exist.');
      let token;
      try {
        token = (await bff.launchCheckout(order.checkoutId)).launchToken;
      } catch (err) {
        if (err instanceof MerchantApiError && err.status === 409) return seeOther(`/orders/${reference}`);
        throw err;
      }
      return htmlAnswer(
        200,
        page(
          `Pay ${reference}`,
          html`<h1>Order ${reference}</h1>
<p>${order.quantity} × ${PRODUCT.name}: ${euros(order.amount)}.</p>
<bank-checkout isolate api="${env.BFF_PUBLIC_URL}" launch-token="${token}" locale="en"></bank-checkout>
<p><a href="/orders/${reference}">Your order</a></p>`,
          html`<script type="module" src="/assets/bank-checkout-frame.min.js" integrity="${host.integrity}" crossorigin="anonymous"></script>`,
        ),
        // The token is for this load only: never cached, never sent on as a referrer.
        { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
      );
    },

    /**
     * The order: what the verified webhook said, and what the BFF says now (the address the
     * bank's page returns to carries a `result` that is only a hint).
     * @param {string} reference
     */
    async orderPage(reference) {
      const order = REFERENCE.test(reference) ? orders.get(reference) : undefined;
      if (!order) return problem(404, 'No such order', 'This order does not exist.');
      const now = await bff.getCheckout(order.checkoutId).then(
        (c) => c.state,
        () => null,
      );
      const paid = order.state === 'succeeded';
      return htmlAnswer(
        200,
        page(
          `Order ${reference}`,
          html`<h1>Order ${reference}</h1>
<p>${order.quantity} × ${PRODUCT.name}: ${euros(order.amount)}.</p>
<dl>
  <dt>Payment</dt><dd id="order-state">${stateWords(order.state)}</dd>
  <dt>Confirmed by</dt><dd id="order-confirmed">${order.events.length ? `${order.events.length} verified webhook event${order.events.length > 1 ? 's' : ''}` : 'no webhook yet'}</dd>
  <dt>The payment service says now</dt><dd>${now ? stateWords(now) : 'it could not be reached'}</dd>
</dl>
${paid ? html`<p>Thank you: your coffee is on its way.</p>` : order.state === 'open' ? html`<p><a href="/orders/${reference}/pay">Pay now</a></p>` : ''}`,
        ),
        { 'Cache-Control': 'no-store' },
      );
    },

    /** Every order, newest first. */
    ordersPage() {
      const rows = orders
        .list()
        .map(
          (o) =>
            html`<tr><td><a href="/orders/${o.reference}">${o.reference}</a></td><td>${o.createdAt}</td><td class="num">${euros(o.amount)}</td><td>${stateWords(o.state)}</td><td class="num">${o.events.length}</td></tr>`,
        );
      return htmlAnswer(
        200,
        page(
          'Orders',
          html`<h1>Orders</h1>
${rows.length ? html`<table><caption>Orders, newest first, with the state the webhook told</caption><thead><tr><th scope="col">Order</th><th scope="col">Made (UTC)</th><th scope="col" class="num">Amount</th><th scope="col">Payment</th><th scope="col" class="num">Webhook events</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p>No orders yet.</p>`}`,
        ),
        { 'Cache-Control': 'no-store' },
      );
    },

    /**
     * A webhook delivery: verified on its raw body (signature, timestamp, event id), then
     * handled once per event id. 400 when it does not verify; 204 once handled or already
     * handled, so the BFF stops retrying.
     * @param {string | Uint8Array} body
     * @param {Headers | Record<string, string | string[] | undefined>} headers
     * @returns {Promise<Answer>}
     */
    async webhook(body, headers) {
      let event;
      try {
        event = await verifyWebhook(body, headers, /** @type {string} */ (env.MERCHANT_WEBHOOK_SECRET));
      } catch (err) {
        if (err instanceof WebhookSignatureError) return { status: 400, headers: { 'Content-Type': 'text/plain' }, body: 'signature refused' };
        throw err;
      }
      if (event.type === 'checkout.updated') {
        const data = event.data;
        const order = orders.get(data.reference);
        if (order && order.checkoutId === data.checkoutId) {
          orders.once(event.id, () => {
            // A periodic payment's success is a mandate for later payments, not money now (this shop sells none).
            order.state = data.mode === 'periodic' && data.state === 'succeeded' ? 'open' : data.state;
            order.events.push(event.id);
          });
        }
      }
      return { status: 204, headers: {}, body: '' };
    },

    /** @param {string} name @returns {Answer} */
    asset(name) {
      if (name === 'bank-checkout-frame.min.js')
        return { status: 200, headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600' }, body: host.body };
      if (name === 'shop.css')
        return { status: 200, headers: { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=3600' }, body: css };
      return problem(404, 'Not found', 'There is nothing here.');
    },

    notFound: () => problem(404, 'Not found', 'There is nothing here.'),
    failed: () => problem(502, 'Something went wrong', 'The payment service could not be reached; try again in a moment.'),
  };
}
