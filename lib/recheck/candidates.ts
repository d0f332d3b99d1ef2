/**
 * What a recheck offers beyond the verdicts: the sentences of a source that
 * read like claims and are new since its claims were captured — no claim
 * quotes them, and no claim's captured text (its quote with its prefix and
 * suffix) held them — found and ranked by the claim finder. A source whose
 * claims are all "not disclosed" puts its candidates first: that is how a
 * curator learns that a page now names the stage or algorithm it did not.
 */
import { collapseWhiteSpace, foldForComparison } from '../anchoring';
import { findCandidates, rankCandidates, type Candidate, type FinderOptions } from '../finder/find';
import type { ClaimRecord } from '../schema';
import type { ClaimVerdict } from './verdicts';

/** New candidates of one source, best first, and whether they may disclose what its claims record as not disclosed. */
export interface RecheckCandidates {
  candidates: Candidate[];
  /** Every live claim of the source is `undisclosed`: its candidates go first in a report. */
  undisclosedOnly: boolean;
}

const fold = (s: string) => foldForComparison(collapseWhiteSpace(s)).trim().toLowerCase();

/** The finder over `text` (with a PDF's `hints`: its heading breaks, reference lists and own names) (the source's rendered text, `TextIndex.text`, which the verdicts' offsets refer to), keeping only sentences new since `claims` were captured. */
export function newCandidates(
  text: string,
  claims: readonly ClaimRecord[],
  verdicts: readonly ClaimVerdict[],
  models: string[] = [],
  hints: Pick<FinderOptions, 'breaks' | 'skip' | 'own'> = {},
): RecheckCandidates {
  const quoted = verdicts.flatMap((v) => (v.at ? [v.at] : []));
  const captured = claims.map((c) => fold(`${c.quote.prefix} ${c.quote.exact} ${c.quote.suffix}`));
  const found = findCandidates(text, {
    ...hints,
    models: models.length ? models : [...new Set(claims.map((c) => c.model))],
    skip: [...(hints.skip ?? []), ...quoted],
  });
  const fresh = found.candidates.filter((c) => {
    if (quoted.some((q) => c.start < q.end && q.start < c.end)) return false;
    const sentence = fold(c.sentence);
    return !captured.some((held) => held.includes(sentence));
  });
  const live = claims.filter((c) => !c.deleted_at);
  return { candidates: rankCandidates(fresh), undisclosedOnly: live.length > 0 && live.every((c) => c.kind === 'undisclosed') };
}
