/**
 * The merchant console: payment links (simple and periodic), periodic cancellations, the
 * orders with paging, enable/disable, and the notifications arriving live. Plain server-rendered
 * pages whose forms work without script; a small module script adds the live feed (SSE, with
 * polling as the fallback). Every call to the BFF is made here, with the merchant secret.
 */
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { dateTime, euros, html, type SafeHtml } from './html.js';
import { page, readForm, type DemoContext } from './context.js';
import { checkoutRow, notificationRow, type Feed, type FeedRow } from './feed.js';
import { CANCEL_FORM, LINK_FORM, issuesByField, periodicForm, renderField, renderForm, toBody, type FieldDef, type FieldErrors, type FormDef, type FormValues } from './forms.js';
import type { ApiErrorBody, OrdersQuery, PaymentOrder, Result, SignedLink, StoredNotification } from './merchant.js';
import { flashBox } from './shop.js';
import type { Session } from './session.js';

const ORDER_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const DEFAULT_PAGE_SIZE = 10;
const KEEP_ALIVE_MS = 15_000;

/** The orders filter, as the console's query string holds it. */
const FILTER_FIELDS: FieldDef[] = [
  { name: 'pageSize', label: 'Orders per page', kind: 'integer', min: 1, max: 300 },
  {
    name: 'order',
    label: 'Order',
    kind: 'select',
    options: [
      { value: 'desc', label: 'Newest first' },
      { value: 'asc', label: 'Oldest first' },
    ],
  },
  { name: 'dateFrom', label: 'Created from', kind: 'date' },
  { name: 'dateTo', label: 'Created until', kind: 'date' },
];

function filterOf(q: Record<string, string>): { values: FormValues; query: OrdersQuery } {
  const values: FormValues = {
    pageSize: q.pageSize ?? String(DEFAULT_PAGE_SIZE),
    order: q.order ?? 'desc',
    dateFrom: q.dateFrom ?? '',
    dateTo: q.dateTo ?? '',
  };
  return {
    values,
    query: {
      page: /^\d{1,6}$/.test(q.page ?? '') ? Math.max(1, Number(q.page)) : 1,
      // Passed on as typed: the BFF checks them and its messages go next to the fields.
      pageSize: values.pageSize ?? '',
      order: values.order as 'asc' | 'desc',
      ...(values.dateFrom ? { dateFrom: values.dateFrom } : {}),
      ...(values.dateTo ? { dateTo: values.dateTo } : {}),
    },
  };
}

/** The console's own query string, rebuilt from known keys only. */
function consoleQuery(values: FormValues, pageNo: number): string {
  const p = new URLSearchParams();
  for (const f of FILTER_FIELDS) if (values[f.name]) p.set(f.name, values[f.name]!);
  if (pageNo > 1) p.set('page', String(pageNo));
  return p.toString();
}

const tomorrowIn = (timeZone: string, now: number) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(now + 24 * 3600_000));

const rowHtml = (r: FeedRow): SafeHtml =>
  html`<tr data-id="${r.id}">${r.cells.map((cell) => html`<td${cell.className ? html` class="${cell.className}"` : ''}>${cell.text}</td>`)}</tr>`;

const FEED_HEAD = html`<tr><th scope="col">Received (UTC)</th><th scope="col">Status</th><th scope="col">Reference</th><th scope="col" class="num">Amount</th><th scope="col">Signature</th><th scope="col">Details</th></tr>`;

export function consoleRoutes(ctx: DemoContext, feed: Feed) {
  const app = new Hono();
  const { merchant, sessions } = ctx;
  const notifUrl = `${ctx.opts.bffUrl.replace(/\/+$/, '')}/v1/notifications/provider`;
  const closers = new Set<() => void>();
  /**
   * Cancellations created here: their reference, and the periodic order each one cancels. The
   * payment-orders query has no field for a periodic order's state (the spec leaves the query of
   * periodic payments unpublished), so an order counts as cancelled once a successful
   * notification with one of its cancellations' references has arrived.
   */
  const cancellations = new Map<string, string>();
  const rememberCancellation = (reference: string, order: string) => {
    cancellations.set(reference, order);
    if (cancellations.size > 1000) cancellations.delete(cancellations.keys().next().value!);
  };

  const sub = (active: string) => {
    const items = [
      ['/console', 'Orders'],
      ['/console/links/new', 'New payment link'],
      ['/console/periodic/new', 'New periodic link'],
      ['/console/periodic/cancel', 'Cancel a periodic order'],
    ] as const;
    return html`<nav class="subnav" aria-label="Console"><ul>${items.map(
      ([href, label]) => html`<li><a href="${href}"${href === active ? html` aria-current="page"` : ''}>${label}</a></li>`,
    )}</ul></nav>`;
  };

  const consolePage = (c: Context, session: Session, title: string, active: string, body: SafeHtml, status: 200 | 422 | 502 = 200) =>
    page(ctx, c, { title, section: 'console', session, scripts: ['console'] }, html`<h1>${title}</h1>${sub(active)}${body}`, status);

  /* ---------- orders ---------- */

  const statusBadge = (o: PaymentOrder) => {
    const cls = o.codStatus === 'OK' ? 'ok' : o.codStatus === 'ERROR' ? 'error' : 'pending';
    const label = o.codStatus === 'OK' ? 'Paid' : o.codStatus === 'ERROR' ? 'Failed' : 'Pending';
    return html`<span class="badge ${cls}">${label}</span>${o.enabled ? '' : html` <span class="badge off">Disabled</span>`}`;
  };

  /** ACTIVE or CANCELLED: the provider's own field when it sends one, else what the notifications tell. */
  const periodicState = (o: PaymentOrder, cancelled: Set<string>): string | null =>
    o.periodicStatus ?? (!o.periodicFrequency || o.codStatus !== 'OK' ? null : cancelled.has(o.idDebt) ? 'CANCELLED' : 'ACTIVE');

  const ordersTable = (orders: PaymentOrder[], authorisations: Map<string, string>, cancelled: Set<string>, back: string) =>
    orders.length
      ? html`<div class="table-wrap"><table class="orders">
          <caption class="visually-hidden">Payment orders</caption>
          <thead><tr><th scope="col">Created (UTC)</th><th scope="col">Order</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
          <tbody>${orders.map((o) => {
            const state = periodicState(o, cancelled);
            const periodic = o.periodicFrequency
              ? html`<p class="meta">${o.periodicFrequency} from ${o.periodicStartDate ?? '?'}${o.periodicEndDate ? html` to ${o.periodicEndDate}` : ''}${
                  state ? html` · <span class="badge ${state === 'ACTIVE' ? 'ok' : 'off'}">${state.toLowerCase()}</span>` : ''
                }</p>`
              : '';
            const transactionId = o.reference ? authorisations.get(o.reference) : undefined;
            const cancellable = state === 'ACTIVE';
            return html`<tr data-order="${o.idDebt}">
              <td class="when">${dateTime(o.createAt)}</td>
              <td>${o.subject}<p class="meta">${o.reference ?? ''} · <span class="mono">${o.idDebt}</span></p>${periodic}</td>
              <td class="num">${euros(o.amount)}</td>
              <td>${statusBadge(o)}</td>
              <td><div class="actions">
                ${o.urlShort ? html`<a href="${o.urlShort}" rel="noopener" target="_blank" aria-label="Open link of ${o.idDebt} (new window)">Open link</a>` : ''}
                <form method="post" action="/console/orders/${encodeURIComponent(o.idDebt)}/${o.enabled ? 'disable' : 'enable'}" class="inline">
                  <input type="hidden" name="back" value="${back}">
                  <button type="submit" aria-label="${o.enabled ? 'Disable' : 'Enable'} ${o.idDebt}">${o.enabled ? 'Disable' : 'Enable'}</button>
                </form>
                ${cancellable
                  ? html`<a href="/console/periodic/cancel?${new URLSearchParams({ order: o.idDebt, ...(transactionId ? { transactionId } : {}) }).toString()}" aria-label="Cancel periodic order ${o.idDebt}">Cancel periodic</a>`
                  : ''}
              </div></td>
            </tr>`;
          })}</tbody>
        </table></div>`
      : html`<p>No orders in this period. <a href="/console/links/new">Create a payment link</a>.</p>`;

  const pager = (values: FormValues, current: number, totalPages: number, totalItems: number) => {
    if (totalPages <= 0) return '';
    const link = (n: number, label: string, rel: string) =>
      n >= 1 && n <= totalPages ? html`<a href="/console?${consoleQuery(values, n)}" rel="${rel}">${label}</a>` : html`<span aria-disabled="true">${label}</span>`;
    return html`<nav class="pager" aria-label="Pages of orders">
      ${link(current - 1, '← Previous', 'prev')}
      <span aria-current="page">Page ${current} of ${totalPages} · ${totalItems} orders</span>
      ${link(current + 1, 'Next →', 'next')}
    </nav>`;
  };

  const livePanel = (notifications: StoredNotification[]) => html`<section class="live" aria-labelledby="live-title">
      <h2 id="live-title">Notifications <span class="feed-state" id="feed-state">connecting</span></h2>
      <p class="hint">Signed results the provider sent to the BFF (verified there), and checkout updates the BFF sent to this shop's webhook (verified here). New ones appear without reloading.</p>
      <p class="visually-hidden" id="live-status" role="status" aria-live="polite"></p>
      <div class="table-wrap"><table id="notifications">
        <caption>Result notifications</caption>
        <thead>${FEED_HEAD}</thead>
        <tbody id="notification-rows">${notifications.map((n) => rowHtml(notificationRow(n)))}</tbody>
      </table></div>
      <div class="table-wrap"><table id="checkout-updates">
        <caption>Checkout updates (webhook)</caption>
        <thead>${FEED_HEAD}</thead>
        <tbody id="checkout-rows">${feed.updates().map((u) => rowHtml(checkoutRow(u)))}</tbody>
      </table></div>
    </section>`;

  app.get('/console', async (c) => {
    const session = sessions.get(c);
    const flash = sessions.takeFlash(session);
    const { values, query } = filterOf(c.req.query());
    const [orders, notes] = await Promise.all([merchant.orders(query), merchant.notifications(200)]);
    const notifications = notes.ok ? notes.data.notifications : [];
    // The transaction id of each authorised periodic order (its cancellation needs it).
    const authorisations = new Map<string, string>();
    const cancelled = new Set<string>();
    for (const n of [...notifications].reverse()) {
      if (n.status !== '200') continue;
      authorisations.set(n.reference, n.transactionId);
      const order = cancellations.get(n.reference);
      if (order) cancelled.add(order);
    }

    const filterErrors: FieldErrors = {};
    let listing: SafeHtml;
    if (orders.ok) {
      const data = orders.data;
      const current = data.currentPage ?? query.page;
      listing = html`${ordersTable(data.paymentOrders ?? [], authorisations, cancelled, consoleQuery(values, current))}${pager(values, current, data.totalPages ?? 0, data.totalItems ?? 0)}`;
    } else {
      const { fields, form } = issuesByField({ id: 'orders', title: '', submit: '', fields: [...FILTER_FIELDS, { name: 'page', label: 'Page', kind: 'integer' }] }, orders.error);
      Object.assign(filterErrors, fields);
      listing = html`<div class="flash error" role="alert"><p>The orders could not be listed.</p>${form.length ? html`<ul>${form.map((e) => html`<li>${e}</li>`)}</ul>` : ''}</div>`;
    }
    return consolePage(
      c,
      session,
      'Merchant console',
      '/console',
      html`${flashBox(flash)}
        <div class="console-grid">
          <section aria-labelledby="orders-title" class="orders-section">
            <h2 id="orders-title">Payment orders</h2>
            <form method="get" action="/console" class="filters" aria-label="Filter orders">
              ${FILTER_FIELDS.map((f) => renderField('orders', f, values[f.name] ?? '', filterErrors[f.name]))}
              <button type="submit">Show</button>
            </form>
            ${listing}
          </section>
          ${livePanel(notifications)}
        </div>`,
      orders.ok ? 200 : orders.status === 422 ? 422 : 502,
    );
  });

  const toggle = (enable: boolean) =>
    app.post(`/console/orders/:id/${enable ? 'enable' : 'disable'}`, async (c) => {
      const session = sessions.get(c);
      const id = c.req.param('id');
      const form = await readForm(c);
      const back = new URLSearchParams(form.back ?? '');
      const { values } = filterOf(Object.fromEntries(back));
      const pageNo = /^\d{1,6}$/.test(back.get('page') ?? '') ? Number(back.get('page')) : 1;
      if (!ORDER_ID.test(id)) {
        session.flash = { kind: 'error', text: 'That is not an order id.' };
      } else {
        const res = await merchant.setEnabled(id, enable);
        session.flash = res.ok
          ? { kind: 'success', text: `Order ${id} ${enable ? 'enabled: its link works again' : 'disabled: its link is refused'}.` }
          : { kind: 'error', text: `Order ${id} could not be ${enable ? 'enabled' : 'disabled'}: ${res.error.message}` };
      }
      const q = consoleQuery(values, pageNo);
      return c.redirect(`/console${q ? `?${q}` : ''}`, 303);
    });
  toggle(true);
  toggle(false);

  /* ---------- link forms ---------- */

  const linkCreated = (session: Session, what: string, link: SignedLink) => {
    session.flash = {
      kind: 'success',
      text: `${what} created.`,
      details: [
        ...(link.idDebt ? [{ label: 'Order id', value: link.idDebt }] : []),
        ...(link.url ? [{ label: 'Signed address', value: link.url, href: link.url }] : []),
      ],
    };
  };

  const formPage = (
    c: Context,
    def: FormDef,
    action: string,
    values: FormValues,
    failure?: { fields: FieldErrors; form: string[] },
    intro?: SafeHtml,
  ) => {
    const session = sessions.get(c);
    return consolePage(
      c,
      session,
      def.title,
      action === '/console/links' ? '/console/links/new' : action === '/console/periodic' ? '/console/periodic/new' : '/console/periodic/cancel',
      html`${intro ?? ''}${renderForm(def, { action, values, errors: failure?.fields ?? {}, formErrors: failure?.form ?? [], notifUrl })}`,
      failure ? 422 : 200,
    );
  };

  /** Posts a form to the BFF; on success a message and the orders, otherwise the form again with the errors in place. */
  const submitForm = async (
    c: Context,
    def: FormDef,
    action: string,
    send: (body: Record<string, unknown>) => Promise<Result<SignedLink>>,
    what: string,
    onCreated?: (body: Record<string, unknown>, values: FormValues) => void,
  ) => {
    const session = sessions.get(c);
    const values = await readForm(c);
    const { body, errors } = toBody(def, values);
    if (Object.keys(errors).length) return formPage(c, def, action, values, { fields: errors, form: [] });
    const res = await send(body);
    if (!res.ok) return formPage(c, def, action, values, issuesByField(def, res.error as ApiErrorBody));
    linkCreated(session, what, res.data);
    onCreated?.(body, values);
    return c.redirect('/console', 303);
  };

  const newReference = (prefix: string) => `${prefix}-${new Date(ctx.opts.now()).toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(3).toString('hex').toUpperCase()}`;

  app.get('/console/links/new', (c) => formPage(c, LINK_FORM, '/console/links', { reference: newReference('LINK') }));
  app.post('/console/links', (c) => submitForm(c, LINK_FORM, '/console/links', merchant.createLink, 'Payment link'));

  const periodicDef = async () => {
    const banks = await merchant.linkBanks({ periodic: '1', enabled: '1' });
    const list = banks.ok ? (banks.data.data ?? []) : [];
    return periodicForm({
      banks: list.map((b) => ({ bankId: b.bankId, name: b.name, frequencies: b.frequencyPeriodicPayment ?? [] })),
      tomorrow: tomorrowIn('Europe/Madrid', ctx.opts.now()),
    });
  };
  const periodicIntro = html`<p class="intro">The payer authorises once a transfer repeated at the frequency you set; the amount and subject cannot change afterwards.</p>`;

  app.get('/console/periodic/new', async (c) =>
    formPage(c, await periodicDef(), '/console/periodic', { reference: newReference('SUB'), frequency: 'Monthly', startDate: tomorrowIn('Europe/Madrid', ctx.opts.now()) }, undefined, periodicIntro),
  );
  app.post('/console/periodic', async (c) => submitForm(c, await periodicDef(), '/console/periodic', merchant.createPeriodicLink, 'Periodic payment link'));

  const cancelIntro = html`<p class="intro">Cancelling needs the payer's authorisation too: this creates a signed address that takes the payer to the bank where the order was authorised.</p>`;
  app.get('/console/periodic/cancel', (c) => {
    const transactionId = c.req.query('transactionId') ?? '';
    const order = c.req.query('order') ?? '';
    return formPage(
      c,
      CANCEL_FORM,
      '/console/periodic/cancel',
      { transactionId: transactionId.slice(0, 128), reference: newReference('CANCEL'), order: ORDER_ID.test(order) ? order : '' },
      undefined,
      cancelIntro,
    );
  });
  app.post('/console/periodic/cancel', (c) =>
    submitForm(c, CANCEL_FORM, '/console/periodic/cancel', merchant.cancelPeriodic, 'Cancellation link', (body, values) => {
      if (values.order && ORDER_ID.test(values.order) && typeof body.reference === 'string') rememberCancellation(body.reference, values.order);
    }),
  );

  /* ---------- live feed ---------- */

  app.get('/console/events', (c) =>
    streamSSE(c, async (stream) => {
      let finish = () => {};
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const send = (event: string, data: string) => void stream.writeSSE({ event, data }).catch(finish);
      await stream.write('retry: 3000\n\n');
      const unsubscribe = feed.subscribe((e) => send(e.type, JSON.stringify(e.row)));
      const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n').catch(finish), KEEP_ALIVE_MS);
      stream.onAbort(finish);
      closers.add(finish);
      await finished;
      clearInterval(keepAlive);
      unsubscribe();
      closers.delete(finish);
    }),
  );

  /** The polling fallback of the live feed: the latest rows as JSON. */
  app.get('/console/api/feed', async (c) => {
    const res = await merchant.notifications(50);
    c.header('Cache-Control', 'no-store');
    if (!res.ok) return c.json({ error: res.error }, 502);
    return c.json({
      notifications: [...res.data.notifications].reverse().map(notificationRow),
      checkouts: [...feed.updates()].reverse().map(checkoutRow),
    });
  });

  return Object.assign(app, {
    /** Ends every open live feed (the server is stopping). */
    closeStreams(): void {
      for (const f of closers) f();
      closers.clear();
    },
  });
}
