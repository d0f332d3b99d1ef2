/**
 * Anchoring: turning stored W3C selectors (TextQuoteSelector + optional
 * TextPositionSelector) back into a DOM Range on a page, exactly when the
 * passage is still there, approximately when it was edited, and not at all
 * (an orphan) when the evidence is too weak — a wrong passage is worse than
 * none.
 *
 * Two passes. The exact pass settles a passage whose quote still occurs
 * verbatim where the evidence is conclusive; a verbatim quote is strong
 * evidence on its own only when it is long enough to be distinctive, and a
 * short or repeated quote needs its context to agree. The approximate pass
 * gathers candidate places (candidates.ts) and judges the best one with the
 * confidence model (confidence.ts): quote similarity, context, position and
 * the margin over the runner-up, each measured, each in the reasons given.
 */
import { approximateSpans, bracketSpans, expectedStarts, placesOf, searchBudget, type Place } from './candidates';
import {
  chanceSimilarity,
  DEFAULT_THRESHOLDS,
  distinctiveness,
  isBracketed,
  isLookAlike,
  judge,
  rankingScore,
  type PlaceEvidence,
  type Thresholds,
} from './confidence';
import { combineSides, proximity, sideAgreement, type FoldedContext } from './context';
import { MAX_OCCURRENCES, type Span } from './match';
import { collapseWhiteSpace, foldForComparison, normalizeQuoteText } from './normalize';
import { builtQGramsFor, occurrencesOf, qgramsFor } from './occurrences';
import type { QGramIndex } from './qgram';
import { buildTextIndex, rangeFromOffsets, trimOffsets, type TextIndex } from './text-index';

export { Landmarks } from './landmarks';
export type { AnchorResult, AnchorSelectors, Decision, PreparedSelectors } from './types';
import type { AnchorResult, AnchorSelectors, Decision, PreparedSelectors } from './types';

/** Results below this confidence are returned as orphans instead of anchored ranges. */
export const ORPHAN_THRESHOLD = 0.5;

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
/** Weight of being where the passage is expected, when ranking places. */
const LOCAL_WEIGHT = 0.15;

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
    neighbours: [],
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

/**
 * The cheap pass: settles a passage whose quote still occurs verbatim where
 * the evidence is conclusive (the quote with its whole stored context occurs
 * once, or one occurrence is clearly confirmed by an intact context). Returns
 * null when the approximate pass must decide; the occurrences found are kept
 * in `prepared`. With `scan`, a large page's q-gram index is used only if it
 * is built already, the text scanned otherwise (same occurrences). The caller
 * tries `anchorAtPosition` first.
 */
export function anchorExactPass(index: TextIndex, prepared: PreparedSelectors, scan = false): AnchorResult | null {
  const { needle, ctx } = prepared;
  const q = scan ? builtQGramsFor(index) : qgramsFor(index);
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

/**
 * The quickest settlement, with no search: the quote and its whole stored context still sit exactly at the stored
 * position (the page did not change before it). Null when they do not, or when there is no position or no context
 * to confirm it.
 */
export function anchorAtPosition(index: TextIndex, prepared: PreparedSelectors): AnchorResult | null {
  const { needle, ctx, hint } = prepared;
  if (hint === null || (ctx.prefix === '' && ctx.suffix === '')) return null;
  const from = hint - ctx.prefix.length;
  const to = hint + needle.length + ctx.suffix.length;
  // Folded here, on the passage and its context only: a page whose passages all stand in place never folds its text.
  if (from < 0 || to > index.text.length || foldForComparison(index.text.slice(from, to)) !== ctx.prefix + needle + ctx.suffix) return null;
  prepared.exactStarts = [hint];
  return anchored(index, hint, hint + needle.length, 1, true);
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

/** A candidate place with its measured evidence. */
interface Scored extends Place {
  evidence: PlaceEvidence;
  score: number;
}

/** Whether two places overlap by at least half of the shorter one (then they are the same place). */
function samePlace(a: Place, b: Place): boolean {
  const overlap = Math.min(a.end, b.end) - Math.max(a.start, b.start);
  return overlap > 0 && overlap >= 0.5 * Math.min(a.end - a.start, b.end - b.start);
}

/** Spread of the position estimate (characters) at which being where expected counts half. */
const POSITION_SCALE = 1024;
/** How far below chance similarity an edit-distance span may be and still be measured by word overlap (insertions cost edits, not words). */
const OVERLAP_FLOOR = 0.1;

/** Slack, beyond a quote's length, by which a place may overlap a placed neighbour's side before it counts as out of order. */
const ORDER_SLACK = 64;

/** Characters of stored context, each side, that must meet verbatim for the passage to count as cut out there. */
const CLOSED_PROBE = 16;
/** Most characters (a space, a stray mark) allowed between the two sides where they meet. */
const CLOSED_GAP = 2;

/**
 * Where the stored prefix and suffix now meet with (almost) nothing between
 * them: the passage was cut out there. Offsets of the meeting points (where
 * the suffix's probe starts).
 */
function closedAt(index: TextIndex, q: QGramIndex | null, ctx: FoldedContext): number[] {
  const before = ctx.prefix.slice(-CLOSED_PROBE).trimEnd();
  const after = ctx.suffix.slice(0, CLOSED_PROBE).trimStart();
  if (before.length < 8 || after.length < 8) return [];
  const out: number[] = [];
  for (const p of occurrencesOf(index, q, before, 16)) {
    const from = p + before.length;
    const at = index.folded.slice(from, from + CLOSED_GAP + after.length).indexOf(after);
    if (at >= 0 && at <= CLOSED_GAP) out.push(from + at);
  }
  return out;
}

/** The measured evidence for a place of a prepared passage (its position from the nearest-agreeing expectation); `closed`: see `closedAt`. */
function evidenceFor(folded: string, prepared: PreparedSelectors, place: Place, closed: readonly number[]): PlaceEvidence {
  const side = sideAgreement(folded, place.start, place.end, prepared.ctx);
  const m = prepared.needle.length;
  let offset: number | null = null;
  let spread = 1;
  let closest = -1;
  for (const e of expectedStarts(prepared)) {
    const d = place.start - e.at;
    const closeness = 1 / (1 + Math.abs(d) / e.spread);
    if (closeness > closest) {
      closest = closeness;
      offset = d;
      spread = e.spread;
    }
  }
  const slack = m + ORDER_SLACK;
  // Where the context closed up over the gap, the passage is gone from there: any place is elsewhere, unless its own
  // context is intact, or it starts right where the sides meet (the passage begins as its old suffix did: the meeting
  // may be the passage itself).
  const bracketed = isBracketed(side);
  const explained = closed.some((c) => Math.abs(c - place.start) <= CLOSED_GAP + 1);
  const outOfOrder =
    prepared.neighbours.some((nb) => (nb.side === 'before' ? place.start < nb.found - slack : place.start > nb.found + slack)) ||
    (closed.length > 0 && !bracketed && !explained);
  // Being near says more the sharper the estimate (a neighbour a paragraph away pins the place down; one many pages
  // away hardly does), and nothing on a page hardly longer than the estimate's spread.
  const informative = Math.max(0, 1 - (4 * spread) / Math.max(1, folded.length)) / (1 + spread / POSITION_SCALE);
  return { similarity: place.similarity, prefix: side.prefix, suffix: side.suffix, offset, spread, informative, outOfOrder };
}

/**
 * The approximate pass: the verbatim occurrences (the best of them) and the
 * approximate candidates compete on quote similarity, context and position;
 * the best is accepted when it is similar enough and clearly ahead of the
 * runner-up (see confidence.ts), else the passage is an orphan with the
 * reasons. A repeated verbatim quote keeps the exact pass's rule (its
 * context must confirm the occurrence); a quote found verbatim once is
 * accepted whatever its context unless an edited copy competes with it.
 */
export function anchorFuzzyPass(index: TextIndex, prepared: PreparedSelectors, thresholds: Thresholds = DEFAULT_THRESHOLDS): AnchorResult {
  const { needle, ctx } = prepared;
  const m = needle.length;
  const folded = index.folded;
  const q = qgramsFor(index);
  const where = locator(prepared, folded.length);
  const exactStarts = prepared.exactStarts ?? exactCandidates(index, q, prepared);
  const exactPick = exactStarts.length ? chooseExact(folded, exactStarts, m, ctx, where, prepared.hint !== null) : null;
  // A verbatim occurrence whose context is confirmed on a side can only lose to an edited copy whose
  // context is intact around it, which the bracket search finds: the general search is not needed then.
  const confirmedExact = exactPick !== null && exactPick.ctx >= CTX_CONFIRMS;
  const k = searchBudget(m);
  const spans = [...(confirmedExact ? [] : approximateSpans(index, q, prepared, k)), ...bracketSpans(index, q, prepared)];
  const places: Scored[] = [];
  const closed = closedAt(index, q, ctx);
  const add = (place: Place, unique = false): void => {
    const evidence = { ...evidenceFor(folded, prepared, place, closed), unique };
    places.push({ ...place, evidence, score: rankingScore(evidence, m) });
  };
  if (exactPick) add({ start: exactPick.start, end: exactPick.start + m, exact: true, similarity: 1 }, exactStarts.length === 1);
  const seen = new Set<string>();
  const kept: Span[] = [];
  for (const s of spans) {
    const t = trimOffsets(index.text, s.start, s.end);
    if (t.end <= t.start || seen.has(`${t.start}:${t.end}`)) continue;
    seen.add(`${t.start}:${t.end}`);
    if (exactStarts.some((e) => t.start < e + m && e < t.end)) continue; // the verbatim occurrence already stands for this place
    kept.push({ start: t.start, end: t.end, distance: s.distance });
  }
  for (const place of placesOf(folded, needle, kept, chanceSimilarity(m) - OVERLAP_FLOOR)) {
    const r = trimOffsets(index.text, place.start, place.end);
    if (r.end > r.start) add({ ...place, start: r.start, end: r.end });
  }
  if (places.length === 0) {
    return orphan(0, `the quote no longer occurs on the page, not even with up to ${k} edits`);
  }
  places.sort((a, b) => b.score - a.score || a.start - b.start);
  const best = places[0] as Scored;
  const runnerUp = places.find((p) => p !== best && !samePlace(p, best)) ?? null;
  // Among many look-alikes one leads by chance, so the lead required grows with their number; not for a place whose
  // context is intact on both sides (the passage edited in place), which no look-alike elsewhere shares.
  const lookAlikes = isBracketed(best.evidence) ? 1 : places.filter((p) => p !== best && !samePlace(p, best) && isLookAlike(p.evidence, m)).length;
  const verdict = judge(best.evidence, runnerUp?.evidence ?? null, m, thresholds, Math.max(runnerUp ? 1 : 0, lookAlikes));
  const decision: Decision = { score: verdict.score, margin: verdict.margin, quote: verdict.quote };
  if (best.exact && exactPick) {
    const unique = exactStarts.length === 1 && verdict.accepted;
    const result = anchored(index, best.start, best.end, unique ? Math.max(verdict.confidence, exactPick.confidence) : exactPick.confidence, true);
    // Reasons go with a decision the model took; a repeated quote placed by the exact pass's rule has its own.
    return result.status === 'orphan' || verdict.accepted ? { ...result, reasons: verdict.reasons, decision } : result;
  }
  if (!verdict.accepted) {
    return { ...orphan(verdict.confidence, `the best match is too uncertain: ${verdict.reasons.join('; ')}`), reasons: verdict.reasons, decision };
  }
  const result = anchored(index, best.start, best.end, verdict.confidence, false);
  return result.status === 'anchored' ? { ...result, reasons: verdict.reasons, decision } : result;
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

/** Finds the passage described by `selectors` under `root`; pass a prebuilt `index` to avoid walking the DOM again. */
export function anchor(root: Document | Element, selectors: AnchorSelectors, index?: TextIndex): AnchorResult {
  const idx = index ?? buildTextIndex(root);
  const prepared = prepareSelectors(idx, selectors);
  if ('status' in prepared) return prepared;
  return anchorAtPosition(idx, prepared) ?? anchorExactPass(idx, prepared) ?? anchorFuzzyPass(idx, prepared);
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
