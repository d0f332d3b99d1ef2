/** Publication-date parsing for source pages. */

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

function iso(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function month(name: string | undefined): number {
  if (!name) return 0;
  const n = name.toLowerCase();
  return MONTHS[n] ?? MONTHS[n.slice(0, 3)] ?? 0;
}

/**
 * Reads a date as a page states it and returns `YYYY-MM-DD`, or null:
 * year first ("2025/04/29", "2025-04-29", "2025-04-29T23:30:00-07:00",
 * "20250429", "2025年4月29日"), month names ("April 29, 2025",
 * "29 Apr 2025", "Tue, 29 Apr 2025 10:00:00 GMT"), and year last with
 * digits: dots or hyphens are day first ("29.04.2025", "14. 3. 2025"),
 * slashes month first unless the first number cannot be a month
 * ("04/29/2025", "29/04/2025"). Timestamps keep the calendar date written
 * on the page (no time-zone shift).
 */
export function normalizeDate(input: string | null | undefined): string | null {
  if (!input) return null;
  const s = input.trim();
  let m = /(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})(?!\d)/u.exec(s);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/.exec(s);
  if (m && month(m[1])) return iso(Number(m[3]), month(m[1]), Number(m[2]));
  m = /\b(\d{1,2})(?:st|nd|rd|th)?\.?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})\b/.exec(s);
  if (m && month(m[2])) return iso(Number(m[3]), month(m[2]), Number(m[1]));
  m = /(?<![\d.])(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})(?!\d)|(?<![\d-])(\d{1,2})-(\d{1,2})-(\d{4})(?!\d)/.exec(s);
  if (m) return m[1] ? iso(Number(m[3]), Number(m[2]), Number(m[1])) : iso(Number(m[6]), Number(m[5]), Number(m[4]));
  m = /(?<![\d/])(\d{1,2})\/(\d{1,2})\/(\d{4})(?!\d)/.exec(s);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    return a > 12 ? iso(Number(m[3]), b, a) : iso(Number(m[3]), a, b);
  }
  return null;
}
