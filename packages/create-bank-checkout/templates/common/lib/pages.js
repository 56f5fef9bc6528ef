/**
 * The shop's pages, as strings: every value put in a page is escaped (`html` below). No inline
 * script or style: the pages run under a strict Content-Security-Policy (shop.js).
 */

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A piece of HTML that is already safe. */
class Safe {
  /** @param {string} text */
  constructor(text) {
    this.text = text;
  }
  toString() {
    return this.text;
  }
}

/** @param {unknown} value @returns {string} */
const piece = (value) => {
  if (value instanceof Safe) return value.text;
  if (Array.isArray(value)) return value.map(piece).join('');
  if (value === null || value === undefined || value === false) return '';
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[/** @type {keyof typeof ESCAPES} */ (ch)]);
};

/**
 * HTML with every value escaped (values that are `html` already are kept as they are).
 * @param {TemplateStringsArray} strings
 * @param {...unknown} values
 */
export const html = (strings, ...values) => new Safe(strings.reduce((out, s, i) => out + s + (i < values.length ? piece(values[i]) : ''), ''));

/** @param {number} cents */
export const euros = (cents) => new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' }).format(cents / 100);

/**
 * A whole page.
 * @param {string} title
 * @param {Safe} body
 * @param {Safe | string} [head]
 */
export const page = (title, body, head = '') =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${piece(title)} · Coffee shop</title>
<link rel="stylesheet" href="/assets/shop.css">
${piece(head)}
</head>
<body>
<header><nav aria-label="Shop"><a href="/">Coffee shop</a> <a href="/orders">Orders</a></nav></header>
<main>
${piece(body)}
</main>
</body>
</html>
`;

/** What a state means to the shop's customer and operator. */
export const STATE_WORDS = {
  open: 'Waiting for the payment',
  succeeded: 'Paid',
  failed: 'Not paid: the bank refused the payment',
  expired: 'Not paid: the payment expired',
  cancelled: 'Not paid: the payment was cancelled',
  unknown: 'Waiting for our check with the bank',
};

/** What a state means; a checkout's other states are steps of a payment under way. @param {string} state */
export const stateWords = (state) =>
  Object.hasOwn(STATE_WORDS, state) ? STATE_WORDS[/** @type {keyof typeof STATE_WORDS} */ (state)] : `Under way (${state})`;
