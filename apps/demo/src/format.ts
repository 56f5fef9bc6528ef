/** How the shop writes amounts and times for people. */

/** Formats cents as euros for people (`12,50 €` style is the element's; the shop uses en-IE). */
export function euros(cents: number): string {
  return new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' }).format(cents / 100);
}

/** `2024-05-17 09:41:07` (UTC; seconds only when asked). */
export function dateTime(ms: number | string, seconds = false): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime())
    ? ''
    : d
        .toISOString()
        .replace('T', ' ')
        .slice(0, seconds ? 19 : 16);
}
