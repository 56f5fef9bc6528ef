/**
 * `<bank-handoff>`: from the desktop to the phone. At the start of the bank's-page and periodic
 * methods it offers to finish on the phone (chosen there, the desktop then says it waits for the
 * phone, not for the bank); while the checkout waits at the bank's page it shows
 * a QR code of a single-use, short-lived link (`POST /v1/checkout/handoff`) that opens, on the
 * phone, a page in the checkout's language whose one button goes on to this checkout's bank
 * page, with the same link to copy. The link opens nothing but that page: the client secret
 * stays here, and this page goes on reading the checkout and shows the result. While the code
 * shows (and after the phone used it, until the bank's result), the checkout is read every few
 * seconds: once the phone used the link, or it expired, the code goes and the payer is told,
 * with a new code on offer. Loaded on demand (the QR
 * encoder only when a code is shown).
 */
import { css, html, nothing, svg } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { KIT_LOCALES, type HandoffAnswer, type HandoffState, type KitLocale } from '@bank-checkout/contract';
import { registerTexts } from '../i18n/index.js';
import { enExtras } from '../i18n/en-extras.js';
import { esExtras } from '../i18n/es-extras.js';
import { numberLocale } from '../logic/format.js';
import { isWebUrl } from '../logic/redirect.js';
import { BankElement } from '../shared/bank-element.js';
import { elementStyles } from '../shared/styles.js';
import { qrPath, type QrPath } from './qr.js';

registerTexts({ en: enExtras, es: esExtras });

/** While a code shows, the checkout is read this often, to learn at once that the phone used it. */
export const HANDOFF_CHECK_MS = 3_000;

const isAnswer = (x: unknown): x is HandoffAnswer =>
  typeof x === 'object' && x !== null && isWebUrl((x as HandoffAnswer).url) && typeof (x as HandoffAnswer).expiresAt === 'string';

/**
 * @summary Finishes a bank's-page or periodic payment on the payer's phone (QR code).
 * @csspart offer - The button (or, for a periodic order, the toggle) that chooses the phone.
 * @csspart handoff - The panel with the code, the link and its expiry.
 * @csspart qr - The QR code (an SVG image with a text alternative).
 * @csspart link - The link, to copy.
 * @csspart copy - The "Copy link" button.
 * @csspart renew - The "Show a new code" button.
 * @csspart handoff-status - What became of the code: used on the phone, or expired (a status).
 */
@customElement('bank-handoff')
export class BankHandoff extends BankElement {
  static override styles = [
    ...elementStyles,
    css`
      .panel {
        display: grid;
        gap: var(--_gap);
        justify-items: start;
      }
      h2 {
        margin: 0;
        font-size: 1.1em;
      }
      p {
        margin: 0;
      }

      svg {
        width: 220px;
        max-width: 100%;
        height: auto;
      }
      /* Dark on light whatever the theme: a phone's camera reads it so. */
      .qr-bg {
        fill: #fff;
      }
      .qr-on {
        fill: #000;
      }
      .link-field {
        width: 100%;
        font: inherit;
        font-size: 0.85em;
        padding: 6px 8px;
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        background: var(--_surface);
        color: var(--_text);
      }
    `,
  ];

  /** Show the code at once (the payer chose the phone already). */
  @property({ type: Boolean }) open = false;

  @state() private link: HandoffAnswer | null = null;
  @state() private qr: QrPath | null = null;
  @state() private failed = false;
  @state() private copied = false;
  private asked = false;
  /** The next check of the checkout while a code shows. */
  private timer: ReturnType<typeof setTimeout> | undefined;

  private get phone(): boolean {
    return this.checkout?.onPhone ?? false;
  }

  /** The checkout waits at the bank's page: the code can be made. */
  private get waiting(): boolean {
    return this.currentView?.step.state === 'redirect';
  }

  /**
   * What became of the code shown: `used` (the phone went on to the bank's page with it, as the
   * checkout says), `expired` (its time is over), or `open`; null with no code.
   */
  private get linkState(): HandoffState | null {
    if (!this.link) return null;
    const s = this.currentView?.step;
    const told = s?.state === 'redirect' && s.handoff?.expiresAt === this.link.expiresAt ? s.handoff.state : 'open';
    if (told !== 'open') return told;
    return Date.now() >= Date.parse(this.link.expiresAt) ? 'expired' : 'open';
  }

  protected override updated(): void {
    if (this.waiting && this.open && !this.asked) void this.makeLink();
    this.watch();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * While a code shows, and after the phone used it (the payer is at the bank there), the
   * checkout is read every few seconds, so this page learns at once what became of the code, then
   * the bank's result; an open code is also looked at again the moment it expires.
   */
  private watch(): void {
    const state = this.linkState;
    if (this.timer || !this.waiting || !state || state === 'expired' || !this.checkout?.check) return;
    const left = state === 'open' ? Date.parse(this.link!.expiresAt) - Date.now() + 1 : HANDOFF_CHECK_MS;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.checkout?.check?.().finally(() => this.requestUpdate());
      },
      Math.max(0, Math.min(HANDOFF_CHECK_MS, left)),
    );
  }

  /** Asks the BFF for a new single-use link and draws its code. */
  async makeLink(): Promise<void> {
    const client = this.client ?? this.checkout?.client;
    this.asked = true;
    this.failed = false;
    this.copied = false;
    if (!client?.handoff) {
      this.failed = true;
      return;
    }
    try {
      const locale = (KIT_LOCALES as readonly string[]).includes(this.resolvedLocale) ? (this.resolvedLocale as KitLocale) : undefined;
      const link = await client.handoff(locale ? { locale } : {});
      if (!isAnswer(link)) throw new Error('unexpected answer');
      this.qr = await qrPath(link.url);
      this.link = link;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
    } catch {
      this.link = null;
      this.qr = null;
      this.failed = true;
    }
  }

  private async copy(): Promise<void> {
    if (!this.link) return;
    try {
      await navigator.clipboard.writeText(this.link.url);
      this.copied = true;
    } catch {
      // No clipboard here: the link is selected for the payer to copy.
      this.renderRoot.querySelector<HTMLInputElement>('input')?.select();
    }
  }

  private time(iso: string): string {
    return new Intl.DateTimeFormat(numberLocale(this.resolvedLocale), { timeStyle: 'short' }).format(new Date(iso));
  }

  /** At the start of the method: the phone as another way to finish. */
  private renderOffer() {
    const v = this.currentView;
    if (v?.state === 'periodic') {
      return html`<button type="button" class="link" part="offer" aria-pressed=${this.phone ? 'true' : 'false'} @click=${() => this.checkout?.setOnPhone?.(!this.phone)}>
        ${this.t('handoff.periodicOffer')}
      </button>`;
    }
    return html`<p class="hint">${this.t('handoff.offerDetail')}</p>
      <button type="button" part="offer" ?disabled=${this.busy} @click=${this.chooseOnRedirect}>${this.t('handoff.offer')}</button>`;
  }

  private readonly chooseOnRedirect = (): void => {
    this.checkout?.setOnPhone?.(true);
    void this.run((c) => c.redirect());
  };

  private renderQr(qr: QrPath) {
    const q = 4;
    return html`<svg part="qr" role="img" aria-label=${this.t('handoff.qrLabel')} viewBox="${-q} ${-q} ${qr.size + 2 * q} ${qr.size + 2 * q}" shape-rendering="crispEdges">
      ${svg`<rect class="qr-bg" x=${-q} y=${-q} width=${qr.size + 2 * q} height=${qr.size + 2 * q}></rect><path class="qr-on" d=${qr.d}></path>`}
    </svg>`;
  }

  override render() {
    if (!this.waiting) return this.renderOffer();
    if (!this.link && !this.failed && !this.open) {
      return html`<button type="button" part="offer" @click=${() => void this.makeLink()}>${this.t('handoff.offer')}</button>`;
    }
    const { link, qr } = this;
    const state = this.linkState;
    return html`<section class="panel" part="handoff" aria-labelledby="handoff-title">
      <h2 id="handoff-title" tabindex="-1">${this.t(this.phone ? 'handoff.waiting' : 'handoff.title')}</h2>
      ${this.failed ? html`<p role="alert">${this.t('handoff.failed')}</p>` : nothing}
      <p role="status" part="handoff-status">${state === 'used' ? this.t('handoff.used') : state === 'expired' ? this.t('handoff.expired') : ''}</p>
      ${
        link && qr && state === 'open'
          ? html`<p>${this.t('handoff.body')}</p>
            ${this.renderQr(qr)}
            <label for="handoff-link">${this.t('handoff.link')}</label>
            <input id="handoff-link" class="link-field" part="link" readonly .value=${link.url} />
            <p class="hint">${this.t('handoff.expires', { time: this.time(link.expiresAt) })}</p>`
          : nothing
      }
      <div class="actions">
        ${link && state === 'open' ? html`<button type="button" part="copy" @click=${() => void this.copy()}>${this.t('handoff.copy')}</button>` : nothing}
        <button type="button" part="renew" @click=${() => void this.makeLink()}>${this.t('handoff.renew')}</button>
      </div>
      <p class="sr-only" role="status">${this.copied ? this.t('handoff.copied') : ''}</p>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-handoff': BankHandoff;
  }
}
