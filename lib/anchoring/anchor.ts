/**
 * Anchoring: turning stored W3C selectors (TextQuoteSelector + optional
 * TextPositionSelector) back into a DOM Range on a page, exactly when the
 * passage is still there, approximately when it was lightly edited, and not
 * at all (an orphan) when the evidence is too weak — a wrong passage is
 * worse than none.
 */
import type { Position, Quote } from '../schema';
import { contextAgreement, proximity, type FoldedContext } from './context';
import { findExact, findFuzzy, maxErrorsFor } from './match';
import { collapseWhiteSpace, foldForComparison, normalizeQuoteText } from './normalize';
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

/** Context agreement differences below this count as a tie. */
const TIE_EPSILON = 1e-6;
/** Context margin at which a unique best occurrence gets full confidence. */
const FULL_MARGIN = 0.25;
/** Highest confidence an approximate match can reach. */
const MAX_FUZZY_CONFIDENCE = 0.95;

/** One scored exact occurrence. */
interface ExactCandidate {
  start: number;
  ctx: number | null;
  dist: number | null;
}

/** Finds the passage described by `selectors` under `root`; pass a prebuilt `index` to avoid walking the DOM again. */
export function anchor(root: Document | Element, selectors: AnchorSelectors, index?: TextIndex): AnchorResult {
  const idx = index ?? buildTextIndex(root);
  const quote = selectors.quote;
  const exactText = normalizeQuoteText(typeof quote.exact === 'string' ? quote.exact : '');
  if (exactText.length === 0) return orphan(0, 'the quote is empty');
  if (idx.text.length === 0) return orphan(0, 'the page has no text');
  const needle = foldForComparison(exactText);
  const ctx: FoldedContext = {
    prefix: foldForComparison(collapseWhiteSpace(typeof quote.prefix === 'string' ? quote.prefix : '')),
    suffix: foldForComparison(collapseWhiteSpace(typeof quote.suffix === 'string' ? quote.suffix : '')),
  };
  const p = selectors.position;
  const hint = p && Number.isFinite(p.start) ? p.start : null;

  const starts = findExact(idx.folded, needle);
  if (starts.length > 0) {
    const pick = chooseExact(idx.folded, starts, needle.length, ctx, hint);
    return anchored(idx, pick.start, pick.start + needle.length, pick.confidence, true);
  }
  return anchorFuzzy(idx, needle, ctx, hint);
}

/** Anchors many passages against one root, building the text index once; results keep the input order. */
export function anchorAll(root: Document | Element, list: readonly AnchorSelectors[], index?: TextIndex): AnchorResult[] {
  const idx = index ?? buildTextIndex(root);
  return list.map((s) => anchor(root, s, idx));
}

/** An orphan result. */
function orphan(confidence: number, reason: string): AnchorResult {
  return { status: 'orphan', confidence: round(confidence), reason };
}

/** Rounds a confidence to 3 decimals and clamps it to [0,1]. */
function round(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;
}

/** An anchored result for normalised offsets [start, end), or an orphan when they map to no text node. */
function anchored(index: TextIndex, start: number, end: number, confidence: number, exact: boolean): AnchorResult {
  if (confidence < ORPHAN_THRESHOLD) {
    return orphan(confidence, `the best match is too uncertain (confidence ${round(confidence)})`);
  }
  const range = rangeFromOffsets(index, start, end);
  if (!range) return orphan(0, 'the match covers no text node');
  return { status: 'anchored', range, start, end, confidence: round(confidence), exact, text: index.text.slice(start, end) };
}

/** Weight of context disagreement for a quote found exactly once: short quotes lean on their context more. */
function singleOccurrenceWeight(m: number): number {
  return 0.1 + (0.4 * Math.max(0, 32 - m)) / 32;
}

/**
 * Picks among exact occurrences: best prefix/suffix agreement first, then the
 * position hint; a tie nobody breaks goes to the first occurrence with low
 * confidence.
 */
function chooseExact(
  folded: string,
  starts: number[],
  m: number,
  ctx: FoldedContext,
  hint: number | null,
): { start: number; confidence: number } {
  const cands: ExactCandidate[] = starts.map((start) => ({
    start,
    ctx: contextAgreement(folded, start, start + m, ctx),
    dist: hint === null ? null : Math.abs(start - hint),
  }));
  const first = cands[0] as ExactCandidate;
  if (cands.length === 1) {
    const c = first.ctx;
    return { start: first.start, confidence: c === null ? 1 : 1 - (1 - c) * singleOccurrenceWeight(m) };
  }
  const bestCtx = Math.max(...cands.map((c) => c.ctx ?? 0));
  const top = cands.filter((c) => (c.ctx ?? 0) >= bestCtx - TIE_EPSILON);
  if (top.length === 1) {
    const pick = top[0] as ExactCandidate;
    const runnerUp = Math.max(...cands.filter((c) => c !== pick).map((c) => c.ctx ?? 0));
    const margin = bestCtx - runnerUp;
    return { start: pick.start, confidence: 0.5 + 0.5 * bestCtx * Math.min(1, margin / FULL_MARGIN) };
  }
  if (hint !== null) {
    const byDist = [...top].sort((a, b) => (a.dist ?? 0) - (b.dist ?? 0) || a.start - b.start);
    const a = byDist[0] as ExactCandidate;
    const b = byDist[1] as ExactCandidate;
    if ((a.dist ?? 0) < (b.dist ?? 0)) {
      return { start: a.start, confidence: 0.6 + 0.2 * proximity(a.start, hint, m) };
    }
    return { start: a.start, confidence: ORPHAN_THRESHOLD + 0.1 / top.length };
  }
  const pick = top[0] as ExactCandidate;
  return { start: pick.start, confidence: ORPHAN_THRESHOLD + 0.1 / top.length };
}

/** Approximate fallback when the quote no longer occurs exactly. */
function anchorFuzzy(index: TextIndex, needle: string, ctx: FoldedContext, hint: number | null): AnchorResult {
  const m = needle.length;
  const k = maxErrorsFor(m);
  const spans = findFuzzy(index.folded, needle, { maxErrors: k, hint, maxCandidates: 32 });
  if (spans.length === 0) {
    return orphan(0, `the quote no longer occurs on the page, not even with up to ${k} edits`);
  }
  const scored = spans
    .map((s) => {
      const t = trimOffsets(index.text, s.start, s.end);
      const quoteScore = Math.max(0, 1 - (2 * s.distance) / m);
      const c = contextAgreement(index.folded, t.start, t.end, ctx);
      const pos = hint === null ? null : proximity(t.start, hint, m);
      const confidence = quoteScore * (0.6 + 0.4 * (c ?? 0.5)) * (pos === null ? 1 : 0.9 + 0.1 * pos);
      return { start: t.start, end: t.end, confidence };
    })
    .filter((s) => s.end > s.start)
    .sort((a, b) => b.confidence - a.confidence || a.start - b.start);
  const best = scored[0];
  if (!best) return orphan(0, 'the quote no longer occurs on the page');
  const second = scored[1];
  let confidence = best.confidence;
  // Two near-equal approximate candidates: we cannot tell which one was meant.
  if (second && second.confidence >= best.confidence - 0.05) confidence *= 0.85;
  confidence = Math.min(MAX_FUZZY_CONFIDENCE, confidence);
  return anchored(index, best.start, best.end, confidence, false);
}
