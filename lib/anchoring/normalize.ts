/**
 * Character-level rules of the anchoring text model: which characters count
 * as collapsible white space, and the 1:1 comparison folding (curly quotes,
 * dashes, full-width space) applied to page text and stored quotes alike.
 */

/** Whether a UTF-16 code unit is white space that the text model collapses (space, tab, CR, LF, FF, VT, NBSP). */
export function isCollapsibleSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d || code === 0x0c || code === 0x0b || code === 0xa0;
}

const FOLD_MAP: Readonly<Record<string, string>> = {
  '\u2018': "'", // ‘
  '\u2019': "'", // ’
  '\u201a': "'", // ‚
  '\u201b': "'", // ‛
  '\u201c': '"', // “
  '\u201d': '"', // ”
  '\u201e': '"', // „
  '\u201f': '"', // ‟
  '\u2010': '-', // hyphen
  '\u2011': '-', // non-breaking hyphen
  '\u2012': '-', // figure dash
  '\u2013': '-', // en dash
  '\u2014': '-', // em dash
  '\u2015': '-', // horizontal bar
  '\u2212': '-', // minus sign
  '\u3000': ' ', // ideographic (full-width) space
};

const FOLD_RE = /[\u2018-\u201f\u2010-\u2015\u2212\u3000]/g;

/** Folds a string for comparison only, one character for one character, so offsets stay aligned. */
export function foldForComparison(s: string): string {
  return s.replace(FOLD_RE, (ch) => FOLD_MAP[ch] ?? ch);
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
