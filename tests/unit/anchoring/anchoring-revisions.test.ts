// The public corpus of real document revisions (../shared/fixtures/revisions, see its README) on plain text: each
// pair's passages, described on the old revision, are anchored on the new revision's rendered text and judged as the
// README says. No passage may be painted on a wrong passage; unchanged ones are all found in place.
import { describe as suite, expect, it } from 'vitest';
import { anchorAll } from '../../../lib/anchoring';
import { haveRevisions, judge, loadRevisions, REVISIONS, revisionText, selectorsOf, type Pair } from '../../../scripts/anchoring/corpus';

/** Anchors one pair on its new revision and judges each passage (with the text painted, for messages). */
function judgePair(pair: Pair) {
  document.body.textContent = revisionText(pair.new.page);
  const results = anchorAll(document.body, pair.passages.map(selectorsOf));
  return pair.passages.map((passage, i) => {
    const r = results[i];
    return { passage, verdict: judge(passage, r), text: r?.status === 'anchored' ? r.text : null };
  });
}

if (haveRevisions()) {
  suite('real revisions (public corpus)', () => {
    const cases = loadRevisions();
    const verdicts = cases.pairs.flatMap(judgePair);

    it('paints no passage on a wrong passage', () => {
      const wrong = verdicts.filter((v) => v.verdict === 'wrong').map((v) => `${v.passage.id} (${v.passage.class}) on "${v.text}"`);
      expect(wrong).toEqual([]);
    });

    it('finds every unchanged passage in place', () => {
      const same = verdicts.filter((v) => v.passage.class === 'same');
      expect(same.filter((v) => v.verdict !== 'right').map((v) => v.passage.id)).toEqual([]);
      expect(same.length).toBe(306);
    });

    it('finds at least 95% of the edited passages on their new text and leaves removed ones unpainted (or on their own replacement)', () => {
      const edited = verdicts.filter((v) => v.passage.class === 'edited');
      expect(edited.filter((v) => v.verdict === 'right').length).toBeGreaterThanOrEqual(Math.ceil(0.95 * edited.length));
      const removed = verdicts.filter((v) => v.passage.class === 'removed');
      expect(removed.every((v) => v.verdict === 'orphan' || v.verdict === 'on-replacement')).toBe(true);
      expect(removed.filter((v) => v.verdict === 'orphan').length).toBeGreaterThanOrEqual(removed.length - 1);
    });
  });
} else {
  console.log(`anchoring: the revisions corpus is not at ${REVISIONS}; its cases are not run`);
  suite('real revisions (corpus absent)', () => {
    it('is not available here, so its cases are not run', () => {
      expect(haveRevisions()).toBe(false);
    });
  });
}
