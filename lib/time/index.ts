/** Timestamps and dates in the record formats (RFC 3339 UTC to the second; YYYY-MM-DD). */

/** Now as an RFC 3339 UTC timestamp without fractions, e.g. `2026-11-29T10:00:00Z`. */
export function nowTimestamp(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Today's date (UTC) as `YYYY-MM-DD`. */
export function today(date: Date = new Date()): string {
  return date.toISOString().slice(0, 10);
}
