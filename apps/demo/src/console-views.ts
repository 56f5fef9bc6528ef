/**
 * The merchant console's HTML: its navigation, the orders table with its actions and pages,
 * and the live panel of notifications and checkout updates. Pure functions of what the routes
 * read from the BFF.
 */
import { safeHref } from '@bank-checkout/contract';
import { consoleQuery, FILTER_FIELDS, periodicState } from './console-orders.js';
import type { FeedRow } from './feed.js';
import type { FieldErrors, FormValues } from './form-defs.js';
import { renderField } from './form-views.js';
import { dateTime, euros } from './format.js';
import { flashBox, html, type Html } from './layout.js';
import type { MerchantCheckout, PaymentOrder } from './merchant.js';
import type { Flash } from './session.js';

const SUBNAV = [
  ['/console', 'Orders'],
  ['/console/links/new', 'New payment link'],
  ['/console/periodic/new', 'New periodic link'],
  ['/console/periodic/cancel', 'Cancel a periodic order'],
  ['/console/funnel', 'Funnel'],
] as const;

export function subnav(active: string): Html {
  return html`<nav class="subnav" aria-label="Console"><ul>${SUBNAV.map(
    ([href, label]) => html`<li><a href="${href}"${href === active ? html` aria-current="page"` : ''}>${label}</a></li>`,
  )}</ul></nav>`;
}

export const rowHtml = (r: FeedRow): Html =>
  html`<tr data-id="${r.id}">${r.cells.map((cell) => html`<td${cell.className ? html` class="${cell.className}"` : ''}>${cell.text}</td>`)}</tr>`;

const FEED_HEAD = html`<tr><th scope="col">Received (UTC)</th><th scope="col">Status</th><th scope="col">Reference</th><th scope="col" class="num">Amount</th><th scope="col">Signature</th><th scope="col">Details</th></tr>`;

function statusBadge(o: PaymentOrder): Html {
  const cls = o.codStatus === 'OK' ? 'ok' : o.codStatus === 'ERROR' ? 'error' : 'pending';
  const label = o.codStatus === 'OK' ? 'Paid' : o.codStatus === 'ERROR' ? 'Failed' : 'Pending';
  return html`<span class="badge ${cls}">${label}</span>${o.enabled ? '' : html` <span class="badge off">Disabled</span>`}`;
}

function orderRow(o: PaymentOrder, authorisations: Map<string, string>, cancelled: Set<string>, back: string): Html {
  const state = periodicState(o, cancelled);
  const periodic = o.periodicFrequency
    ? html`<p class="meta">${o.periodicFrequency} from ${o.periodicStartDate ?? '?'}${o.periodicEndDate ? html` to ${o.periodicEndDate}` : ''}${
        state ? html` · <span class="badge ${state === 'ACTIVE' ? 'ok' : 'off'}">${state.toLowerCase()}</span>` : ''
      }</p>`
    : '';
  const transactionId = o.reference ? authorisations.get(o.reference) : undefined;
  const cancellable = state === 'ACTIVE';
  const link = safeHref(o.urlShort, '');
  return html`<tr data-order="${o.idDebt}">
              <td class="when">${dateTime(o.createAt)}</td>
              <td>${o.subject}<p class="meta">${o.reference ?? ''} · <span class="mono">${o.idDebt}</span></p>${periodic}</td>
              <td class="num">${euros(o.amount)}</td>
              <td>${statusBadge(o)}</td>
              <td><div class="actions">
                ${link ? html`<a href="${link}" rel="noopener" target="_blank" aria-label="Open link of ${o.idDebt} (new window)">Open link</a>` : ''}
                <form method="post" action="/console/orders/${encodeURIComponent(o.idDebt)}/${o.enabled ? 'disable' : 'enable'}" class="inline">
                  <input type="hidden" name="back" value="${back}">
                  <button type="submit" aria-label="${o.enabled ? 'Disable' : 'Enable'} ${o.idDebt}">${o.enabled ? 'Disable' : 'Enable'}</button>
                </form>
                ${
                  cancellable
                    ? html`<a href="/console/periodic/cancel?${new URLSearchParams({ order: o.idDebt, ...(transactionId ? { transactionId } : {}) }).toString()}" aria-label="Cancel periodic order ${o.idDebt}">Cancel periodic</a>`
                    : ''
                }
              </div></td>
            </tr>`;
}

export function ordersTable(orders: PaymentOrder[], authorisations: Map<string, string>, cancelled: Set<string>, back: string): Html {
  return orders.length
    ? html`<div class="table-wrap"><table class="orders">
          <caption class="visually-hidden">Payment orders</caption>
          <thead><tr><th scope="col">Created (UTC)</th><th scope="col">Order</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
          <tbody>${orders.map((o) => orderRow(o, authorisations, cancelled, back))}</tbody>
        </table></div>`
    : html`<p>No orders in this period. <a href="/console/links/new">Create a payment link</a>.</p>`;
}

export function pager(values: FormValues, current: number, totalPages: number, totalItems: number): Html | '' {
  if (totalPages <= 0) return '';
  const link = (n: number, label: string, rel: string) =>
    n >= 1 && n <= totalPages
      ? html`<a href="/console?${consoleQuery(values, n)}" rel="${rel}">${label}</a>`
      : html`<span aria-disabled="true">${label}</span>`;
  return html`<nav class="pager" aria-label="Pages of orders">
      ${link(current - 1, '← Previous', 'prev')}
      <span aria-current="page">Page ${current} of ${totalPages} · ${totalItems} orders</span>
      ${link(current + 1, 'Next →', 'next')}
    </nav>`;
}

/** The orders could not be listed: the BFF's messages that name no filter field. */
export const ordersError = (messages: string[]): Html =>
  html`<div class="flash error" role="alert"><p>The orders could not be listed.</p>${messages.length ? html`<ul>${messages.map((e) => html`<li>${e}</li>`)}</ul>` : ''}</div>`;

/** Notifications and checkout updates as they arrive; the console's script adds new rows. */
export function livePanel(notifications: FeedRow[], updates: FeedRow[]): Html {
  return html`<section class="live" aria-labelledby="live-title">
      <h2 id="live-title">Notifications <span class="feed-state" id="feed-state">connecting</span></h2>
      <p class="hint">Signed results the provider sent to the BFF (verified there), and checkout updates the BFF sent to this shop's webhook (verified here). New ones appear without reloading.</p>
      <p class="visually-hidden" id="live-status" role="status" aria-live="polite"></p>
      <div class="table-wrap"><table id="notifications">
        <caption>Result notifications</caption>
        <thead>${FEED_HEAD}</thead>
        <tbody id="notification-rows">${notifications.map(rowHtml)}</tbody>
      </table></div>
      <div class="table-wrap"><table id="checkout-updates">
        <caption>Checkout updates (webhook)</caption>
        <thead>${FEED_HEAD}</thead>
        <tbody id="checkout-rows">${updates.map(rowHtml)}</tbody>
      </table></div>
    </section>`;
}

/**
 * Checkouts whose outcome the BFF could not learn (a timeout while the bank moved money, or
 * not): the merchant asks the bank, then records what it said. Shown only when there are some.
 */
export function decisionsPanel(checkouts: MerchantCheckout[]): Html | '' {
  if (!checkouts.length) return '';
  const decide = (c: MerchantCheckout) =>
    html`<form method="post" action="/console/checkouts/${encodeURIComponent(c.id)}/resolve" class="inline">
        <label for="note-${c.id}">How you checked (optional)</label>
        <input id="note-${c.id}" name="note" maxlength="500" autocomplete="off">
        <div class="actions">
          <button type="submit" name="outcome" value="succeeded" aria-label="Paid: ${c.reference}">Paid</button>
          <button type="submit" name="outcome" value="failed" aria-label="Not paid: ${c.reference}">Not paid</button>
        </div>
      </form>`;
  return html`<section class="decisions" aria-labelledby="decisions-title">
      <h2 id="decisions-title">Waiting for your decision (${checkouts.length})</h2>
      <p class="hint">The bank's answer to these payments never arrived. Check with the bank whether the money moved, then record what it said; the payer's page and your webhook follow.</p>
      <div class="table-wrap"><table>
        <caption class="visually-hidden">Checkouts with an unknown outcome</caption>
        <thead><tr><th scope="col">Since (UTC)</th><th scope="col">Order</th><th scope="col" class="num">Amount</th><th scope="col">The bank says</th></tr></thead>
        <tbody>${checkouts.map(
          (c) => html`<tr data-checkout="${c.id}">
              <td class="when">${dateTime(Date.parse(c.updatedAt))}</td>
              <td>${c.subject}<p class="meta">${c.reference} · <span class="mono">${c.id}</span></p></td>
              <td class="num">${euros(c.amount)}</td>
              <td>${decide(c)}</td>
            </tr>`,
        )}</tbody>
      </table></div>
    </section>`;
}

/**
 * Checkouts a payer may still pay, among those changed last: the merchant may cancel one (a
 * changed cart, a withdrawn order), then make a new checkout for the same order. Shown only when
 * there are some.
 */
export function openCheckoutsPanel(checkouts: MerchantCheckout[]): Html | '' {
  if (!checkouts.length) return '';
  return html`<section class="decisions" aria-labelledby="open-title">
      <h2 id="open-title">Open checkouts (${checkouts.length})</h2>
      <p class="hint">A payer may still pay these. Cancel one when its order changed or was withdrawn: its page says so, your webhook is told, and the order's reference takes a new checkout.</p>
      <div class="table-wrap"><table>
        <caption class="visually-hidden">Open checkouts</caption>
        <thead><tr><th scope="col">Changed (UTC)</th><th scope="col">Order</th><th scope="col">Step</th><th scope="col" class="num">Amount</th><th scope="col">Action</th></tr></thead>
        <tbody>${checkouts.map(
          (c) => html`<tr data-open="${c.id}">
              <td class="when">${dateTime(Date.parse(c.updatedAt))}</td>
              <td>${c.subject}<p class="meta">${c.reference} · <span class="mono">${c.id}</span></p></td>
              <td>${c.state}</td>
              <td class="num">${euros(c.amount)}</td>
              <td><form method="post" action="/console/checkouts/${encodeURIComponent(c.id)}/cancel" class="inline">
                <button type="submit" aria-label="Cancel checkout: ${c.reference}">Cancel</button>
              </form></td>
            </tr>`,
        )}</tbody>
      </table></div>
    </section>`;
}

/** The console's first page: what waits for a decision, the filter, the orders (`listing`), and the live panel. */
export function ordersView(flash: Flash | null, values: FormValues, filterErrors: FieldErrors, listing: Html, live: Html, decisions: (Html | '')[] = []): Html {
  return html`${flashBox(flash)}${decisions}
        <div class="console-grid">
          <section aria-labelledby="orders-title" class="orders-section">
            <h2 id="orders-title">Payment orders</h2>
            <form method="get" action="/console" class="filters" aria-label="Filter orders">
              ${FILTER_FIELDS.map((f) => renderField('orders', f, values[f.name] ?? '', filterErrors[f.name]))}
              <button type="submit">Show</button>
            </form>
            ${listing}
          </section>
          ${live}
        </div>`;
}

export const PERIODIC_INTRO = html`<p class="intro">The payer authorises once a transfer repeated at the frequency you set; the amount and subject cannot change afterwards.</p>`;
export const CANCEL_INTRO = html`<p class="intro">Cancelling needs the payer's authorisation too: this creates a signed address that takes the payer to the bank where the order was authorised.</p>`;
