/** Timestamps and dates in the record formats (RFC 3339 UTC to the second; YYYY-MM-DD). */

/** Now as an RFC 3339 UTC timestamp without fractions, e.g. `2026-11-29T10:00:00Z`. */
export function nowTimestamp(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Today's date (UTC) as `YYYY-MM-DD`. */
export function today(date: Date = new Date()): string {
  return date.toISOString().slice(0, 10);
}

/** A date as `YYYY-MM-DD` in the curator's own time zone (for file names). */
export function localDate(date: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
