/**
 * Embedding examples: a plain HTML page with one module script, and a React page. Each asks
 * the shop's server for a checkout (the server creates it with the merchant secret and hands
 * back only a single-use launch token), then renders `<bank-checkout>` and listens to its events.
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { euros } from './format.js';
import { html, type Html } from './layout.js';
import { originOf, page, type DemoContext } from './context.js';
import { MODES, modesWith } from './catalog.js';

/** The example's price, fixed by the server: the browser never chooses an amount. */
export const EXAMPLE_AMOUNT = 1990;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{8,100}$/;

const SNIPPET_PLAIN = `<script type="module" src="/assets/frame.js"></script>
<button id="pay">Pay ${euros(EXAMPLE_AMOUNT)} by bank</button>
<script type="module">
  const res = await fetch('/examples/api/checkout', { method: 'POST', … });
  const { launchToken, api } = await res.json();
  const el = document.createElement('bank-checkout');
  el.setAttribute('isolate', '');
  el.setAttribute('api', api);
  el.setAttribute('launch-token', launchToken);
  el.addEventListener('bank-checkout-complete', (e) => show(e.detail.outcome));
  document.body.append(el);
</script>`;

const SNIPPET_REACT = `import '@bank-checkout/elements/frame';

function Checkout({ api, launchToken, onComplete }) {
  const ref = useRef(null);
  useEffect(() => {
    const el = ref.current;
    const done = (e) => onComplete(e.detail);
    el.addEventListener('bank-checkout-complete', done);
    return () => el.removeEventListener('bank-checkout-complete', done);
  }, [onComplete]);
  return <bank-checkout ref={ref} isolate api={api} launch-token={launchToken} />;
}`;

export function exampleRoutes(ctx: DemoContext) {
  const app = new Hono();

  app.get('/examples', (c) =>
    page(
      ctx,
      c,
      { title: 'Embedding examples', section: 'examples', session: ctx.sessions.get(c) },
      html`<h1>Embedding examples</h1>
        <p class="intro">Two small pages that embed the checkout. Each asks this shop's server for a checkout of ${euros(EXAMPLE_AMOUNT)}: the server creates it with the BFF's merchant API and gives the page only a single-use launch token, which the checkout's frame redeems.</p>
        <div class="examples">
          <section class="card" aria-labelledby="ex-plain">
            <h2 id="ex-plain"><a href="/examples/plain">Plain HTML</a></h2>
            <p>One module script, no framework.</p>
            <pre tabindex="0" aria-label="Plain HTML example code"><code>${SNIPPET_PLAIN}</code></pre>
          </section>
          <section class="card" aria-labelledby="ex-react">
            <h2 id="ex-react"><a href="/examples/react">React</a></h2>
            <p>A component that renders the element and listens to its events.</p>
            <pre tabindex="0" aria-label="React example code"><code>${SNIPPET_REACT}</code></pre>
          </section>
        </div>
        <p>More in the repository's guides: <code>docs/embedding.md</code> and <code>docs/theming.md</code>.</p>`,
    ),
  );

  const examplePage = (title: string, script: string, body: Html) =>
    app.get(`/examples/${script}`, (c) =>
      page(
        ctx,
        c,
        { title, section: 'examples', bare: true, scripts: [`${script}-example`] },
        html`<p class="back"><a href="/examples">← Examples</a></p>${body}`,
      ),
    );

  examplePage(
    'Plain HTML example',
    'plain',
    html`<h1>Plain HTML example</h1>
      <p>A page with one module script. Press the button: the script asks the shop's server for a checkout and adds <code>&lt;bank-checkout&gt;</code> to the page.</p>
      <p><label for="example-mode">Pay</label>
        <select id="example-mode">${MODES.map((m) => html`<option value="${m.mode}">${m.label.toLowerCase()}</option>`)}</select></p>
      <button type="button" class="primary" id="pay">Pay ${euros(EXAMPLE_AMOUNT)} by bank</button>
      <div id="checkout-slot"></div>
      <h2>Events</h2>
      <ol id="events" class="events" aria-live="polite"></ol>`,
  );

  examplePage(
    'React example',
    'react',
    html`<h1>React example</h1><div id="root" data-amount="${EXAMPLE_AMOUNT}"></div><noscript>This example needs JavaScript.</noscript>`,
  );

  /** Creates a checkout for an example page; answers `{checkoutId, launchToken, api}`. */
  app.post('/examples/api/checkout', async (c) => {
    const session = ctx.sessions.get(c);
    // Read as it comes: JSON's `null`, a number or a list name no mode, as an empty body does.
    let body: unknown = {};
    try {
      if ((c.req.header('Content-Type') ?? '').startsWith('application/json')) body = await c.req.json<unknown>();
    } catch {
      return c.json({ error: { code: 'invalid_json', message: 'The body is not valid JSON.' } }, 400);
    }
    const mode = (typeof body === 'object' && body !== null && 'mode' in body ? body.mode : undefined) ?? 'native';
    const chosen = MODES.find((m) => m.mode === mode);
    if (!chosen)
      return c.json(
        {
          error: {
            code: 'validation_failed',
            message: 'mode must be native, redirect or periodic.',
            issues: [{ path: 'mode', message: 'must be native, redirect or periodic' }],
          },
        },
        422,
      );
    const key = c.req.header('Idempotency-Key');
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
      return c.json({ error: { code: 'validation_failed', message: 'Idempotency-Key must be 8 to 100 visible characters.' } }, 422);
    }
    // Bound to this session: another visitor's key can never find this checkout.
    const idempotencyKey = ctx.keyFor('example', session.id, key ?? randomBytes(16).toString('hex'));
    const origin = originOf(ctx, c);
    const created = await ctx.merchant.createCheckout(
      {
        amount: EXAMPLE_AMOUNT,
        subject: 'Embedding example',
        reference: `EX-${idempotencyKey.slice(0, 10).toUpperCase()}`,
        urlOk: `${origin}/result`,
        urlError: `${origin}/result`,
        modes: modesWith(chosen.mode),
      },
      idempotencyKey,
    );
    if (!created.ok) return c.json({ error: created.error }, created.status >= 500 ? 502 : 422);
    ctx.sessions.addOrder(session, {
      checkoutId: created.data.id,
      reference: created.data.reference,
      amount: EXAMPLE_AMOUNT,
      cartRevision: -1,
      lines: [{ name: 'Embedding example', quantity: 1, amount: EXAMPLE_AMOUNT }],
    });
    c.header('Cache-Control', 'no-store');
    return c.json(
      { checkoutId: created.data.id, launchToken: created.data.launchToken, api: ctx.opts.browserBffUrl, mode: chosen.mode, amount: EXAMPLE_AMOUNT },
      201,
    );
  });

  return app;
}
