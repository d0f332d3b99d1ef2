/**
 * The confidence model of approximate anchoring. A place on the page where a
 * stored quote may now be is scored on four things, each measured:
 *
 * - **quote**: how similar the text there is to the stored quote, above what
 *   unrelated text of the same length reaches by chance;
 * - **context**: how well the stored prefix and suffix agree with the text
 *   around it;
 * - **position**: how close it is to where the passage is expected (the
 *   stored position, corrected by how far anchored neighbours moved);
 * - **margin**: how far it beats the best other place, since a look-alike
 *   elsewhere on the page is what makes a match dangerous.
 *
 * A place is accepted when it is similar enough (its score reaches
 * `ACCEPT_SCORE` and its quote evidence `MIN_QUOTE`) and clearly the best (it
 * beats the runner-up by `ACCEPT_MARGIN`; places are ranked, and the margin
 * measured, with quote evidence counted as full once well above chance). The thresholds were calibrated on
 * real revisions of public documents; `docs/anchoring.md` gives the curve of
 * right against wrong paints as they move. Pure functions only.
 */
import { combineSides, SIDE_INTACT } from './context';

/** Weight of the context agreement (0..1) in a place's score. */
export const CONTEXT_WEIGHT = 0.6;
/** Weight of being where the passage is expected (0..1) in a place's score. */
export const POSITION_WEIGHT = 0.3;
/** Lowest score a place needs to be accepted. */
export const ACCEPT_SCORE = 0.6;
/** Lowest lead of the best place's score over the runner-up's. */
export const ACCEPT_MARGIN = 0.1;
/** Lowest quote evidence (similarity above chance, 0..1) a place needs, however good its context and position. */
export const MIN_QUOTE = 0.1;
/**
 * Lowest quote evidence of a place the passage would have moved to (see
 * `PlaceEvidence.outOfOrder`): a passage that moved, was reworded and lost
 * its context is not told from a look-alike, so only a nearly verbatim one (a
 * sentence moved whole) is taken.
 */
export const MIN_QUOTE_MOVED = 0.8;
/** Confidence given to an accepted place is 0.5..0.95, growing with how far it clears both thresholds. */
const ACCEPTED_FLOOR = 0.5;
const ACCEPTED_CEILING = 0.95;
/** Score above ACCEPT_SCORE, and margin above ACCEPT_MARGIN, at which an accepted place gets the full confidence. */
const FULL_SCORE_SPAN = 0.8;
const FULL_MARGIN_SPAN = 0.5;

/** The measured evidence for one place. */
export interface PlaceEvidence {
  /** Similarity of the text there to the stored quote, 0..1 (1: verbatim). */
  similarity: number;
  /** Similarity of the stored prefix / suffix to the text before / after the place, null when none is stored. */
  prefix: number | null;
  suffix: number | null;
  /** Characters between the place and where the passage is expected, null without a position. */
  offset: number | null;
  /** Characters within which `offset` still counts as "where expected" (grows with the distance to the neighbour the estimate comes from). */
  spread: number;
  /** How much being near says at all, 0..1 (nothing on a page hardly longer than `spread`). */
  informative: number;
  /** Whether the place holds the quote verbatim and is the only place on the page that does. */
  unique?: boolean;
  /**
   * Whether the passage would have moved to get here: the place is on the
   * wrong side of a placed neighbour (before the one that preceded the
   * passage, or after the one that followed it), or the stored prefix and
   * suffix now meet elsewhere with nothing between them (the passage was
   * cut out there).
   */
  outOfOrder: boolean;
}

/** The similarity unrelated text of the page reaches against an m-character quote by chance (higher for short quotes). */
export function chanceSimilarity(m: number): number {
  return Math.min(0.9, 0.4 + 1.6 / Math.sqrt(Math.max(1, m)));
}

/** How much an m-character quote found verbatim proves on its own: nothing for a word, nearly everything for a long sentence. */
export function distinctiveness(m: number): number {
  return Math.min(1, Math.max(0, (m - 8) / 56));
}

/**
 * Length from which a quote found verbatim exactly once on the page is full
 * quote evidence, whatever its context: that it occurs once is its
 * distinctiveness, observed rather than guessed from its length. Not where
 * the passage would have moved to (a phrase cut out of one paragraph that
 * also happens to stand in another is not the passage).
 */
const UNIQUE_FULL = 32;

/**
 * Similarity a place's text must exceed to count at all when both sides of
 * its context are intact: one place, not the best of a whole page, so chance
 * is lower; at or below half of the quote kept, the text between the intact
 * sides counts as a replacement, not an edit.
 */
const BRACKETED_CHANCE = 0.5;

/** Whether both sides of the stored context are intact around a place (the passage is between them, however edited). */
export function isBracketed(e: { prefix: number | null; suffix: number | null }): boolean {
  return (e.prefix ?? 0) >= SIDE_INTACT && (e.suffix ?? 0) >= SIDE_INTACT;
}

/**
 * Quote evidence 0..1: similarity above chance, rescaled to 0..1, times how
 * distinctive a quote of that length is (a short phrase recurs, near
 * verbatim, in places that have nothing to do with the passage: its context
 * must say where it is). Between intact context on both sides the place is
 * settled and only whether the text is still the passage's counts: above
 * BRACKETED_CHANCE, whatever the quote's length. A quote found verbatim
 * once on the page: see UNIQUE_FULL.
 */
export function quoteEvidence(e: PlaceEvidence, m: number): number {
  if (e.unique && !e.outOfOrder) return Math.min(1, Math.max(0, (m - 8) / (UNIQUE_FULL - 8)));
  if (isBracketed(e)) return Math.max(0, (e.similarity - BRACKETED_CHANCE) / (1 - BRACKETED_CHANCE));
  const chance = chanceSimilarity(m);
  const above = Math.max(0, (e.similarity - chance) / (1 - chance));
  return above * distinctiveness(m);
}

/** Quote evidence at which two places count as equally similar when they are compared with each other. */
const QUOTE_FULL = 0.6;

/**
 * Quote evidence as it counts between two places: full from QUOTE_FULL on.
 * An edited passage and a look-alike are both far above chance; which of
 * them is 88% and which 93% similar says little about which one is the
 * passage, so context and position decide between them.
 */
export function rankingQuoteEvidence(e: PlaceEvidence, m: number): number {
  return Math.min(1, quoteEvidence(e, m) / QUOTE_FULL);
}

/** Share of the context evidence that only a verbatim side earns (split between the two sides). */
const VERBATIM_SHARE = 0.4;

/**
 * Context evidence 0..1, 0 when no context is stored: mostly the combined
 * agreement of both sides (see `combineSides`: an intact side counts at
 * least 0.75), and two fifths for sides found verbatim. On a page of templated
 * lines a look-alike's context agrees nearly as well as the real one's;
 * only the real place keeps it character for character.
 */
export function contextEvidence(e: PlaceEvidence): number {
  const combined = combineSides({ prefix: e.prefix, suffix: e.suffix });
  if (combined === null) return 0;
  const sides = [e.prefix, e.suffix].filter((x): x is number => x !== null);
  const verbatim = sides.filter((x) => x >= 1).length / sides.length;
  return (1 - VERBATIM_SHARE) * combined + VERBATIM_SHARE * verbatim;
}

/**
 * Position evidence, -1..1: where expected, 1, halving at `spread`
 * characters away, times how informative being near is on this page; 0
 * without a position; -1 where the passage would have moved to (possible,
 * but the page speaks against it).
 */
export function positionEvidence(e: PlaceEvidence): number {
  if (e.offset === null) return 0;
  if (e.outOfOrder) return -1;
  return e.informative / (1 + Math.abs(e.offset) / Math.max(1, e.spread));
}

/** A place's score: quote evidence plus weighted context and position evidence (up to 1.9); the acceptance threshold applies to it. */
export function placeScore(e: PlaceEvidence, m: number): number {
  return quoteEvidence(e, m) + CONTEXT_WEIGHT * contextEvidence(e) + POSITION_WEIGHT * positionEvidence(e);
}

/** A place's score for ranking places against each other (quote evidence full from QUOTE_FULL on); the margin is measured on it. */
export function rankingScore(e: PlaceEvidence, m: number): number {
  return rankingQuoteEvidence(e, m) + CONTEXT_WEIGHT * contextEvidence(e) + POSITION_WEIGHT * positionEvidence(e);
}

/** Thresholds of the decision (the defaults are the calibrated ones; the calibration script varies them). */
export interface Thresholds {
  score: number;
  margin: number;
  quote: number;
}

/** The calibrated thresholds. */
export const DEFAULT_THRESHOLDS: Thresholds = { score: ACCEPT_SCORE, margin: ACCEPT_MARGIN, quote: MIN_QUOTE };

/** The decision on the best place: accepted or not, a confidence, and the reasons in words. */
export interface Judgement {
  accepted: boolean;
  /** 0.5..0.95 when accepted, below 0.5 when not. */
  confidence: number;
  score: number;
  /** Lead of its ranking score over the runner-up's (the ranking score itself when there is none). */
  margin: number;
  /** The best place's quote evidence (similarity above chance, 0..1). */
  quote: number;
  reasons: string[];
}

/** Percent, no decimals. */
function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** How a context side reads in a reason. */
function sideWords(name: string, v: number | null): string | null {
  if (v === null) return null;
  if (v >= 0.95) return `${name} intact`;
  if (v >= 0.5) return `${name} partly changed (${pct(v)})`;
  return `${name} changed`;
}

/** The reasons for a place's evidence, in words (for the drift review and orphan messages). */
export function describeEvidence(e: PlaceEvidence, m: number): string[] {
  const out = [
    e.similarity >= 1 ? 'quote verbatim' : `quote ${pct(e.similarity)} similar (chance level ${pct(isBracketed(e) ? BRACKETED_CHANCE : chanceSimilarity(m))})`,
    sideWords('prefix', e.prefix),
    sideWords('suffix', e.suffix),
    e.offset === null
      ? 'no position stored'
      : e.outOfOrder
        ? 'away from where the passage was (it would have moved)'
        : `${Math.abs(Math.round(e.offset))} characters from where expected`,
  ];
  return out.filter((s): s is string => s !== null);
}

/** Ranking quote evidence from which another place counts as a look-alike of the quote. */
const LOOK_ALIKE = 0.75;

/** Whether a place's text resembles the quote enough to compete as a look-alike. */
export function isLookAlike(e: PlaceEvidence, m: number): boolean {
  return rankingQuoteEvidence(e, m) >= LOOK_ALIKE;
}

/**
 * The lead the best place needs over the runner-up: `margin` against one
 * look-alike, more the more look-alikes there are (among many near-equal
 * places, one leads by chance).
 */
export function requiredMargin(margin: number, lookAlikes: number): number {
  return margin * (1 + Math.log(Math.max(1, lookAlikes)));
}

/**
 * Judges the best place against the runner-up (null when no other place was
 * found): accepted when its score and quote evidence reach the thresholds
 * and it leads the runner-up by the margin required with `lookAlikes` other
 * places that resemble the quote.
 */
export function judge(
  best: PlaceEvidence,
  runnerUp: PlaceEvidence | null,
  m: number,
  thresholds: Thresholds = DEFAULT_THRESHOLDS,
  lookAlikes = runnerUp ? 1 : 0,
): Judgement {
  const score = placeScore(best, m);
  const margin = rankingScore(best, m) - (runnerUp ? rankingScore(runnerUp, m) : 0);
  const needed = requiredMargin(thresholds.margin, lookAlikes);
  const quote = quoteEvidence(best, m);
  const reasons = describeEvidence(best, m);
  reasons.push(
    runnerUp
      ? `the next best place scores ${margin.toFixed(2)} lower${lookAlikes > 1 ? ` (${lookAlikes} places resemble the quote)` : ''}`
      : 'no other place resembles it',
  );
  const minQuote = best.outOfOrder ? Math.max(thresholds.quote, MIN_QUOTE_MOVED) : thresholds.quote;
  const accepted = score >= thresholds.score && margin >= needed && quote >= minQuote;
  if (!accepted) {
    if (quote < minQuote) reasons.push(best.outOfOrder ? 'too much changed for a passage that also moved' : 'too little of the quote is left');
    else if (score < thresholds.score) reasons.push('too little evidence that this is the passage');
    else reasons.push('another place is nearly as likely');
    // Below 0.5, growing with the weakest of the three measures relative to its threshold.
    const weakest = Math.min(score / thresholds.score, Math.max(0, margin) / needed, quote / minQuote);
    return { accepted, confidence: 0.49 * Math.min(1, Math.max(0, weakest)), score, margin, quote, reasons };
  }
  const clear = Math.min((score - thresholds.score) / FULL_SCORE_SPAN, (margin - needed) / FULL_MARGIN_SPAN);
  const confidence = ACCEPTED_FLOOR + (ACCEPTED_CEILING - ACCEPTED_FLOOR) * Math.min(1, Math.max(0, clear));
  return { accepted, confidence, score, margin, quote, reasons };
}
