// Rechecking on the public corpus of real document revisions (../shared/fixtures/revisions): each pair's claims,
// captured on the old revision, are rechecked on the new revision's rendered text, and each verdict is held against
// the passage's class. Unchanged passages are all `unchanged`; no passage whose text changed is ever `unchanged`.
import { describe as suite, expect, it } from 'vitest';
import { recheckClaims, sameText, type ClaimVerdict } from '../../lib/recheck';
import type { ClaimRecord } from '../../lib/schema';
import { haveRevisions, loadRevisions, REVISIONS, revisionText, type Pair, type Passage } from '../../scripts/anchoring/corpus';
import { claim } from './fixtures/records';

/** A claim captured on the old revision, as the corpus's records carry it. */
function captured(pair: Pair, p: Passage): ClaimRecord {
  return claim({ id: p.id, quote: p.quote, position: { start: p.position.start, end: p.position.end }, source: { ...claim().source, url: pair.url } });
}

function recheckPair(pair: Pair): Array<{ passage: Passage; verdict: ClaimVerdict }> {
  document.body.textContent = revisionText(pair.new.page);
  const verdicts = recheckClaims(
    document.body,
    pair.passages.map((p) => captured(pair, p)),
  );
  return pair.passages.map((passage, i) => ({ passage, verdict: verdicts[i]! }));
}

if (haveRevisions()) {
  suite('recheck verdicts on real revisions (public corpus)', () => {
    const all = loadRevisions().pairs.flatMap(recheckPair);
    const of = (cls: Passage['class']) => all.filter((x) => x.passage.class === cls);
    const said = (xs: typeof all, v: ClaimVerdict['verdict']) => xs.filter((x) => x.verdict.verdict === v);

    it('calls every unchanged passage unchanged', () => {
      const same = of('same');
      expect(same).toHaveLength(306);
      expect(same.filter((x) => x.verdict.verdict !== 'unchanged').map((x) => `${x.passage.id}: ${x.verdict.verdict}`)).toEqual([]);
    });

    it('never calls unchanged a passage whose text changed', () => {
      const changed = all.filter((x) => x.passage.class !== 'same' || !x.passage.expected.some((e) => sameText(e.text, x.passage.quote.exact)));
      expect(said(changed, 'unchanged').map((x) => x.passage.id)).toEqual([]);
    });

    it('calls at least 95% of the edited passages edited, with their new text on the expected span', () => {
      const edited = of('edited');
      const right = said(edited, 'edited').filter((x) =>
        x.passage.expected.some((e) => {
          const at = x.verdict.at!;
          return Math.min(e.end, at.end) - Math.max(e.start, at.start) >= 0.5 * Math.min(e.end - e.start, at.end - at.start);
        }),
      );
      expect(right.length).toBeGreaterThanOrEqual(Math.ceil(0.95 * edited.length));
      for (const x of said(edited, 'edited')) expect(x.verdict.text).not.toBe(null);
    });

    it('calls at least 95% of the removed passages gone', () => {
      const removed = of('removed');
      expect(said(removed, 'gone').length).toBeGreaterThanOrEqual(Math.ceil(0.95 * removed.length));
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
