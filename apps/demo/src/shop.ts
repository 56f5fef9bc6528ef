/**
 * The storefront: products, a cart kept in the server-side session, a checkout page that
 * creates the payment on the server (isolated: the browser only ever receives a single-use
 * launch token, a fresh one each time the page loads, reloads mid-payment included) and embeds
 * `<bank-checkout>`, and the page the payer returns to from the bank.
 */
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { safeHref } from '@bank-checkout/contract';
import { cartTotal, findProduct, isMode, MAX_QUANTITY, modesWith, PRODUCTS, quantityOf } from './catalog.js';
import { originOf, page, readForm, type DemoContext } from './context.js';
import type { Session, SessionOrder } from './session.js';
import * as views from './shop-views.js';

export { MODES, PRODUCTS, type Product } from './catalog.js';

const CHECKOUT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The cookie in which the checkout page's language switch keeps the payer's choice. */
export const LANGUAGE_COOKIE = 'checkout-language';

export function shopRoutes(ctx: DemoContext) {
  const app = new Hono();
  const { sessions, merchant } = ctx;
  /** The language the payer chose for the checkout (the page's switch remembers it in a cookie). */
  const language = (c: Context) => views.checkoutLanguage(getCookie(c, LANGUAGE_COOKIE));
  /**
   * The page's element for an order, with what opens it: a fresh launch token for the isolated
   * checkout (its frame redeems it; a frame of an earlier load gives way, and a bank session it
   * had open is closed), or the inline twin's client secret. Null when the BFF cannot answer.
   */
  const element = async (c: Context, order: SessionOrder, inline: boolean, mode?: Parameters<typeof views.checkoutElement>[2]) => {
    let credential: views.PageCredential;
    if (inline) {
      const twin = await inlineTwin(c, order);
      if (!twin) return null;
      credential = { clientSecret: twin.clientSecret };
    } else {
      const launched = await merchant.launchCheckout(order.checkoutId);
      if (!launched.ok) return null;
      credential = { launchToken: launched.data.launchToken };
    }
    return views.checkoutElement(ctx.opts.browserBffUrl, credential, mode, language(c));
  };
  /**
   * The order as an inline checkout of its own (made once, on demand): the `?embed=inline`
   * demonstration of the weaker mode, whose client secret any script of the page can use.
   */
  const inlineTwin = async (c: Context, order: SessionOrder) => {
    if (order.inline) return order.inline;
    const origin = originOf(ctx, c);
    const created = await merchant.createCheckout(
      {
        amount: order.amount,
        subject: `Demo shop order ${order.reference}`,
        reference: `${order.reference}-INLINE`,
        urlOk: `${origin}/result`,
        urlError: `${origin}/result`,
        isolation: 'inline',
      },
      ctx.keyFor('inline', order.checkoutId),
    );
    if (!created.ok || !created.data.clientSecret) return null;
    return (order.inline = { checkoutId: created.data.id, clientSecret: created.data.clientSecret });
  };
  const unavailable = (c: Context, session: Session) =>
    page(
      ctx,
      c,
      { title: 'Checkout', section: 'cart', session },
      views.resultUnavailableView('The payment service (BFF) could not open the checkout; try again.', safeHref(c.req.url, '/cart')),
      502,
    );
  /** `?embed=inline` shows the checkout in the shop's own page (a demonstration; isolated is the default). */
  const embedding = (c: Context, forceInline = false) => {
    const inline = forceInline || c.req.query('embed') === 'inline';
    // The BFF is reached early: by the frame's page (isolated) or by the element's calls (inline).
    return { inline, scripts: [inline ? 'checkout-inline' : 'checkout'], preconnect: { origin: new URL(ctx.opts.browserBffUrl).origin, cors: inline } };
  };

  const notFound = (c: Context, session: Session, text: string) =>
    page(ctx, c, { title: 'Not found', section: 'shop', session }, views.notFoundView(text), 404);
  const badRequest = (c: Context, session: Session, text: string) =>
    page(ctx, c, { title: 'Not understood', section: 'cart', session }, views.badRequestView(text), 400);

  app.get('/', (c) => {
    const session = sessions.get(c);
    const flash = sessions.takeFlash(session);
    return page(ctx, c, { title: 'Shop', section: 'shop', session }, views.shopView(PRODUCTS, flash));
  });

  app.get('/products/:id', (c) => {
    const session = sessions.get(c);
    const p = findProduct(c.req.param('id'));
    if (!p) return notFound(c, session, 'That product does not exist.');
    return page(ctx, c, { title: p.name, section: 'shop', session }, views.productView(p));
  });

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

  app.get('/cart', async (c) => {
    const session = sessions.get(c);
    // A payment of this very cart that succeeded empties it, even when its webhook never came:
    // the outcome read from the BFF, never one the browser says.
    const pending = session.cart.length ? session.orders.filter((o) => o.cartRevision === session.cartRevision) : [];
    const found = await Promise.all(pending.flatMap((o) => [o.checkoutId, ...(o.inline ? [o.inline.checkoutId] : [])].map((id) => merchant.getCheckout(id))));
    const paid = pending.find((o) =>
      found.some((f) => f.ok && f.data.state === 'succeeded' && (f.data.id === o.checkoutId || f.data.id === o.inline?.checkoutId)),
    );
    if (paid) sessions.paid(session, paid);
    const flash = sessions.takeFlash(session);
    const lines = session.cart.flatMap((l) => {
      const p = findProduct(l.productId);
      return p ? [{ p, quantity: l.quantity }] : [];
    });
    return page(ctx, c, { title: 'Cart', section: 'cart', session }, views.cartView(lines, cartTotal(session), flash));
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
    // checkout instead of creating a second one. A checkout that can no longer go forward (it
    // expired, or its time to start again is over) makes way for a new one.
    const origin = originOf(ctx, c);
    const create = async (round: number) => {
      const key = ctx.keyFor('cart', session.id, String(session.cartRevision), mode, ...(round ? [String(round)] : []));
      const reference = `ORD-${key.slice(0, 10).toUpperCase()}`;
      const result = await merchant.createCheckout(
        {
          amount,
          subject: `Demo shop order ${reference}`,
          reference,
          urlOk: `${origin}/result`,
          urlError: `${origin}/result`,
          modes: modesWith(mode),
          customData: JSON.stringify({ cart: session.cart.map((l) => [l.productId, l.quantity]) }),
        },
        key,
      );
      return { result, reference };
    };
    const dead = (r: Awaited<ReturnType<typeof create>>['result']) =>
      r.ok && (r.data.state === 'expired' || ((r.data.state === 'failed' || r.data.state === 'cancelled') && !r.data.actions.includes('restart')));
    let attempt = await create(0);
    for (let round = 1; round <= 5 && dead(attempt.result); round++) attempt = await create(round);
    const { result: created, reference } = attempt;
    if (!created.ok) {
      session.flash = { kind: 'error', text: `The payment could not be prepared: ${created.error.message}` };
      return c.redirect('/cart', 303);
    }
    const order: SessionOrder = {
      checkoutId: created.data.id,
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

  app.get('/checkout', async (c) => {
    const session = sessions.get(c);
    const order = session.orders.find((o) => o.checkoutId === c.req.query('order'));
    if (!order) return c.redirect('/cart', 303);
    const mode = c.req.query('mode');
    const { inline, scripts, preconnect } = embedding(c);
    const el = await element(c, order, inline, isMode(mode) ? mode : undefined);
    if (!el) return unavailable(c, session);
    return page(ctx, c, { title: 'Checkout', section: 'cart', session, scripts, preconnect }, views.checkoutView(order, el, language(c)));
  });

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
      return page(ctx, c, { title: 'Payment', section: 'cart', session }, views.resultUnavailableView(found.error.message, safeHref(c.req.url, '/cart')), 502);
    }
    const checkout = found.data;
    const order = session.orders.find((o) => o.checkoutId === checkout.id || o.inline?.checkoutId === checkout.id);
    if (order && checkout.state === 'succeeded') sessions.paid(session, order);
    // The checkout the payer came back from: the inline twin's result shows inline.
    const { inline, scripts, preconnect } = embedding(c, order?.inline?.checkoutId === checkout.id);
    return page(
      ctx,
      c,
      { title: 'Your payment', section: 'cart', session, scripts, preconnect },
      views.resultView(checkout, order ? await element(c, order, inline) : null, language(c)),
    );
  });

  return app;
}
