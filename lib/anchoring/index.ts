/**
 * Public API of the anchoring library: pure functions from a DOM root and
 * stored W3C selectors to Ranges (anchor) and back (describe). No extension
 * APIs, no storage, no painting; the DOM is only read.
 */
export { anchor, ORPHAN_THRESHOLD, type AnchorResult, type AnchorSelectors, type Decision } from './anchor';
export { anchorAll, AnchorBatch } from './batch';
export { DEFAULT_THRESHOLDS, judge, type Judgement, type PlaceEvidence, type Thresholds } from './confidence';
export { anchorAllAsync, buildTextIndexAsync, yieldToMain, DEFAULT_BUDGET_MS, type AnchorAllAsyncOptions, type ChunkOptions } from './async';
export { describe, selectorsAt, CONTEXT_LENGTH, type PassageSelectors } from './describe';
export {
  buildTextIndex,
  TextIndexBuilder,
  offsetOfBoundary,
  offsetsOfRange,
  rangeFromOffsets,
  textOfRange,
  trimOffsets,
  type TextIndex,
} from './text-index';
export { collapseWhiteSpace, foldForComparison, isCollapsibleSpace, normalizeQuoteText } from './normalize';
export { findExact, findFuzzy, maxErrorsFor, type FuzzyOptions, type Span } from './match';
