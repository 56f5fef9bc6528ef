/**
 * What the browser journeys share: the three servers started by `startAll()` on free loopback
 * ports with a temporary data folder, and Chromium (the test run's shared one, else one per
 * file: test/support/stack.ts), pages that record console errors and CSP violations, and steps
 * through the shop, the checkout element and the simulator's gateway.
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, CDPSession, Disposable, Frame, FrameLocator, Locator, Page, Response } from 'playwright-core';
import type { CheckoutMode, CheckoutView } from '@bank-checkout/contract';
import { startServersAndBrowser, type StartOptions, type Started } from '../support/stack.js';

export interface Stack extends Started {
  browser: Browser;
  /**
   * Moves the simulator's and the BFF's clock `ms` ahead, for good (a journey passing a
   * deadline moves its page's clock with it: `page.clock.fastForward`). On the shared stack,
   * the files after the mover would meet servers living in the future: the runner puts the
   * files that move the clock last in their process, and a page opened afterwards by another
   * file fails, naming why.
   */
  moveClock: (ms: number) => void;
  /**
   * The servers' clock now: the real one, moved ahead by `moveClock`. A page's clock must agree
   * with it (the isolated frame dates its proofs of possession by it): `openPage` sets the pages
   * of the shared contexts to it once the servers' clock has moved, and a test with a context of
   * its own installs its page's clock at it (`page.context().clock.install({ time: stack.now() })`).
   */
  now: () => number;
  close: () => Promise<void>;
}

export interface StackOptions {
  /**
   * A stack of the file's own. Without it every file of the process takes the same one (the
   * runner joins the end-to-end files into one process), so a file that counts what the servers
   * hold (every order at the simulator) asks for its own.
   */
  own?: boolean;
  /** For a stack of its own: settings of the servers beside the defaults (`PROVIDER_TIMEOUT_MS`, say). */
  env?: Record<string, string>;
  /** For a stack of its own: what answers the BFF's requests, given the BFF (a BFF that answers late, say). */
  bffAnswers?: StartOptions['bffAnswers'];
}

/** How far a stack's servers' clock runs ahead of the real one, and which file's stack moved it. */
interface Clock {
  ahead: number;
  movedBy: Stack | null;
}
const clocks = new WeakMap<Browser, Clock>();

/** The process's shared stack, and how many files hold it. */
let shared: { stack: Promise<Stack>; holders: number } | null = null;

/**
 * Servers on free ports, a temporary store, and one browser; `close()` ends all of it (the
 * shared stack, once the last file holding it has closed it).
 */
export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  if (opts.own) return newStack(opts);
  const held = (shared ??= { stack: newStack(), holders: 0 });
  held.holders++;
  const base = await held.stack;
  let closed = false;
  const stack: Stack = {
    ...base,
    moveClock: (ms) => moveClock(stack, ms),
    now: base.now,
    close: async () => {
      if (closed) return;
      closed = true;
      if (--held.holders > 0) return;
      if (shared === held) shared = null;
      await base.close();
    },
  };
  return stack;
}

async function newStack({ env, bffAnswers }: StackOptions = {}): Promise<Stack> {
  const clock: Clock = { ahead: 0, movedBy: null };
  const { started, browser, close } = await startServersAndBrowser('bank-checkout-e2e-', {
    now: () => Date.now() + clock.ahead,
    ...(env ? { env } : {}),
    ...(bffAnswers ? { bffAnswers } : {}),
  });
  clocks.set(browser, clock);
  const stack: Stack = { ...started, browser, moveClock: (ms) => moveClock(stack, ms), now: () => Date.now() + clock.ahead, close };
  return stack;
}

function moveClock(stack: Stack, ms: number): void {
  const clock = clocks.get(stack.browser)!;
  if (!(ms > 0)) throw new Error(`the servers' clock moves ahead only, not by ${ms} ms`);
  clock.movedBy ??= stack;
  clock.ahead += ms;
}

export interface WatchedPage {
  page: Page;
  /**
   * Console errors, uncaught exceptions and CSP violations of the shop's pages, in order. The
   * simulator's gateway pages are the provider's, not the shop's: their messages are left out
   * (a failed validation page answers 422 by design, which Chromium logs).
   */
  problems: string[];
  /**
   * Asserts that nothing went wrong in the page since the last check, allowing messages that
   * match `allowed` (such as the log line Chromium writes for a page answered with a 422 on
   * purpose), then starts a new record.
   */
  assertClean: (allowed?: RegExp[]) => void;
  /** A script run in every document the page loads, before the page's own, until the test closes the page. */
  addInitScript: (content: string) => Promise<void>;
  close: () => Promise<void>;
}

/**
 * A browser context with one page, kept for the next `openPage` when its test closes it: a new
 * context costs Chromium two to three CPU-seconds before its page does anything, and a new page
 * in it about one more, so the journeys of a file take turns in a few of them. Between two
 * tests the slot is wiped: other tabs closed, the page back at about:blank with no listener,
 * route or init script of the last test's, and every cookie, permission and stored value of
 * the stack's origins gone.
 */
interface Slot {
  context: BrowserContext;
  page: Page;
  /** The page's DevTools session, which clears the origins' stored data. */
  cdp: CDPSession;
  /** Where the page's watchers write: the `problems` of the test holding the slot. */
  sink: string[];
  /** The init scripts the test holding the slot added (removed by the wipe). */
  scripts: Disposable[];
  /** Its context's clock was installed, to follow the servers' once they moved ahead. */
  clock?: boolean;
}
/** The idle slots of each browser connection (the files that share a stack share its slots). */
const idle = new WeakMap<Browser, Slot[]>();

/**
 * The journeys' screen: a laptop's layout (the shop's narrow layouts start below 48rem, and the
 * phone's journey sets its own), no larger, since Chromium rasters and composites every frame
 * in software: at 800×600 a journey's frames (raster and drawing) cost it about a fifth less than at
 * 1100×900.
 */
const VIEWPORT = { width: 800, height: 600 };

async function newSlot(stack: Stack): Promise<Slot> {
  const context = await stack.browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const slot: Slot = { context, page, cdp: await context.newCDPSession(page), sink: [], scripts: [] };
  watch(stack, slot);
  // Violations are also reported as events in the page: log them where the watchers hear.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  return slot;
}

/** Console errors and uncaught exceptions of the shop's pages go to the slot's current test. */
function watch(stack: Stack, slot: Slot): void {
  const provider = (url: string) => url.startsWith(stack.urls.sandbox);
  slot.page.on('console', (msg) => {
    if (msg.type() === 'error' && !provider(msg.location().url || slot.page.url())) slot.sink.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  slot.page.on('pageerror', (err) => {
    if (!provider(slot.page.url())) slot.sink.push(`exception: ${err.message}`);
  });
}

/** Wipes the slot for the next test (see Slot); answers false when it cannot be (then it is closed). */
async function wipe(stack: Stack, slot: Slot): Promise<boolean> {
  try {
    for (const other of slot.context.pages()) if (other !== slot.page) await other.close();
    slot.page.removeAllListeners();
    await slot.page.unrouteAll({ behavior: 'ignoreErrors' });
    for (const script of slot.scripts.splice(0)) await script.dispose();
    watch(stack, slot);
    await slot.page.goto('about:blank');
    await slot.context.clearCookies();
    await slot.context.clearPermissions();
    for (const url of Object.values(stack.urls)) {
      await slot.cdp.send('Storage.clearDataForOrigin', { origin: new URL(url).origin, storageTypes: 'all' });
    }
    return true;
  } catch {
    await slot.context.close().catch(() => {});
    return false;
  }
}

/**
 * A page that reports every console error and CSP violation, in a context with no cookie or
 * stored value of any earlier test. `own`: a context of the test's own, closed with it, for a
 * test that changes what the wipe does not undo (the context's clock, its init scripts).
 */
export async function openPage(stack: Stack, opts: { own?: boolean } = {}): Promise<WatchedPage> {
  const clock = clocks.get(stack.browser);
  if (clock?.movedBy && clock.movedBy !== stack) {
    throw new Error(
      "another file moved these servers' clock ahead: files that move it (Stack.moveClock) run after the others of their process (scripts/test.mjs)",
    );
  }
  let pool = idle.get(stack.browser);
  if (!pool) idle.set(stack.browser, (pool = []));
  const slot = (!opts.own && pool.pop()) || (await newSlot(stack));
  // The servers' clock moved ahead: a shared context's pages live in the same time as the servers.
  if (!opts.own && clock?.ahead) {
    if (slot.clock) await slot.context.clock.setSystemTime(stack.now());
    else await slot.context.clock.install({ time: stack.now() });
    slot.clock = true;
  }
  const problems: string[] = [];
  slot.sink = problems;
  return {
    page: slot.page,
    problems,
    assertClean: (allowed = []) => {
      const left = problems.filter((p) => !allowed.some((re) => re.test(p)));
      problems.length = 0;
      assert.deepEqual(left, [], `problems in the page:\n${left.join('\n')}`);
    },
    addInitScript: async (content) => {
      slot.scripts.push(await slot.page.addInitScript({ content }));
    },
    close: async () => {
      if (opts.own) await slot.context.close();
      else if (await wipe(stack, slot)) pool.push(slot);
    },
  };
}

/** Chromium's log line for a page of the shop answered with `status` on purpose. */
export const pageStatus = (status: number, path: string): RegExp =>
  new RegExp(`^console: Failed to load resource: the server responded with a status of ${status} .*\\(https?://[^/]+${path.replace(/[?]/g, '\\?')}\\)$`);

/* ---------- the shop ---------- */

/** The product the journeys buy (apps/demo/src/catalog.ts). */
const PRODUCT = { id: 'mug', name: 'Stoneware mug' };

/** The id of the checkout the shop's checkout page `url` shows (`/checkout?order=…`). */
function checkoutIdIn(url: string): string {
  const at = new URL(url);
  const id = at.searchParams.get('order');
  assert.ok(at.pathname === '/checkout' && id, `the shop's checkout page names its checkout: ${url}`);
  return id;
}

/**
 * Puts a product in the cart and goes to the checkout page in `mode` as a payer does: the home
 * page's button, the cart's choice of how to pay, its button; answers the checkout's id.
 */
export async function checkoutFromCart(page: Page, stack: Stack, mode: CheckoutMode = 'native'): Promise<string> {
  await page.goto(`${stack.urls.demo}/`);
  await page.getByRole('button', { name: `Add to cart: ${PRODUCT.name}` }).click();
  await page.waitForURL('**/cart');
  await page.getByRole('radio', { name: { native: 'In this page', redirect: "At my bank's page", periodic: 'As a periodic payment' }[mode] }).check();
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL(/\/checkout\?order=/);
  return checkoutIdIn(page.url());
}

/**
 * Puts a product in the cart and orders its checkout in `mode` as the shop's product and cart
 * pages do, by sending their two forms (the same fields, from the page's own session and
 * origin) without drawing those pages, then opens the checkout page the shop answers with;
 * answers its checkout id. The journeys about the shop's pages walk them (`checkoutFromCart`:
 * native.test.ts, the phone's journey, the way back to the cart after a failed payment); the
 * others start here, two documents fewer (each drawn, and given Playwright's script): about
 * 0.6 Chromium CPU-seconds less per journey. `inline`: an order made inline (the shop's
 * demonstration of the weaker mode), its checkout in the shop's page.
 */
export async function orderCheckout(page: Page, stack: Stack, mode: CheckoutMode = 'native', opts: { inline?: boolean } = {}): Promise<string> {
  const send = async (path: string, form: Record<string, string>): Promise<string> => {
    const res = await page.request.post(`${stack.urls.demo}${path}`, { form, headers: { Origin: stack.urls.demo }, maxRedirects: 0 });
    assert.equal(res.status(), 303, `${path}: ${res.status()} ${(await res.text()).slice(0, 300)}`);
    return new URL(res.headers().location ?? '', stack.urls.demo).href;
  };
  assert.equal(new URL(await send('/cart/add', { productId: PRODUCT.id, quantity: '1' })).pathname, '/cart');
  // (A payment of the session before this one, paid before the shop heard of it, empties its
  // cart as this product goes in: the product is in a new cart, apps/demo/src/shop.ts.)
  const checkout = await send('/checkout', { mode, ...(opts.inline ? { embed: 'inline' } : {}) });
  const id = checkoutIdIn(checkout);
  await page.goto(checkout);
  return id;
}

/** The checkout as the merchant API shows it. */
export async function merchantCheckout(stack: Stack, id: string): Promise<{ state: string; error?: { code: string }; reference: string; amount: number }> {
  const res = await fetch(`${stack.urls.bff}/v1/checkouts/${id}`, { headers: { Authorization: `Bearer ${stack.merchantSecret}` } });
  assert.equal(res.status, 200);
  return (await res.json()) as { state: string; error?: { code: string }; reference: string; amount: number };
}

/* ---------- the checkout element ---------- */

/**
 * The checkout as the payer sees it: the shop embeds it isolated, so its steps are inside the
 * frame `<bank-checkout isolate>` holds (on the BFF's origin).
 */
export const kit = (page: Page): FrameLocator => page.frameLocator('bank-checkout iframe');

const isCheckoutCall = (stack: Stack) => (r: Response) => r.url().startsWith(`${stack.urls.bff}/v1/checkout/`) && r.request().method() === 'POST';

/** Clicks and waits for the checkout action that click sends; answers the view the BFF returned. */
export async function act(page: Page, stack: Stack, click: () => Promise<void>): Promise<CheckoutView> {
  const [response] = await Promise.all([page.waitForResponse(isCheckoutCall(stack)), click()]);
  const text = await response.text();
  // An action answers the checkout's view; anything else is told with what it was.
  assert.ok(response.ok(), `${response.request().method()} ${new URL(response.url()).pathname}: ${response.status()} ${text.slice(0, 300)}`);
  return JSON.parse(text) as CheckoutView;
}

/** Picks `bankId` in the bank list (under Business when `legal`), fills its test values and signs in; answers the BFF's view. */
export async function signIn(page: Page, stack: Stack, bankId: string, opts: { legal?: boolean } = {}): Promise<CheckoutView> {
  if (opts.legal) await kit(page).locator('bank-selector').getByRole('radio', { name: 'Business' }).check();
  await kit(page).locator(`bank-selector [role=option]#bank-${bankId}`).click();
  const form = kit(page).locator('bank-login-form');
  await form.getByRole('button', { name: 'Fill test values' }).click();
  return act(page, stack, () => form.getByRole('button', { name: 'Sign in' }).click());
}

/** How long the isolated frame wants the checkout still before a press counts (STILL_MS of packages/elements/src/frame/visibility.ts). */
const STILL_MS = 600;

/**
 * What a payer does before confirming, and a press to count needs (frame/visibility.ts): the
 * controls about to be used brought onto the screen (`inView`, every element each finds, in
 * order: as many as the screen holds together, the first at least), then a wait until the checkout has been still and fully visible for longer than
 * the frame asks (STILL_MS). While a step that confirms is on screen, Chromium also drops the
 * input that reaches the frame within 500 ms of its moving or changing size. Two watches of the
 * test's own tell: in the shop's page, where the frame is (every animation frame); in the frame,
 * whether the browser says the checkout is visible (IntersectionObserver v2, as the frame's own
 * watch), with a margin for the frame's watch, which may report up to one of its intervals
 * (100 ms) later. A checkout that has been still long enough is not waited for again.
 */
export async function settle(page: Page, ...inView: Locator[]): Promise<void> {
  const iframe = page.locator('bank-checkout iframe');
  // Inline, the checkout is the page's own: nothing to wait for.
  if (!(await iframe.count())) return;
  await watchFrame(page);
  const height = page.viewportSize()!.height - 8;
  // Once the frame has drawn the answer to its last call (the checkout is busy until then), every
  // element each locator finds (none: nothing to bring into view), in order.
  await kit(page).locator('bank-checkout [part=base][aria-busy="false"]').waitFor();
  const elements = (await Promise.all(inView.map((l) => l.elementHandles()))).flat();
  const boxes = (await Promise.all(elements.map((e) => e.boundingBox()))).filter((b) => b !== null);
  let dy = 0;
  if (boxes.length) {
    // The most of them, in order, that the screen holds together (the first at least).
    const span = (n: number) => [Math.min(...boxes.slice(0, n).map((b) => b.y)), Math.max(...boxes.slice(0, n).map((b) => b.y + b.height))] as const;
    let n = boxes.length;
    while (n > 1 && span(n)[1] - span(n)[0] > height - 8) n--;
    const [from, to] = span(n);
    if (to > height) dy = to - height;
    if (from - dy < 8) dy = from - 8;
  } else {
    // The frame's end, where a step's buttons are; the whole frame when it fits.
    const r = await iframe.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
    if (r.bottom > height) dy = r.bottom - height;
    if (r.height <= height && r.top - dy < 8) dy = r.top - 8;
  }
  if (Math.abs(dy) >= 1) await page.evaluate((by) => scrollBy({ top: by, behavior: 'instant' }), dy);
  await stillFor(page);
}

/**
 * The test's two watches of the checkout's frame (`settle`), started once a page: where the frame
 * is in the shop's page (`__placed`: when it last moved or changed size), and whether the browser
 * says the checkout in it is visible (`__seen`: since when, null while it is not). Answers the frame.
 */
async function watchFrame(page: Page): Promise<Frame> {
  const iframe = page.locator('bank-checkout iframe');
  const frame = await (await iframe.elementHandle()).contentFrame();
  assert.ok(frame, 'the checkout has its frame');
  // (A script as text: the test bundle names the functions it compiles, which the page cannot.)
  await iframe.evaluate((el) => ((window as unknown as { __frame: Element }).__frame = el));
  await page.evaluate(`window.__placed ??= (() => {
    const placed = { at: performance.now(), rect: '' };
    requestAnimationFrame(function look() {
      const rect = JSON.stringify(window.__frame.getBoundingClientRect());
      if (rect !== placed.rect) Object.assign(placed, { at: performance.now(), rect });
      requestAnimationFrame(look);
    });
    return placed;
  })()`);
  await frame.evaluate(() => {
    const w = window as unknown as { __seen?: Seen };
    if (w.__seen) return;
    const seen: Seen = (w.__seen = { since: null, changed: performance.now(), shown: '' });
    new IntersectionObserver(
      (entries) => {
        for (const e of entries as (IntersectionObserverEntry & { isVisible?: boolean })[]) {
          const r = e.intersectionRect;
          const shown = `${e.isVisible} ${[r.top, r.left, r.bottom, r.right].map(Math.round).join(',')}`;
          if (shown !== seen.shown) Object.assign(seen, { changed: performance.now(), shown });
          seen.since = e.isVisible ? (seen.since ?? performance.now()) : null;
        }
      },
      { threshold: Array.from({ length: 101 }, (_, i) => i / 100), trackVisibility: true, delay: 100 } as IntersectionObserverInit,
    ).observe(document.querySelector('bank-checkout')!);
  });
  return frame;
}

/** The test's watch in the frame: since when the checkout is visible (null: it is not), and when what the screen shows of it last changed. */
interface Seen {
  since: number | null;
  changed: number;
  shown: string;
}

/**
 * Waits until the checkout's frame has not moved, nor changed what the screen shows of it, for
 * longer than the frame asks (STILL_MS, with a margin for the frame's own watch, which may report
 * up to one of its intervals later), and, unless `visible` is false, been visible as long.
 */
export async function stillFor(page: Page, { visible = true } = {}): Promise<void> {
  const frame = await watchFrame(page);
  const still = STILL_MS + 150;
  const placedFor = () => page.evaluate(() => performance.now() - (window as unknown as { __placed: { at: number } }).__placed.at);
  for (;;) {
    await page.waitForFunction((ms) => performance.now() - (window as unknown as { __placed: { at: number } }).__placed.at >= ms, still);
    await frame.waitForFunction(
      ([ms, wanted]) => {
        const { since, changed } = (window as unknown as { __seen: Seen }).__seen;
        return performance.now() - changed >= ms && (!wanted || (since !== null && performance.now() - since >= ms));
      },
      [still, visible] as const,
      // (On a timer: a frame off the screen draws no animation frames.)
      { polling: 50 },
    );
    // Both at once: the frame did not move while the rest was waited for.
    if ((await placedFor()) >= still) return;
  }
}

/** Waits until the browser says the checkout is not visible (covered, faded, off the screen). */
export async function hiddenNow(page: Page): Promise<void> {
  const frame = await watchFrame(page);
  await frame.waitForFunction(() => (window as unknown as { __seen: Seen }).__seen.since === null, undefined, { polling: 50 });
}

/** Where the checkout's steps are: the frame's document (`kit`), or the page's own inline. */
type Root = Pick<FrameLocator, 'locator'>;

/**
 * At the account list: the first account chosen, and its Pay button ready to press (`settle`).
 * Answers the button. The account is chosen with the keyboard (Space), as a payer may: Chromium
 * drops a click that reaches the frame within 500 ms of its moving (the step just drawn, a
 * scroll to the option), never a key, so the one wait is for the press that counts.
 */
export async function chooseFirstAccount(page: Page, root: Root = kit(page)): Promise<Locator> {
  const picker = root.locator('bank-account-picker');
  const [first, pay] = [picker.locator('input[type=radio]').first(), picker.locator('button[type=submit]')];
  await first.waitFor();
  await first.focus();
  await page.keyboard.press('Space');
  assert.ok(await first.isChecked(), 'the first account chosen');
  await settle(page, pay);
  return pay;
}

/**
 * At a challenge, its values given: the confirm button on the screen, with the amount and payee
 * above when the screen holds both, ready to be pressed (`settle`). Answers the button.
 */
export async function readyChallenge(page: Page, root: Root = kit(page)): Promise<Locator> {
  const submit = root.locator('bank-challenge [part=submit]');
  await submit.waitFor();
  await settle(page, submit, root.locator('bank-checkout [part=summary]'));
  return submit;
}

/** At a challenge: its test values given by its button, pressed with the keyboard (see `chooseFirstAccount`). */
export async function fillChallengeTestValues(page: Page, root: Root = kit(page)): Promise<void> {
  const fill = root.locator('bank-challenge [part=fill-test]');
  await fill.waitFor();
  await fill.focus();
  await page.keyboard.press('Enter');
}

/** At the account list: the first account, and Pay; answers the BFF's view (the challenge, as a rule). */
export async function transferFromFirstAccount(page: Page, stack: Stack): Promise<CheckoutView> {
  const pay = await chooseFirstAccount(page);
  return act(page, stack, () => pay.click());
}

/** At a challenge: its test values, and confirm; answers the BFF's view. */
export async function confirmWithTestValues(page: Page, stack: Stack): Promise<CheckoutView> {
  await fillChallengeTestValues(page);
  const confirm = await readyChallenge(page);
  return act(page, stack, () => confirm.click());
}

/**
 * Pays a native checkout already on screen at `bankId` with only what the page shows: the
 * login type named `loginType` (else the bank's default), the
 * "Fill test values" button at the login, the second login and every validation round (or
 * `validationValue` typed in each validation), the first contract and account. Answers the
 * last view (the BFF's answer to the last action).
 */
export async function payNative(
  page: Page,
  stack: Stack,
  bankId: string,
  opts: { legal?: boolean; loginType?: string; validationValue?: string } = {},
): Promise<CheckoutView> {
  const option = kit(page).locator(`bank-selector [role=option]#bank-${bankId}`);
  if (opts.legal) await kit(page).locator('bank-selector').getByRole('radio', { name: 'Business' }).check();
  await option.click();
  if (opts.loginType) await kit(page).locator('bank-login-form').getByLabel('How do you want to sign in?').selectOption({ label: opts.loginType });
  // In test mode each value asked for is shown as text too, beside the fill button.
  await kit(page).locator('bank-login-form [part=test-value]').first().waitFor();
  await kit(page).locator('bank-login-form').getByRole('button', { name: 'Fill test values' }).click();
  let view = await act(page, stack, () => kit(page).locator('bank-login-form').getByRole('button', { name: 'Sign in' }).click());
  for (let steps = 0; steps < 10; steps++) {
    const next = await takeStep(page, stack, view, opts);
    if (!next) return view;
    view = next;
  }
  throw new Error(`the payment did not end; last state ${view.state}`);
}

/**
 * The payer's action at the step `view` shows (second login, contract, account, validation),
 * with the test values the page shows; answers the BFF's answer to it, or null at any other state.
 */
export async function takeStep(page: Page, stack: Stack, view: CheckoutView, opts: { validationValue?: string } = {}): Promise<CheckoutView | null> {
  const step = view.step;
  switch (step.state) {
    case 'second-login': {
      const host = kit(page).locator('bank-second-login');
      await host.locator('[part=test-value]').waitFor();
      await host.getByRole('button', { name: 'Fill test values' }).click();
      return await act(page, stack, () => host.locator('[part=submit]').click());
    }
    case 'select-contract': {
      const host = kit(page).locator('bank-contract-picker');
      await host.locator('input[type=radio]').first().check();
      return await act(page, stack, () => host.locator('button[type=submit]').click());
    }
    case 'select-account': {
      const pay = await chooseFirstAccount(page);
      return await act(page, stack, () => pay.click());
    }
    case 'validate': {
      const host = kit(page).locator('bank-challenge');
      await host.locator('[part=submit]').waitFor();
      // Its round drawn (the checkout not busy, as the last round's answer came).
      await kit(page).locator('bank-checkout [part=base][aria-busy="false"]').waitFor();
      const typed = step.validations.filter((v) => v.type !== 6);
      const inputs = host.locator('input');
      assert.equal(await inputs.count(), typed.length, 'one input per typed validation');
      assert.equal(await host.locator('[part=test-value]').count(), typed.length, 'each with its test value shown');
      if (opts.validationValue !== undefined) for (const [i] of typed.entries()) await inputs.nth(i).fill(opts.validationValue);
      else if (typed.length) await fillChallengeTestValues(page);
      const confirm = await readyChallenge(page);
      return await act(page, stack, () => confirm.click());
    }
    default:
      return null;
  }
}

/** The element's result heading, once it shows one. */
export async function resultTitle(page: Page): Promise<string> {
  const title = kit(page).locator('bank-result [part=title]');
  await title.waitFor();
  return (await title.textContent())?.trim() ?? '';
}

/* ---------- the simulator's hosted gateway (server-rendered pages, no script) ---------- */

/**
 * Goes through the gateway's pages as a payer: summary, bank, login (any user and password in
 * the sandbox; `user1` when the bank asks for an additional key), validation code (`0000`
 * fails). Ends on the page after the code.
 */
export async function walkGateway(page: Page, opts: { bank?: string; code: string }): Promise<void> {
  await page.getByRole('button', { name: 'Continue' }).click();
  if (opts.bank && (await page.getByRole('radio').count())) {
    await page.getByRole('radio', { name: opts.bank, exact: true }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  await page.getByLabel('User', { exact: true }).fill('demo-user');
  await page.getByLabel('Password', { exact: true }).fill('demo-password');
  const key = page.getByLabel(/login key/i);
  if (await key.count()) await key.fill('user1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByLabel('Validation code').fill(opts.code);
  await page.getByRole('button', { name: 'Authorise' }).click();
}
