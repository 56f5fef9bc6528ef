/** Calendar dates as the provider writes them (YYYY-MM-DD). */

/** A calendar date written YYYY-MM-DD that exists. */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * The provider is in Spain, so rules such as "startDate after the current date" use
 * Europe/Madrid unless configured otherwise.
 */
export const PROVIDER_TIME_ZONE = 'Europe/Madrid';

/** Today's date (YYYY-MM-DD) in a time zone. */
export function todayIn(timeZone: string = PROVIDER_TIME_ZONE, now: number = Date.now()): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(now));
}
