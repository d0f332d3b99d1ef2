/**
 * Anchoring: turning stored W3C selectors (TextQuoteSelector + optional
 * TextPositionSelector) back into a DOM Range on a page, exactly when the
 * passage is still there, approximately when it was lightly edited, and not
 * at all (an orphan) when the evidence is too weak — a wrong passage is
 * worse than none.
 *
 * Evidence for a place on the page comes from three sources: how well the
 * quote matches there, how well the stored prefix/suffix agree with the text
 * around it, and how close it is to where the passage is expected (the stored
 * position, corrected by how far confidently anchored neighbours moved when
 * many passages are anchored together). A verbatim quote is strong evidence
 * on its own only when it is long enough to be distinctive; a short or
 * repeated quote needs its context to agree, and a place whose context is not
 * intact on either side must also be where the passage is expected.
 */
import type { Position, Quote } from '../schema';
import { combineSides, proximity, sideAgreement, type FoldedContext } from './context';
import { findExact, findFuzzy, MAX_OCCURRENCES, maxErrorsFor, spansInWindows, type Span } from './match';
import { ApproxPattern } from './myers';
import { collapseWhiteSpace, foldForComparison, normalizeQuoteText } from './normalize';
import { MIN_INDEXED_NEEDLE, qgramIndexOf, wantsQGramIndex, type QGramIndex } from './qgram';
import { buildTextIndex, rangeFromOffsets, trimOffsets, type TextIndex } from './text-index';

/** Results below this confidence are returned as orphans instead of anchored ranges. */
export const ORPHAN_THRESHOLD = 0.5;

/** The selectors of one stored passage: the quote, and optionally the position hint. */
export interface AnchorSelectors {
  quote: Quote;
  position?: Position | null;
}

/** Outcome of anchoring one passage: a range in the page, or an orphan with the reason. */
export type AnchorResult =
  | {
      status: 'anchored';
      range: Range;
      start: number;
      end: number;
      /** 0..1 */
      confidence: number;
      /** True when the stored exact text matched unchanged (after white-space collapsing and comparison folding). */
      exact: boolean;
      /** The page text found, normalised. */
      text: string;
    }
  | { status: 'orphan'; confidence: number; reason: string };

/** Highest confidence an approximate match can reach. */
const MAX_FUZZY_CONFIDENCE = 0.95;
/** An exact pick at least this confident, with its context intact, is final. */
const SETTLED = 0.9;
/** Combined context agreement at which the context is taken as unchanged around a place. */
const CTX_INTACT = 0.95;
/** Combined context agreement from which the context fully confirms a place (one side verbatim). */
const CTX_CONFIRMS = 0.75;
/** Combined context agreement at or below which the context says nothing for a place. */
const CTX_NEUTRAL = 0.45;
/** Margin (context plus locality) between the best and second-best occurrence for full confidence. */
const FULL_MARGIN = 0.15;
/** Exact occurrences whose context is compared in full (the rest are ranked by a cheap test first). */
const MAX_SCORED = 32;
/** Characters of the stored context next to the quote used to find occurrences through one intact side. */
const SIDE_PROBE = 12;
/** Characters of stored context on each side used, as a fallback, to find a passage bracketed by its intact context. */
const BRACKET_PROBE = 16;
/** Weight of the context against the quote when exact and approximate candidates compete. */
const CTX_WEIGHT = 0.55;
/** Weight of being where the passage is expected, when ranking places. */
const LOCAL_WEIGHT = 0.15;

/** A passage's selectors normalised for searching (internal to the anchoring library). */
export interface PreparedSelectors {
  /** The stored exact text, white space collapsed and folded for comparison. */
  needle: string;
  /** The stored prefix/suffix, collapsed and folded. */
  ctx: FoldedContext;
  /** The stored position's start, or null. */
  hint: number | null;
  /** How far the text around the passage is estimated to have moved (added to `hint`). */
  shift: number;
  /** Whether `shift` was estimated from anchored neighbours (the expected place is then precise). */
  corrected: boolean;
  /** How far (in stored positions) the neighbour that gave `shift` is: the estimate loosens with it. */
  gap: number;
  /** Exact occurrences found by the exact pass, kept for the approximate one. */
  exactStarts?: number[];
}

/** A scored place on the page. */
interface Candidate {
  start: number;
  end: number;
  /** Edits between the stored quote and the text here (0: verbatim). */
  distance: number;
  /** Combined context agreement, null when no context is stored. */
  ctx: number | null;
  /** Whether the place is where the passage is expected, in (0,1] (1: within the window), null without a hint. */
  local: number | null;
  /** Fine closeness to the expected place in (0,1], null without a hint. */
  near: number | null;
}

/** Normalises one passage's selectors for `index`, or returns the orphan result when there is nothing to search. */
export function prepareSelectors(index: TextIndex, selectors: AnchorSelectors): PreparedSelectors | AnchorResult {
  const quote = selectors.quote;
  const exactText = normalizeQuoteText(typeof quote.exact === 'string' ? quote.exact : '');
  if (exactText.length === 0) return orphan(0, 'the quote is empty');
  if (index.text.length === 0) return orphan(0, 'the page has no text');
  const p = selectors.position;
  return {
    needle: foldForComparison(exactText),
    ctx: {
      prefix: foldForComparison(collapseWhiteSpace(typeof quote.prefix === 'string' ? quote.prefix : '')),
      suffix: foldForComparison(collapseWhiteSpace(typeof quote.suffix === 'string' ? quote.suffix : '')),
    },
    hint: p && Number.isFinite(p.start) ? p.start : null,
    shift: 0,
    corrected: false,
    gap: 0,
  };
}

/** Position evidence for one passage: how local a place is, and how near. */
interface Locator {
  local(start: number): number | null;
  near(start: number): number | null;
}

/** The position model of a prepared passage on a text of length n. */
function locator(prepared: PreparedSelectors, n: number): Locator {
  const m = prepared.needle.length;
  if (prepared.hint === null) return { local: () => null, near: () => null };
  const expected = prepared.hint + prepared.shift;
  // A close neighbour pins the expected place down to a paragraph or two; a raw stored position only to a region of the page.
  const window = prepared.corrected ? Math.max(2048, 4 * m, 0.1 * prepared.gap) : Math.max(4096, 0.05 * n, 4 * m);
  return {
    local: (start) => {
      const d = Math.abs(start - expected);
      return d <= window ? 1 : window / d;
    },
    near: (start) => proximity(start, expected, m),
  };
}

/** The q-gram index of a large page (built now if it is not yet), or null for a page small enough to scan. */
function qgramsFor(index: TextIndex): QGramIndex | null {
  if (!wantsQGramIndex(index.folded.length)) return null;
  const q = qgramIndexOf(index, index.folded);
  return q.ready ? q : q.build();
}

/** Exact occurrences of `needle`, through the q-gram index when there is one and the needle is long enough. */
function occurrencesOf(index: TextIndex, q: QGramIndex | null, needle: string, limit: number): number[] {
  return q && needle.length >= MIN_INDEXED_NEEDLE ? q.findExact(needle, limit) : findExact(index.folded, needle, limit);
}

/**
 * The cheap pass: settles a passage whose quote still occurs verbatim where
 * the evidence is conclusive (the quote with its whole stored context occurs
 * once, or one occurrence is clearly confirmed by an intact context). Returns
 * null when the approximate pass must decide; the occurrences found are kept
 * in `prepared`.
 */
export function anchorExactPass(index: TextIndex, prepared: PreparedSelectors): AnchorResult | null {
  const { needle, ctx } = prepared;
  const q = qgramsFor(index);
  const m = needle.length;
  const hasCtx = ctx.prefix !== '' || ctx.suffix !== '';
  if (hasCtx) {
    const full = occurrencesOf(index, q, ctx.prefix + needle + ctx.suffix, 2);
    if (full.length === 1) {
      const start = (full[0] as number) + ctx.prefix.length;
      prepared.exactStarts = [start];
      return anchored(index, start, start + m, 1, true);
    }
  }
  const starts = exactCandidates(index, q, prepared);
  prepared.exactStarts = starts;
  if (starts.length === 0) return null;
  const pick = chooseExact(index.folded, starts, m, ctx, locator(prepared, index.folded.length), prepared.hint !== null);
  if (!hasCtx || (pick.confidence >= SETTLED && pick.ctx >= CTX_INTACT)) {
    return anchored(index, pick.start, pick.start + m, pick.confidence, true);
  }
  return null;
}

/** Exact occurrences of the quote, plus those found through either side of its stored context (so a very frequent quote still has its right place among them). */
function exactCandidates(index: TextIndex, q: QGramIndex | null, prepared: PreparedSelectors): number[] {
  const { needle, ctx } = prepared;
  const set = new Set(occurrencesOf(index, q, needle, MAX_OCCURRENCES));
  if (set.size >= MAX_OCCURRENCES) {
    const before = ctx.prefix.slice(-SIDE_PROBE);
    const after = ctx.suffix.slice(0, SIDE_PROBE);
    if (before) for (const p of occurrencesOf(index, q, before + needle, 64)) set.add(p + before.length);
    if (after) for (const p of occurrencesOf(index, q, needle + after, 64)) set.add(p);
  }
  return [...set].sort((a, b) => a - b);
}

/** The approximate pass: exact and approximate candidates compete on quote, context and position; a weak best is an orphan. */
export function anchorFuzzyPass(index: TextIndex, prepared: PreparedSelectors): AnchorResult {
  const { needle, ctx } = prepared;
  const m = needle.length;
  const k = maxErrorsFor(m);
  const q = qgramsFor(index);
  const where = locator(prepared, index.folded.length);
  const exactStarts = prepared.exactStarts ?? exactCandidates(index, q, prepared);
  const exactPick = exactStarts.length ? chooseExact(index.folded, exactStarts, m, ctx, where, prepared.hint !== null) : null;
  const hasCtx = ctx.prefix !== '' || ctx.suffix !== '';
  // A verbatim occurrence whose context is confirmed on a side can only lose to an edited copy whose
  // context is intact around it, which the bracket search finds: the general search is not needed then.
  const confirmedExact = exactPick !== null && exactPick.ctx >= CTX_CONFIRMS;
  const spans = [...(confirmedExact ? [] : fuzzySpans(index, q, prepared, k)), ...bracketSpans(index, q, prepared)];
  const candidates: Candidate[] = [];
  const place = (start: number, end: number, distance: number): Candidate => ({
    start,
    end,
    distance,
    ctx: combineSides(sideAgreement(index.folded, start, end, ctx)),
    local: where.local(start),
    near: where.near(start),
  });
  if (exactPick) candidates.push(place(exactPick.start, exactPick.start + m, 0));
  const seen = new Set<string>();
  for (const s of spans) {
    const t = trimOffsets(index.text, s.start, s.end);
    if (t.end <= t.start || seen.has(`${t.start}:${t.end}`)) continue;
    seen.add(`${t.start}:${t.end}`);
    if (exactStarts.some((e) => t.start < e + m && e < t.end)) continue; // the verbatim occurrence already stands for this place
    candidates.push(place(t.start, t.end, s.distance));
  }
  if (candidates.length === 0) {
    return orphan(0, `the quote no longer occurs on the page, not even with up to ${k} edits`);
  }
  const similar = (c: Candidate): number => Math.max(0, 1 - c.distance / m);
  const score = (c: Candidate): number =>
    (hasCtx ? (1 - CTX_WEIGHT) * similar(c) + CTX_WEIGHT * (c.ctx ?? 0) : similar(c)) + LOCAL_WEIGHT * (c.local ?? 0) + 0.02 * (c.near ?? 0);
  candidates.sort((a, b) => score(b) - score(a) || a.start - b.start);
  const best = candidates[0] as Candidate;
  if (exactPick && best.distance === 0) {
    return anchored(index, best.start, best.end, exactPick.confidence, true);
  }
  // How much of the quote survived (half of it changed: nothing), times how far the context confirms
  // the place — a long quote needs that less than a short one, and a quote without context cannot get it —
  // times how well the place agrees with where the passage is expected.
  const survived = Math.min(1, Math.max(0, (similar(best) - 0.5) / 0.4));
  const d = 0.8 * Math.min(1, Math.max(0, (m - 64) / 192));
  const confirmed = hasCtx ? d + (1 - d) * confirmation(best.ctx ?? 0) : 0.8;
  // A quote that also occurs verbatim elsewhere cannot say by itself which place is meant.
  const open = exactStarts.length > 0 ? 1 : 1 - distinctiveness(m);
  let confidence = survived * confirmed * positionFactor(best.ctx, best.local, open);
  // Two near-equal approximate candidates: we cannot tell which one was meant.
  const rival = candidates.slice(1).find((c) => c.distance > 0);
  if (rival && confidence > 0 && score(rival) >= score(best) - 0.03) confidence *= 0.85;
  confidence = Math.min(MAX_FUZZY_CONFIDENCE, confidence);
  return anchored(index, best.start, best.end, confidence, false);
}

/**
 * What being (or not being) where the passage is expected does to a pick's
 * confidence: little when its context is intact around it, else as much as
 * the quote leaves the question open (`open`: 1 for a short or repeated
 * quote, 0 for a long one found once).
 */
function positionFactor(ctx: number | null, local: number | null, open: number): number {
  if (local === null) return 1;
  const weight = ctx !== null && ctx >= CTX_INTACT ? 0.1 : open;
  return 1 - weight * (1 - local);
}

/** Approximate matches of the quote: whole-text scan on small pages; on large ones, windows voted for by the q-grams of prefix+quote+suffix, and the expected place's surroundings. */
function fuzzySpans(index: TextIndex, q: QGramIndex | null, prepared: PreparedSelectors, k: number): Span[] {
  const { needle, ctx, hint } = prepared;
  const m = needle.length;
  const expected = hint === null ? null : hint + prepared.shift;
  if (!q) return findFuzzy(index.folded, needle, { maxErrors: k, hint: expected, maxCandidates: 32 });
  const pad = 16;
  const windows: Array<[number, number]> = [];
  const groups = q.vote(ctx.prefix + needle + ctx.suffix, 2 * k + 32, { top: 8 });
  const minVotes = Math.max(2, Math.ceil((groups[0]?.votes ?? 0) / 4));
  for (const g of groups) {
    if (g.votes < minVotes) continue;
    windows.push([g.lo + ctx.prefix.length - k - pad, g.hi + ctx.prefix.length + m + k + pad]);
  }
  if (expected !== null) windows.push([expected - k - 4 * pad, expected + m + k + 4 * pad]);
  return spansInWindows(index.folded, needle, windows, k, 32, expected);
}

/**
 * Places where the stored prefix and suffix both still occur, a plausible
 * quote length apart: the text between them is the passage, however much of
 * it was reworded (its edit distance to the quote is measured in full). The
 * whole stored context is looked for first, then its 16 characters next to
 * the quote.
 */
function bracketSpans(index: TextIndex, q: QGramIndex | null, prepared: PreparedSelectors): Span[] {
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

/** Finds the passage described by `selectors` under `root`; pass a prebuilt `index` to avoid walking the DOM again. */
export function anchor(root: Document | Element, selectors: AnchorSelectors, index?: TextIndex): AnchorResult {
  const idx = index ?? buildTextIndex(root);
  const prepared = prepareSelectors(idx, selectors);
  if ('status' in prepared) return prepared;
  return anchorExactPass(idx, prepared) ?? anchorFuzzyPass(idx, prepared);
}

/**
 * Anchors many passages against one root, building the text index once;
 * results keep the input order. Every passage first gets the cheap exact
 * pass; only those it cannot settle pay for the approximate search, which
 * then also knows how far the text moved around each of them (from the
 * settled neighbours).
 */
export function anchorAll(root: Document | Element, list: readonly AnchorSelectors[], index?: TextIndex): AnchorResult[] {
  const idx = index ?? buildTextIndex(root);
  const results: AnchorResult[] = new Array(list.length);
  const later: Array<[number, PreparedSelectors]> = [];
  const marks = new Landmarks();
  list.forEach((selectors, i) => {
    const prepared = prepareSelectors(idx, selectors);
    const exact = 'status' in prepared ? prepared : anchorExactPass(idx, prepared);
    if (exact) {
      results[i] = exact;
      if (!('status' in prepared)) marks.add(prepared, exact);
    } else later.push([i, prepared as PreparedSelectors]);
  });
  for (const [i, prepared] of later) results[i] = anchorFuzzyPass(idx, marks.correct(prepared));
  return results;
}

/**
 * Passages settled by the exact pass, as (stored position → found position)
 * pairs: the shift of the nearest one estimates how far the text moved around
 * a passage still to be placed.
 */
export class Landmarks {
  private readonly pairs: Array<[number, number]> = [];
  private sorted = true;

  /** Records a settled passage (only exact, confident ones with a stored position count). */
  add(prepared: PreparedSelectors, result: AnchorResult): void {
    if (prepared.hint === null || result.status !== 'anchored' || !result.exact || result.confidence < SETTLED) return;
    this.pairs.push([prepared.hint, result.start]);
    this.sorted = false;
  }

  /** Sets a passage's expected shift from its nearest landmark (by stored position); returns it. */
  correct(prepared: PreparedSelectors): PreparedSelectors {
    const hint = prepared.hint;
    if (hint === null || this.pairs.length === 0) return prepared;
    if (!this.sorted) {
      this.pairs.sort((a, b) => a[0] - b[0]);
      this.sorted = true;
    }
    let lo = 0;
    let hi = this.pairs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.pairs[mid] as [number, number])[0] < hint) lo = mid + 1;
      else hi = mid;
    }
    const after = this.pairs[lo] as [number, number];
    const before = this.pairs[lo - 1];
    const pick = before && Math.abs(before[0] - hint) <= Math.abs(after[0] - hint) ? before : after;
    prepared.shift = pick[1] - pick[0];
    prepared.corrected = true;
    prepared.gap = Math.abs(pick[0] - hint);
    return prepared;
  }
}

/** An orphan result. */
function orphan(confidence: number, reason: string): AnchorResult {
  return { status: 'orphan', confidence: round(confidence), reason };
}

/** Rounds a confidence to 3 decimals and clamps it to [0,1]. */
function round(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;
}

/** An anchored result for normalised offsets [start, end), or an orphan when the confidence is too low or they map to no text node. */
function anchored(index: TextIndex, start: number, end: number, confidence: number, exact: boolean): AnchorResult {
  if (confidence < ORPHAN_THRESHOLD) {
    return orphan(confidence, `the best match is too uncertain (confidence ${round(confidence)})`);
  }
  const range = rangeFromOffsets(index, start, end);
  if (!range) return orphan(0, 'the match covers no text node');
  return { status: 'anchored', range, start, end, confidence: round(confidence), exact, text: index.text.slice(start, end) };
}

/** How much a verbatim occurrence of an m-character quote proves on its own: nothing for a word, nearly everything for a long sentence. */
function distinctiveness(m: number): number {
  return Math.min(1, Math.max(0, (m - 8) / 56));
}

/** How strongly a combined context agreement confirms a place: 0 at or below CTX_NEUTRAL, 1 from CTX_CONFIRMS. */
function confirmation(c: number): number {
  return Math.min(1, Math.max(0, (c - CTX_NEUTRAL) / (CTX_CONFIRMS - CTX_NEUTRAL)));
}

/** Characters of stored context that still sit verbatim right next to [start, end): a cheap test to rank many occurrences. */
function adjacentRuns(folded: string, start: number, end: number, ctx: FoldedContext): number {
  let a = 0;
  const p = ctx.prefix;
  while (a < p.length && start - 1 - a >= 0 && folded.charCodeAt(start - 1 - a) === p.charCodeAt(p.length - 1 - a)) a++;
  let b = 0;
  const s = ctx.suffix;
  while (b < s.length && end + b < folded.length && folded.charCodeAt(end + b) === s.charCodeAt(b)) b++;
  return a + b;
}

/**
 * Picks among exact occurrences of an m-character quote and says how sure
 * the pick is (and how well its context agrees). Context and being where the
 * passage is expected decide between occurrences; a single occurrence is
 * trusted as far as the quote is distinctive and its context agrees; a place
 * whose context is not intact must also be where it is expected.
 */
function chooseExact(
  folded: string,
  starts: number[],
  m: number,
  ctx: FoldedContext,
  where: Locator,
  hasHint: boolean,
): { start: number; confidence: number; ctx: number } {
  const hasCtx = ctx.prefix !== '' || ctx.suffix !== '';
  if (starts.length === 1) {
    const start = starts[0] as number;
    if (!hasCtx) return { start, confidence: 1, ctx: 1 };
    const c = combineSides(sideAgreement(folded, start, start + m, ctx)) ?? 1;
    if (c >= 1) return { start, confidence: 1, ctx: c };
    const d = 0.9 * distinctiveness(m);
    return { start, confidence: (d + (1 - d) * confirmation(c)) * positionFactor(c, where.local(start), 1 - distinctiveness(m)), ctx: c };
  }
  if (!hasCtx) {
    // Nothing but the position can tell the occurrences apart.
    if (hasHint) {
      const byNear = [...starts].sort((a, b) => (where.near(b) ?? 0) - (where.near(a) ?? 0) || a - b);
      const a = byNear[0] as number;
      const b = byNear[1] as number;
      if ((where.near(a) ?? 0) > (where.near(b) ?? 0)) return { start: a, confidence: 0.6 + 0.2 * (where.near(a) ?? 0), ctx: 1 };
      return { start: a, confidence: ORPHAN_THRESHOLD + 0.1 / starts.length, ctx: 1 };
    }
    return { start: starts[0] as number, confidence: ORPHAN_THRESHOLD + 0.1 / starts.length, ctx: 1 };
  }
  // Rank cheaply by how much of the stored context is intact right next to each occurrence, then compare the best in full.
  let pool = starts;
  if (starts.length > MAX_SCORED) {
    const ranked = [...starts].sort((a, b) => adjacentRuns(folded, b, b + m, ctx) - adjacentRuns(folded, a, a + m, ctx) || a - b);
    const keep = new Set(ranked.slice(0, MAX_SCORED));
    if (hasHint) for (const s of [...starts].sort((a, b) => (where.near(b) ?? 0) - (where.near(a) ?? 0)).slice(0, 4)) keep.add(s);
    pool = [...keep];
  }
  const scored = pool.map((start) => {
    const c = combineSides(sideAgreement(folded, start, start + m, ctx)) ?? 0;
    const local = where.local(start);
    const near = where.near(start) ?? 0;
    return { start, c, local, total: c + LOCAL_WEIGHT * (local ?? 0) + 0.03 * near };
  });
  scored.sort((a, b) => b.total - a.total || a.start - b.start);
  const best = scored[0] as (typeof scored)[number];
  const second = scored[1] as (typeof scored)[number];
  const margin = best.total - second.total;
  const position = positionFactor(best.c, best.local, 1);
  if (margin < 0.005) {
    // Nothing tells the best occurrences apart: at most a weak pick.
    return { start: best.start, confidence: confirmation(best.c) * (ORPHAN_THRESHOLD + 0.1 / starts.length) * position, ctx: best.c };
  }
  return { start: best.start, confidence: confirmation(best.c) * (0.55 + 0.45 * Math.min(1, margin / FULL_MARGIN)) * position, ctx: best.c };
}
