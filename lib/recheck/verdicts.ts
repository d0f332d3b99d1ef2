/**
 * Rechecking one source (`../shared/spec/survey-records.md`, "Rechecking
 * sources"): each claim's passage looked for again on the source as served
 * today, with the anchoring and confidence rules that decide painting, so a
 * recheck and a visit agree. Pure: any `Document` (or element) as the
 * source's content; a PDF's text goes in as a document whose body holds it.
 *
 * - `unchanged`: found, and its text is the quote's, white space aside (not
 *   even a curly quote or a dash differs);
 * - `edited`: found by the approximate match, reworded: the verdict carries
 *   the passage's new text. A low-confidence match is an orphan for the
 *   anchoring, so it is `gone` here, never `edited`;
 * - `gone`: not found.
 *
 * A recheck never says `unchanged` of a passage whose text changed, and it
 * changes no claim.
 */
import { anchorAll, buildTextIndex, collapseWhiteSpace, normalizeQuoteText, type AnchorResult, type TextIndex } from '../anchoring';
import type { ClaimRecord } from '../schema';
import { isTombstone } from '../survey/tombstones';

/** What a recheck says of one claim. */
export type RecheckVerdict = 'unchanged' | 'edited' | 'gone' | 'unreachable';

/** One claim's verdict, as `survey recheck --json` prints it, with where the passage is now. */
export interface ClaimVerdict {
  id: string;
  url: string;
  verdict: RecheckVerdict;
  /** The passage's new text, for `edited`; else null. */
  text: string | null;
  /** What failed, for `unreachable`; else null. */
  reason: string | null;
  /** Offsets of the passage in the source's rendered text (found ones only). */
  at: { start: number; end: number } | null;
  /** The anchoring's confidence (0 for `gone` and `unreachable`). */
  confidence: number;
}

/** Whether two texts are the same passage, white space aside: nothing else may differ. */
export function sameText(a: string, b: string): boolean {
  return normalizeQuoteText(collapseWhiteSpace(a)) === normalizeQuoteText(collapseWhiteSpace(b));
}

/** The claims a recheck gives a verdict: every claim of the source that is not a tombstone. */
export function claimsToRecheck(claims: readonly ClaimRecord[]): ClaimRecord[] {
  return claims.filter((c) => !isTombstone(c));
}

/** The verdicts of `claims` (one source's) on its content today; `index` when the caller built it already. */
export function recheckClaims(root: Document | Element, claims: readonly ClaimRecord[], index: TextIndex = buildTextIndex(root)): ClaimVerdict[] {
  const live = claimsToRecheck(claims);
  const results = anchorAll(
    root,
    live.map((c) => ({ quote: c.quote, position: c.position })),
    index,
  );
  return verdictsOf(live, results);
}

/**
 * The verdicts of live claims from what the anchoring found of each (in order): for a document type that anchors
 * its own way (a PDF's text model tries its earlier text form too), so a recheck decides as its painting does.
 */
export function verdictsOf(live: readonly ClaimRecord[], results: readonly AnchorResult[]): ClaimVerdict[] {
  return live.map((c, i) => {
    const r = results[i]!;
    const base = { id: c.id, url: c.source.url, reason: null };
    if (r.status !== 'anchored') return { ...base, verdict: 'gone', text: null, at: null, confidence: 0 };
    const at = { start: r.start, end: r.end };
    if (r.exact && sameText(r.text, c.quote.exact)) return { ...base, verdict: 'unchanged', text: null, at, confidence: r.confidence };
    return { ...base, verdict: 'edited', text: r.text, at, confidence: r.confidence };
  });
}

/** The verdicts of a source that could not be read: nothing is said about its claims but why. */
export function unreachableVerdicts(claims: readonly ClaimRecord[], reason: string): ClaimVerdict[] {
  return claimsToRecheck(claims).map((c) => ({ id: c.id, url: c.source.url, verdict: 'unreachable', text: null, reason, at: null, confidence: 0 }));
}

/** A source's status from its verdicts (the spec's `source` record): every passage as it was, at least one edited or gone, or unreachable. */
export function sourceStatus(verdicts: readonly Pick<ClaimVerdict, 'verdict'>[]): 'unchanged' | 'changed' | 'unreachable' {
  if (verdicts.some((v) => v.verdict === 'unreachable')) return 'unreachable';
  return verdicts.every((v) => v.verdict === 'unchanged') ? 'unchanged' : 'changed';
}

/** The counts a `source` record keeps. */
export function verdictCounts(verdicts: readonly Pick<ClaimVerdict, 'verdict'>[]): { unchanged: number; edited: number; gone: number } {
  const n = (v: RecheckVerdict) => verdicts.filter((x) => x.verdict === v).length;
  return { unchanged: n('unchanged'), edited: n('edited'), gone: n('gone') };
}

/** One line of `survey recheck --json`, keys in the spec's order. */
export function verdictLine(v: ClaimVerdict): string {
  return JSON.stringify({ id: v.id, url: v.url, verdict: v.verdict, text: v.text, reason: v.reason });
}
