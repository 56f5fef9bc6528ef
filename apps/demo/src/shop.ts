/**
 * The storefront: products, a cart kept in the server-side session, a checkout page that
 * creates the payment on the server (isolated: the browser only ever receives a single-use
 * launch token, a fresh one each time the page loads, reloads mid-payment included; inline only
 * for an order made inline from the cart's `embed=inline`, a demonstration of the weaker mode)
 * and embeds `<bank-checkout>`, and the page the payer returns to from the bank.
 */
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { isOutcome, safeHref } from '@bank-checkout/contract';
import { cartTotal, findProduct, isMode, MAX_QUANTITY, modesWith, PRODUCTS, quantityOf } from './catalog.js';
import { originOf, page, readForm, type DemoContext } from './context.js';
import { cartCount, type Session, type SessionOrder } from './session.js';
import * as views from './shop-views.js';
import { euros } from './format.js';

export { MODES, PRODUCTS, type Product } from './catalog.js';

const CHECKOUT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The cookie in which the checkout page's language switch keeps the payer's choice. */
export const LANGUAGE_COOKIE = 'checkout-language';

/** The states of a checkout the payer has not begun paying: its start (the bank list, the periodic form). */
const NOT_BEGUN: readonly string[] = ['select-bank', 'periodic'];

/** What the payer is told instead of a change of the cart or a new checkout (`emptied`: a payment bought the cart as it is). */
interface Held {
  text: string;
  emptied?: boolean;
}

export function shopRoutes(ctx: DemoContext) {
  const app = new Hono();
  const { sessions, merchant } = ctx;
  /** The language the payer chose for the checkout (the page's switch remembers it in a cookie). */
  const language = (c: Context) => views.checkoutLanguage(getCookie(c, LANGUAGE_COOKIE));
  /**
   * The page's element for an order, with what opens it: for an isolated checkout a fresh launch
   * token (its frame redeems it; the same browser resumes where it was, another browser's frame
   * gives way and a bank session it had open is closed), for an inline one its client secret.
   * Null when the BFF cannot answer.
   */
  const element = async (c: Context, order: SessionOrder, mode?: Parameters<typeof views.checkoutElement>[2]) => {
    let credential: views.PageCredential;
    if (order.clientSecret) credential = { clientSecret: order.clientSecret };
    else {
      const launched = await merchant.launchCheckout(order.checkoutId);
      if (!launched.ok) return null;
      // Its state and modes: a checkout at its bank list gets the list drawn in its frame's page.
      credential = { launchToken: launched.data.launchToken, state: launched.data.state, modes: launched.data.modes };
    }
    return views.checkoutElement(ctx.opts.browserBffUrl, credential, mode, language(c));
  };
  const unavailable = (c: Context, session: Session) =>
    page(
      ctx,
      c,
      { title: 'Checkout', section: 'cart', session },
      views.resultUnavailableView('The payment service (BFF) could not open the checkout; try again.', safeHref(c.req.url, '/cart')),
      502,
    );
  /**
   * How an order's page embeds its checkout: isolated (the default), or in the shop's own page
   * for an order made inline (the `embed=inline` demonstration of the weaker mode).
   */
  const embedding = (order: SessionOrder | undefined) => {
    const inline = Boolean(order?.clientSecret);
    // The BFF is reached early: by the frame's page (isolated) or by the element's calls (inline).
    return { scripts: [inline ? 'checkout-inline' : 'checkout'], preconnect: { origin: new URL(ctx.opts.browserBffUrl).origin, cors: inline } };
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
    // The checkouts still open for the cart are cancelled first (none can then be paid for a cart
    // the payer no longer holds); one with the bank or in doubt keeps the cart as it is. A cart
    // paid a moment ago (the shop had not heard yet) is emptied: the product goes in a new one.
    const stopped: SessionOrder[] = [];
    const held = await supersede(session, () => false, stopped);
    if (held && !held.emptied) return refuse(c, session, held);
    const line = session.cart.find((l) => l.productId === p.id);
    if (line) line.quantity = Math.min(MAX_QUANTITY, line.quantity + quantity);
    else session.cart.push({ productId: p.id, quantity });
    session.cartRevision++;
    session.flash = held
      ? { kind: 'success', text: `${held.text} ${p.name} is in a new cart.` }
      : { kind: stopped.length ? 'notice' : 'success', text: `${p.name} is in your cart.${cancelledText(stopped)}` };
    return c.redirect('/cart', 303);
  });

  app.post('/cart/update', async (c) => {
    const session = sessions.get(c);
    const form = await readForm(c);
    const p = findProduct(form.productId);
    const quantity = quantityOf(form.quantity, 0);
    if (!p || quantity === null) return badRequest(c, session, `Choose a quantity from 0 to ${MAX_QUANTITY}.`);
    // As for an added product: the cart's open checkouts are cancelled first.
    const stopped: SessionOrder[] = [];
    const held = await supersede(session, () => false, stopped);
    if (held) return refuse(c, session, held);
    session.cart = session.cart.flatMap((l) => (l.productId !== p.id ? [l] : quantity === 0 ? [] : [{ ...l, quantity }]));
    session.cartRevision++;
    if (stopped.length) session.flash = { kind: 'notice', text: cancelledText(stopped).trim() };
    return c.redirect('/cart', 303);
  });

  /**
   * A payment of this very cart that succeeded empties it, even when its webhook never came: the
   * outcome read from the BFF, never one the browser says.
   */
  async function settlePaid(session: Session): Promise<void> {
    const pending = session.cart.length ? session.orders.filter((o) => o.cartRevision === session.cartRevision) : [];
    const found = await Promise.all(pending.map((o) => merchant.getCheckout(o.checkoutId)));
    const paid = pending.find((o) => found.some((f) => f.ok && f.data.state === 'succeeded' && f.data.id === o.checkoutId));
    if (paid) sessions.paid(session, paid);
  }

  app.get('/cart', async (c) => {
    const session = sessions.get(c);
    await settlePaid(session);
    const flash = sessions.takeFlash(session);
    const lines = session.cart.flatMap((l) => {
      const p = findProduct(l.productId);
      return p ? [{ p, quantity: l.quantity }] : [];
    });
    return page(ctx, c, { title: 'Cart', section: 'cart', session }, views.cartView(lines, cartTotal(session), flash));
  });

  /**
   * How many items the cart holds now, for the badge of a page whose payment just ended (the
   * checkout page's script asks once the checkout says it is paid): `{count}`, the cart read as
   * its own page reads it.
   */
  app.get('/cart/count', async (c) => {
    const session = sessions.get(c);
    await settlePaid(session);
    c.header('Cache-Control', 'no-store');
    return c.json({ count: cartCount(session) });
  });

  /**
   * Creates (or finds again: Idempotency-Key) the checkout of this cart and goes to its page.
   * Isolated, unless the form asks `embed=inline`: then an inline checkout of its own, shown in
   * the shop's page (a demonstration of the weaker mode, whose client secret any script of the
   * page can use).
   */
  app.post('/checkout', async (c) => {
    const session = sessions.get(c);
    const form = await readForm(c);
    const mode = form.mode ?? 'native';
    if (!isMode(mode)) return badRequest(c, session, 'Choose how to pay.');
    if (form.embed !== undefined && form.embed !== 'inline') return badRequest(c, session, 'The checkout is isolated, or inline for the demonstration.');
    const inline = form.embed === 'inline';
    const amount = cartTotal(session);
    if (amount <= 0) {
      session.flash = { kind: 'error', text: 'Your cart is empty.' };
      return c.redirect('/cart', 303);
    }
    // One open checkout a payer at a time: the checkouts of an earlier cart (or of another
    // choice of how to pay) are cancelled first, so that the payer cannot pay both. One that is
    // with the bank now, in doubt, or paid a moment ago stops here, told to the payer.
    const held = await supersede(session, (o) => o.cartRevision === session.cartRevision && o.mode === mode && Boolean(o.clientSecret) === inline);
    if (held) return refuse(c, session, held);
    // The same cart and choice give the same key: a double submit or a retry finds the same
    // checkout instead of creating a second one. A checkout that can no longer go forward (it
    // expired, or its time to start again is over) makes way for a new one.
    const origin = originOf(ctx, c);
    const create = async (round: number) => {
      const key = ctx.keyFor('cart', session.id, String(session.cartRevision), mode, ...(inline ? ['inline'] : []), ...(round ? [String(round)] : []));
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
          ...(inline ? { isolation: 'inline' as const } : {}),
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
    if (inline && !created.data.clientSecret) {
      session.flash = { kind: 'error', text: 'The payment could not be prepared: the BFF gave no client secret for the inline checkout.' };
      return c.redirect('/cart', 303);
    }
    const order: SessionOrder = {
      checkoutId: created.data.id,
      ...(inline ? { clientSecret: created.data.clientSecret! } : {}),
      reference,
      amount,
      mode,
      cartRevision: session.cartRevision,
      lines: session.cart.flatMap((l) => {
        const p = findProduct(l.productId);
        return p ? [{ name: p.name, quantity: l.quantity, amount: p.price * l.quantity }] : [];
      }),
    };
    sessions.addOrder(session, order);
    return c.redirect(`/checkout?order=${encodeURIComponent(order.checkoutId)}&mode=${mode}`, 303);
  });

  /** The cart as it was (or emptied, paid), with why it could not change or be paid now. */
  function refuse(c: Context, session: Session, held: Held) {
    session.flash = { kind: 'error', text: held.emptied ? `${held.text} Your cart is empty again.` : held.text };
    return c.redirect('/cart', 303);
  }

  /**
   * What the payer is told of the payments under way that a change of the cart cancelled (those
   * `supersede` stopped): the checkout said it was cancelled, so no money moved.
   */
  function cancelledText(stopped: readonly SessionOrder[]): string {
    if (!stopped.length) return '';
    const named = stopped.map((o) => `${o.reference} (${euros(o.amount)})`).join(', ');
    const one = stopped.length === 1;
    return ` Your cart changed, so the ${one ? 'payment' : 'payments'} you had started, ${named}, ${one ? 'was' : 'were'} cancelled: no money was moved. Pay the new total when you are ready.`;
  }

  /**
   * Cancels the session's open checkouts but those `keep` names (this cart's, as it is asked
   * for), before a new checkout is made or the cart changes: no checkout can then be paid for a
   * cart the payer no longer holds. Gives what the payer must be told instead: a checkout whose
   * call is with the bank, in doubt, or paid before it could be cancelled (`emptied`: it paid the
   * cart as it is, which is emptied); null when none is left open. Those cancelled after the
   * payer had begun paying them (past the bank list or the periodic form) go in `stopped`.
   */
  async function supersede(session: Session, keep: (o: SessionOrder) => boolean, stopped: SessionOrder[] = []): Promise<Held | null> {
    const told = (text: string): Held => ({ text });
    for (const o of session.orders.filter((x) => !keep(x) && !x.closed)) {
      const found = await merchant.getCheckout(o.checkoutId);
      if (!found.ok) {
        if (found.status === 404) o.closed = true;
        else return told(`Your payment ${o.reference} could not be checked: ${found.error.message} Try again in a moment.`);
        continue;
      }
      let state = found.data.state;
      const begun = !NOT_BEGUN.includes(state);
      if (state !== 'unknown' && !isOutcome(state)) {
        const cancelled = await merchant.cancelCheckout(o.checkoutId);
        if (cancelled.ok) {
          state = cancelled.data.state;
          if (state === 'cancelled' && begun) stopped.push(o);
        } else if (cancelled.error.code === 'checkout_busy')
          return told(`Your payment ${o.reference} is being confirmed with your bank. Try again in a moment.`);
        else {
          const again = await merchant.getCheckout(o.checkoutId);
          if (!again.ok) return told(`Your payment ${o.reference} could not be cancelled: ${cancelled.error.message}`);
          state = again.data.state;
        }
      }
      if (state === 'unknown') return told(`Your payment ${o.reference} is waiting for your bank's answer. Wait for it before paying again.`);
      o.closed = true;
      if (state !== 'succeeded') continue;
      // Paid, for the cart as it is: the cart was bought (and is emptied).
      if (o.cartRevision === session.cartRevision) {
        sessions.paid(session, o);
        return { text: `Your payment ${o.reference} of ${euros(o.amount)} went through.`, emptied: true };
      }
      // Paid, for a cart that has changed since (told once): the payer decides before paying again.
      return told(`Your earlier payment ${o.reference} of ${euros(o.amount)} went through. Your cart has changed since: check it before paying again.`);
    }
    return null;
  }

  app.get('/checkout', async (c) => {
    const session = sessions.get(c);
    const order = session.orders.find((o) => o.checkoutId === c.req.query('order'));
    if (!order) return c.redirect('/cart', 303);
    const mode = c.req.query('mode');
    // As the order was made: an isolated order's page never hands out a client secret, whatever the address asks.
    const { scripts, preconnect } = embedding(order);
    const el = await element(c, order, isMode(mode) ? mode : undefined);
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
    const order = session.orders.find((o) => o.checkoutId === checkout.id);
    if (order && checkout.state === 'succeeded') sessions.paid(session, order);
    const { scripts, preconnect } = embedding(order);
    return page(
      ctx,
      c,
      { title: 'Your payment', section: 'cart', session, scripts, preconnect },
      views.resultView(checkout, order ? await element(c, order) : null, language(c)),
    );
  });

  return app;
}
