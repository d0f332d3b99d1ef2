// Rechecking on the public corpus of real document revisions (../shared/fixtures/revisions): each pair's claims,
// captured on the old revision, are rechecked on the new revision's rendered text, and each verdict is held against
// the passage's class. Unchanged passages are all `unchanged`; no passage whose text changed is ever `unchanged`.
import { describe as suite, expect, it } from 'vitest';
import { recheckClaims } from '../../../lib/recheck';
import type { ClaimRecord } from '../../../lib/schema';
import { haveRevisions, loadRevisions, REVISIONS, revisionText, type Pair, type Passage } from '../../../scripts/anchoring/corpus';
import { judgeVerdict, tallyVerdicts, type JudgedVerdict } from '../../../scripts/anchoring/recheck-judge';
import { claim } from '../fixtures/records';

/** A claim captured on the old revision, as the corpus's records carry it. */
function captured(pair: Pair, p: Passage): ClaimRecord {
  return claim({ id: p.id, quote: p.quote, position: { start: p.position.start, end: p.position.end }, source: { ...claim().source, url: pair.url } });
}

function recheckPair(pair: Pair): JudgedVerdict[] {
  document.body.textContent = revisionText(pair.new.page);
  const verdicts = recheckClaims(
    document.body,
    pair.passages.map((p) => captured(pair, p)),
  );
  return pair.passages.map((passage, i) => judgeVerdict(passage, verdicts[i]!));
}

if (haveRevisions()) {
  suite('recheck verdicts on real revisions (public corpus)', () => {
    const all = loadRevisions().pairs.flatMap(recheckPair);
    const tally = tallyVerdicts(all);

    it('calls every unchanged passage unchanged', () => {
      expect(tally.same.total).toBe(306);
      expect(all.filter((x) => x.passage.class === 'same' && !x.right).map((x) => `${x.passage.id}: ${x.verdict.verdict}`)).toEqual([]);
    });

    it('never calls unchanged a passage whose text changed', () => {
      expect(tally.changed.calledUnchanged).toEqual([]);
    });

    it('calls at least 95% of the edited passages edited, with their new text on the expected span', () => {
      expect(tally.edited.onSpan).toBeGreaterThanOrEqual(Math.ceil(0.95 * tally.edited.total));
      for (const x of all) if (x.passage.class === 'edited' && x.verdict.verdict === 'edited') expect(x.verdict.text).not.toBe(null);
    });

    it('calls at least 95% of the removed passages gone', () => {
      expect(tally.removed.gone).toBeGreaterThanOrEqual(Math.ceil(0.95 * tally.removed.total));
    });
  });
} else {
  console.log(`recheck: the revisions corpus is not at ${REVISIONS}; its cases are not run`);
  suite('recheck verdicts (corpus absent)', () => {
    it('is not available here, so its cases are not run', () => {
      expect(haveRevisions()).toBe(false);
    });
  });
}
