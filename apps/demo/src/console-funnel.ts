/**
 * The console's funnel: how far payers got at each bank (started, bank chosen, signed in,
 * confirmed, paid) and where the unpaid ones left, for the checkouts of the last days. Read
 * from the BFF's own store (`GET /v1/funnel`): no third party sees the payers.
 */
import type { Context } from 'hono';
import type { FunnelAnswer } from '@bank-checkout/contract';
import { html, type Html } from './layout.js';

type Row = FunnelAnswer['banks'][number];

const STEPS: [keyof Pick<Row, 'started' | 'bankChosen' | 'signedIn' | 'confirmed' | 'paid'>, string][] = [
  ['started', 'Started'],
  ['bankChosen', 'Bank chosen'],
  ['signedIn', 'Signed in'],
  ['confirmed', 'Confirmed'],
  ['paid', 'Paid'],
];
const LEFT: [keyof Row['left'], string][] = [
  ['started', 'at the start'],
  ['bankChosen', 'after choosing the bank'],
  ['signedIn', 'after signing in'],
  ['confirmed', 'after confirming'],
];

/** The periods the page offers, in days. */
export const FUNNEL_DAYS = [1, 7, 30] as const;

const pct = (n: number, of: number) => (of ? `${Math.round((n / of) * 100)}%` : '–');

function leftText(r: Row): string {
  const parts = LEFT.filter(([k]) => r.left[k] > 0).map(([k, label]) => `${r.left[k]} ${label}`);
  return parts.length ? parts.join(', ') : '–';
}

function row(r: Row, total = false): Html {
  const name = total ? 'All banks' : (r.bank ?? (r.bankId ? r.bankId : 'No bank chosen'));
  return html`<tr${total ? html` class="total"` : ''}>
      <th scope="row">${name}</th>
      ${STEPS.map(([k]) => html`<td class="num">${String(r[k])}${k === 'started' ? '' : html` <span class="meta">${pct(r[k], r.started)}</span>`}</td>`)}
      <td>${leftText(r)}</td>
      <td class="num">${String(r.open)}</td>
    </tr>`;
}

/** The funnel's table (per bank, then all banks), or why it could not be read. */
export function funnelView(days: number, answer: { ok: true; data: FunnelAnswer } | { ok: false; error: { message: string } }): Html {
  const periods = html`<nav aria-label="Period"><ul class="inline-list">${FUNNEL_DAYS.map(
    (d) =>
      html`<li><a href="/console/funnel?days=${String(d)}"${d === days ? html` aria-current="page"` : ''}>${d === 1 ? 'Last day' : `Last ${d} days`}</a></li>`,
  )}</ul></nav>`;
  if (!answer.ok) return html`${periods}<p class="flash error" role="alert">${answer.error.message}</p>`;
  const f = answer.data;
  return html`${periods}
    <p class="hint">Checkouts created from ${f.from.slice(0, 16).replace('T', ' ')} to ${f.to.slice(0, 16).replace('T', ' ')} (UTC): how many reached each step, at which bank, and where the unpaid ones left (failed, cancelled or expired). Counted from the payment service's own records.</p>
    ${f.truncated ? html`<p class="flash">Only the first checkouts of the period are counted; choose a shorter period.</p>` : ''}
    <div class="table-wrap"><table class="funnel">
      <caption class="visually-hidden">Payers' funnel per bank</caption>
      <thead><tr><th scope="col">Bank</th>${STEPS.map(([, label]) => html`<th scope="col" class="num">${label}</th>`)}<th scope="col">Left</th><th scope="col" class="num">Still open</th></tr></thead>
      <tbody>${f.banks.map((r) => row(r))}${row(f.total, true)}</tbody>
    </table></div>`;
}

/** `?days=` as one of the periods offered (7 by default). */
export function funnelDays(c: Context): number {
  const d = Number(c.req.query('days'));
  return (FUNNEL_DAYS as readonly number[]).includes(d) ? d : 7;
}
