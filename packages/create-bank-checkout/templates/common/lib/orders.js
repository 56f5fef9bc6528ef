/**
 * The shop's orders, kept in one JSON file (`data/orders.json`): each order's reference,
 * amount and checkout, its state as the verified webhook told it, and the ids of the webhook
 * events already handled, so a delivery that comes again (a retry after a lost answer) changes
 * nothing. A real shop keeps these in its own database: one row per order, and a table of
 * handled event ids with a unique key.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * @typedef {object} Order
 * @property {string} reference Your reference, the checkout's too.
 * @property {string} checkoutId
 * @property {number} amount In cents.
 * @property {number} quantity
 * @property {string} createdAt
 * @property {string} state `open` until the webhook tells the outcome: succeeded, failed, expired, cancelled, or unknown.
 * @property {string[]} events The ids of the webhook events that moved it.
 */

/** How many handled event ids are kept (a retry comes within days, not thousands of events later). */
const KEEP_EVENTS = 10_000;

/** @param {string} file */
export function openOrders(file) {
  /** @type {{ orders: Record<string, Order>, events: Record<string, string> }} */
  const data = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { orders: {}, events: {} };
  const save = () => {
    mkdirSync(dirname(file), { recursive: true });
    // Written whole, then renamed over the old file: a crash leaves one or the other.
    writeFileSync(`${file}.tmp`, JSON.stringify(data, null, 2), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  };
  return {
    /** @param {Order} order */
    add(order) {
      data.orders[order.reference] = order;
      save();
    },
    /** @param {string} reference @returns {Order | undefined} */
    get: (reference) => (Object.hasOwn(data.orders, reference) ? data.orders[reference] : undefined),
    /** Newest first. @returns {Order[]} */
    list: () => Object.values(data.orders).sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    /**
     * Handles a webhook event once: `apply` runs and the event is recorded, or, for an id
     * handled before, nothing happens. Returns whether it ran.
     * @param {string} eventId
     * @param {() => void} apply
     */
    once(eventId, apply) {
      if (Object.hasOwn(data.events, eventId)) return false;
      apply();
      data.events[eventId] = new Date().toISOString();
      const ids = Object.keys(data.events);
      for (const old of ids.slice(0, Math.max(0, ids.length - KEEP_EVENTS))) delete data.events[old];
      save();
      return true;
    },
  };
}
