/**
 * Exact lookups on a page's folded text, shared by the exact and the
 * approximate pass: through the page's q-gram index on a large page, by
 * scanning on a small one.
 */
import { findExact } from './match';
import { builtQGramIndexOf, MIN_INDEXED_NEEDLE, qgramIndexOf, wantsQGramIndex, type QGramIndex } from './qgram';
import type { TextIndex } from './text-index';

/** The q-gram index of a large page (built now if it is not yet), or null for a page small enough to scan. */
export function qgramsFor(index: TextIndex): QGramIndex | null {
  if (!wantsQGramIndex(index.text.length)) return null;
  const q = qgramIndexOf(index, index.folded);
  return q.ready ? q : q.build();
}

/** The page's q-gram index if it is built already, else null (the caller scans the text instead). */
export function builtQGramsFor(index: TextIndex): QGramIndex | null {
  return wantsQGramIndex(index.text.length) ? builtQGramIndexOf(index) : null;
}

/** Exact occurrences of `needle`, through the q-gram index when there is one and the needle is long enough. */
export function occurrencesOf(index: TextIndex, q: QGramIndex | null, needle: string, limit: number): number[] {
  return q && needle.length >= MIN_INDEXED_NEEDLE ? q.findExact(needle, limit) : findExact(index.folded, needle, limit);
}
