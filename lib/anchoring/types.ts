/** The shapes the anchoring modules pass between them: stored selectors, a passage prepared for searching, and the outcome. */
import type { Position, Quote } from '../schema';
import type { FoldedContext } from './context';

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
      /** For an approximate match: the evidence it was accepted on, in words. */
      reasons?: string[];
      /** For an approximate match: the measured figures of the decision (see confidence.ts). */
      decision?: Decision;
    }
  | {
      status: 'orphan';
      confidence: number;
      reason: string;
      /** For a passage whose best match was judged too uncertain: the evidence, in words. */
      reasons?: string[];
      /** For a passage whose best match was judged too uncertain: the measured figures of the decision. */
      decision?: Decision;
    };

/** The figures an approximate decision was taken on: the best place's score, its lead over the runner-up, and its quote evidence. */
export interface Decision {
  score: number;
  margin: number;
  quote: number;
}

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
  /** Where placed neighbours (nearest first) say the passage should be; empty without any. */
  neighbours: Neighbour[];
  /** Exact occurrences found by the exact pass, kept for the approximate one. */
  exactStarts?: number[];
}

/** Where a neighbour says the passage should be: shift its stored position by `shift`; `gap` is how far (in stored positions) the neighbour is. */
export interface Neighbour {
  shift: number;
  gap: number;
  /** Whether the neighbour was before or after the passage (in stored positions). */
  side: 'before' | 'after';
  /** Where the neighbour is now. */
  found: number;
}
