/**
 * `import '@bank-checkout/elements/frame'`: the isolated checkout's thin host, without Lit or
 * the step elements. It defines `<bank-checkout>` (when the full kit has not) as an element that
 * shows the checkout in a frame served by the BFF's own origin, so the bank password and codes
 * are typed in a page the merchant's scripts cannot reach.
 *
 * ```html
 * <script type="module">import '@bank-checkout/elements/frame';</script>
 * <bank-checkout isolate api="https://pay.shop.example" launch-token="lt_…"></bank-checkout>
 * ```
 */
import type { BankCheckoutElement } from '../events.js';
import { IsolatedCheckout, type IsolatedSource } from './host.js';

export {
  IsolatedCheckout,
  readTheme,
  bffOrigin,
  hostWords,
  HOST_WORDS,
  FRAME_TIMEOUT_MS,
  type IsolatedSource,
  type HostWords,
  type HostState,
  type FrameFailureCode,
} from './host.js';
export type { BankCheckoutElement, CheckoutStepDetail, CheckoutCompleteDetail, CheckoutErrorDetail, CheckoutOutcome } from '../events.js';
export {
  FRAME_PROTOCOL,
  FRAME_EVENTS,
  THEME_VARS,
  readFrameMessage,
  type FrameMessage,
  type HostMessage,
  type FrameTheme,
  type FrameSettings,
  type ThemeRefusal,
} from './messages.js';

const ATTRIBUTES = ['api', 'launch-token', 'checkout-secret', 'locale', 'mode', 'poll-interval', 'frame-timeout'] as const;

/**
 * The isolated `<bank-checkout>`: same attributes and events as the full element
 * (`bank-checkout-step`, `bank-checkout-complete`, `bank-checkout-error`); it always isolates.
 *
 * When the frame cannot be shown (its page loaded but never said it was there, the BFF said it
 * refuses this page's origin, it did not load within `frame-timeout` ms: 10 s), it fires `bank-checkout-error` with `code`
 * `frame_unreachable`, `frame_refused` or `frame_timeout`, and shows the payer why with Try
 * again, above the shop's own `slot="fallback"` content. Given a client secret
 * (`checkout-secret`) it runs nothing: `secret_refused` (the frame runs launch tokens only).
 *
 * @fires bank-checkout-error - A call failed, the payer's confirmation was refused while the frame was not fully visible, or not still long enough before the press (`frame_hidden`), the frame could not be shown (`frame_unreachable`, `frame_refused`, `frame_timeout`), or it was given a client secret (`secret_refused`); detail `{checkoutId, code, status, requestId}`.
 * @csspart frame - The iframe the checkout runs in.
 * @csspart placeholder - What shows, and is announced, while the frame loads.
 * @csspart failure - Why the frame could not be shown, with Try again (an alert).
 * @csspart retry - The failure's Try again button.
 * @slot fallback - The shop's own way forward, shown under the failure only.
 * @cssproperty --bank-checkout-placeholder-height - The placeholder's height (at least the screen's and 32rem: what follows stays below the fold until the frame says its height).
 */
export class BankCheckoutFrame extends HTMLElement implements IsolatedSource {
  static readonly observedAttributes = ATTRIBUTES;
  private readonly isolated: IsolatedCheckout;

  constructor() {
    super();
    // The page may have written the root, with the frame in it (prerender.ts): it is kept.
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open', delegatesFocus: true });
    this.isolated = new IsolatedCheckout(this, root, () => this);
  }

  get api(): string {
    return this.getAttribute('api') ?? '';
  }
  set api(v: string) {
    this.setAttribute('api', v);
  }
  /** The single-use launch token the merchant's server made for this page (isolated checkouts). */
  get launchToken(): string {
    return this.getAttribute('launch-token') ?? '';
  }
  set launchToken(v: string) {
    this.setAttribute('launch-token', v);
  }
  /**
   * Refused: an isolated checkout opens with a launch token only. Given a client secret, it runs
   * nothing, fires `bank-checkout-error` with `secret_refused` and says why in the console.
   */
  get checkoutSecret(): string {
    return this.getAttribute('checkout-secret') ?? '';
  }
  set checkoutSecret(v: string) {
    this.setAttribute('checkout-secret', v);
  }
  get locale(): string | null {
    return this.getAttribute('locale');
  }
  set locale(v: string | null) {
    if (v) this.setAttribute('locale', v);
    else this.removeAttribute('locale');
  }
  get mode(): string | null {
    return this.getAttribute('mode');
  }
  set mode(v: string | null) {
    if (v) this.setAttribute('mode', v);
    else this.removeAttribute('mode');
  }
  get pollInterval(): number | null {
    return this.number('poll-interval');
  }
  /** Milliseconds the frame has to load and say it is there (`frame-timeout`; 10 s by default). */
  get frameTimeout(): number | null {
    return this.number('frame-timeout');
  }
  private number(name: string): number | null {
    const v = Number(this.getAttribute(name) ?? NaN);
    return Number.isFinite(v) ? v : null;
  }

  connectedCallback(): void {
    this.isolated.connect();
  }
  disconnectedCallback(): void {
    this.isolated.teardown();
  }
  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    if (old === value || !this.isConnected) return;
    if (name === 'api' || name === 'launch-token' || name === 'checkout-secret') this.isolated.connect();
    else this.isolated.update();
  }
  /** Sends the theme again (after the page changed `--bank-*` properties without a class or style change). */
  refreshTheme(): void {
    this.isolated.update();
  }
  override focus(options?: FocusOptions): void {
    super.focus(options);
    this.isolated.focus();
  }
}

if (!customElements.get('bank-checkout')) customElements.define('bank-checkout', BankCheckoutFrame);

declare global {
  interface HTMLElementTagNameMap {
    'bank-checkout': BankCheckoutElement;
  }
}
