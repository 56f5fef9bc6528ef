/**
 * The merchant console: payment links (simple and periodic), periodic cancellations, the
 * orders with paging, enable/disable, and the notifications arriving live. Plain server-rendered
 * pages whose forms work without script; a small module script adds the live feed (SSE, with
 * polling as the fallback). Every call to the BFF is made here, with the merchant secret.
 */
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { page, readForm, type DemoContext } from './context.js';
import { backTo, createCancellations, filterOf, consoleQuery, FILTER_FIELDS, newReference, ORDER_ID, tomorrowIn } from './console-orders.js';
import {
  CANCEL_INTRO,
  decisionsPanel,
  livePanel,
  openCheckoutsPanel,
  ordersError,
  ordersTable,
  ordersView,
  pager,
  PERIODIC_INTRO,
  subnav,
} from './console-views.js';
import { checkoutRow, notificationRow, type Feed } from './feed.js';
import { funnelDays, funnelView } from './console-funnel.js';
import { CANCEL_FORM, LINK_FORM, issuesByField, periodicForm, renderForm, toBody, type FieldErrors, type FormDef, type FormValues } from './forms.js';
import { html, type Html } from './layout.js';
import type { Result, SignedLink } from './merchant.js';
import type { Session } from './session.js';

const KEEP_ALIVE_MS = 15_000;
const TIME_ZONE = 'Europe/Madrid';

/** The console's page for each form's action. */
const ACTIVE: Record<string, string> = {
  '/console/links': '/console/links/new',
  '/console/periodic': '/console/periodic/new',
  '/console/periodic/cancel': '/console/periodic/cancel',
};

export function consoleRoutes(ctx: DemoContext, feed: Feed) {
  const app = new Hono();
  const { merchant, sessions } = ctx;
  const notifUrl = `${ctx.opts.bffUrl.replace(/\/+$/, '')}/v1/notifications/provider`;
  const closers = new Set<() => void>();
  const cancellations = createCancellations();
  const reference = (prefix: string) => newReference(prefix, ctx.opts.now(), randomBytes(3).toString('hex'));
  const tomorrow = () => tomorrowIn(TIME_ZONE, ctx.opts.now());

  const consolePage = (c: Context, session: Session, title: string, active: string, body: Html, status: 200 | 422 | 502 = 200) =>
    page(ctx, c, { title, section: 'console', session, scripts: ['console'] }, html`<h1>${title}</h1>${subnav(active)}${body}`, status);

  /* ---------- orders ---------- */

  app.get('/console', async (c) => {
    const session = sessions.get(c);
    const flash = sessions.takeFlash(session);
    const { values, query } = filterOf(c.req.query());
    const [orders, notes, undecided, recent] = await Promise.all([
      merchant.orders(query),
      merchant.notifications(200),
      merchant.undecided(),
      merchant.recent(),
    ]);
    const notifications = notes.ok ? notes.data.notifications : [];
    const { authorisations, cancelled } = cancellations.read(notifications);

    const filterErrors: FieldErrors = {};
    let listing: Html;
    if (orders.ok) {
      const data = orders.data;
      const current = data.currentPage ?? query.page;
      listing = html`${ordersTable(data.paymentOrders ?? [], authorisations, cancelled, consoleQuery(values, current))}${pager(values, current, data.totalPages ?? 0, data.totalItems ?? 0)}`;
    } else {
      const { fields, form } = issuesByField(
        { id: 'orders', title: '', submit: '', fields: [...FILTER_FIELDS, { name: 'page', label: 'Page', kind: 'integer' }] },
        orders.error,
      );
      Object.assign(filterErrors, fields);
      listing = ordersError(form);
    }
    const live = livePanel(notifications.map(notificationRow), feed.updates().map(checkoutRow));
    const decisions = [
      decisionsPanel(undecided.ok ? undecided.data.checkouts : []),
      openCheckoutsPanel(recent.ok ? recent.data.checkouts.filter((c) => c.actions.includes('cancel')) : []),
    ];
    return consolePage(
      c,
      session,
      'Merchant console',
      '/console',
      ordersView(flash, values, filterErrors, listing, live, decisions),
      orders.ok ? 200 : orders.status === 422 ? 422 : 502,
    );
  });

  /* ---------- the payers' funnel ---------- */

  app.get('/console/funnel', async (c) => {
    const session = sessions.get(c);
    const days = funnelDays(c);
    const answer = await merchant.funnel(ctx.opts.now() - days * 86_400_000);
    return consolePage(c, session, "Payers' funnel", '/console/funnel', funnelView(days, answer), answer.ok ? 200 : 502);
  });

  app.post('/console/checkouts/:id/resolve', async (c) => {
    const session = sessions.get(c);
    const id = c.req.param('id');
    const form = await readForm(c);
    const outcome = form.outcome === 'succeeded' || form.outcome === 'failed' ? form.outcome : null;
    if (!ORDER_ID.test(id) || !outcome) {
      session.flash = { kind: 'error', text: 'That is not a checkout and an outcome.' };
    } else {
      const note = typeof form.note === 'string' && form.note.trim() ? form.note.trim().slice(0, 500) : undefined;
      const res = await merchant.resolveCheckout(id, outcome, note);
      session.flash = res.ok
        ? { kind: 'success', text: `Checkout ${res.data.reference} recorded as ${outcome === 'succeeded' ? 'paid' : 'not paid'}.` }
        : { kind: 'error', text: `Checkout ${id} could not be recorded: ${res.error.message}` };
    }
    return c.redirect('/console', 303);
  });

  app.post('/console/checkouts/:id/cancel', async (c) => {
    const session = sessions.get(c);
    const id = c.req.param('id');
    if (!ORDER_ID.test(id)) {
      session.flash = { kind: 'error', text: 'That is not a checkout id.' };
    } else {
      const res = await merchant.cancelCheckout(id);
      session.flash = res.ok
        ? { kind: 'success', text: `Checkout ${res.data.reference} cancelled: its payer can no longer pay it, and its reference takes a new checkout.` }
        : { kind: 'error', text: `Checkout ${id} could not be cancelled: ${res.error.message}` };
    }
    return c.redirect('/console', 303);
  });

  const toggle = (enable: boolean) =>
    app.post(`/console/orders/:id/${enable ? 'enable' : 'disable'}`, async (c) => {
      const session = sessions.get(c);
      const id = c.req.param('id');
      const form = await readForm(c);
      if (!ORDER_ID.test(id)) {
        session.flash = { kind: 'error', text: 'That is not an order id.' };
      } else {
        const res = await merchant.setEnabled(id, enable);
        session.flash = res.ok
          ? { kind: 'success', text: `Order ${id} ${enable ? 'enabled: its link works again' : 'disabled: its link is refused'}.` }
          : { kind: 'error', text: `Order ${id} could not be ${enable ? 'enabled' : 'disabled'}: ${res.error.message}` };
      }
      return c.redirect(backTo(form.back), 303);
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

  const formPage = (c: Context, def: FormDef, action: string, values: FormValues, failure?: { fields: FieldErrors; form: string[] }, intro?: Html) =>
    consolePage(
      c,
      sessions.get(c),
      def.title,
      ACTIVE[action] ?? '/console',
      html`${intro ?? ''}${renderForm(def, { action, values, errors: failure?.fields ?? {}, formErrors: failure?.form ?? [], notifUrl })}`,
      failure ? 422 : 200,
    );

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
    if (!res.ok) return formPage(c, def, action, values, issuesByField(def, res.error));
    linkCreated(session, what, res.data);
    onCreated?.(body, values);
    return c.redirect('/console', 303);
  };

  app.get('/console/links/new', (c) => formPage(c, LINK_FORM, '/console/links', { reference: reference('LINK') }));
  app.post('/console/links', (c) => submitForm(c, LINK_FORM, '/console/links', merchant.createLink, 'Payment link'));

  const periodicDef = async () => {
    const banks = await merchant.linkBanks({ periodic: '1', enabled: '1' });
    const list = banks.ok ? (banks.data.data ?? []) : [];
    return periodicForm({
      banks: list.map((b) => ({ bankId: b.bankId, name: b.name, frequencies: b.frequencyPeriodicPayment ?? [] })),
      tomorrow: tomorrow(),
    });
  };

  app.get('/console/periodic/new', async (c) =>
    formPage(
      c,
      await periodicDef(),
      '/console/periodic',
      { reference: reference('SUB'), frequency: 'Monthly', startDate: tomorrow() },
      undefined,
      PERIODIC_INTRO,
    ),
  );
  app.post('/console/periodic', async (c) => submitForm(c, await periodicDef(), '/console/periodic', merchant.createPeriodicLink, 'Periodic payment link'));

  app.get('/console/periodic/cancel', (c) => {
    const transactionId = c.req.query('transactionId') ?? '';
    const order = c.req.query('order') ?? '';
    const values = { transactionId: transactionId.slice(0, 128), reference: reference('CANCEL'), order: ORDER_ID.test(order) ? order : '' };
    return formPage(c, CANCEL_FORM, '/console/periodic/cancel', values, undefined, CANCEL_INTRO);
  });
  app.post('/console/periodic/cancel', (c) =>
    submitForm(c, CANCEL_FORM, '/console/periodic/cancel', merchant.cancelPeriodic, 'Cancellation link', (body, values) => {
      if (values.order && ORDER_ID.test(values.order) && typeof body.reference === 'string') cancellations.remember(body.reference, values.order);
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
