/**
 * Candidate places for a passage whose quote is no longer verbatim on the
 * page. Three sources, each bounded:
 *
 * - an approximate search (edit distance, up to half of a long quote
 *   changed): over the whole text of a short page; on a longer one only in
 *   windows — where the q-grams of the quote and its context vote for,
 *   around where the neighbours say the passage should be, and right after
 *   (before) each place the stored prefix (suffix) still occurs;
 * - the text between the stored prefix and suffix where both still occur,
 *   however much of it was rewritten;
 * - each span refined by word overlap, so that a sentence that kept its
 *   words but gained a clause is measured (and painted) whole.
 */
import type { PreparedSelectors } from './types';
import { spansInWindows, type Span } from './match';
import { ApproxPattern } from './myers';
import { occurrencesOf } from './occurrences';
import { QuoteWords, wordOverlap } from './overlap';
import type { QGramIndex } from './qgram';
import type { TextIndex } from './text-index';

/** Most approximate spans kept per search. */
const MAX_SPANS = 24;
/** Slack around each window. */
const PAD = 16;
/** Characters of stored context probed to find where the passage's surroundings still are. */
const CONTEXT_PROBE = 16;
/** Most places a context probe may occur at to be worth a window. */
const MAX_PROBE_HITS = 8;
/** Below this edit similarity a span is also measured by word overlap. */
const OVERLAP_BELOW = 0.9;

/** A candidate place: offsets in the folded text, whether verbatim, and the quote's similarity there (0..1). */
export interface Place {
  start: number;
  end: number;
  exact: boolean;
  similarity: number;
}

/** Edits allowed when searching for an edited m-character quote: a quarter of a short quote, rising to half of one of 64 characters or more. */
export function searchBudget(m: number): number {
  const share = 0.25 + 0.25 * Math.min(1, Math.max(0, (m - 16) / 48));
  return Math.max(2, Math.floor(m * share));
}

/** Where the neighbours (or, without them, the stored position) say the passage starts, with how loose each estimate is. */
export function expectedStarts(prepared: PreparedSelectors): Array<{ at: number; spread: number }> {
  const { hint, needle } = prepared;
  if (hint === null) return [];
  const m = needle.length;
  if (prepared.neighbours.length === 0) return [{ at: hint + prepared.shift, spread: Math.max(256, 2 * m) }];
  return prepared.neighbours.map((nb) => ({ at: hint + nb.shift, spread: Math.max(64, m / 2) + nb.gap / 8 }));
}

/** Approximate matches of the quote within `k` edits (see the module comment for where they are looked for). */
export function approximateSpans(index: TextIndex, q: QGramIndex | null, prepared: PreparedSelectors, k: number): Span[] {
  const { needle, ctx } = prepared;
  const m = needle.length;
  const folded = index.folded;
  const pattern = new ApproxPattern(needle);
  const separation = Math.ceil(m / 2);
  const expected = expectedStarts(prepared);
  const nearest = expected[0]?.at ?? null;
  if (!q) {
    return spansInWindows(folded, needle, [[0, folded.length]], k, MAX_SPANS, nearest, pattern, separation);
  }
  const windows: Array<[number, number]> = [];
  const groups = q.vote(ctx.prefix + needle + ctx.suffix, 2 * k + 32, { top: 8 });
  const minVotes = Math.max(2, Math.ceil((groups[0]?.votes ?? 0) / 4));
  for (const g of groups) {
    if (g.votes < minVotes) continue;
    windows.push([g.lo + ctx.prefix.length - k - PAD, g.hi + ctx.prefix.length + m + k + PAD]);
  }
  for (const e of expected) windows.push([e.at - k - 4 * PAD - Math.min(2048, e.spread), e.at + m + k + 4 * PAD + Math.min(2048, e.spread)]);
  const before = ctx.prefix.slice(-CONTEXT_PROBE);
  if (before.length >= 8) {
    const hits = occurrencesOf(index, q, before, MAX_PROBE_HITS + 1);
    if (hits.length <= MAX_PROBE_HITS) for (const p of hits) windows.push([p + before.length - PAD, p + before.length + m + k + PAD]);
  }
  const after = ctx.suffix.slice(0, CONTEXT_PROBE);
  if (after.length >= 8) {
    const hits = occurrencesOf(index, q, after, MAX_PROBE_HITS + 1);
    if (hits.length <= MAX_PROBE_HITS) for (const p of hits) windows.push([p - m - k - PAD, p + PAD]);
  }
  return spansInWindows(folded, needle, windows, k, MAX_SPANS, nearest, pattern, separation);
}

/** Characters of stored context on each side used, as a fallback, to find a passage bracketed by its intact context. */
const BRACKET_PROBE = 16;

/**
 * Places where the stored prefix and suffix both still occur, a plausible
 * quote length apart: the text between them is the passage, however much of
 * it was reworded (its edit distance to the quote is measured in full). The
 * whole stored context is looked for first, then its 16 characters next to
 * the quote.
 */
export function bracketSpans(index: TextIndex, q: QGramIndex | null, prepared: PreparedSelectors): Span[] {
  const { ctx } = prepared;
  const found = bracketWith(index, q, prepared, ctx.prefix, ctx.suffix);
  if (found.length || (ctx.prefix.length <= BRACKET_PROBE && ctx.suffix.length <= BRACKET_PROBE)) return found;
  return bracketWith(index, q, prepared, ctx.prefix.slice(-BRACKET_PROBE), ctx.suffix.slice(0, BRACKET_PROBE));
}

/** `bracketSpans` for one choice of the context's ends. */
function bracketWith(index: TextIndex, q: QGramIndex | null, prepared: PreparedSelectors, before: string, after: string): Span[] {
  const m = prepared.needle.length;
  if (before.length < 8 || after.length < 8) return [];
  const folded = index.folded;
  const out: Span[] = [];
  let pattern: ApproxPattern | null = null;
  for (const p of occurrencesOf(index, q, before, 16)) {
    const start = p + before.length;
    const from = start + Math.floor(m / 2);
    const to = start + 2 * m + 16;
    const at = folded.slice(from, to + after.length).indexOf(after);
    if (at < 0) continue;
    const end = from + at;
    pattern ??= new ApproxPattern(prepared.needle);
    const scores = pattern.scan(folded, start, end - start, 1, 'anchored');
    const distance = scores[scores.length - 1] ?? m;
    if (distance <= m / 2) out.push({ start, end, distance });
  }
  return out;
}

/** Most spans of one passage measured by word overlap (the closest by edit distance). */
const MAX_OVERLAPS = 6;

/**
 * The spans as candidate places: a span's similarity is the better of its
 * edit similarity and the word overlap of the quote with the text around it;
 * when the words tell more, the place is the stretch of the words found.
 * Word overlap is measured for the few spans closest to the quote (and not
 * for those at or below `floor`, unrelated text).
 */
export function placesOf(folded: string, needle: string, spans: readonly Span[], floor: number): Place[] {
  const m = needle.length;
  const reach = Math.ceil(m / 2);
  let words: QuoteWords | null = null;
  let measured = 0;
  const order = spans.map((s, i) => [s.distance, i] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out: Place[] = spans.map((span) => ({ start: span.start, end: span.end, exact: span.distance === 0, similarity: Math.max(0, 1 - span.distance / m) }));
  for (const [, i] of order) {
    const place = out[i] as Place;
    if (place.similarity >= OVERLAP_BELOW) continue;
    if (place.similarity < floor || measured >= MAX_OVERLAPS) break;
    measured++;
    words ??= new QuoteWords(needle);
    // A span can be shorter or longer than the quote by the edits allowed: look from a quote's length before its end to a quote's length after its start, and half a quote beyond.
    const found = wordOverlap(words, folded, Math.min(place.start, place.end - m) - reach, Math.max(place.end, place.start + m) + reach);
    if (found.similarity > place.similarity && found.start !== null && found.end !== null) {
      out[i] = { start: found.start, end: found.end, exact: false, similarity: found.similarity };
    }
  }
  return out;
}
