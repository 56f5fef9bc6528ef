/**
 * The shop's server-side sessions: a random id in an HttpOnly, SameSite=Lax cookie, the data in
 * this process's memory (a cart, the checkouts started from it, a one-time message). Nothing
 * about a session is readable from the page's script.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

export interface CartLine {
  productId: string;
  quantity: number;
}

/**
 * A checkout the session started. Isolated (the default): each load of its page asks the BFF for
 * a fresh launch token, handed only to this session's pages. Inline (`clientSecret`: the cart's
 * `embed=inline` demonstration of the weaker mode, a checkout made inline from the start): its
 * client secret. An isolated order's page never hands out a client secret.
 */
export interface SessionOrder {
  checkoutId: string;
  /** An inline checkout's client secret; none for an isolated one. */
  clientSecret?: string;
  reference: string;
  amount: number;
  /** How it is paid (the shop's choice of mode), as it was made. */
  mode?: string;
  /** The cart revision it was made for; paying it empties that cart. */
  cartRevision: number;
  /** Known to have ended (paid and seen, cancelled, expired): nothing is left to cancel. */
  closed?: boolean;
  /** What was bought, as shown on the checkout page. */
  lines: { name: string; quantity: number; amount: number }[];
}

export interface Flash {
  /** `notice`: something the payer did not ask for happened (a payment under way cancelled by a cart change). */
  kind: 'success' | 'notice' | 'error';
  text: string;
  /** Extra lines shown under the message, such as a new link's address. */
  details?: { label: string; value: string; href?: string }[];
}

export interface Session {
  id: string;
  cart: CartLine[];
  cartRevision: number;
  orders: SessionOrder[];
  flash: Flash | null;
  lastSeen: number;
}

/** How many items the session's cart holds (its badge). */
export const cartCount = (s: Session): number => s.cart.reduce((n, l) => n + l.quantity, 0);

export const SESSION_COOKIE = 'shop_sid';
const IDLE_MS = 24 * 3600_000;
const MAX_SESSIONS = 10_000;
const MAX_ORDERS = 20;

export function createSessions(opts: { secureCookie: boolean; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const sessions = new Map<string, Session>();

  const sweep = () => {
    const limit = now() - IDLE_MS;
    for (const [id, s] of sessions) if (s.lastSeen < limit) sessions.delete(id);
    // Still full: the least recently created go first (Map keeps insertion order).
    for (const id of sessions.keys()) {
      if (sessions.size < MAX_SESSIONS) break;
      sessions.delete(id);
    }
  };

  return {
    /** The caller's session, created (and its cookie set) when there is none. */
    get(c: Context): Session {
      const id = getCookie(c, SESSION_COOKIE);
      const found = id && /^[A-Za-z0-9_-]{43}$/.test(id) ? sessions.get(id) : undefined;
      if (found) {
        found.lastSeen = now();
        return found;
      }
      if (sessions.size >= MAX_SESSIONS) sweep();
      const s: Session = { id: randomBytes(32).toString('base64url'), cart: [], cartRevision: 0, orders: [], flash: null, lastSeen: now() };
      sessions.set(s.id, s);
      setCookie(c, SESSION_COOKIE, s.id, { httpOnly: true, sameSite: 'Lax', path: '/', secure: opts.secureCookie });
      return s;
    },
    /** Reads and clears the one-time message. */
    takeFlash(s: Session): Flash | null {
      const f = s.flash;
      s.flash = null;
      return f;
    },
    /** The sessions with an order for this checkout, each with that order. */
    *withCheckout(checkoutId: string): Generator<[Session, SessionOrder]> {
      for (const s of sessions.values()) for (const o of s.orders) if (o.checkoutId === checkoutId) yield [s, o];
    },
    /** A paid order empties the cart it was made for (a cart changed since stays as it is). */
    paid(s: Session, order: SessionOrder): void {
      order.closed = true;
      if (s.cartRevision !== order.cartRevision) return;
      s.cart = [];
      s.cartRevision++;
    },
    addOrder(s: Session, order: SessionOrder): void {
      s.orders = [order, ...s.orders.filter((o) => o.checkoutId !== order.checkoutId)].slice(0, MAX_ORDERS);
    },
    get size() {
      return sessions.size;
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
