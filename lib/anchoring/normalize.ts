/**
 * Character-level rules of the anchoring text model: which characters count
 * as collapsible white space, and the 1:1 comparison folding (curly quotes,
 * dashes, full-width space) applied to page text and stored quotes alike.
 */

/** Whether a UTF-16 code unit is white space that the text model collapses (space, tab, CR, LF, FF, VT, NBSP). */
export function isCollapsibleSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d || code === 0x0c || code === 0x0b || code === 0xa0;
}

// Comparison folding, one character for one character:
// ‘ ’ ‚ ‛ → '   “ ” „ ‟ → "   hyphen, non-breaking hyphen, figure dash, en dash, em dash,
// horizontal bar, minus sign → -   ideographic (full-width) space → space.
const FOLD_ANY = /[\u2018-\u201f\u2010-\u2015\u2212\u3000]/;
const FOLD_SINGLE = /[\u2018-\u201b]/g;
const FOLD_DOUBLE = /[\u201c-\u201f]/g;
const FOLD_DASH = /[\u2010-\u2015\u2212]/g;
const FOLD_SPACE = /\u3000/g;

/** Matches a space: see `forgetLastSubject`. */
const A_SPACE = / /;

/**
 * Lets the subject of the last regular-expression match go. The engine keeps the subject of the last successful
 * match alive (the legacy `RegExp.input`); when that was a page's text, or a slice of it (a slice keeps the whole
 * string it was cut from), a page only painted would hold megabytes until some other match succeeded. A match on a
 * one-character string releases it.
 */
export function forgetLastSubject(): void {
  A_SPACE.test(' ');
}

/** Folds a string for comparison only, one character for one character, so offsets stay aligned (curly quotes, dashes, full-width space). */
export function foldForComparison(s: string): string {
  if (!FOLD_ANY.test(s)) return s;
  // One pass per target character without a callback: much faster than a replacer function on long texts.
  const folded = s.replace(FOLD_SINGLE, "'").replace(FOLD_DOUBLE, '"').replace(FOLD_DASH, '-').replace(FOLD_SPACE, ' ');
  forgetLastSubject();
  return folded;
}

const SPACE_RUN_RE = /[ \t\n\r\f\v\u00a0]+/g;

/** Collapses every run of collapsible white space to one space (does not trim). */
export function collapseWhiteSpace(s: string): string {
  return s.replace(SPACE_RUN_RE, ' ');
}

/** Normalises a stored quote's exact text the way the text model reads pages: collapsed white space, trimmed. */
export function normalizeQuoteText(s: string): string {
  const c = collapseWhiteSpace(s);
  const from = c.startsWith(' ') ? 1 : 0;
  const to = c.length > from && c.endsWith(' ') ? c.length - 1 : c.length;
  return c.slice(from, to);
}
