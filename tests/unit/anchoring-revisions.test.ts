// The public corpus of real document revisions (../shared/fixtures/revisions, see its README) on plain text: each
// pair's passages, described on the old revision, are anchored on the new revision's rendered text and judged as the
// README says. No passage may be painted on a wrong passage; unchanged ones are all found in place.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe as suite, expect, it } from 'vitest';
import { anchorAll } from '../../lib/anchoring';

const CORPUS = path.resolve(__dirname, '../../../shared/fixtures/revisions');
const CASES = path.join(CORPUS, 'cases.json');

interface Span {
  start: number;
  end: number;
}
interface Passage {
  id: string;
  class: 'same' | 'edited' | 'removed';
  quote: { exact: string; prefix: string; suffix: string };
  position: Span;
  expected: Span[];
  replacement?: Span;
}
interface Pair {
  id: string;
  new: { page: string };
  passages: Passage[];
}

/** README: right when the painted span overlaps an expected one by at least half of the shorter of the two. */
function isRight(p: Passage, s: number, e: number): boolean {
  return p.expected.some((x) => Math.min(x.end, e) - Math.max(x.start, s) >= 0.5 * Math.min(x.end - x.start, e - s));
}

/** Anchors one pair on its new revision; per passage: right, orphan, on-replacement (a removed passage painted on the text that replaced it) or wrong. */
function judgePair(pair: Pair): Array<{ passage: Passage; verdict: 'right' | 'orphan' | 'on-replacement' | 'wrong'; text: string | null }> {
  document.body.textContent = readFileSync(path.join(CORPUS, 'texts', `${pair.new.page}.txt`), 'utf8');
  const results = anchorAll(
    document.body,
    pair.passages.map((p) => ({ quote: p.quote, position: { start: p.position.start, end: p.position.end } })),
  );
  return pair.passages.map((passage, i) => {
    const r = results[i];
    if (!r || r.status !== 'anchored') return { passage, verdict: 'orphan', text: null };
    if (passage.class !== 'removed' && isRight(passage, r.start, r.end)) return { passage, verdict: 'right', text: r.text };
    const rep = passage.replacement;
    const onReplacement = passage.class === 'removed' && !!rep && Math.min(rep.end, r.end) - Math.max(rep.start, r.start) > 0;
    return { passage, verdict: onReplacement ? 'on-replacement' : 'wrong', text: r.text };
  });
}

if (existsSync(CASES)) {
  suite('real revisions (public corpus)', () => {
    const cases = JSON.parse(readFileSync(CASES, 'utf8')) as { pairs: Pair[] };
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
  console.log(`anchoring: the revisions corpus is not at ${CORPUS}; its cases are not run`);
  suite('real revisions (corpus absent)', () => {
    it('is not available here, so its cases are not run', () => {
      expect(existsSync(CASES)).toBe(false);
    });
  });
}
