/**
 * `<bank-receipt>`: after a payment succeeded, what the payer may keep, in the payer's language:
 * that the payment was completed, the amount, the payee and its account, the concept and the
 * reference, the paying bank, the account paid from (masked), the bank's reference and the date,
 * with a "Print receipt" button. Nothing on it opens anything (no checkout id, no address).
 * While it shows, printing the page prints the receipt alone (a print-only sheet on the document
 * hides the rest; nothing changes on screen). Loaded on demand.
 */
import { css, html, nothing } from 'lit';
import { customElement } from 'lit/decorators.js';
import { registerTexts } from '../i18n/index.js';
import { enExtras } from '../i18n/en-extras.js';
import { esExtras } from '../i18n/es-extras.js';
import { formatCents, formatIban, localParts, longDate, numberLocale } from '../logic/format.js';
import { BankElement } from '../shared/bank-element.js';
import { elementStyles } from '../shared/styles.js';

registerTexts({ en: enExtras, es: esExtras });

/** The page's print sheet while a receipt shows: everything but the receipt is hidden on paper. */
let pageSheet: CSSStyleSheet | null = null;

function printOnlyReceipt(doc: Document, on: boolean): void {
  pageSheet ??= new CSSStyleSheet();
  pageSheet.replaceSync('@media print { html, body { height: auto !important; } body * { visibility: hidden !important; } }');
  const sheets = doc.adoptedStyleSheets.filter((s) => s !== pageSheet);
  doc.adoptedStyleSheets = on ? [...sheets, pageSheet] : sheets;
}

/**
 * A date and time in the payer's language (`25 November 2026, 18:02`): Basque and Galician
 * written by the kit with its catalogue's month names (`months`; browsers often have no data for
 * them), the others by Intl.
 */
export function formatReceiptDate(iso: string, locale: string, months: readonly string[] = []): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return longDate(localParts(d), locale, months) ?? new Intl.DateTimeFormat(numberLocale(locale), { dateStyle: 'long', timeStyle: 'short' }).format(d);
}

/**
 * @summary A printable receipt of a successful payment.
 * @csspart receipt - The receipt.
 * @csspart receipt-status - Its first line: the payment was completed (printed too).
 * @csspart print - The "Print receipt" button (not printed).
 */
@customElement('bank-receipt')
export class BankReceipt extends BankElement {
  static override styles = [
    ...elementStyles,
    css`
      .receipt {
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        padding: var(--_gap);
      }
      h3 {
        margin: 0 0 8px;
        font-size: 1.1em;
      }
      .status {
        margin: 0 0 8px;
        font-weight: 600;
        color: var(--_success);
      }
      dl {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: 4px 12px;
        margin: 0 0 var(--_gap);
      }
      dt {
        color: var(--_muted);
      }
      dd {
        margin: 0;
        overflow-wrap: break-word;
      }
      /* A phone's width: each label above its value, so that neither is cut into pieces. */
      @media (max-width: 400px) {
        dl {
          grid-template-columns: minmax(0, 1fr);
          gap: 0;
        }
        dd {
          margin-bottom: 6px;
        }
      }
      @media print {
        :host {
          visibility: visible !important;
          position: absolute;
          top: 0;
          left: 0;
          width: 100%;
          color: #000;
        }
        .receipt {
          border-color: #000;
        }
        dt,
        .status {
          color: #000;
        }
        [part='print'] {
          display: none;
        }
      }
    `,
  ];

  /** A payment made: not a periodic order (a mandate, nothing paid now). */
  private get paid() {
    const v = this.currentView;
    return v?.step.state === 'succeeded' && v.mode !== 'periodic' ? { v, step: v.step } : null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    printOnlyReceipt(this.ownerDocument, true);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    printOnlyReceipt(this.ownerDocument, false);
  }

  override render() {
    const p = this.paid;
    if (!p) return nothing;
    const { v, step } = p;
    const row = (key: Parameters<typeof this.t>[0], value: string | undefined | null) => (value ? html`<dt>${this.t(key)}</dt><dd>${value}</dd>` : nothing);
    const locale = this.resolvedLocale;
    const date = step.paidAt ? formatReceiptDate(step.paidAt, locale, this.t('date.months').split(',')) : null;
    return html`<section class="receipt" part="receipt" aria-labelledby="receipt-title">
      <h3 id="receipt-title">${this.t('receipt.title')}</h3>
      <p class="status" part="receipt-status"><span aria-hidden="true">✓ </span>${this.t('receipt.completed')}</p>
      <dl>
        ${row('receipt.amount', formatCents(v.amount, v.currency, locale))} ${row('receipt.payee', v.payee.name)}
        ${row('receipt.iban', v.payee.iban ? formatIban(v.payee.iban) : null)} ${row('receipt.subject', v.subject)} ${row('receipt.reference', v.reference)}
        ${row('receipt.bank', step.payingBank)} ${row('receipt.account', step.account)} ${row('receipt.bankReference', step.bankReference)}
        ${row('receipt.date', date)}
      </dl>
      <button type="button" part="print" @click=${() => window.print()}>${this.t('receipt.print')}</button>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bank-receipt': BankReceipt;
  }
}
